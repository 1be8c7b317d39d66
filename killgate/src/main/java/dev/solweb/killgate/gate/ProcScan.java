package dev.solweb.killgate.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads {@code /proc/<pid>/cmdline} and {@code /proc/<pid>/environ} of every live process whose
 * environment carries a marker (the run's unique {@code PI_CODING_AGENT_DIR=...}: Pi and every
 * tool subprocess inherit it) and says whether a secret appears in either. The secret itself is
 * never stored; only where it was found.
 */
final class ProcScan {

  /** One process as seen while it ran. */
  record Seen(long pid, String comm, String cmdline, boolean secretInCmdline, boolean secretInEnviron) {}

  private ProcScan() {}

  static List<Seen> scan(String environMarker, String secret) {
    List<Seen> seen = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path dir : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          byte[] environ = Files.readAllBytes(dir.resolve("environ"));
          String env = new String(environ, StandardCharsets.UTF_8);
          if (!env.contains(environMarker)) {
            continue;
          }
          String cmdline = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8);
          String comm = Files.readString(dir.resolve("comm")).strip();
          seen.add(new Seen(Long.parseLong(dir.getFileName().toString()), comm,
              cmdline.replace('\0', ' ').strip(), cmdline.contains(secret), env.contains(secret)));
        } catch (IOException | RuntimeException e) {
          // Gone, or not ours to read.
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return seen;
  }

  /** Scans repeatedly until {@code stop} says so, keeping each pid's worst observation. */
  static Map<Long, Seen> watch(String environMarker, String secret, java.util.function.BooleanSupplier stop)
      throws InterruptedException {
    Map<Long, Seen> all = new LinkedHashMap<>();
    while (!stop.getAsBoolean()) {
      for (Seen s : scan(environMarker, secret)) {
        Seen before = all.get(s.pid());
        if (before == null || (!before.secretInEnviron() && s.secretInEnviron())
            || (!before.secretInCmdline() && s.secretInCmdline())) {
          all.put(s.pid(), s);
        }
      }
      Thread.sleep(100);
    }
    return all;
  }
}
