package dev.solweb.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The installed proof (seed 001, "Delivery boundary" step 5): only the installed launchers, found
 * through PATH = the bin dir + the system dirs, never the repo's.
 * <ol>
 *   <li>{@code pi --list-models} against the installed Pi config: the four gpt rows;
 *   <li>in a temporary solwebd home: {@code solwebctl enroll} and {@code ensure} on the scripted
 *       seat (the installed solwebctl starts the installed solwebd), {@code solwebctl health --json}
 *       (ok, and the installed version), one chat turn through the daemon, the installed
 *       {@code factory-gpt} (default effort and {@code --effort high}) against a stand-in Factory,
 *       {@code solwebctl stop}.
 * </ol>
 * The temporary home is the only place an enrollment is written; the user's is never touched.
 */
final class Verifier {
  static final List<String> FACTORY_MODELS = List.of("sol-web-high", "sol-web-medium", "sol-web-pro", "sol-web-xhigh");
  private static final ObjectMapper JSON = InstallerJson.MAPPER;
  private static final String SCRIPTED = "scripted:echo";

  private final Layout layout;
  private final PrintWriter out;
  private final String piOption;
  private final List<String> failed = new ArrayList<>();

  record Run(int exitCode, String out, String err) {}

  Verifier(Layout layout, PrintWriter out, String piOption) {
    this.layout = layout;
    this.out = out;
    this.piOption = piOption;
  }

  /** Runs every step; returns the names of the failed ones (empty: all passed). */
  List<String> run() throws IOException {
    String path = layout.binDir() + ":" + nodeDir() + "/usr/local/bin:/usr/bin:/bin";
    launchers();
    piListModels(path);
    Path temp = Files.createTempDirectory("solweb-verify-");
    try {
      daemon(path, temp);
    } finally {
      Undo.deleteTree(temp);
    }
    return failed;
  }

  private void launchers() {
    List<String> missing = new ArrayList<>();
    for (String name : List.of("solwebd", "solwebctl")) {
      Path link = layout.binDir().resolve(name);
      try {
        if (!link.toRealPath().startsWith(layout.prefix())) {
          missing.add(name + " -> " + link.toRealPath());
        }
      } catch (IOException e) {
        missing.add(name + " (missing)");
      }
    }
    result("launchers", missing.isEmpty(), missing.isEmpty()
        ? "solwebd and solwebctl in " + layout.binDir() + " resolve into " + layout.prefix()
        : "not the installed ones: " + missing);
  }

  private void piListModels(String path) throws IOException {
    String pi = piBinary();
    if (pi == null) {
      result("pi --list-models", false, "no Pi: pass --pi PATH or set PI_BIN (the repo's pinned Pi: "
          + "npm ci --prefix tools/pi, then bin/install again links it)");
      return;
    }
    Map<String, String> env = baseEnv(path);
    env.put("HOME", layout.env().get("HOME"));
    env.put("PI_CODING_AGENT_DIR", layout.piAgentDir().toString());
    env.put("PI_OFFLINE", "1");
    Run run = exec(List.of(pi, "--list-models"), env, 60);
    TreeSet<String> gpt = new TreeSet<>();
    (run.out() + "\n" + run.err()).lines().map(String::strip).filter(l -> l.startsWith("gpt "))
        .forEach(l -> gpt.add(l.split("\\s+")[1]));
    boolean ok = run.exitCode() == 0 && gpt.containsAll(FACTORY_MODELS) && gpt.size() == 4;
    result("pi --list-models", ok, ok ? "4 gpt rows " + gpt + " (" + pi + ", agent dir " + layout.piAgentDir() + ")"
        : "exit " + run.exitCode() + ", gpt rows " + gpt + ": " + tail(run.err()));
  }

