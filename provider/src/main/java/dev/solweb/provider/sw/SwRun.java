package dev.solweb.provider.sw;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.ctl.ClientToken;
import dev.solweb.provider.ctl.CtlException;
import dev.solweb.provider.ctl.ExitCodes;
import dev.solweb.provider.ctl.LaunchRequest;
import dev.solweb.provider.ctl.Outcome;
import dev.solweb.provider.ctl.ProviderHealth;
import dev.solweb.provider.ctl.ServiceControl;
import dev.solweb.provider.daemon.BrowserMixin;
import dev.solweb.provider.model.Effort;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One sw invocation, in the contract's order: ensure solwebd, (with {@code --via-ccr} only:
 * check the ccr registration, ensure ccr), run Claude Code (printing {@link SwProgress} lines on
 * stderr meanwhile), classify. By default Claude Code talks to solwebd's Messages API itself,
 * its key from an {@code apiKeyHelper} ({@link ClaudeRun.Route.Direct}). Each step that fails
 * ends the run with its exit code and one status line; nothing is dispatched after a failed step.
 *
 * <p>A cap is read from solwebd's own health ({@code cap_resume_at}), never from the text of the
 * error Claude Code printed.
 */
final class SwRun {
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** A validated task. */
  record Task(Path workspace, String prompt, String slug, Effort effort, long timeoutSeconds, String sessionId,
      boolean viaCcr) {}

  /** A step failed; {@code exitCode} and the status line say how. */
  private static final class Stop extends Exception {
    final int exitCode;
    final String resumeAt;
    final long retryAfter;

    Stop(int exitCode, String detail) {
      this(exitCode, detail, null, 0);
    }

    Stop(int exitCode, String detail, String resumeAt, long retryAfter) {
      super(detail);
      this.exitCode = exitCode;
      this.resumeAt = resumeAt;
      this.retryAfter = retryAfter;
    }
  }

  /**
   * Where this run's Claude Code is sent, the ccr it goes through (null when direct), and the
   * daemon's port and token for sw's own progress lines (never passed to Claude Code).
   */
  private record Route(ClaudeRun.Route claude, CcrServer server, int solwebdPort, String solwebdToken) {}

  private final SwEnv env;
  private final PrintWriter out;
  private final PrintWriter err;

  SwRun(SwEnv env, PrintWriter out, PrintWriter err) {
    this.env = env;
    this.out = out;
    this.err = err;
  }

  int run(Task task) {
    long started = System.nanoTime();
    RunStatus status = new RunStatus(task.slug(), task.effort().modelId(), task.workspace().toString());
    if (task.sessionId() != null) {
      status.sessionId(task.sessionId());
    }
    Path log = env.logDir().resolve(task.slug() + "-" + STAMP.format(Instant.now()) + "-" + ProcessHandle.current().pid() + ".log");
    status.log(log.toString());
    int code;
    try {
      ProviderHealth health = ensureSolwebd();
      Route route = task.viaCcr() ? ensureCcr(health, log) : direct(health);
      Path claude = claudeInstalled();
      String model = task.viaCcr() ? CcrConfig.PROVIDER + "," + task.effort().modelId() : task.effort().modelId();
      ClaudeRun.Spec spec = new ClaudeRun.Spec(claude, task.workspace(), task.prompt(), model, task.sessionId(),
          task.timeoutSeconds(), route.claude(), env.claudeMaxRetries(), env.ctl().euid() == 0);
      ClaudeRun.Outcome outcome;
      try (SwProgress progress = new SwProgress(route.solwebdPort(), route.solwebdToken(), task.effort().suffix(), err)
          .every(env.progressSeconds())) {
        outcome = ClaudeRun.run(spec, env.env(), log);
      } catch (IOException e) {
        throw new Stop(SwExit.UNAVAILABLE, "cannot run Claude Code: " + e.getMessage());
      }
      code = classify(outcome, route, status, task);
    } catch (Stop stop) {
      code = stop.exitCode;
      status.detail(stop.getMessage());
      if (stop.resumeAt != null) {
        status.cap(stop.resumeAt, stop.retryAfter);
      }
      err.println("sw: " + stop.getMessage());
    }
    status.duration((System.nanoTime() - started) / 1e9);
    out.println(status.finish(code));
    return code;
  }

