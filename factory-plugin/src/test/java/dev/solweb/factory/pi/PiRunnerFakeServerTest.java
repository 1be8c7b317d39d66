package dev.solweb.factory.pi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.factory.testing.FakeChatServer;
import dev.solweb.factory.testing.PiFixture;
import dev.solweb.factory.testing.Procs;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real pinned Pi in RPC mode against a loopback endpoint that answers exactly like solwebd
 * (see {@link FakeChatServer}). The same behaviours against the real daemon are in the solwebd
 * end-to-end test once the daemon is on main.
 */
class PiRunnerFakeServerTest {

  @TempDir Path tmp;
  FakeChatServer server;
  PiFixture fx;
  final ClientSession session = ClientSession.derive("factory-run-1/phase-build");
  final List<String> progress = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = new FakeChatServer(PiFixture.TOKEN);
    fx = new PiFixture(tmp, server.baseUrl());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private PiRunner runner(String task, Duration timeout) {
    return new PiRunner(new PiRequest(fx.pi, fx.workspace, fx.accountDir, session, "gpt/sol-web-high",
        PiRequest.DEFAULT_TOOLS, task, timeout, tmp.resolve("logs/pi.stderr.log"), fx.parentEnv(),
        Set.of(PiFixture.TOKEN)));
  }

  @Test
  void toolCallThenFinalAnswerCreatesTheFileAndReportsTheToolEvent() throws Exception {
    server.then(FakeChatServer.toolCall("write", "{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}"))
        .then(FakeChatServer.text("Created hello.txt.\n{\"status\":\"done\"}"));

    PiResult result = runner("create hello.txt", Duration.ofSeconds(60)).run(progress::add);

    assertThat(result.outcome()).as(String.valueOf(result.errorMessage())).isEqualTo(Outcome.COMPLETED);
    assertThat(result.finalText()).isEqualTo("Created hello.txt.\n{\"status\":\"done\"}");
    assertThat(Files.readString(fx.workspace.resolve("hello.txt"))).isEqualTo("hi\n");
    assertThat(result.toolEvents()).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("write");
      assertThat(e.status()).isEqualTo("ok");
      assertThat(e.args()).contains("hello.txt");
      assertThat(e.result()).contains("Successfully wrote");
    });
    assertThat(result.providerFailure()).isNull();
    assertThat(result.retriesSeen()).isZero();
    assertThat(result.estimatedInput()).isEqualTo(1200);
    assertThat(server.requests()).hasSize(2).allSatisfy(r -> {
      assertThat(r.header("X-Overdeck-Client-Session")).isEqualTo(session.value());
      assertThat(r.header("Authorization")).isEqualTo("Bearer " + PiFixture.TOKEN);
      assertThat(r.body()).contains("\"model\":\"sol-web-high\"").doesNotContain("factory-run-1");
    });
    assertThat(progress).contains("tool write started", "tool write done");
  }

  @Test
  void toolSubprocessesGetTheSessionButNoSecret() throws Exception {
    server.then(FakeChatServer.toolCall("bash", "{\"command\":\"env > env.txt\"}"))
        .then(FakeChatServer.text("done"));

    PiResult result = runner("dump env", Duration.ofSeconds(60)).run(progress::add);

    assertThat(result.outcome()).isEqualTo(Outcome.COMPLETED);
    String env = Files.readString(fx.workspace.resolve("env.txt"));
    assertThat(env).contains("OVERDECK_PI_CLIENT_SESSION=" + session.value())
        .contains("PI_CODING_AGENT_DIR=" + fx.accountDir)
        .contains("NO_PROXY=127.0.0.1,localhost")
        .doesNotContain(PiFixture.TOKEN)
        .doesNotContain("SOME_API_KEY")
        .doesNotContain("sk-should-not-reach-pi");
  }

  @ParameterizedTest
  @EnumSource(value = Kind.class, names = {"CAPPED", "UNAVAILABLE", "PROTOCOL", "TIMEOUT", "CANCELLED"})
  void eachTypedFailureIsRecoveredExactlyWithExactlyOneRequest(Kind kind) throws Exception {
    ProviderFailure failure = kind == Kind.CAPPED
        ? new ProviderFailure(Kind.CAPPED, "usage cap reached for account", 3600L, "2026-11-30T21:00:00Z")
        : ProviderFailure.of(kind, kind.wireName() + " detail from solwebd");
    server.then(new FakeChatServer.Error(failure));

    PiResult result = runner("anything", Duration.ofSeconds(60)).run(progress::add);

    assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.providerFailure()).isEqualTo(failure);
    assertThat(result.errorMessage()).startsWith(kind.httpStatus() + " " + failure.message());
    assertThat(server.requests()).hasSize(1);
    assertThat(result.retriesSeen()).isZero();
  }

  @Test
  void cancelKillsPiAndTheBashToolsSleepChildWithinTwoSeconds() throws Exception {
    server.then(FakeChatServer.toolCall("bash",
        "{\"command\":\"sleep 1000 & echo $! > sleep.pid; wait\"}"));
    PiRunner runner = runner("sleep", Duration.ofSeconds(120));
    CompletableFuture<PiResult> running = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.run(progress::add);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    ProcessHandle sleep = ProcessHandle.of(Procs.awaitPid(fx.workspace.resolve("sleep.pid"))).orElseThrow();
    assertThat(sleep.isAlive()).isTrue();

    runner.cancel();
    boolean dead = Procs.dies(sleep.pid());
    PiResult result = running.get(60, TimeUnit.SECONDS);

    assertThat(dead).as("sleep 1000 killed").isTrue();
    assertThat(result.outcome()).isEqualTo(Outcome.CANCELLED);
    assertThat(result.providerFailure().kind()).isEqualTo(Kind.CANCELLED);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void timeoutKillsTheWholeTreeAndIsTyped() throws Exception {
    server.then(FakeChatServer.toolCall("bash",
        "{\"command\":\"sleep 1000 & echo $! > sleep.pid; wait\"}"));

    PiResult result = runner("sleep", Duration.ofSeconds(8)).run(progress::add);
    long sleepPid = Long.parseLong(Files.readString(fx.workspace.resolve("sleep.pid")).strip());
    boolean dead = Procs.dies(sleepPid);

    assertThat(result.outcome()).isEqualTo(Outcome.TIMEOUT);
    assertThat(result.providerFailure().kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(dead).isTrue();
  }

  @Test
  void aHangingProviderEndsAtTheTimeout() throws Exception {
    server.then(new FakeChatServer.Hang());

    PiResult result = runner("hang", Duration.ofSeconds(5)).run(progress::add);

    assertThat(result.outcome()).isEqualTo(Outcome.TIMEOUT);
    // The timeout ended it (never sooner); how late is a benchmark's business (it asserted under 9 s).
    assertThat(Duration.between(result.startedAt(), result.endedAt())).isGreaterThanOrEqualTo(Duration.ofSeconds(5));
    assertThat(server.requests()).hasSize(1);
  }

}
