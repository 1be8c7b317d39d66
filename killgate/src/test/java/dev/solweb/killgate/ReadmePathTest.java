package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.scripted.Scenario;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Use it with your ChatGPT account" on fakesol, as far as it goes without a
 * person (the test stands in for the one at the login window): solwebctl login, solwebctl
 * ensure (the daemon headed on the same virtual display), solwebctl health, the first turn on
 * the account, solwebctl stop. bin/install has its own tests (InstallTest) and is not rerun here.
 */
class ReadmePathTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final String OWNER = "owner@example.invalid";

  @TempDir Path dir;
  private final List<Process> children = new ArrayList<>();
  private Path home;

  @AfterEach
  void tearDown() throws Exception {
    for (Process child : children) {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    // A daemon this test left running (a failed assertion before stop): found by its home, ended.
    Path state = home == null ? null : home.resolve("solwebd.state.json");
    if (state != null && Files.exists(state)) {
      long pid = JSON.readTree(Files.readString(state)).get("pid").asLong();
      ProcessHandle.of(pid).filter(p -> p.info().commandLine().orElse("").contains(home.toString()))
          .ifPresent(ProcessHandle::destroyForcibly);
    }
    if (home != null) {
      OrphanReaper.reap(home.resolve("profile"));
    }
  }

  private Process solwebctl(Map<String, String> env, String... args) throws Exception {
    Process process = HeadedRig.java(env, "dev.solweb.provider.ctl.Solwebctl", List.of(args)).start();
    children.add(process);
    return process;
  }

  private static HeadedRig.Output finished(Process process) throws InterruptedException {
    HeadedRig.Output out = new HeadedRig.Output(process);
    assertThat(process.waitFor(150, TimeUnit.SECONDS)).as("exited").isTrue();
    process.waitFor();
    return out;
  }

  @Test
  void loginEnsureHealthAFirstTurnAndStopOnFakesol() throws Exception {
    Scenario scenario = Scenario.parse("{\"account\": \"" + OWNER + "\", \"state\": \"logged_out\","
        + " \"default\": [{\"prose\": \"Hello from your account.\"}]}");
    try (HeadedRig rig = HeadedRig.start(); FakeSol sol = FakeSol.start(scenario, 0)) {
      home = dir.resolve("home");
      Map<String, String> env = new HashMap<>();
      env.put("HOME", dir.toString());
      env.put("SOLWEBD_HOME", home.toString());
      env.put("SOLWEBD_PORT", "0");
      env.put("DISPLAY", rig.display);
      env.put("SOLWEBD_BIN", REPO.resolve("bin/solwebd").toString());

      // 2. solwebctl login
      Process login = solwebctl(env, "login", "--chat-url", sol.url().toString(),
          "--chromium", HeadedRig.debuggableChromium(dir).toString(), "--timeout", "90");
      HeadedRig.Output loginOut = new HeadedRig.Output(login);
      loginOut.await("opening ", Duration.ofSeconds(60));
      HeadedRig.logInAsAPerson(home.resolve("profile"), OWNER);
      assertThat(login.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(login.exitValue()).as(loginOut.text()).isZero();
      assertThat(loginOut.text()).contains("next: solwebctl ensure");

      // 3. solwebctl ensure: the daemon comes up headed on the display, on the logged-in profile
      HeadedRig.Output ensure = finished(solwebctl(env, "ensure", "--chat-url", sol.url().toString()));
      assertThat(ensure.text()).as(ensure.text()).containsPattern(
          "^ok ready http://127\\.0\\.0\\.1:\\d+/v1 pid \\d+ seats 1 account " + OWNER + " \\(ready\\)");

      // solwebctl health says the same
      HeadedRig.Output health = finished(solwebctl(env, "health", "--json"));
      JsonNode healthJson = JSON.readTree(health.lines().get(0));
      assertThat(healthJson.get("ok").asBoolean()).as(health.text()).isTrue();
      assertThat(healthJson.get("account").asText()).isEqualTo(OWNER);

      // 5. the first turn on the account (what Pi sends, minus Pi)
      String token = Files.readString(home.resolve("solwebd.token")).strip();
      HttpResponse<String> turn = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create(healthJson.get("endpoint").asText() + "/chat/completions"))
          .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
          .timeout(Duration.ofSeconds(60))
          .POST(HttpRequest.BodyPublishers.ofString("{\"model\": \"sol-web-high\", \"stream\": false,"
              + " \"messages\": [{\"role\": \"user\", \"content\": \"say hello\"}]}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(turn.statusCode()).as(turn.body()).isEqualTo(200);
      assertThat(JSON.readTree(turn.body()).at("/choices/0/message/content").asText()).contains("Hello from your account.");
      assertThat(sol.sends()).hasSize(1);

      HeadedRig.Output stop = finished(solwebctl(env, "stop"));
      assertThat(stop.text()).contains("stopped solwebd pid");
      assertThat(home.resolve("solwebd.state.json")).doesNotExist();
      assertThat(OrphanReaper.find(home.resolve("profile"))).isEmpty();
    }
  }
}
