package dev.solweb.provider.ctl;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.seat.playwright.inspect.PageReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * doctor and capture without a browser: which way they reach the page (a profile held by our
 * daemon is read through it; by anything else, refused), exit codes, output, help.
 * Reading a real page is killgate's DoctorFakesolTest.
 */
class DoctorCommandTest {

  @TempDir Path dir;
  private CtlFixture fx;
  private WireMockServer daemon;

  @BeforeEach
  void setUp() throws Exception {
    fx = new CtlFixture(dir);
    fx.writeToken(CtlFixture.TOKEN, "rw-------");
    daemon = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    daemon.start();
  }

  @AfterEach
  void tearDown() {
    daemon.stop();
    fx.close();
  }

  private static PageReport report(boolean ok) {
    return new PageReport("http://127.0.0.1/c/abc", ok ? "ready" : "logged_out", ok, "2026-09",
        new PageReport.Composer(true, true, "id"), new PageReport.Send(false, false, null), new PageReport.Stop(false, null), 2,
        null, new PageReport.EffortReport("High", "high", "slider", List.of(), null), List.of(),
        List.of(new PageReport.Check("page", true, "on the page"), new PageReport.Check("signed_in", ok, ok ? "yes" : "a guest")));
  }

  /** This JVM holds the profile and the state file names this JVM's pid: to doctor, it is the daemon. */
  private ProfileLock actAsTheDaemon() throws Exception {
    ProfileLock lock = ProfileLock.tryAcquire(fx.profile).orElseThrow();
    fx.writeState(ProcessHandle.current().pid(), 1, "gen-1", daemon.port());
    return lock;
  }

  private void serve(String path, int status, String body) {
    daemon.stubFor(get(urlPathEqualTo(path)).withHeader("Authorization", equalTo("Bearer " + CtlFixture.TOKEN))
        .willReturn(aResponse().withStatus(status).withBody(body)));
  }

  @Test
  void aProfileHeldByTheDaemonIsReadThroughItAndEveryCheckDecidesTheExit() throws Exception {
    try (ProfileLock lock = actAsTheDaemon()) {
      serve("/v1/doctor", 200, report(true).toJson());
      CtlFixture.Run json = fx.run("doctor", "--json", "--chat-url", "http://127.0.0.1:1/c/abc", "--no-effort-menu");

      assertThat(json.exitCode()).as(json.err()).isEqualTo(ExitCodes.OK);
      assertThat(PageReport.fromJson(json.out())).isEqualTo(report(true));
      daemon.verify(getRequestedFor(urlEqualTo("/v1/doctor?url=http%3A%2F%2F127.0.0.1%3A1%2Fc%2Fabc&effort_menu=false")));

      serve("/v1/doctor", 200, report(false).toJson());
      CtlFixture.Run human = fx.run("doctor");

      assertThat(human.exitCode()).isEqualTo(ExitCodes.NOT_READY);
      assertThat(human.out()).isEqualTo("""
          ok      page: on the page
          FAILED  signed_in: a guest
          1 of 2 checks failed; state logged_out, dom_variant 2026-09, 2 turn(s), http://127.0.0.1/c/abc
          """);
      daemon.verify(getRequestedFor(urlEqualTo("/v1/doctor?effort_menu=true")));
    }
  }

  @Test
  void theDaemonsTypedRefusalIsExitThreeWithItsMessage() throws Exception {
    try (ProfileLock lock = actAsTheDaemon()) {
      serve("/v1/doctor", 503, "{\"error\":{\"type\":\"unavailable\",\"message\":\"unavailable: this daemon's seat is ScriptedSeat\"}}");
      CtlFixture.Run run = fx.run("doctor", "--json");

      assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).isEqualTo("solwebctl doctor: solwebd answered HTTP 503: unavailable: this daemon's seat is ScriptedSeat\n");
    }
  }

  @Test
  void captureThroughTheDaemonWritesAPrivateFile() throws Exception {
    try (ProfileLock lock = actAsTheDaemon()) {
      serve("/v1/capture", 200, "<!doctype html>\n<html><body><div id=\"prompt-textarea\"></div></body></html>");
      Path out = dir.resolve("page.html");
      CtlFixture.Run run = fx.run("capture", "--out", out.toString(), "--open-effort-menu");

      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
      assertThat(Files.readString(out)).contains("<div id=\"prompt-textarea\"></div>");
      assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-------");
      daemon.verify(getRequestedFor(urlEqualTo("/v1/capture?effort_menu=true")));
    }
  }

  @Test
  void aProfileHeldByAnotherProcessIsRefusedNotShared() throws Exception {
    try (ProfileLock lock = ProfileLock.tryAcquire(fx.profile).orElseThrow()) {
      CtlFixture.Run run = fx.run("doctor", "--json");

      assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
      assertThat(run.err()).contains("is in use by pid " + ProcessHandle.current().pid(), "which is not the solwebd of");
      assertThat(daemon.getAllServeEvents()).isEmpty();
    }
  }

  @Test
  void aDaemonThatDoesNotAnswerIsRefusedWithHowToStopIt() throws Exception {
    try (ProfileLock lock = actAsTheDaemon()) {
      daemon.stop();
      CtlFixture.Run run = fx.run("doctor");

      assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
      assertThat(run.err()).contains("does not answer", "stop it with solwebctl stop");
    }
  }

  @Test
  void aChatUrlThatIsNoWebPageIsUsage() {
    CtlFixture.Run run = fx.run("doctor", "--chat-url", "file:///etc/passwd");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).contains("--chat-url must be an http(s) URL");
  }

  @Test
  void helpNamesWhatItNeverDoesAndTheExitCodes() {
    CtlFixture.Run doctor = fx.run("help", "doctor");
    CtlFixture.Run capture = fx.run("help", "capture");

    // Help paragraphs are wrapped by picocli at the terminal's width: read them as running text.
    assertThat(doctor.out().replaceAll("\\s+", " ")).contains("never types and never clicks Send, Stop or Retry", "GET /v1/doctor",
        "--chat-url", "--profile", "--headless", "--json", "--[no-]effort-menu", "3 the page could not be");
    assertThat(capture.out().replaceAll("\\s+", " ")).contains("--out", "--open-effort-menu", "placeholders of the same length",
        "fakesol --page FILE");
  }
}
