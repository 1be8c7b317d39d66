package dev.solweb.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.testkit.Programs;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The assembled install tree (dist/target/solweb-VERSION, built in this module's package phase)
 * and a temp world to install it into: HOME and every other path the installer touches live
 * under one temp dir; children get only the environment built here.
 */
final class Tree {
  static final Path TREE = Path.of(System.getProperty("solweb.tree")).toAbsolutePath().normalize();
  static final Path REPO = Path.of(System.getProperty("solweb.repo")).toAbsolutePath().normalize();
  static final Path PI = REPO.resolve("tools/pi/node_modules/.bin/pi");

  final Path home;
  final Path prefix;
  final Path bin;
  final Map<String, String> env = new HashMap<>();

  record Run(int exitCode, String out, String err) {
    String all() {
      return out + err;
    }
  }

  Tree(Path dir) throws IOException {
    Programs.require("node");
    assertThat(TREE.resolve("bin/install")).as("the install tree is built by `mvn package`").isExecutable();
    assertThat(PI).as("the pinned Pi is missing; run: npm ci --prefix tools/pi (bin/test does)").isExecutable();
    home = Files.createDirectories(dir.resolve("home")).toRealPath();
    prefix = home.resolve(".local/share/solweb");
    bin = home.resolve(".local/bin");
    env.put("HOME", home.toString());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    env.put("NO_PROXY", "127.0.0.1,localhost");
  }

  Run install(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(TREE.resolve("bin/install").toString()));
    command.addAll(List.of(args));
    return run(command, env, 300);
  }

  /** Runs an installed launcher through PATH = the bin dir + the system dirs (never the repo's bin/). */
  Run installed(Map<String, String> extra, String... args) throws Exception {
    Map<String, String> e = new HashMap<>(env);
    e.put("PATH", bin + ":/usr/local/bin:/usr/bin:/bin");
    e.putAll(extra);
    List<String> command = new ArrayList<>(List.of(bin.resolve(args[0]).toString()));
    command.addAll(List.of(args).subList(1, args.length));
    return run(command, e, 200);
  }

  static Run run(List<String> command, Map<String, String> env, int timeoutSeconds) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    String out = read(process.getInputStream());
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish in " + timeoutSeconds + " s; out: " + out);
    }
    return new Run(process.exitValue(), out, err.get(10, TimeUnit.SECONDS));
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Everything under HOME: relative path -> "link:<target>", "dir:<mode>" or "file:<mode>:<bytes>".
   * Equal snapshots mean byte for byte, mode for mode, link for link.
   */
  Map<String, String> snapshot() throws IOException {
    Map<String, String> snapshot = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(home)) {
      for (Path p : walk.toList()) {
        String key = home.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          snapshot.put(key, "link:" + Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          snapshot.put(key, "dir:" + Files.getPosixFilePermissions(p));
        } else {
          snapshot.put(key, "file:" + Files.getPosixFilePermissions(p) + ":"
              + new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
        }
      }
    }
    return snapshot;
  }

  /**
   * Pi's own runtime files (it writes auth.json and sessions/ into its agent dir whenever it runs,
   * creating the dir), not the installer's. Tests that had the dir before compare it as usual.
   */
  static boolean piRuntime(String relative) {
    return relative.equals(".pi") || relative.equals(".pi/agent") || relative.equals(".pi/agent/auth.json")
        || relative.startsWith(".pi/agent/sessions");
  }
}
