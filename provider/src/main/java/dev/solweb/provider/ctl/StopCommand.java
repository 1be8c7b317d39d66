package dev.solweb.provider.ctl;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Stop our solwebd through its /shutdown route.",
    name = "stop",
    description = {
      "Stop our solwebd through its authenticated POST /shutdown (never a signal) and wait for it",
      "to exit; print ProviderHealth (ok=false, detail says what happened). Not running is exit 0.",
      "A state file whose pid is gone, or reused by a process with other start ticks, is removed.",
      "",
      "Refusals: non-local topology, a live pid that is not our installed solwebd, health from",
      "another instance, token file checks, a daemon that does not answer (never stopped blindly).",
    })
final class StopCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print ProviderHealth as JSON.")
  boolean json;

  @Override
  public Integer call() {
    ServiceControl control = new ServiceControl(parent.env, ServiceControl.startTimeout(parent.env));
    return Solwebctl.print(spec, "stop", json, control.stop());
  }
}