  /** --health: everything a run checks before it dispatches, and no turn. */
  int health(Effort effort, boolean viaCcr) {
    RunStatus status = new RunStatus(null, effort.modelId(), null);
    int code = SwExit.COMPLETED;
    try {
      ProviderHealth health = ensureSolwebd();
      if (viaCcr) {
        ensureCcr(health, env.logDir().resolve("ccr.log"));
      } else {
        direct(health);
      }
      claudeInstalled();
      status.detail("ready: solwebd " + health.endpoint() + " (" + health.account() + ")"
          + (viaCcr ? ", ccr registered and up" : ", Claude Code straight to its Messages API"));
    } catch (Stop stop) {
      code = stop.exitCode;
      status.detail(stop.getMessage());
      if (stop.resumeAt != null) {
        status.cap(stop.resumeAt, stop.retryAfter);
      }
      err.println("sw: " + stop.getMessage());
    }
    out.println(status.finish(code));
    return code;
  }

  private Path claudeInstalled() throws Stop {
    Path claude = env.claude();
    if (!Files.isExecutable(claude)) {
      throw new Stop(SwExit.UNAVAILABLE, "Claude Code is not installed at " + claude
          + "; run: npm ci --prefix <solweb>/tools/ccr");
    }
    return claude;
  }

  /**
   * Claude Code straight at solwebd. The token is read here only for sw's own progress lines;
   * Claude Code gets it from the apiKeyHelper, which fails the same way if it cannot read it.
   */
  private Route direct(ProviderHealth health) throws Stop {
    String token;
    try {
      token = ClientToken.read(env.ctl());
    } catch (CtlException e) {
      throw new Stop(SwExit.UNAVAILABLE, e.getMessage());
    }
    if (env.root() == null) {
      throw new Stop(SwExit.UNAVAILABLE, "sw does not know its install root (for solwebctl token); run it through bin/sw");
    }
    int port = URI.create(health.endpoint()).getPort();
    return new Route(new ClaudeRun.Route.Direct("http://127.0.0.1:" + port, env.root()), null, port, token);
  }

  /** solwebctl ensure, in process: the same rules, refusals and start lock as the CLI verb. */
  private ProviderHealth ensureSolwebd() throws Stop {
    LaunchRequest launch;
    try {
      launch = new LaunchRequest(1, env.seat(), BrowserMixin.args(env.chatUrl(), false, env.chromium(), null));
    } catch (IllegalArgumentException e) {
      throw new Stop(SwExit.USAGE, "SW_SEAT: " + e.getMessage());
    }
    ServiceControl control = new ServiceControl(env.ctl(), ServiceControl.startTimeout(env.ctl()));
    Outcome outcome = control.ensure(launch);
    if (outcome.exitCode() == ExitCodes.OK) {
      return outcome.health();
    }
    throw unavailableOrCapped(outcome.health(), "solwebd is not usable: ");
  }

  private static Stop unavailableOrCapped(ProviderHealth health, String prefix) {
    if ("capped".equals(health.state()) && health.capResumeAt() != null) {
      Instant resumeAt = Instant.parse(health.capResumeAt());
      long retryAfter = Math.max(0, Duration.between(Instant.now(), resumeAt).toSeconds());
      return new Stop(SwExit.CAPPED, "ChatGPT usage cap: no new turns until " + health.capResumeAt(),
          health.capResumeAt(), retryAfter);
    }
    return new Stop(SwExit.UNAVAILABLE, prefix + health.detail());
  }

