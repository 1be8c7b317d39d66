package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.scenario.ScriptedReply.Fault;
import dev.solweb.provider.scenario.ScriptedReply;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An imitation of the ChatGPT web page on 127.0.0.1, driven by the SAME {@link Scenario} format
 * and {@link ScenarioPlayer} as ScriptedSeat, so the real Playwright seat meets the live DOM
 * shapes (../shared/CHATGPT-DOM.md) and every scripted fault in a real Chromium. The page itself
 * (HTML and JS) is a resource; this class is its backend plus a JSON control endpoint
 * ({@code GET /control}) that shows what was submitted, with which effort, to which
 * conversation, and how often Retry and Stop were clicked.
 *
 * <p>Faults the real site shows before Send (login wall, Cloudflare, "too long", a crash before
 * Send) are decided when text reaches the composer ({@code /api/precheck}); the rest when Send
 * is clicked ({@code /api/send}), which is the moment a submission is recorded.
 */
public final class FakeSol implements AutoCloseable {

  static final ObjectMapper JSON = dev.solweb.provider.platform.Json.MAPPER;
  /** How much longer than its scripted pace the server takes to finish writing an answer. */
  private static final long GENERATION_MARGIN_MS = 200;
  /** A valid 2x2 RGB PNG: what every generated image of fakesol is. */
  private static final byte[] PNG = java.util.Base64.getDecoder().decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4oaEBRAwQCgAhLgRhHuBtwgAAAABJRU5ErkJggg==");
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("h:mm a", Locale.US);

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final ScenarioPlayer player;
  private final Clock clock;
  private final PageRender page;
  private final Map<String, List<ObjectNode>> transcripts = new HashMap<>();
  private final FakeSolLogin login;
  /** New chats opened at precheck, by their first text: the real page sends no conversation id for them. */
  private final Map<String, String> drafts = new HashMap<>();
  private final ConversationEndpoint conversationEndpoint = new ConversationEndpoint(this);
  private final ConversationJson conversationJson = new ConversationJson(this);
  private final ConversationAliases aliases = new ConversationAliases();
  private final ChatHistory history;
  /** The account's counters, counting down with every Send (REAL-PAGE row 50). */
  private final AccountCounters counters;
  /** When each turn request reached the server, and how often the page (or a seat) asked a history or status JSON. */
  private final List<Instant> sendsAt = new ArrayList<>();
  private int historyRequests;
  private final List<Instant> historyTimes = new java.util.ArrayList<>();
  private int statusRequests;
  /** Row 52's trigger as fakesol applies it; null: off (the default). */
  private BurstRule burstRule;
  private final java.util.ArrayDeque<Instant> jsonTimes = new java.util.ArrayDeque<>();
  private boolean throttling;
  private int modals;
  private final PageWire wire;
  private final FakeSolUploads uploads;
  private HttpServer server;
  private String wall;
  private String loadBanner;
  private String effortLabel = Effort.MEDIUM.label();
  /** The Chat/Work switch as the browser left it (REAL-PAGE rows 21, 27): a fresh tab shows it. */
  private String mode;
  /** Edits typed into a Canvas editor (row 15): the seat must never type there. */
  private int canvasEdits;
  private int retryClicks;
  private int stopClicks;
  private int regenerations;
  private int crashes;
  private boolean copyBroken;
  private CompletableFuture<Void> thinkingHold; // null: each thinking starts on its timer
  private boolean insertTextIgnored;
  private final Map<String, String> estuaryFiles = new HashMap<>();
  private volatile Runnable crashHook = () ->
      System.err.println("fakesol: crash fault but no crash hook is set; the page just hangs");

