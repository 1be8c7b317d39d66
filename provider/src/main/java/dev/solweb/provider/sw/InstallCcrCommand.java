package dev.solweb.provider.sw;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.ctl.ClientToken;
import dev.solweb.provider.ctl.CtlException;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.SecureFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    name = "install-ccr",
    header = "Register the solweb provider in claude-code-router's config.",
    description = {
      "Adds (or updates) the `solweb` provider in $CCR_CONFIG, else $HOME/.claude-code-router/config.json:",
      "api_base_url http://127.0.0.1:<port>/v1/chat/completions, api_key = solwebd's token, the five",
      "sol-web-* models. Other providers and keys stay as they are; HOST, PORT, APIKEY and Router.default",
      "are set only where absent. Idempotent: an unchanged config is not rewritten. A changed one is",
      "backed up first (config.json.bak-<time>, mode 0600) and written atomically with mode 0600.",
      "Port: --port, else the running daemon's (state file), else $SOLWEBD_PORT, else 8791.",
      "Prints one JSON line (never the token). Exit 0 done, 2 usage, 3 token or config unreadable.",
    })
final class InstallCcrCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = Json.MAPPER;

  @ParentCommand Sw parent;
  @Spec CommandSpec spec;

  @Option(names = "--port", paramLabel = "N", description = "solwebd's port for the provider URL.")
  Integer port;

  @Override
  public Integer call() {
    SwEnv env = parent.env;
    Path file = env.ccrConfig();
    try {
      String token = ClientToken.read(env.ctl());
      int solwebdPort = port != null ? port : runningPort(env).orElse(env.ctl().port());
      if (solwebdPort < 1 || solwebdPort > 65535) {
        spec.commandLine().getErr().println("sw install-ccr: a port 1-65535 is needed, got " + solwebdPort
            + " (an ephemeral daemon: pass --port)");
        return SwExit.USAGE;
      }
      boolean existed = Files.exists(file);
      CcrConfig before = existed ? CcrConfig.read(file) : CcrConfig.fresh();
      CcrConfig after = before.withSolweb(solwebdPort, token);
      ObjectNode report = JSON.createObjectNode();
      report.put("config", file.toString());
      if (existed && after.equals(before)) {
        report.put("changed", false);
      } else {
        if (existed) {
          Path backup = file.resolveSibling(file.getFileName() + ".bak-" + Instant.now().toEpochMilli());
          Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
          Files.setPosixFilePermissions(backup, PosixFilePermissions.fromString("rw-------"));
          report.put("backup", backup.toString());
        }
        SecureFile.writeAtomic(file, after.render());
        report.put("changed", true);
      }
      report.put("provider", CcrConfig.PROVIDER);
      report.put("api_base_url", CcrConfig.chatUrl(solwebdPort));
      Effort.modelIds().forEach(report.putArray("models")::add);
      report.put("ccr_port", after.port());
      spec.commandLine().getOut().println(report);
      if (!after.host().equals("127.0.0.1") && !after.host().equals("localhost")) {
        spec.commandLine().getErr().println("sw install-ccr: warning: ccr HOST is " + after.host()
            + "; sw connects to 127.0.0.1 only");
      }
      return SwExit.COMPLETED;
    } catch (CtlException e) {
      spec.commandLine().getErr().println("sw install-ccr: " + e.getMessage()
          + " (solwebd creates its token on first start: solwebctl ensure)");
      return SwExit.UNAVAILABLE;
    } catch (IOException e) {
      spec.commandLine().getErr().println("sw install-ccr: " + e.getMessage());
      return SwExit.UNAVAILABLE;
    }
  }

  private static Optional<Integer> runningPort(SwEnv env) {
    try {
      return env.ctl().daemonState().map(StateFile::port).filter(p -> p > 0);
    } catch (CtlException e) {
      return Optional.empty();
    }
  }
}