  /** The registration must route to this solwebd with its current token; then ccr must answer. */
  private Route ensureCcr(ProviderHealth health, Path log) throws Stop {
    Path configFile = env.ccrConfig();
    if (!configFile.equals(env.ccrNativeConfig())) {
      throw new Stop(SwExit.UNAVAILABLE, "CCR_CONFIG is " + configFile + ", but ccr 2.0.0 reads only "
          + env.ccrNativeConfig() + " ($HOME/.claude-code-router/config.json); unset CCR_CONFIG or set HOME");
    }
    if (!Files.exists(configFile)) {
      throw new Stop(SwExit.UNAVAILABLE, "ccr has no config at " + configFile + "; run: sw install-ccr");
    }
    CcrConfig config;
    String token;
    try {
      config = CcrConfig.read(configFile);
      token = ClientToken.read(env.ctl());
    } catch (IOException e) {
      throw new Stop(SwExit.UNAVAILABLE, e.getMessage());
    } catch (CtlException e) {
      throw new Stop(SwExit.UNAVAILABLE, e.getMessage());
    }
    int solwebdPort = URI.create(health.endpoint()).getPort();
    String stale = config.staleness(solwebdPort, token);
    if (stale != null) {
      throw new Stop(SwExit.UNAVAILABLE, "the ccr config " + configFile + " does not route to this solwebd: " + stale
          + "; run: sw install-ccr (then `ccr restart` if ccr is running)");
    }
    if (config.apiKey() == null) {
      throw new Stop(SwExit.UNAVAILABLE, "the ccr config " + configFile + " has no APIKEY; run: sw install-ccr");
    }
    CcrServer server = new CcrServer(config.port());
    try {
      server.ensure(env.ccr(), env.env(), log.resolveSibling("ccr.log"), Duration.ofSeconds(env.ccrStartTimeoutSeconds()));
    } catch (CcrServer.Unavailable e) {
      throw new Stop(SwExit.UNAVAILABLE, e.getMessage());
    }
    return new Route(new ClaudeRun.Route.ViaCcr(server.baseUrl(), config.apiKey()), server, solwebdPort, token);
  }

  private int classify(ClaudeRun.Outcome outcome, Route route, RunStatus status, Task task) throws Stop {
    JsonNode result = outcome.result();
    if (result != null) {
      status.result(result.path("num_turns").asInt(0), result.path("result").isTextual() ? result.path("result").asText() : null);
      if (task.sessionId() == null && result.hasNonNull("session_id")) {
        status.sessionId(result.get("session_id").asText());
      }
    }
    if (outcome.timedOut()) {
      throw new Stop(SwExit.TIMEOUT, "--timeout " + task.timeoutSeconds() + " s elapsed; Claude Code was stopped");
    }
    boolean failed = outcome.exitCode() != 0 || result == null || result.path("is_error").asBoolean(false);
    if (!failed) {
      return SwExit.COMPLETED;
    }
    // Why did it fail? solwebd's own state first: a cap or a lost page is not Claude Code's fault.
    Outcome seen = new ServiceControl(env.ctl(), ServiceControl.startTimeout(env.ctl())).health(1);
    if (seen.exitCode() != ExitCodes.OK) {
      throw unavailableOrCapped(seen.health(), "solwebd became unusable during the run: ");
    }
    if (route.server() != null && route.server().probe() != CcrServer.Probe.CCR) {
      throw new Stop(SwExit.UNAVAILABLE, "claude-code-router stopped answering on port " + route.server().port()
          + " during the run");
    }
    String why = result == null ? "Claude Code exited with code " + outcome.exitCode() + " and no result event"
        : "Claude Code exited with code " + outcome.exitCode() + ": " + result.path("subtype").asText("error")
            + (result.hasNonNull("api_error_status") ? " (API status " + result.get("api_error_status").asText() + ")" : "");
    throw new Stop(SwExit.FAILED, why + "; see the log");
  }
}
