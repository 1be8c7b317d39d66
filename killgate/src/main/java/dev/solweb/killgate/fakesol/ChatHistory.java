package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * fakesol's history: the sidebar's conversations (the ones the seat's turns created and the
 * owner's PERSONAL ones a test seeds), the owner's Projects, temporary chats (never listed, never
 * reopened), and every delete the page's own menu and confirmation asked for, as
 * {@code /control} reports it ({@link #report}). The shapes are in ../shared/CHATGPT-DOM.md rows
 * "URLs", "Temporary chat" and "Delete / archive"; the page side is {@code history.js}.
 *
 * <p>Faults: a delete that silently fails (the menu and the confirmation work, the page goes
 * home, but the conversation still opens afterwards) and a confirmation that never appears.
 */
public final class ChatHistory {

  /** How the page's delete misbehaves. */
  public enum DeleteFault {
    NONE,
    /** Confirmed and answered 200, but nothing is deleted: the conversation still opens. */
    SILENT,
    /** The menu's Delete item opens no confirmation dialog. */
    NO_CONFIRMATION;

    /** {@code silent} or {@code no-confirmation} (fakesol {@code --delete-fault}). */
    public static DeleteFault parse(String wire) {
      return switch (wire.toLowerCase(Locale.ROOT).replace('_', '-')) {
        case "none" -> NONE;
        case "silent" -> SILENT;
        case "no-confirmation" -> NO_CONFIRMATION;
        default -> throw new IllegalArgumentException("unknown delete fault " + wire + " (silent, no-confirmation)");
      };
    }
  }

  /**
   * A ChatGPT Project: {@code /g/<slug>/project}; two may share a name. The slug is its id
   * {@code g-p-<32 hex>} and an optional {@code -<name>}; the site routes the bare id and the slugged
   * form alike (REAL-PAGE row 23).
   */
  public record Project(String slug, String name) {
    /** The project's id, {@code g-p-<32 hex>}: what matching goes by. */
    public String id() {
      return idOf(slug);
    }
  }

  private static final java.util.regex.Pattern PROJECT_ID = java.util.regex.Pattern.compile("^(g-p-[0-9a-f]{32})(?:-.*)?$");

  /** The {@code g-p-<32 hex>} id in a project slug or id, or the text itself when it holds none. */
  static String idOf(String slugOrId) {
    java.util.regex.Matcher m = PROJECT_ID.matcher(slugOrId == null ? "" : slugOrId);
    return m.matches() ? m.group(1) : slugOrId;
  }

  /** A delete the page asked for: {@code applied} false when the silent fault swallowed it. */
  public record Delete(String conversationId, Instant at, boolean applied, boolean personal) {}

  private record Entry(String id, String title, String project, boolean personal, boolean temporary) {}

  private final Clock clock;
  // The page shows a replayed recording's ids (--stream-file); entries are kept under fakesol's own.
  private final ConversationAliases aliases;
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private final Map<String, List<ObjectNode>> personalTurns = new LinkedHashMap<>();
  private final List<Project> projects = new ArrayList<>();
  private final List<String> deleted = new ArrayList<>();
  private final List<Delete> deletes = new ArrayList<>();
  private DeleteFault deleteFault = DeleteFault.NONE;
  private boolean temporaryAvailable = true;

  ChatHistory(Clock clock, ConversationAliases aliases) {
    this.clock = clock;
    this.aliases = aliases;
  }

  // ---- Seeding (tests, fakesol options) ---------------------------------------------------

  /** Adds one of the owner's own conversations, which solweb never created; returns its id. */
  public synchronized String personal(String title) {
    String id = UUID.randomUUID().toString();
    entries.put(id, new Entry(id, title, null, true, false));
    List<ObjectNode> turns = new ArrayList<>();
    turns.add(FakeSol.JSON.createObjectNode().put("role", "user").put("id", UUID.randomUUID().toString()).put("text", title));
    ObjectNode answer = FakeSol.JSON.createObjectNode().put("role", "assistant").put("id", UUID.randomUUID().toString())
        .put("slug", "gpt-5-thinking").put("prose", "The owner's own answer.").put("markdown", "The owner's own answer.");
    answer.putArray("blocks");
    answer.putArray("images");
    turns.add(answer);
    personalTurns.put(id, turns);
    return id;
  }

  /**
   * Adds a Project named {@code name}; returns its slug ({@code g-p-<32 hex>-<name>}, as the site
   * makes them: the first 8 hex digits are the Unix seconds it was made, row 23's "ids date themselves").
   */
  public synchronized String project(String name) {
    String words = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    String hex = String.format("%08x", clock.instant().getEpochSecond()) + UUID.randomUUID().toString().replace("-", "").substring(8);
    String slug = "g-p-" + hex + (words.isEmpty() ? "" : "-" + words);
    projects.add(new Project(slug, name));
    return slug;
  }

  public synchronized void deleteFault(DeleteFault fault) {
    this.deleteFault = fault;
  }

  /** Temporary chats are off for this account (some workspaces disable them): the page ignores the query. */
  public synchronized void disableTemporaryChats() {
    temporaryAvailable = false;
  }

  /** The owner moves a conversation out of its project: its project URL now leads to {@code /c/<id>}. */
  public synchronized void moveOutOfProject(String conversationId) {
    Entry e = entries.get(conversationId);
    if (e != null && e.project() != null) {
      entries.put(conversationId, new Entry(e.id(), e.title(), null, e.personal(), e.temporary()));
    }
  }

  // ---- What the backend learns and answers ------------------------------------------------

  /**
   * A new chat's first Send: where the page opened it ({@code conversation_mode.gizmo_id} or
   * {@code gizmo_id} names a project by its id, REAL-PAGE row 17; a temporary chat sets
   * {@code history_and_training_disabled}: CHATGPT-STREAM.md).
   */
  synchronized void opened(String conversationId, String firstText, JsonNode requestBody) {
    if (entries.containsKey(conversationId)) {
      return;
    }
    String gizmo = idOf(requestBody.path("conversation_mode").path("gizmo_id").asText(requestBody.path("gizmo_id").asText("")));
    String project = projects.stream().filter(p -> p.id().equals(gizmo)).map(Project::slug).findFirst().orElse(null);
    boolean temporary = requestBody.path("history_and_training_disabled").asBoolean(false);
    String title = firstText.strip().lines().findFirst().orElse("New chat");
    entries.put(conversationId, new Entry(conversationId, title.length() > 40 ? title.substring(0, 40) : title,
        project, false, temporary));
  }

  /** Whether opening this conversation by URL shows not-found: deleted, or a temporary chat (never reopened). */
  synchronized boolean gone(String conversationId) {
    Entry e = entries.get(conversationId);
    return deleted.contains(conversationId) || (e != null && e.temporary());
  }

  synchronized boolean isDeleted(String conversationId) {
    return deleted.contains(conversationId);
  }

  synchronized Optional<List<ObjectNode>> personalTranscript(String conversationId) {
    return Optional.ofNullable(personalTurns.get(conversationId));
  }

  /** The project a conversation is in now, or null. */
  synchronized String projectOf(String conversationId) {
    Entry e = entries.get(conversationId);
    return e == null ? null : e.project();
  }

  /** Every delete the page asked for, in order. */
  public synchronized List<Delete> deletes() {
    return List.copyOf(deletes);
  }

  void mount(Router router) {
    router.get("/api/history").handler(this::listing);
    router.post("/api/delete").handler(this::delete);
  }

  /** What the sidebar shows: projects by name and the listed conversations, newest first. */
  private synchronized void listing(RoutingContext ctx) {
    ObjectNode out = FakeSol.JSON.createObjectNode();
    out.put("delete_fault", deleteFault.name().toLowerCase(Locale.ROOT));
    out.put("temporary_available", temporaryAvailable);
    ArrayNode ps = out.putArray("projects");
    projects.forEach(p -> ps.addObject().put("slug", p.slug()).put("name", p.name()));
    ArrayNode cs = out.putArray("conversations");
    List<Entry> newestFirst = new ArrayList<>(entries.values());
    java.util.Collections.reverse(newestFirst);
    for (Entry e : newestFirst) {
      if (!e.temporary() && !deleted.contains(e.id())) {
        cs.addObject().put("id", aliases.shown(e.id())).put("title", e.title()).put("project", e.project());
      }
    }
    FakeSol.json(ctx, 200, out);
  }

  /** The confirmation's Delete: recorded always; applied unless the silent fault swallows it. */
  private synchronized void delete(RoutingContext ctx) {
    String id = aliases.resolve(FakeSol.body(ctx).path("conversation_id").asText(""));
    Entry e = entries.get(id);
    boolean applied = e != null && deleteFault != DeleteFault.SILENT && !deleted.contains(id);
    deletes.add(new Delete(id, clock.instant(), applied, e != null && e.personal()));
    if (applied) {
      deleted.add(id);
    }
    FakeSol.json(ctx, e == null ? 404 : 200, FakeSol.JSON.createObjectNode().put("success", e != null));
  }

  /**
   * {@code /control}'s history fields: {@code deletes} (each {@code conversation_id}, {@code at},
   * {@code applied}, {@code personal}), {@code deleted_ids} (what is gone now), and
   * {@code conversations} (every known one: {@code id}, {@code title}, {@code project},
   * {@code personal}, {@code temporary}, {@code deleted}).
   */
  synchronized void report(ObjectNode control) {
    ArrayNode ds = control.putArray("deletes");
    for (Delete d : deletes) {
      ds.addObject().put("conversation_id", d.conversationId()).put("at", d.at().toString())
          .put("applied", d.applied()).put("personal", d.personal());
    }
    ArrayNode gone = control.putArray("deleted_ids");
    deleted.forEach(gone::add);
    ArrayNode cs = control.putArray("conversations");
    for (Entry e : entries.values()) {
      cs.addObject().put("id", e.id()).put("title", e.title()).put("project", e.project())
          .put("personal", e.personal()).put("temporary", e.temporary()).put("deleted", deleted.contains(e.id()));
    }
    ArrayNode ps = control.putArray("projects");
    projects.forEach(p -> ps.addObject().put("slug", p.slug()).put("name", p.name()));
  }
}
