package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.translate.ConversationListing;
import dev.solweb.provider.translate.Conversations;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    header = "List the managed conversations (from the registry only; no prompt text).",
    description = {
      "One line per conversation solwebd manages: its id (from the URL) and session key,",
      "effort, turns, last use, status, project, temporary, and the estimated share of the",
      "context window it holds. Status: live (resumable), in_use (a turn is being sent),",
      "uncertain or retired (the next request replays into a fresh one), expired (a",
      "temporary chat of a stopped daemon: replayed), deleted (a tombstone: never resumed).",
      "Through the running solwebd of this home (GET /v1/conversations), else read from",
      "<home>/registry.json without changing it. No prompt text is ever shown.",
      "",
      "Exit: 0 listed, 3 the daemon refused, 4 a malformed state file.",
    })
final class ListConversationsCommand implements Callable<Integer> {

  @ParentCommand ConversationsCommand conversations;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print {\"object\":\"list\",\"data\":[...]} (docs/solwebctl.md).")
  boolean json;

  @Override
  public Integer call() {
    CtlEnv env = conversations.parent.env;
    PrintWriter out = spec.commandLine().getOut();
    JsonNode listing;
    try {
      Optional<DaemonClient> daemon = ManagedConversations.runningDaemon(env);
      if (daemon.isPresent()) {
        try {
          listing = Json.MAPPER.readTree(daemon.get().pageRead("/v1/conversations", ManagedConversations.LIST_WAIT));
        } catch (DaemonClient.Unreachable e) {
          throw new CtlException(ExitCodes.REFUSED, e.getMessage() + "; stop it with solwebctl stop, or run this again", e);
        } catch (IOException e) {
          throw new CtlException(ExitCodes.REFUSED, "solwebd answered /v1/conversations with no JSON", e);
        }
      } else {
        listing = ConversationListing.toJson(Conversations.snapshot(ManagedConversations.registryFile(env)));
      }
    } catch (CtlException e) {
      spec.commandLine().getErr().println("solwebctl conversations list: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return e.exitCode();
    }
    if (json) {
      out.println(listing.toString());
    } else {
      print(out, listing.path("data"));
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static void print(PrintWriter out, JsonNode data) {
    if (data.isEmpty()) {
      out.println("no managed conversations");
      return;
    }
    String format = "%-38s %-18s %-6s %5s %-20s %-9s %-24s %-4s %s%n";
    out.printf(format, "ID", "SESSION", "EFFORT", "TURNS", "LAST USED", "STATUS", "PROJECT", "TEMP", "OCCUPANCY");
    for (JsonNode c : data) {
      out.printf(format, c.path("id").asText("-"), c.path("session").asText(), c.path("effort").asText(),
          c.path("turns").asInt(), c.path("last_used_at").asText(), c.path("status").asText(),
          c.path("project").isNull() ? "-" : c.path("project").asText(), c.path("temporary").asBoolean() ? "yes" : "no",
          Math.round(100 * c.path("occupancy").asDouble()) + "%");
    }
    out.println(data.size() + " managed conversation(s)");
  }
}
