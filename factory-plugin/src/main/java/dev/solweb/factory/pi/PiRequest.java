package dev.solweb.factory.pi;

import dev.solweb.factory.session.ClientSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One Pi phase to run.
 *
 * @param piBin the pinned Pi executable
 * @param workspace Pi's working directory (the attempt's worktree)
 * @param agentDir the materialized account {@code PI_CODING_AGENT_DIR}
 * @param session the derived client identity (never the raw Factory session id)
 * @param model Pi's {@code provider/id}, e.g. {@code gpt/sol-web-high}
 * @param tools the agent config's tool allowlist, passed as {@code --tools}; empty means no tools.
 *     A GPT preset never adds to it
 * @param task the prompt
 * @param timeout the whole phase budget; past it the process tree is killed
 * @param stderrLog where Pi's stderr goes (redacted after the run)
 * @param parentEnv the environment to derive Pi's from (see {@link ChildEnvironment})
 * @param knownSecrets secret values (the solweb token) scrubbed from env, stderr and results
 */
public record PiRequest(
    Path piBin,
    Path workspace,
    Path agentDir,
    ClientSession session,
    String model,
    List<String> tools,
    String task,
    Duration timeout,
    Path stderrLog,
    Map<String, String> parentEnv,
    Set<String> knownSecrets) {

  /** Pi's default coding tools. */
  public static final List<String> DEFAULT_TOOLS = List.of("read", "bash", "edit", "write");

  public PiRequest {
    Objects.requireNonNull(piBin, "piBin");
    Objects.requireNonNull(workspace, "workspace");
    Objects.requireNonNull(agentDir, "agentDir");
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(stderrLog, "stderrLog");
    tools = List.copyOf(tools);
    parentEnv = Map.copyOf(parentEnv);
    knownSecrets = Set.copyOf(knownSecrets);
    if (task.isBlank()) {
      throw new IllegalArgumentException("task is empty");
    }
  }
}
