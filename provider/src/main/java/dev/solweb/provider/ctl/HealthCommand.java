package dev.solweb.provider.ctl;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Print ProviderHealth of the running solwebd.",
    name = "health",
    description = {
      "Print ProviderHealth of the running solwebd; never starts or stops anything. ok=true iff",
      "state=ready, identity matches, authenticated, ownership proven, required models present",
      "and seats >= --seats. Health is an observation, never a reservation.",
      "",
      "Refusals: as ensure (not running is exit 1).",
    })
final class HealthCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print ProviderHealth as JSON.")
  boolean json;

  @Option(names = "--seats", paramLabel = "N", defaultValue = "1", description = "Minimum seats for ok.")
  int seats;

  @Override
  public Integer call() {
    ServiceControl control = new ServiceControl(parent.env, ServiceControl.startTimeout(parent.env));
    return Solwebctl.print(spec, "health", json, control.health(seats));
  }
}
