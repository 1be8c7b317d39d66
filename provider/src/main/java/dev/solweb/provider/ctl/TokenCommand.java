package dev.solweb.provider.ctl;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Print the bearer token and nothing else.",
    name = "token",
    description = {
      "Print the bearer token, and only the token, from <home>/solwebd.token (Pi's apiKey",
      "\"!solwebctl token\" runs this before every request). bin/solwebctl answers `token` in bash",
      "without a JVM, with the same checks in the same order and the same texts.",
      "",
      "Refusals (exit 3): KUBERNETES_SERVICE_HOST set; enrolled on another machine (identity.json's",
      "machine_id_sha256 differs); token file missing, not a regular file (a symlink is not),",
      "not owned by the current user, mode other than 0600, empty, or not one base64url line.",
    })
final class TokenCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try {
      spec.commandLine().getOut().println(ClientToken.read(parent.env));
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    } catch (CtlException e) {
      spec.commandLine().getErr().println("solwebctl token: " + e.getMessage());
      return e.exitCode();
    }
  }
}
