package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * solwebd's start-up diagnostics, one cause at a time, on the real daemon process: each failure
 * to start a seat is one line naming the cause and the fix, the trace only in the log; no seat
 * means exit 3 unless --wait-for-seat; a blocked page keeps the daemon up with the same line as
 * /healthz's and solwebctl health's detail.
 */
class SolwebdDiagnosticsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");
  private static final String OWNER = "owner@example.invalid";

  @TempDir Path dir;
  private FakeSol sol;
  private Path home;
  private final List<Process> children = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void tearDown() throws Exception {
    for (Process child : children) {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (home != null) {
      OrphanReaper.reap(home.resolve("profile"));
    }
    if (sol != null) {
      sol.close();
    }
  }

  private void fakesol(String state) {
    sol = FakeSol.start(Scenario.parse("{\"account\": \"" + OWNER + "\", \"state\": \"" + state + "\","
        + " \"default\": [{\"prose\": \"ok\"}]}"), 0);
    home = dir.resolve("home");
  }

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", dir.toString());
    env.put("SOLWEBD_HOME", home.toString());
    return env;
  }

  private Process solwebd(String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--seat", "playwright", "--chat-url", sol.url().toString(),
        "--port", "0", "--home", home.toString()));
    args.addAll(List.of(extra));
    Process process = HeadedRig.java(env(), "dev.solweb.provider.daemon.Solwebd", args).start();
    children.add(process);
    return process;
  }

  private static int exit(Process process) throws InterruptedException {
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("exited").isTrue();
    return process.exitValue();
  }

  private JsonNode healthz(HeadedRig.Output out) throws Exception {
    Matcher listening = LISTENING.matcher(out.await("listening on", Duration.ofSeconds(60)));
    assertThat(listening.find()).isTrue();
    String token = Files.readString(home.resolve("solwebd.token")).strip();
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(listening.group(1) + "/healthz"))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  @Test
  void noDisplayIsOneLineOfCauseAndFixWithTheLogPathAndExit3() throws Exception {
    fakesol("ready");
    Process daemon = solwebd(); // headed, and the environment has no DISPLAY
    HeadedRig.Output out = new HeadedRig.Output(daemon);
    assertThat(exit(daemon)).isEqualTo(3);
    System.out.println("SolwebdDiagnosticsTest: solwebd without a display printed " + out.lines().size() + " line(s)");
    assertThat(out.lines()).hasSize(1);
    assertThat(out.text()).startsWith("solwebd: cannot start: no display: DISPLAY and WAYLAND_DISPLAY are unset")
        .contains("; fix: ", "xvfb-run -a solwebd", "(log: " + home.resolve("solwebd.log") + ")");
    assertThat(home.resolve("solwebd.state.json")).doesNotExist();
  }

  @Test
  void aMissingChromiumIsOneLineAndExit3() throws Exception {
    fakesol("ready");
    Process daemon = solwebd("--headless", "--chromium", dir.resolve("no-chromium").toString());
    HeadedRig.Output out = new HeadedRig.Output(daemon);
    assertThat(exit(daemon)).isEqualTo(3);
    assertThat(out.lines()).containsExactly("solwebd: cannot start: Chromium missing: " + dir.resolve("no-chromium")
        + " is not an executable file; fix: install it (Debian: apt-get install -y chromium) or pass --chromium PATH"
        + " (log: " + home.resolve("solwebd.log") + ")");
  }

  @Test
  void waitForSeatKeepsTheDaemonUpWithTheCauseOnHealthzAndTheTraceOnlyInTheLog() throws Exception {
    fakesol("ready");
    Process daemon = solwebd("--wait-for-seat"); // headed, no DISPLAY: the launch itself fails
    HeadedRig.Output out = new HeadedRig.Output(daemon);
    out.await("seats started, state degraded", Duration.ofSeconds(60));
    JsonNode health = healthz(out);
    assertThat(health.get("state").asText()).isEqualTo("degraded");
    assertThat(health.get("detail").asText()).contains("no display: DISPLAY and WAYLAND_DISPLAY are unset", "; fix: ")
        .doesNotContain("\n", "╔");
    assertThat(out.text()).contains("solwebd: seat 0 cannot start: no display:").doesNotContain("\tat ", "╔");
    assertThat(out.lines()).hasSize(3); // listening, the cause, seats started
    assertThat(Files.readString(home.resolve("solwebd.log"))).contains("XServer", "\tat ");
    assertThat(daemon.isAlive()).isTrue();
  }

  @Test
  void aProfileLockedByARunningChromiumNamesThatBrowser() throws Exception {
    fakesol("ready");
    Path profile = Files.createDirectories(home.resolve("profile"));
    // Someone's own Chromium on the profile, under another spelling of the path (so it is not an orphan of ours).
    Path alias = Files.createSymbolicLink(dir.resolve("alias"), profile);
    Process browser = new ProcessBuilder("/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
        "--user-data-dir=" + alias, "about:blank").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    children.add(browser);
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!Files.isSymbolicLink(profile.resolve("SingletonLock")) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    try {
      Process daemon = solwebd("--headless");
      HeadedRig.Output out = new HeadedRig.Output(daemon);
      assertThat(exit(daemon)).as(out.text()).isEqualTo(3);
      assertThat(out.text()).contains("solwebd: seat 0 cannot start: profile locked by a running Chromium: " + profile
          + "/SingletonLock names ", "fix: close that browser (pid ", "solwebd: no seat could start; exiting 3");
      assertThat(out.text()).doesNotContain("\tat ");
      assertThat(browser.isAlive()).as("the person's browser is left alone").isTrue();
    } finally {
      browser.destroy();
      browser.waitFor(10, TimeUnit.SECONDS);
      OrphanReaper.reap(alias);
    }
  }

  @Test
  void aLoggedOutFakesolKeepsTheDaemonUpAndHealthAndSolwebctlSayTheFix() throws Exception {
    fakesol("logged_out");
    Process daemon = solwebd("--headless");
    HeadedRig.Output out = new HeadedRig.Output(daemon);
    String started = out.await("seats started", Duration.ofSeconds(60));
    String line = "logged out: the profile " + home.resolve("profile") + " has no ChatGPT session (login wall);"
        + " fix: log in once in a visible window: solwebctl stop (if a daemon runs), then solwebctl login";
    assertThat(started).isEqualTo("solwebd: seats started, state logged_out (" + line + ")");
    JsonNode health = healthz(out);
    assertThat(health.get("state").asText()).isEqualTo("logged_out");
    assertThat(health.get("detail").asText()).isEqualTo(line);

    Path owner = Files.writeString(dir.resolve("owner.json"), "{\"account\": \"" + OWNER + "\"}");
    Process enroll = HeadedRig.java(env(), "dev.solweb.provider.ctl.Solwebctl",
        List.of("enroll", "--current-profile", "--seat", "scripted:" + owner)).start();
    children.add(enroll);
    assertThat(exit(enroll)).isZero();
    Process ctl = HeadedRig.java(env(), "dev.solweb.provider.ctl.Solwebctl", List.of("health", "--json")).start();
    children.add(ctl);
    HeadedRig.Output ctlOut = new HeadedRig.Output(ctl);
    assertThat(exit(ctl)).isEqualTo(1);
    assertThat(ctlOut.text()).as("the state named once").contains("\"detail\":\"" + line + "\"");
  }

  @Test
  void aChallengePageSaysSoAndThatHeadlessIsWhyOnTheRealSite() throws Exception {
    fakesol("challenged");
    Process daemon = solwebd("--headless");
    HeadedRig.Output out = new HeadedRig.Output(daemon);
    String started = out.await("seats started", Duration.ofSeconds(60));
    assertThat(started).startsWith("solwebd: seats started, state degraded (Cloudflare challenge: ")
        .contains("Just a moment...", "fix: drop --headless");
    assertThat(healthz(out).get("detail").asText()).startsWith("Cloudflare challenge: ").contains("fix: drop --headless");
  }
}
