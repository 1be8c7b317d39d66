package dev.solweb.killgate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time of this JVM and every process under it (the Playwright driver and the Chromium it
 * starts), read from {@code /proc/<pid>/stat}: user plus system time, and what reaped children
 * left in their parent. CPU-seconds, unlike wall time, do not grow when other builds share the
 * machine, so before/after figures of the seat's cost are comparable on a busy box.
 */
record ProcessCpu(double jvmSeconds, double driverSeconds, double chromiumSeconds) {

  /** USER_HZ: the unit of {@code /proc/<pid>/stat}'s times on every Linux that solweb runs on. */
  private static final double TICKS_PER_SECOND = 100.0;

  /** Now, for the whole tree; zeros where {@code /proc} is not readable (not Linux). */
  static ProcessCpu now() {
    ProcessHandle self = ProcessHandle.current();
    double jvm = seconds(self.pid());
    double driver = 0;
    double chromium = 0;
    for (ProcessHandle p : self.descendants().toList()) {
      double s = seconds(p.pid());
      if (p.info().command().map(c -> c.contains("chrom")).orElse(false)) {
        chromium += s;
      } else {
        driver += s; // the Playwright driver (node); anything else under the JVM counts here too
      }
    }
    return new ProcessCpu(jvm, driver, chromium);
  }

  /** What was spent from {@code before} to this reading. */
  ProcessCpu since(ProcessCpu before) {
    return new ProcessCpu(jvmSeconds - before.jvmSeconds, driverSeconds - before.driverSeconds,
        chromiumSeconds - before.chromiumSeconds);
  }

  double totalSeconds() {
    return jvmSeconds + driverSeconds + chromiumSeconds;
  }

  /** One line: the total and its parts per turn. */
  String perTurn(int turns) {
    return String.format("%.3f CPU-s per turn (JVM %.3f, Playwright driver %.3f, Chromium %.3f; over %d turns)",
        totalSeconds() / turns, jvmSeconds / turns, driverSeconds / turns, chromiumSeconds / turns, turns);
  }

  /** utime + stime + cutime + cstime of {@code pid}, in seconds; 0 for a process gone or unreadable. */
  private static double seconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) may hold spaces and parentheses: fields count from the last ')'.
      List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" "));
      long ticks = 0;
      for (int field = 14; field <= 17; field++) {
        ticks += Long.parseLong(fields.get(field - 3));
      }
      return ticks / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