  private String piBinary() {
    if (piOption != null && !piOption.isBlank()) {
      return piOption;
    }
    String env = layout.env().get("PI_BIN");
    if (env != null && !env.isBlank()) {
      return env;
    }
    Path pinned = layout.prefix().resolve("tools/pi/node_modules/.bin/pi");
    if (Files.isExecutable(pinned)) {
      return pinned.toString();
    }
    for (String dir : layout.env().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "pi"))) {
        return Path.of(dir, "pi").toString();
      }
    }
    return null;
  }

  private void daemon(String path, Path temp) throws IOException {
    Path home = temp.resolve("gptbridge");
    Files.createDirectories(home.resolve("profile"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> env = baseEnv(path);
    env.put("HOME", temp.toString());
    env.put("SOLWEBD_HOME", home.toString());
    env.put("SOLWEBD_PORT", "0");
    String solwebctl = layout.binDir().resolve("solwebctl").toString();
    Run enroll = exec(List.of(solwebctl, "enroll", "--current-profile", "--seat", SCRIPTED, "--json"), env, 60);
    result("solwebctl enroll (temporary home)", enroll.exitCode() == 0,
        enroll.exitCode() == 0 ? home.toString() : "exit " + enroll.exitCode() + ": " + tail(enroll.err()));
    if (enroll.exitCode() != 0) {
      return;
    }
    try {
      Run ensure = exec(List.of(solwebctl, "ensure", "--seat", SCRIPTED, "--json"), env, 150);
      JsonNode ensured = json(ensure.out());
      boolean started = ensure.exitCode() == 0 && ensured.path("ok").asBoolean(false);
      result("solwebctl ensure (installed solwebd, " + SCRIPTED + ")", started, started
          ? "pid " + ensured.path("pid").asText() + " " + ensured.path("endpoint").asText()
          : "exit " + ensure.exitCode() + ": " + tail(ensure.out() + ensure.err()));
      if (!started) {
        return;
      }
      Run health = exec(List.of(solwebctl, "health", "--json"), env, 60);
      JsonNode node = json(health.out());
      String expected = installedVersion();
      boolean healthy = health.exitCode() == 0 && node.path("ok").asBoolean(false)
          && node.path("version").asText().equals(expected);
      result("solwebctl health --json", healthy, healthy
          ? "ok, state " + node.path("state").asText() + ", version " + expected
          : "exit " + health.exitCode() + ", version " + node.path("version").asText() + " (installed " + expected + "): "
              + tail(health.out() + health.err()));
      if (healthy) {
        roundTrip(solwebctl, env, node.path("endpoint").asText());
        factoryGpt(env, temp);
      }
    } finally {
      Run stop = exec(List.of(solwebctl, "stop", "--json"), env, 60);
      result("solwebctl stop", stop.exitCode() == 0, stop.exitCode() == 0 ? "daemon stopped"
          : "exit " + stop.exitCode() + ": " + tail(stop.out() + stop.err()));
    }
  }

  private void roundTrip(String solwebctl, Map<String, String> env, String endpoint) throws IOException {
    Run token = exec(List.of(solwebctl, "token"), env, 30);
    if (token.exitCode() != 0) {
      result("one turn", false, "solwebctl token exited " + token.exitCode() + ": " + tail(token.err()));
      return;
    }
    byte[] body = ("{\"model\":\"sol-web-medium\",\"stream\":false,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"installed proof\"}]}").getBytes(StandardCharsets.UTF_8);
    HttpURLConnection http = (HttpURLConnection) URI.create(endpoint + "/chat/completions").toURL().openConnection();
    http.setRequestMethod("POST");
    http.setConnectTimeout(5_000);
    http.setReadTimeout(60_000);
    http.setDoOutput(true);
    http.setRequestProperty("Content-Type", "application/json");
    http.setRequestProperty("Authorization", "Bearer " + token.out().strip());
    try (OutputStream o = http.getOutputStream()) {
      o.write(body);
    }
    int status = http.getResponseCode();
    String text;
    try (InputStream in = status < 400 ? http.getInputStream() : http.getErrorStream()) {
      text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String content = json(text).path("choices").path(0).path("message").path("content").asText("");
    boolean ok = status == 200 && content.equals("ok");
    result("one turn (POST /v1/chat/completions)", ok, ok ? "200, answer \"ok\" from the scripted seat"
        : "status " + status + ": " + tail(text));
  }

  /**
   * The wrapper's default and mapping (seed 001: installed proof): the installed factory-gpt passes
   * preflight against the running daemon and runs "Factory" (a stand-in that prints its argv) with
   * the preset of the effort, validated where Factory loads it.
   */
  private void factoryGpt(Map<String, String> daemonEnv, Path temp) throws IOException {
    Path factory = temp.resolve("factory");
    Files.writeString(factory, "#!/bin/sh\necho \"factory $*\"\n");
    Files.setPosixFilePermissions(factory, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> env = new HashMap<>(daemonEnv);
    env.put("FACTORY_BIN", factory.toString());
    env.put("FACTORY_PRESETS_DIR", layout.presetsDir().toString());
    env.put("PI_CODING_AGENT_DIR", layout.piAgentDir().toString());
    String wrapper = layout.binDir().resolve("factory-gpt").toString();
    List<String> problems = new ArrayList<>();
    for (List<String> args : List.of(List.<String>of(), List.of("--effort", "high"))) {
      String effort = args.isEmpty() ? "pro" : args.get(1);
      List<String> command = new ArrayList<>(List.of(wrapper));
      command.addAll(args);
      Run run = exec(command, env, 150);
      if (run.exitCode() != 0 || !run.out().contains("factory --preset gpt-sol-" + effort)) {
        problems.add((args.isEmpty() ? "(no --effort)" : String.join(" ", args)) + ": exit " + run.exitCode() + ": "
            + tail(run.out() + run.err()));
      }
    }
    result("factory-gpt (default, --effort high)", problems.isEmpty(), problems.isEmpty()
        ? "factory --preset gpt-sol-pro / gpt-sol-high, presets valid in " + layout.presetsDir() : problems.toString());
  }

  /** What the installed tree was built as: version+commit, as solwebd reports it. */
  private String installedVersion() throws IOException {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(layout.prefix().resolve("solweb-version.properties"))) {
      properties.load(in);
    }
    String commit = properties.getProperty("commit", "");
    String version = properties.getProperty("version", "dev");
    return commit.isBlank() || commit.startsWith("$") ? version : version + "+" + commit;
  }

  private Map<String, String> baseEnv(String path) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", path);
    env.put("LANG", "C.UTF-8");
    env.put("NO_PROXY", "127.0.0.1,localhost");
    return env;
  }

  /** node's directory when it is not a system one (Pi is a node script). */
  private String nodeDir() {
    for (String dir : layout.env().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "node"))) {
        return List.of("/usr/local/bin", "/usr/bin", "/bin").contains(dir) ? "" : dir + ":";
      }
    }
    return "";
  }

  private void result(String step, boolean pass, String detail) {
    if (!pass) {
      failed.add(step);
    }
    out.println("verify: " + (pass ? "PASS " : "FAIL ") + step + ": " + detail);
    out.flush();
  }

  private static JsonNode json(String text) {
    try {
      JsonNode node = JSON.readTree(text.strip().lines().reduce((a, b) -> b).orElse("{}"));
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  private static String tail(String text) {
    String s = text.strip();
    return s.length() > 600 ? "..." + s.substring(s.length() - 600) : s;
  }

  static Run exec(List<String> command, Map<String, String> env, int timeoutSeconds) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    String stdout = read(process.getInputStream());
    try {
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Run(-1, stdout, "timed out after " + timeoutSeconds + " s");
      }
      return new Run(process.exitValue(), stdout, err.get(5, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (Exception e) {
      return new Run(process.exitValue(), stdout, "");
    }
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
