package dev.solweb.provider.ctl;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.solweb.provider.platform.ProcessInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code solwebctl open}: a code from the running daemon with the token, the URL printed with
 * --print or without a display, opened with xdg-open when there is one, and a daemon that is not
 * running or refuses the token said plainly.
 */
class OpenCommandTest {
  private static final String URL = "http://127.0.0.1:8791/ui/login?code=" + "C".repeat(43);

  @TempDir Path dir;
  private CtlFixture fx;
  private WireMockServer server;
  private Process daemon;

  @BeforeEach
  void setUp() throws Exception {
    fx = new CtlFixture(dir);
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    server.start();
    server.stubFor(post(urlEqualTo("/ui/api/codes")).withHeader("Authorization", equalTo("Bearer " + CtlFixture.TOKEN))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
            .withBody("{\"url\": \"" + URL + "\", \"expires_in_s\": 60}")));
    daemon = fx.fakeDaemonProcess();
    fx.writeState(daemon.pid(), ProcessInfo.startTicksOf(daemon.pid()), "gen-1", server.port());
  }

  @AfterEach
  void tearDown() {
    server.stop();
    fx.close();
  }

  @Test
  void printPrintsTheUrlOfACodeMintedWithTheToken() {
    CtlFixture.Run run = fx.run("open", "--print");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
    assertThat(run.out()).isEqualTo(URL + System.lineSeparator());
    assertThat(run.err()).isEmpty();
    assertThat(run.out() + run.err()).doesNotContain(CtlFixture.TOKEN);
    server.verify(1, postRequestedFor(urlEqualTo("/ui/api/codes")));
  }

  @Test
  void withoutADisplayItPrintsTheUrlAndSaysWhy() {
    fx.env.remove("DISPLAY");
    fx.env.remove("WAYLAND_DISPLAY");
    CtlFixture.Run run = fx.run("open");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(run.out().strip()).isEqualTo(URL);
    assertThat(run.err()).contains("no display", "good once, for 60 s");
  }

  @Test
  void withADisplayItOpensTheUrlWithXdgOpen() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path argv = dir.resolve("xdg-open.argv");
    Path opener = bin.resolve("xdg-open");
    Files.writeString(opener, "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + argv + "\n");
    Files.setPosixFilePermissions(opener, PosixFilePermissions.fromString("rwx------"));
    fx.env.put("PATH", bin + ":" + System.getenv("PATH"));
    fx.env.put("DISPLAY", ":99");

    CtlFixture.Run run = fx.run("open");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
    assertThat(run.out()).contains("opened the operator page").doesNotContain("code=");
    assertThat(Files.readString(argv).strip()).isEqualTo(URL);
  }

  @Test
  void aDaemonThatIsNotRunningIsExitOne() throws Exception {
    Files.delete(fx.home.resolve("solwebd.state.json"));
    CtlFixture.Run run = fx.run("open", "--print");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.NOT_READY);
    assertThat(run.err()).contains("solwebd is not running", "solwebctl ensure");
    assertThat(run.out()).isEmpty();

    fx.writeState(daemon.pid(), ProcessInfo.startTicksOf(daemon.pid()) + 1, "gen-1", server.port());
    CtlFixture.Run stale = fx.run("open", "--print");
    assertThat(stale.exitCode()).isEqualTo(ExitCodes.NOT_READY);
    assertThat(stale.err()).contains("which is gone");
    server.verify(0, postRequestedFor(urlEqualTo("/ui/api/codes")));
  }

  @Test
  void aRefusedTokenIsExitThree() throws Exception {
    server.stubFor(post(urlEqualTo("/ui/api/codes")).atPriority(10).willReturn(aResponse().withStatus(401)
        .withBody("{\"error\": {\"type\": \"unauthorized\", \"message\": \"wrong bearer token\"}}")));
    fx.writeToken("tok_wrong0123456789-_tok_wrong0123456789-_xyzzz\n", "rw-------");
    CtlFixture.Run run = fx.run("open", "--print");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("rejected the token (401)");
  }

  @Test
  void helpExplainsTheCodeAndTheSession() {
    for (String[] args : new String[][] {{"help", "open"}, {"open", "--help"}}) {
      CtlFixture.Run run = fx.run(args);
      assertThat(run.exitCode()).isZero();
      assertThat(run.out()).contains("--print", "one-time", "60 s", "HttpOnly", "xdg-open", "ssh -L");
    }
    server.verify(0, postRequestedFor(urlEqualTo("/ui/api/codes")));
  }
}
