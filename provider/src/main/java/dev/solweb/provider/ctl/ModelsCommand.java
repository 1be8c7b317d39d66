package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    name = "models",
    mixinStandardHelpOptions = true,
    header = "List what this account's model picker offers, and the model ids it can run.",
    description = {
      "One line per model row of the account's picker (family, version, efforts where read,",
      "retiring marked) and the sol-web-<effort> ids this account can run: the efforts of the",
      "row a turn chooses (SOLWEBD_MODEL, else the newest Sol), Instant where the family has its",
      "own Instant row. Through the running solwebd of this home (GET /v1/models): its last read",
      "(at most an hour old), or with --refresh a read now, between turns.",
      "--pi-models-json FILE keeps in that Pi models.json only the gpt provider's models this",
      "account can run, so pi --list-models lists only what the account has.",
      "",
      "Exit: 0 listed, 1 the picker was never read (run again with --refresh), 3 no running",
      "daemon or it refused, 4 a malformed models.json.",
    })
final class ModelsCommand implements Callable<Integer> {

  /** How long a read of the picker through the daemon may wait for a free seat. */
  private static final Duration WAIT = Duration.ofMinutes(5);

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print GET /v1/models's JSON as it is.")
  boolean json;

  @Option(names = "--refresh", description = "Read the picker now (between turns) instead of the last read.")
  boolean refresh;

  @Option(names = "--pi-models-json", paramLabel = "FILE", description = "Keep only the runnable gpt models in this Pi models.json.")
  Path piModels;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    JsonNode listing;
    try {
      Optional<DaemonClient> daemon = ManagedConversations.runningDaemon(parent.env);
      if (daemon.isEmpty()) {
        throw new CtlException(ExitCodes.REFUSED, "no solwebd is running for this home; the picker is read by the"
            + " daemon's seat (solwebctl ensure)");
      }
      try {
        listing = Json.MAPPER.readTree(daemon.get().pageRead("/v1/models" + (refresh ? "?refresh=1" : ""), WAIT));
      } catch (DaemonClient.Unreachable e) {
        throw new CtlException(ExitCodes.REFUSED, e.getMessage(), e);
      } catch (IOException e) {
        throw new CtlException(ExitCodes.REFUSED, "solwebd answered /v1/models with no JSON", e);
      }
      boolean read = "read".equals(listing.path("solweb").path("offer").asText());
      if (piModels != null) {
        if (!read) {
          throw new CtlException(ExitCodes.NOT_READY, "the picker was never read; nothing written (run with --refresh)");
        }
        int kept = keepRunnable(piModels, ids(listing));
        err.println("solwebctl models: " + piModels + " keeps " + kept + " gpt model(s)");
      }
      if (json) {
        out.println(listing.toString());
      } else {
        print(out, listing);
      }
      out.flush();
      return read ? ExitCodes.OK : ExitCodes.NOT_READY;
    } catch (CtlException e) {
      err.println("solwebctl models: " + e.getMessage());
      err.flush();
      return e.exitCode();
    }
  }

  private static Set<String> ids(JsonNode listing) {
    Set<String> ids = new HashSet<>();
    listing.path("data").forEach(m -> ids.add(m.path("id").asText()));
    return ids;
  }

  /** Rewrites {@code file} (atomically) with the gpt provider's models cut to {@code runnable}; returns how many stay. */
  static int keepRunnable(Path file, Set<String> runnable) throws CtlException {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new CtlException(ExitCodes.OWNERSHIP, "cannot read " + file + " as JSON: " + e.getMessage(), e);
    }
    JsonNode models = root.path("providers").path("gpt").path("models");
    if (!(models instanceof ArrayNode list)) {
      throw new CtlException(ExitCodes.OWNERSHIP, file + " has no providers.gpt.models list");
    }
    for (int i = list.size() - 1; i >= 0; i--) {
      if (!runnable.contains(list.get(i).path("id").asText())) {
        list.remove(i);
      }
    }
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString((ObjectNode) root) + "\n");
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.OWNERSHIP, "cannot write " + file + ": " + e.getMessage(), e);
    }
    return list.size();
  }

  private static void print(PrintWriter out, JsonNode listing) {
    JsonNode solweb = listing.path("solweb");
    if (!"read".equals(solweb.path("offer").asText())) {
      out.println("the picker was not read yet (it is read when the account is idle; --refresh reads it now)");
      return;
    }
    String format = "%-28s %-8s %-8s %-34s %s%n";
    out.printf(format, "ROW", "FAMILY", "VERSION", "EFFORTS", "NOTE");
    for (JsonNode r : solweb.path("rows")) {
      StringBuilder note = new StringBuilder();
      if (r.path("retiring").asBoolean()) {
        note.append("retiring ");
      }
      if (!r.path("enabled").asBoolean()) {
        note.append("disabled ");
      }
      if (r.path("name").asText().equals(solweb.path("chosen").asText())) {
        note.append("<- sol-web");
      }
      java.util.List<String> efforts = new java.util.ArrayList<>();
      r.path("efforts").forEach(e -> efforts.add(e.asText()));
      out.printf(format, r.path("name").asText(), r.path("family").asText("-"), r.path("version").asText(),
          efforts.isEmpty() ? "(not read)" : String.join(", ", efforts), note.toString().strip());
    }
    java.util.List<String> ids = new java.util.ArrayList<>();
    listing.path("data").forEach(m -> ids.add(m.path("id").asText()));
    out.println("runnable: " + String.join(", ", ids) + " (read " + solweb.path("read_at").asText() + ")");
  }
}