  private FakeSol(Vertx vertx, boolean ownsVertx, Scenario scenario, Clock clock, PageMutations.Plan plan) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.player = new ScenarioPlayer(scenario);
    this.clock = clock;
    this.counters = new AccountCounters(clock);
    this.history = new ChatHistory(clock, aliases);
    this.wire = new PageWire(clock);
    this.mode = scenario.mode();
    switch (scenario.state()) {
      case "logged_out" -> wall = "login";
      case "challenged" -> wall = "cloudflare";
      case "capped" -> loadBanner = capText(
          scenario.capResumeAt() == null ? clock.instant().plusSeconds(3600) : Instant.parse(scenario.capResumeAt()), null);
      default -> { }
    }
    // The login flow and the uploads are their own small scripts and routes, added to whatever the page is.
    this.page = PageRender.of(scenario.dom(), scenario.locale(), plan).script("/fakesol-login.js", "login.js")
        .script("/fakesol-upload.js", "upload.js");
    this.login = new FakeSolLogin(scenario.account(), PageRender.resource("login.html"));
    this.uploads = new FakeSolUploads(clock);
  }

  /** Starts on {@code 127.0.0.1:port} (0 = ephemeral) with its own Vert.x; blocks until listening. */
  public static FakeSol start(Scenario scenario, int port) {
    return start(Vertx.vertx(), true, scenario, port, Clock.systemUTC());
  }

  public static FakeSol start(Vertx vertx, boolean ownsVertx, Scenario scenario, int port, Clock clock) {
    return start(vertx, ownsVertx, scenario, port, clock, PageMutations.Plan.NONE);
  }

  /** A page rendered through page mutations ({@link PageMutations}): {@code fakesol --mutate SEED}. */
  public static FakeSol start(Vertx vertx, boolean ownsVertx, Scenario scenario, int port, Clock clock, PageMutations.Plan plan) {
    FakeSol sol = new FakeSol(vertx, ownsVertx, scenario, clock, plan);
    sol.server = await(vertx.createHttpServer().requestHandler(sol.router()).listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture());
    return sol;
  }

  /** The home page URL, e.g. {@code http://127.0.0.1:PORT/}. */
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.actualPort() + "/");
  }

  public ScenarioPlayer player() {
    return player;
  }

  /** Every submission, in order (Send clicks and Retry resubmissions). */
  public List<ScenarioPlayer.Send> sends() {
    return player.sends();
  }

  public synchronized int retryClicks() {
    return retryClicks;
  }

  public synchronized int stopClicks() {
    return stopClicks;
  }

  public synchronized int crashes() {
    return crashes;
  }

  /**
   * Makes the turn copy buttons copy nothing (as when ChatGPT changes how it copies), so the
   * seat must fall back to reading each code block from the DOM.
   */
  public synchronized void breakCopyButtons() {
    copyBroken = true;
  }

  /**
   * Holds each streamed answer's thinking, after its first half, until {@link #releaseThinking()}
   * (or 10 s): a test that must see the first half before the thinking moves the page on its own
   * signal instead of racing the stream's timers.
   */
  public synchronized void holdThinking() {
    thinkingHold = new CompletableFuture<>();
  }

  /** Lets a held thinking start (see {@link #holdThinking()}); nothing when none is held. */
  public synchronized void releaseThinking() {
    if (thinkingHold != null) {
      thinkingHold.complete(null);
    }
  }

  /** What a stream's thinking waits for: done at once unless a test holds it. */
  synchronized CompletableFuture<Void> thinkingHold() {
    return thinkingHold == null ? CompletableFuture.completedFuture(null) : thinkingHold;
  }

  /**
   * Answers the next turn sent to {@code /backend-api/f/conversation} with these bytes, exactly (a
   * recorded body of the real endpoint), instead of a scripted reply; the send is still recorded.
   */
  public void answerNextWith(byte[] recordedBody) {
    conversationEndpoint.queueRecorded(recordedBody);
  }

  /**
   * When fakesol last wrote a turn body's terminal {@code [DONE]} to the page (epoch ms, 0 before
   * any): bench-seat measures from here to the HTTP answer of solwebd.
   */
  public long lastTerminalAtMillis() {
    return conversationEndpoint.terminalAtMillis();
  }

  /**
   * Makes the composer drop CDP insertText (as an editor might), so only a real clipboard paste
   * gets text in: the seat's fallback path.
   */
  public synchronized void ignoreInsertText() {
    insertTextIgnored = true;
  }

  /** The sidebar, projects, temporary chats and deletes: what tests seed and what {@code /control} reports. */
  /** The ids the page gave the user messages of a conversation (its turn requests' messages[0].id), oldest first. */
  public synchronized List<String> userMessageIds(String conversationId) {
    List<String> ids = new ArrayList<>();
    for (ObjectNode turn : transcripts.getOrDefault(aliases.resolve(conversationId), List.of())) {
      if ("user".equals(turn.path("role").asText())) {
        ids.add(turn.path("id").asText());
      }
    }
    return ids;
  }

  /** What the page sends on the wire: its /prepare, the effort its requests carry. */
  public PageWire wire() {
    return wire;
  }

  /** The page's uploads (REAL-PAGE rows 44-49): what each turn carried, and the upload faults. */
  public FakeSolUploads uploads() {
    return uploads;
  }

  /** Sets how many file uploads the account has left ({@code file_upload}, REAL-PAGE rows 49-50; 80 at start). */
  public void uploadsLeft(int left) {
    counters.uploadsLeft(left);
  }

  public ChatHistory history() {
    return history;
  }

  /** The page shape this fakesol serves ({@link Scenario#DOMS}). */
  public String dom() {
    return player.scenario().dom();
  }

  /** What a crash fault does: tests end the seat's Chromium here. Runs off the event loop. */
  public void onCrash(Runnable hook) {
    this.crashHook = hook;
  }

  @Override
  public void close() {
    if (server != null) {
      await(server.close().toCompletionStage().toCompletableFuture());
    }
    if (ownsVertx) {
      await(vertx.close().toCompletionStage().toCompletableFuture());
    }
  }

  // ---- Routes ----------------------------------------------------------------------------

  private Router router() {
    Router router = Router.router(vertx);
    conversationEndpoint.mountSocket(router); // before the body handler, which would consume the upgrade request
    router.route().handler(BodyHandler.create().setBodyLimit(16 * 1024 * 1024));
    page.mount(router);
    history.mount(router);
    login.routes(router);
    router.get("/api/wire").handler(ctx -> json(ctx, 200, wire.config(player.scenario().dom())));
    String challenge = PageRender.resource("challenge.html");
    router.get("/cdn-cgi/challenge").handler(ctx -> ctx.response().putHeader("content-type", "text/html; charset=utf-8").end(challenge));
    router.get("/api/auth/session").handler(this::session);
    router.get("/api/state").handler(this::state);
    router.get("/api/conversation/:id").handler(this::conversation);
    router.post("/api/effort").handler(this::effort);
    router.post("/api/mode").handler(this::mode);
    router.post("/api/canvas").handler(this::canvasEdit);
    router.post("/api/precheck").handler(this::precheck);
    router.post("/api/send").handler(this::send);
    conversationEndpoint.mount(router);
    uploads.mount(router, vertx);
    conversationJson.mount(router);
    router.post("/api/retry").handler(this::retry);
    router.post("/api/stop").handler(this::stop);
    router.get("/backend-api/estuary/content").handler(this::file);
    router.get("/control").handler(this::control);
    return router;
  }

  private synchronized void session(RoutingContext ctx) {
    ObjectNode out = JSON.createObjectNode();
    if (!"login".equals(wallFor(ctx))) {
      String signedIn = login.account(ctx);
      out.putObject("user").put("email", signedIn != null ? signedIn : player.scenario().account());
      out.putObject("account").put("planType", "plus"); // REAL-PAGE row 50
    }
    json(ctx, 200, out);
  }

  /** The login wall is down for a browser that signed in since it went up (FakeSolLogin). */
  private String wallFor(RoutingContext ctx) {
    return "login".equals(wall) && login.account(ctx) != null ? null : wall;
  }

  /** The site ends the account's sessions: the wall goes up for every browser. */
  private void logOut() {
    wall = "login";
    login.endAll();
  }

  private synchronized void state(RoutingContext ctx) {
    ObjectNode out = JSON.createObjectNode();
    out.put("wall", wallFor(ctx));
    out.put("banner", loadBanner);
    out.put("copy_broken", copyBroken);
    out.put("insert_text_ignored", insertTextIgnored);
    out.put("dom", player.scenario().dom());
    out.put("locale", player.scenario().locale());
    out.put("windowed_turns", player.scenario().windowedTurns());
    out.put("mode", mode);
    ObjectNode capped = out.putObject("capped_efforts");
    player.scenario().cappedEfforts().forEach((label, at) ->
        capped.put(Effort.fromLabel(label).orElseThrow().label(), Instant.parse(at).toString()));
    out.put("slider_drops_first_key", player.scenario().sliderDropsFirstKey());
    String conversation = aliases.resolve(ctx.queryParams().get("conversation"));
    out.put("effort_label", scriptedLabel(conversation).orElse(effortLabel));
    json(ctx, 200, out);
  }

  private synchronized void conversation(RoutingContext ctx) {
    String id = aliases.resolve(ctx.pathParam("id"));
    if (player.peek(id).map(r -> r.fault() == Fault.DELETED).orElse(false)) {
      player.next(id);
      player.delete(id);
      transcripts.remove(id);
    }
    Optional<List<ObjectNode>> personal = history.personalTranscript(id);
    if (history.gone(id) || (!player.exists(id) && personal.isEmpty())) {
      // What the site answers for a deleted, missing or temporary conversation (REAL-PAGE rows 20, 24):
      // no source shows a "deleted" text; the page shows the message.
      ObjectNode out = JSON.createObjectNode();
      out.putObject("detail").put("message", "Conversation not found").put("code", "conversation_not_found");
      json(ctx, 404, out);
      return;
    }
    ObjectNode out = JSON.createObjectNode().put("id", aliases.shown(id)).put("project", history.projectOf(id));
    ArrayNode turns = out.putArray("turns");
    long now = clock.millis();
    // An answer the server is still writing (or stopped) is not drawn whole by a page that loads now.
    personal.orElseGet(() -> transcripts.getOrDefault(id, List.of())).stream()
        .filter(t -> t.path("finish_at_ms").asLong(0) <= now && !t.has("stopped_at_ms")).forEach(turns::add);
    json(ctx, 200, out);
  }

  /** The pill shows what the page decides: a scripted label for the next reply, else the choice. */
  private synchronized void effort(RoutingContext ctx) {
    JsonNode body = body(ctx);
    String wanted = body.path("wanted").asText();
    String conversation = aliases.resolve(body.path("conversation_id").asText(null));
    Optional<String> scripted = scriptedLabel(conversation);
    if (scripted.isEmpty()) {
      effortLabel = wanted;
    }
    json(ctx, 200, JSON.createObjectNode().put("label", scripted.orElse(wanted)));
  }

  /** The page's Chat/Work switch moved: the choice holds for every tab from now on. */
  private synchronized void mode(RoutingContext ctx) {
    String wanted = body(ctx).path("mode").asText("");
    if (!wanted.equals("chat") && !wanted.equals("work")) {
      json(ctx, 400, JSON.createObjectNode().put("detail", "mode must be chat or work"));
      return;
    }
    mode = wanted;
    json(ctx, 200, JSON.createObjectNode().put("mode", mode));
  }

  private synchronized void canvasEdit(RoutingContext ctx) {
    canvasEdits++;
    json(ctx, 200, JSON.createObjectNode().put("ok", true));
  }

  /** How many edits reached a Canvas editor (the user's code). */
  public synchronized int canvasEdits() {
    return canvasEdits;
  }

  /** The Chat/Work switch as the page shows it now: {@code chat} or {@code work}. */
  public synchronized String mode() {
    return mode;
  }

  private Optional<String> scriptedLabel(String conversation) {
    if (conversation == null || conversation.isEmpty()) {
      return Optional.empty();
    }
    return player.peek(conversation).map(ScriptedReply::effortLabel);
  }

  private synchronized void precheck(RoutingContext ctx) {
    JsonNode body = body(ctx);
    String text = body.path("text").asText();
    String conversation = aliases.resolve(body.path("conversation_id").asText(null));
    if (conversation == null || conversation.isEmpty()) {
      conversation = drafts.containsKey(text) ? drafts.get(text) : player.openConversation(text);
      drafts.put(text, conversation);
    }
    ObjectNode out = JSON.createObjectNode().put("conversation_id", aliases.shown(conversation)).put("outcome", "ok");
    Fault fault = player.peek(conversation).map(ScriptedReply::fault).orElse(null);
    if (fault != null) {
      switch (fault) {
        case TOO_LONG -> {
          player.next(conversation);
          out.put("outcome", "too_long");
        }
        case LOGGED_OUT -> {
          player.next(conversation);
          logOut();
          out.put("outcome", "login");
        }
        case CLOUDFLARE -> {
          player.next(conversation);
          wall = "cloudflare";
          out.put("outcome", "cloudflare");
        }
        case CRASH_BEFORE_SEND -> {
          player.next(conversation);
          out.put("outcome", "crash");
          crashSoon(100);
        }
        // Shown as soon as the user is about to send; text turns still go through.
        case FEATURE_CAP -> out.put("banner", featureCapText(player.peek(conversation).orElseThrow()));
        default -> { }
      }
    }
    json(ctx, 200, out);
  }

  /** The Send click: the one moment a submission is recorded. */
  private void send(RoutingContext ctx) {
    JsonNode body = body(ctx);
    List<String> attached = new ArrayList<>();
    body.path("attachments").forEach(a -> attached.add(a.asText()));
    Planned planned = plan(body.path("text").asText(), body.path("effort_label").asText(null),
        body.path("conversation_id").asText(null), attached, null);
    json(ctx, 200, planned.plan());
  }

  /**
   * What a Send does, for the page's {@code /api/send} and for the conversation endpoint alike:
   * takes the conversation's next scripted reply, records the submission (unless the reply is a
   * fault decided before Send) and returns the plan the page plays.
   *
   * @param userMessageId the id the page made for the user message, or null to make one here
   */
  synchronized Planned plan(String text, String label, String pageConversation, List<String> attached, String userMessageId) {
    return plan(text, label, pageConversation, attached, userMessageId, false);
  }

  /**
   * REAL-PAGE row 35: the answer bar's "Regenerate response" posts the turn again with action
   * {@code variant} and {@code parent_message_id} = the prompt's id, in the same conversation, with
   * no new user message: the conversation's next scripted reply answers the prompt it already
   * holds (the shown answer after it is replaced), and nothing counts as a send. Null when the
   * conversation holds no such prompt.
   */
  synchronized Planned regenerate(String label, String pageConversation, String parentMessageId) {
    String conversation = aliases.resolve(pageConversation);
    List<ObjectNode> transcript = conversation == null ? List.of() : transcripts.getOrDefault(conversation, List.of());
    int at = -1;
    for (int i = 0; i < transcript.size(); i++) {
      if ("user".equals(transcript.get(i).path("role").asText()) && transcript.get(i).path("id").asText().equals(parentMessageId)) {
        at = i;
      }
    }
    if (at < 0) {
      return null;
    }
    String text = transcript.get(at).path("text").asText();
    transcript.subList(at + 1, transcript.size()).clear(); // the variant replaces the answer shown after the prompt
    regenerations++;
    return plan(text, label, pageConversation, List.of(), parentMessageId, true);
  }

  /** Regenerations the page asked for ({@link #regenerate}). */
  public synchronized int regenerations() {
    return regenerations;
  }

  private Planned plan(String text, String label, String pageConversation, List<String> attached, String userMessageId,
      boolean variant) {
    String conversation = aliases.resolve(pageConversation);
    if (conversation == null || conversation.isEmpty()) {
      conversation = drafts.containsKey(text) ? drafts.get(text) : player.openConversation(text);
    }
    drafts.values().removeIf(conversation::equals); // a draft is used once
    ScriptedReply reply = player.next(conversation).orElse(null);
    Fault fault = reply == null ? null : reply.fault();
    ObjectNode plan = JSON.createObjectNode().put("conversation_id", aliases.shown(conversation));
    if (fault == Fault.TOO_LONG || fault == Fault.LOGGED_OUT || fault == Fault.CLOUDFLARE || fault == Fault.CRASH_BEFORE_SEND) {
      // Normally decided at precheck; a page that skipped it still refuses before submitting.
      plan.put("fault", wire(fault));
      if (fault == Fault.LOGGED_OUT) {
        logOut();
      } else if (fault == Fault.CLOUDFLARE) {
        wall = "cloudflare";
      } else if (fault == Fault.CRASH_BEFORE_SEND) {
        crashSoon(100);
      }
      return new Planned(plan, reply, false, List.of());
    }
    if (!variant) {
      player.record(new ScenarioPlayer.Send(conversation, Effort.fromLabel(label).orElse(null), label, text, clock.instant(), attached));
    }
    List<ObjectNode> transcript = transcripts.computeIfAbsent(conversation, k -> new ArrayList<>());
    boolean newChat = transcript.isEmpty();
    List<StreamEncoder.Previous> older = new ArrayList<>();
    for (ObjectNode turn : transcript) {
      if ("assistant".equals(turn.path("role").asText())) {
        older.add(new StreamEncoder.Previous(turn.path("id").asText(), turn.path("markdown").asText()));
      }
    }
    String userId = userMessageId != null ? userMessageId : UUID.randomUUID().toString();
    if (!variant) {
      transcript.add(JSON.createObjectNode().put("role", "user").put("id", userId).put("text", text));
    }
    plan.put("user_message_id", userId);
    if (reply == null) {
      plan.put("fault", "something_went_wrong").put("delay_ms", 100)
          .put("error", "Something went wrong. (fakesol: the scenario has no reply left for this conversation)");
      return new Planned(plan, null, newChat, older);
    }
    plan.put("fault", fault == null ? null : wire(fault));
    plan.put("delay_ms", reply.delayMs()).put("thinking_ms", reply.thinkingMs()).put("false_pause_ms", reply.falsePauseMs())
        .put("stream_ms", reply.streamMs()).put("rerender_previous", reply.rerenderPrevious())
        .put("flash_action_bar", reply.flashActionBar()).put("preamble", reply.preamble()).put("preamble_ms", reply.preambleMs())
        .put("no_durable_url", reply.noDurableUrl()).put("safety_review_ms", reply.safetyReviewMs())
        .put("connection_interrupted_ms", reply.connectionInterruptedMs()).put("turn_state_stuck", reply.turnStateStuck())
        .put("canvas", reply.canvas());
    switch (fault == null ? Fault.DELETED : fault) {
      case CAP -> plan.put("banner", capText(resumeAt(reply), null)).put("resume_at", resumeAt(reply).toString());
      // REAL-PAGE row 7, as peers saw them.
      case CAPACITY -> plan.put("banner", "ChatGPT is at capacity right now. We're experiencing high demand; please try again soon.");
      case UNUSUAL_ACTIVITY -> plan.put("banner",
          "Unusual activity has been detected from your device. Try again later.");
      case CONVERSATION_FULL -> plan.put("message_id", UUID.randomUUID().toString()).put("slug", defaultSlug(label));
      // REAL-PAGE row 29: the page draws the question and its form; the stream carries no answer.
      case STRUCTURED_QUESTION -> plan.put("message_id", UUID.randomUUID().toString()).put("slug", defaultSlug(label))
          .put("question", reply.prose());
      case FEATURE_CAP -> {
        if (!attached.isEmpty()) {
          // Uploads are capped: the page takes the send but fails it, as a site would.
          plan.put("fault", "something_went_wrong").put("error", featureCapText(reply));
        } else {
          plan.putNull("fault");
          transcript.add(answer(plan, reply, reply.modelSlug() == null ? defaultSlug(label) : reply.modelSlug()));
        }
      }
      case CAP_DOWNGRADE -> {
        plan.put("banner", capText(resumeAt(reply), "downgrade"));
        transcript.add(answer(plan, reply, reply.modelSlug() == null ? "gpt-5-mini" : reply.modelSlug()));
      }
      case MODEL_CAP_EXCEEDED -> {
        // Row 51: the turn request is refused 429 by code; the asked model's count is spent.
        plan.put("banner", capText(resumeAt(reply), null)).put("resume_at", resumeAt(reply).toString());
        counters.exhaust(defaultSlug(label));
      }
      case SMALLER_MODEL -> {
        // Row 51: no banner; the stream names a smaller model and says why. The page draws the answer as any other.
        plan.putNull("fault").put("smaller_model", true);
        transcript.add(answer(plan, reply, reply.modelSlug() == null ? SMALLER_SLUG : reply.modelSlug()));
      }
      case CRASH -> crashSoon(300);
      case SOMETHING_WENT_WRONG -> plan.put("error",
          "Something went wrong. If this issue persists please contact us through our help center at help.openai.com.");
      case HANG -> { }
      case DELETED -> transcript.add(answer(plan, reply, reply.modelSlug() == null ? defaultSlug(label) : reply.modelSlug()));
      // fakesol's upload faults are FakeSolUploads.Fault (the page's own requests); these scenario ones are ScriptedSeat's.
      case UPLOAD_FAILED, UPLOAD_THROTTLED -> transcript.add(answer(plan.putNull("fault"), reply,
          reply.modelSlug() == null ? defaultSlug(label) : reply.modelSlug()));
      default -> throw new IllegalStateException("Unhandled fault at Send: " + fault);
    }
    ObjectNode last = transcript.get(transcript.size() - 1);
    if ("assistant".equals(last.path("role").asText())) {
      counters.spend(last.path("slug").asText(null), attached.size());
      // The server writes the answer at the reply's pace, whether or not a browser still listens.
      long now = clock.millis();
      long writing = reply.delayMs() + reply.thinkingMs() + reply.falsePauseMs() + reply.streamMs() + reply.preambleMs()
          + (reply.preamble() == null || reply.preamble().isEmpty() ? 0 : 1500);
      last.put("started_at_ms", now).put("finish_at_ms", now + writing + GENERATION_MARGIN_MS);
    }
    return new Planned(plan, reply, newChat, older);
  }

  /** The model a capped account's answer comes from, with no banner ({@code smaller_model}). */
  static final String SMALLER_SLUG = "gpt-5-6-mini";

  /** The account's counters as they stand now (each turn's conversation_detail_metadata). */
  AccountCounters.Snapshot counters() {
    return counters.snapshot();
  }

  /** A turn request reached the server (the Send boundary, whatever the answer). */
  synchronized void turnRequested() {
    sendsAt.add(clock.instant());
  }

  /**
   * REAL-PAGE row 52: the page's conversation JSON and {@code stream_status} asked more than
   * {@code requests} times within {@code window} answer 429 "Too many requests", and the page shows
   * its rate-limit modal, as bursts of history requests (a reload's, or steady polling's) do on
   * the real page. A rule fakesol applies to what it receives: a seat that bursts trips it.
   */
  public record BurstRule(int requests, java.time.Duration window) {}

  /** Turns row 52's burst rule on (for the rest of this fakesol's life). */
  public synchronized FakeSol burstRule(int requests, java.time.Duration window) {
    burstRule = new BurstRule(requests, window);
    return this;
  }

  /** Every time the conversation JSON was asked (history), in order: a task's history requests per turn. */
  public synchronized List<Instant> historyRequestTimes() {
    return List.copyOf(historyTimes);
  }

  /** Times the stream status was asked. */
  public synchronized int statusRequests() {
    return statusRequests;
  }

  /** Times the burst rule showed the modal (one per burst, however many requests it refused). */
  public synchronized int modals() {
    return modals;
  }

  /**
   * The conversation JSON ({@code history}) or its stream status was asked; true when the burst
   * rule refuses it (429, and the page shows the modal).
   */
  synchronized boolean jsonRequested(boolean history) {
    if (history) {
      historyRequests++;
      historyTimes.add(clock.instant());
    } else {
      statusRequests++;
    }
    if (burstRule == null) {
      return false;
    }
    Instant now = clock.instant();
    jsonTimes.addLast(now);
    while (!jsonTimes.isEmpty() && jsonTimes.peekFirst().isBefore(now.minus(burstRule.window()))) {
      jsonTimes.removeFirst();
    }
    boolean refuse = jsonTimes.size() > burstRule.requests();
    if (refuse && !throttling) {
      modals++;
    }
    throttling = refuse;
    return refuse;
  }

  /** fakesol's own id of a conversation the page knows by {@code pageConversation} (a recording's id, say). */
  String resolve(String pageConversation) {
    return aliases.resolve(pageConversation);
  }

  /** The page's stream delivered the answer's terminal frames: the server is done writing it. */
  synchronized void written(String conversationId, String answerId) {
    for (ObjectNode turn : transcripts.getOrDefault(aliases.resolve(conversationId), List.of())) {
      if (answerId.equals(turn.path("id").asText()) && turn.has("finish_at_ms")) {
        turn.put("finish_at_ms", Math.min(turn.path("finish_at_ms").asLong(), clock.millis()));
      }
    }
  }

  /**
   * A conversation's turns as the server holds them now (copies), for its history JSON: an answer
   * still being written is marked so ({@code writing}, its text so far), a stopped one stays cut.
   * Empty when the conversation does not exist, is deleted or was a temporary chat.
   */
  synchronized Optional<List<ObjectNode>> heldTurns(String pageConversation) {
    String id = aliases.resolve(pageConversation);
    Optional<List<ObjectNode>> personal = history.personalTranscript(id);
    if (history.gone(id) || history.isDeleted(id) || (!player.exists(id) && personal.isEmpty())) {
      return Optional.empty();
    }
    List<ObjectNode> out = new ArrayList<>();
    long now = clock.millis();
    for (ObjectNode turn : personal.orElseGet(() -> transcripts.getOrDefault(id, List.of()))) {
      ObjectNode copy = turn.deepCopy();
      long finish = turn.path("finish_at_ms").asLong(0);
      long stopped = turn.path("stopped_at_ms").asLong(0);
      if (finish > now || stopped > 0) {
        long start = turn.path("started_at_ms").asLong(now);
        long until = stopped > 0 ? Math.min(stopped, finish) : now;
        String markdown = turn.path("markdown").asText("");
        double part = finish <= start ? 0 : Math.max(0, Math.min(1, (until - start) / (double) (finish - start)));
        copy.put("writing", stopped == 0).put("stopped", stopped > 0)
            .put("markdown", markdown.substring(0, (int) Math.floor(markdown.length() * part)));
      }
      out.add(copy);
    }
    return Optional.of(out);
  }

  /** Stop (the page's Stop): the server stops writing whatever it still writes. */
  private synchronized void stopWriting() {
    transcripts.keySet().forEach(this::stopConversation);
  }

  /** {@code stop_conversation}: the server stops writing this conversation's answer (it stays cut, in progress). */
  synchronized void stopConversation(String pageConversation) {
    long now = clock.millis();
    transcripts.getOrDefault(aliases.resolve(pageConversation), List.of()).stream()
        .filter(t -> t.path("finish_at_ms").asLong(0) > now && !t.has("stopped_at_ms"))
        .forEach(t -> t.put("stopped_at_ms", now));
  }

  /** A Send's plan, the reply behind it (null when the script ran out), and what the stream needs. */
  record Planned(ObjectNode plan, ScriptedReply reply, boolean newChat, List<StreamEncoder.Previous> older) {}

  /** What a recorded body said about its turn: the ids the page adopts and the answer it shows. */
  record Recording(String conversationId, String userMessageId, String answerId, String markdown, String slug) {}

  /**
   * Records a send that a recorded body answers ({@code --stream-file}): no scripted reply is
   * used; the conversation takes the recording's id for the page from now on, and its transcript
   * the recording's message ids and answer, so a reload shows what the stream said.
   *
   * @return the conversation's id as the page knows it
   */
  synchronized String recordReplay(String text, String label, String pageConversation, List<String> attached,
      String userMessageId, Recording recording) {
    String conversation = aliases.resolve(pageConversation);
    if (conversation == null || conversation.isEmpty()) {
      conversation = drafts.containsKey(text) ? drafts.get(text) : player.openConversation(text);
    }
    drafts.values().removeIf(conversation::equals); // a draft is used once
    player.record(new ScenarioPlayer.Send(conversation, Effort.fromLabel(label).orElse(null), label, text, clock.instant(), attached));
    aliases.adopt(conversation, recording.conversationId());
    List<ObjectNode> transcript = transcripts.computeIfAbsent(conversation, k -> new ArrayList<>());
    String userId = recording.userMessageId() != null ? recording.userMessageId()
        : userMessageId != null ? userMessageId : UUID.randomUUID().toString();
    transcript.add(JSON.createObjectNode().put("role", "user").put("id", userId).put("text", text));
    if (recording.answerId() != null) {
      transcript.add(JSON.createObjectNode().put("role", "assistant").put("id", recording.answerId())
          .put("slug", recording.slug()).put("markdown", recording.markdown()));
    }
    return aliases.shown(conversation);
  }

  Vertx vertx() {
    return vertx;
  }

  private ObjectNode answer(ObjectNode plan, ScriptedReply reply, String slug) {
    String messageId = UUID.randomUUID().toString();
    ArrayNode blocks = JSON.createArrayNode();
    StringBuilder markdown = new StringBuilder(reply.prose());
    for (String code : reply.blocks()) {
      String lang = code.stripLeading().startsWith("{") || code.stripLeading().startsWith("[") ? "json" : "";
      blocks.addObject().put("lang", lang).put("label", lang.isEmpty() ? "" : lang.toUpperCase(Locale.ROOT)).put("code", code);
      String fence = "`".repeat(Math.max(3, longestRun(code, '`') + 1));
      if (markdown.length() > 0) {
        markdown.append("\n\n");
      }
      markdown.append(fence).append(lang).append('\n').append(code).append('\n').append(fence);
    }
    // Generated images are files the site serves under the message (the real page loads them
    // from its own file service with the session cookie); each scripted name is a small PNG.
    // The real page loads them from /backend-api/estuary/content?id=file_... (oracle), signed.
    ArrayNode images = JSON.createArrayNode();
    for (String name : reply.images()) {
      String fileId = "file_" + UUID.randomUUID().toString().replace("-", "");
      estuaryFiles.put(fileId, java.nio.file.Path.of(name).getFileName().toString());
      images.addObject().put("file_id", fileId).put("url", "/backend-api/estuary/content?id=" + fileId
          + "&ts=" + clock.instant().getEpochSecond() + "&p=fs&cid=1&sig=" + Integer.toHexString(fileId.hashCode()));
    }
    plan.put("message_id", messageId).put("slug", slug).put("prose", reply.prose()).put("markdown", markdown.toString());
    plan.set("blocks", blocks);
    plan.set("images", images);
    ObjectNode turn = JSON.createObjectNode().put("role", "assistant").put("id", messageId).put("slug", slug)
        .put("prose", reply.prose()).put("markdown", markdown.toString());
    turn.set("blocks", blocks);
    turn.set("images", images);
    return turn;
  }

  /** ChatGPT's Retry resubmits the last message: counted, and recorded as a second submission. */
  private synchronized void retry(RoutingContext ctx) {
    retryClicks++;
    String conversation = aliases.resolve(body(ctx).path("conversation_id").asText(null));
    List<ObjectNode> transcript = transcripts.getOrDefault(conversation, List.of());
    for (int i = transcript.size() - 1; i >= 0; i--) {
      if ("user".equals(transcript.get(i).path("role").asText())) {
        player.record(new ScenarioPlayer.Send(conversation, Effort.fromLabel(effortLabel).orElse(null), effortLabel,
            transcript.get(i).path("text").asText(), clock.instant()));
        break;
      }
    }
    json(ctx, 200, JSON.createObjectNode().put("ok", true));
  }

  private synchronized void stop(RoutingContext ctx) {
    stopClicks++;
    stopWriting();
    json(ctx, 200, JSON.createObjectNode().put("ok", true));
  }

  /** A generated image: a PNG for any file id this fakesol handed out, else 404. */
  private synchronized void file(RoutingContext ctx) {
    String id = ctx.queryParams().get("id");
    if (id == null || !estuaryFiles.containsKey(id)) {
      ctx.response().setStatusCode(404).end();
      return;
    }
    ctx.response().putHeader("content-type", "image/png").putHeader("cache-control", "no-store")
        .end(io.vertx.core.buffer.Buffer.buffer(PNG));
  }

  private synchronized void control(RoutingContext ctx) {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode sends = out.putArray("sends");
    for (ScenarioPlayer.Send s : player.sends()) {
      sends.addObject().put("conversation_id", s.conversationId())
          .put("effort", s.effort() == null ? null : s.effort().suffix())
          .put("effort_label", s.effortLabel()).put("text", s.text()).put("length", s.text().length())
          .put("at", s.at().toString());
      ArrayNode files = sends.get(sends.size() - 1).withArray("attachments");
      s.attachments().forEach(files::add);
    }
    out.put("send_count", player.sends().size());
    ArrayNode at = out.putArray("sends_at"); // when each turn request reached the server, in order (ms precision)
    sendsAt.forEach(t -> at.add(t.toString()));
    out.put("history_requests", historyRequests).put("status_requests", statusRequests).put("modals", modals);
    out.put("retry_clicks", retryClicks).put("stop_clicks", stopClicks).put("regenerations", regenerations).put("crashes", crashes)
        .put("conversations_opened", player.conversationsOpened()).put("wall", wall).put("mode", mode)
        .put("canvas_edits", canvasEdits);
    history.report(out);
    wire.report(out);
    out.set("mutations", page.config().path("mutations").deepCopy()); // what the page was rendered through
    out.set("seed", page.config().path("seed"));
    uploads.report(out);
    json(ctx, 200, out);
  }

  // ---- Helpers ---------------------------------------------------------------------------

  void crashSoon(long delayMs) {
    crashes++;
    Runnable hook = crashHook;
    vertx.setTimer(delayMs, id -> vertx.executeBlocking(() -> {
      hook.run();
      return null;
    }));
  }

  private Instant resumeAt(ScriptedReply reply) {
    if (reply.resumeAt() != null) {
      return Instant.parse(reply.resumeAt());
    }
    return clock.instant().plusSeconds(reply.resumeInSeconds() != null ? reply.resumeInSeconds() : 3600);
  }

  /**
   * The banner words ChatGPT uses. A whole number of hours reads "in N hours" (as the real page
   * does for long caps); any other time reads as a clock time in this machine's zone.
   */
  private String capText(Instant resumeAt, String kind) {
    long seconds = resumeAt.getEpochSecond() - clock.instant().getEpochSecond();
    String when = seconds > 0 && seconds % 3600 == 0
        ? "in " + seconds / 3600 + (seconds == 3600 ? " hour" : " hours")
        : "after " + CLOCK.format(resumeAt.atZone(ZoneId.systemDefault()));
    if ("downgrade".equals(kind)) {
      return "You've hit the Plus plan limit for GPT-5 Thinking. Responses will use another model until your limit resets "
          + when + ".";
    }
    return "You've reached our limit of messages per 3 hours. Your limit resets " + when + ".";
  }

  /** REAL-PAGE row 7's feature-cap text, with the reset time as a clock time in this machine's zone. */
  private String featureCapText(ScriptedReply reply) {
    return "Files, images, and data analysis are unavailable until usage resets at "
        + CLOCK.format(resumeAt(reply).atZone(ZoneId.systemDefault())) + ".";
  }

  private static String defaultSlug(String label) {
    Effort effort = Effort.fromLabel(label).orElse(Effort.MEDIUM);
    return switch (effort) {
      case INSTANT -> "gpt-5-instant";
      case PRO -> "gpt-5-pro";
      default -> "gpt-5-thinking";
    };
  }

  private static String wire(Fault fault) {
    return fault.name().toLowerCase(Locale.ROOT);
  }

  private static int longestRun(String s, char c) {
    int best = 0;
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      run = s.charAt(i) == c ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return best;
  }

  /** A request's JSON body; an empty object when it has none or it is not JSON. */
  static JsonNode body(RoutingContext ctx) {
    try {
      String raw = ctx.body().asString();
      return raw == null || raw.isEmpty() ? JSON.createObjectNode() : JSON.readTree(raw);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  static void json(RoutingContext ctx, int status, JsonNode body) {
    try {
      ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
          .putHeader("cache-control", "no-store").end(JSON.writeValueAsString(body));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static <T> T await(java.util.concurrent.CompletableFuture<T> future) {
    try {
      return future.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("fakesol: " + e.getMessage(), e);
    }
  }
}
