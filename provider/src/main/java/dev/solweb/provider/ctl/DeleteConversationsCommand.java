package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.daemon.SeatMixin;
import dev.solweb.provider.hygiene.ConversationDeletion;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.ConversationSelection;
import dev.solweb.provider.translate.Conversations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    header = "Delete managed conversations from ChatGPT, verify they are gone, keep tombstones.",
    description = {
      "Deletes the named managed conversations from the owner's ChatGPT history: each by its",
      "exact URL, through the page's own conversation menu and confirmation, then verified",
      "gone; the registry keeps a tombstone (URL, deletion time), so it is never resumed: the",
      "next request of that session opens a fresh conversation and replays.",
      "Name them by ID (the id or session key `list` shows), --idle-days N (last used N or",
      "more days ago) or --all. Only registry entries are ever deleted: an ID that is not a",
      "managed conversation refuses the whole command, nothing deleted. A conversation with a",
      "turn in flight or queued is skipped and reported. One the page already shows as gone",
      "counts as done (not_found, tombstone recorded); a tombstoned one is skipped as done, so",
      "a repeat is a no-op. A failed delete records nothing.",
      "Through the running solwebd of this home (POST /v1/conversations/delete: each on a seat",
      "between turns), else here, on the profile, under its lock, in a Chromium of its own",
      "(--seat, --chat-url, --headless, --chromium, --profile as for enroll). --dry-run says",
      "what would be deleted and opens no page.",
      "",
      "Exit: 0 every named conversation is gone (or --dry-run), 7 some were skipped or",
      "failed (each says why), 2 bad arguments, 3 refused (an ID not managed, the profile",
      "in use by another process, the daemon refused).",
    })
final class DeleteConversationsCommand implements Callable<Integer> {

  @ParentCommand ConversationsCommand conversations;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", arity = "0..*", description = "Conversation ids or session keys from `list`.")
  List<String> ids = new ArrayList<>();

  @Option(names = "--idle-days", paramLabel = "N", description = "Every managed conversation last used N or more days ago.")
  Integer idleDays;

  @Option(names = "--all", description = "Every managed conversation.")
  boolean all;

  @Option(names = "--dry-run", description = "Report what would be deleted; delete nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print {\"dry_run\",\"results\":[...],\"summary\",\"ok\"} (docs/solwebctl.md).")
  boolean json;

  @Mixin SeatMixin seat;

  @Override
  public Integer call() {
    CtlEnv env = conversations.parent.env;
    PrintWriter err = spec.commandLine().getErr();
    ConversationSelection selection;
    try {
      selection = new ConversationSelection(ids, idleDays, all);
    } catch (IllegalArgumentException e) {
      err.println("solwebctl conversations delete: " + e.getMessage());
      err.flush();
      return ExitCodes.USAGE;
    }
    JsonNode report;
    try {
      Optional<DaemonClient> daemon = ManagedConversations.runningDaemon(env);
      report = daemon.isPresent() ? throughDaemon(daemon.get(), selection) : direct(env, selection);
    } catch (CtlException e) {
      err.println("solwebctl conversations delete: " + e.getMessage());
      err.flush();
      return e.exitCode();
    }
    print(report);
    return report.path("ok").asBoolean() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
  }

  private JsonNode throughDaemon(DaemonClient daemon, ConversationSelection selection) throws CtlException {
    ObjectNode body = Json.MAPPER.createObjectNode();
    if (selection.all()) {
      body.put("all", true);
    } else if (selection.idleDays() != null) {
      body.put("idle_days", selection.idleDays());
    } else {
      selection.ids().forEach(body.putArray("ids")::add);
    }
    body.put("dry_run", dryRun);
    try {
      return Json.MAPPER.readTree(daemon.postJson("/v1/conversations/delete", body.toString(), ManagedConversations.DELETE_WAIT));
    } catch (DaemonClient.Unreachable e) {
      throw new CtlException(ExitCodes.REFUSED, e.getMessage() + "; nothing more was deleted, run this again", e);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "solwebd answered /v1/conversations/delete with no JSON", e);
    }
  }

  /** No daemon runs: the registry and the profile are ours while we hold the profile lock. */
  private JsonNode direct(CtlEnv env, ConversationSelection selection) throws CtlException {
    Path profile = seat.profileOr(env.profileDir());
    Optional<ProfileLock> lock;
    try {
      lock = ProfileLock.tryAcquire(profile);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "cannot take the profile lock " + ProfileLock.fileFor(profile) + ": " + e.getMessage(), e);
    }
    if (lock.isEmpty()) {
      throw new CtlException(ExitCodes.REFUSED, "the profile " + profile + " is in use by pid " + ProfileLock.holder(profile)
          + ", which is not a running solwebd of " + env.home() + ": end that process and run this again");
    }
    try (ProfileLock held = lock.get()) {
      Conversations managed = Conversations.persistent(ManagedConversations.registryFile(env), Clock.systemUTC());
      List<Conversation> selected;
      try {
        selected = managed.list(selection);
      } catch (IllegalArgumentException e) {
        throw new CtlException(ExitCodes.REFUSED, e.getMessage(), e);
      }
      return ConversationDeletion.report(deleteAll(env, managed, selected), dryRun);
    }
  }

  /** One seat, opened only when a conversation needs the page, for all of them; a broken one is reopened. */
  private List<ConversationDeletion.Outcome> deleteAll(CtlEnv env, Conversations managed, List<Conversation> selected)
      throws CtlException {
    List<ConversationDeletion.Outcome> outcomes = new ArrayList<>();
    BrowserSeat open = null;
    try {
      for (Conversation c : selected) {
        Optional<ConversationDeletion.Outcome> settled = ConversationDeletion.settled(c, dryRun);
        if (settled.isPresent()) {
          outcomes.add(settled.get());
          continue;
        }
        if (open == null) {
          open = SeatChoice.opener(env.withProfile(seat.profileOr(env.profileDir())), seat).open();
        }
        try {
          outcomes.add(ConversationDeletion.onSeat(open, managed, c.sessionKey()));
        } catch (SeatException broken) {
          outcomes.add(new ConversationDeletion.Outcome(c.sessionKey(), c.conversationId(), c.url(),
              ConversationDeletion.Result.FAILED, broken.failure().detail() + "; no tombstone recorded"));
          open.close();
          open = null;
        }
      }
    } finally {
      if (open != null) {
        open.close();
      }
    }
    return outcomes;
  }

  private void print(JsonNode report) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(report.toString());
      out.flush();
      return;
    }
    for (JsonNode r : report.path("results")) {
      out.printf("%-16s %s (session %s): %s%n", r.path("result").asText(), r.path("id").asText("-"),
          r.path("session").asText(), r.path("detail").asText());
    }
    JsonNode s = report.path("summary");
    out.println((report.path("dry_run").asBoolean() ? "dry run: " : "") + report.path("results").size()
        + " conversation(s): " + s.path("deleted").asInt() + " deleted, " + s.path("not_found").asInt() + " not found, "
        + s.path("already_deleted").asInt() + " already deleted, " + s.path("would_delete").asInt() + " would be deleted, "
        + s.path("skipped").asInt() + " skipped, " + s.path("failed").asInt() + " failed");
    out.flush();
  }
}
