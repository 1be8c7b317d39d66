package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An imitation of the ChatGPT web page on 127.0.0.1, driven by the SAME {@link Scenario} format
 * and {@link ScenarioPlayer} as ScriptedSeat, so the real Playwright seat meets the live DOM
 * shapes (../shared/CHATGPT-DOM.md) and every scripted fault in a real Chromium. The page itself
 * (HTML and JS) is a resource; this class assembles its backend, which is split by what it serves:
 * the session and the page's state ({@link PageSession}), the turn ({@link TurnPlanner}, the
 * {@link ConversationEndpoint} and what the server holds, {@link Transcripts}), the account's
 * counters and limits ({@link AccountCounters}, {@link CapBanners}, {@link BurstLimit}), the faults
 * a test arms ({@link PageFaults}); and a JSON control endpoint ({@code GET /control}) that shows
 * what was submitted, with which effort, to which conversation, and how often Retry and Stop were
 * clicked.
 */
public final class FakeSol implements AutoCloseable {

  static final ObjectMapper JSON = dev.solweb.provider.platform.Json.MAPPER;

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final ScenarioPlayer player;
  private final PageRender page;
  private final PageModels models;
  private final ConversationEndpoint conversationEndpoint = new ConversationEndpoint(this);
  private final ConversationJson conversationJson = new ConversationJson(this);
  private final ConversationAliases aliases;
  private final ChatHistory history;
  /** The account's counters, counting down with every Send (REAL-PAGE row 50). */
  private final AccountCounters counters;
  private final BurstLimit burstLimit;
  private final PageFaults faults;
  private final PageSession session;
  private final Transcripts transcripts;
  private final GeneratedImages images;
  private final TurnPlanner turns;
  private final PageWire wire;
  private final FakeSolUploads uploads;
  private HttpServer server;
  private boolean closed;

  private FakeSol(Vertx vertx, boolean ownsVertx, Scenario scenario, Clock clock, PageMutations.Plan plan) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.player = new ScenarioPlayer(scenario);
    ConversationAliases aliases = new ConversationAliases();
    this.counters = new AccountCounters(clock);
    this.burstLimit = new BurstLimit(clock);
    this.history = new ChatHistory(clock, aliases);
    this.wire = new PageWire(clock);
    this.faults = new PageFaults(vertx);
    CapBanners banners = new CapBanners(clock);
    this.session = new PageSession(player, aliases, new FakeSolLogin(scenario.account(), PageRender.resource("login.html")),
        faults, banners, clock);
    this.transcripts = new Transcripts(clock, player, aliases, history);
    this.images = new GeneratedImages(clock);
    this.aliases = aliases;
    // The login flow and the uploads are their own small scripts and routes, added to whatever the page is.
    this.page = PageRender.of(scenario.dom(), scenario.locale(), plan).script("/fakesol-login.js", "login.js")
        .script("/fakesol-upload.js", "upload.js");
    this.models = PageModels.of(page.config());
    this.turns = new TurnPlanner(player, clock, aliases, transcripts, session, faults, counters, banners, images, models);
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

  public int retryClicks() {
    return turns.retryClicks();
  }

  public int stopClicks() {
    return turns.stopClicks();
  }

  /**
   * Waits until the page reported {@code count} Stop clicks (it reports each on its own request,
   * after the seat's click returned); {@code bound} only ends a wait that would hang.
   */
  public boolean awaitStopClicks(int count, Duration bound) throws InterruptedException {
    return turns.awaitStopClicks(count, bound);
  }

  public int crashes() {
    return faults.crashes();
  }

  /**
   * Makes the turn copy buttons copy nothing (as when ChatGPT changes how it copies), so the
   * seat must fall back to reading each code block from the DOM.
   */
  public void breakCopyButtons() {
    faults.breakCopyButtons();
  }

  /**
   * Holds each streamed answer's thinking, after its first half, until {@link #releaseThinking()}
   * (or 10 s): a test that must see the first half before the thinking moves the page on its own
   * signal instead of racing the stream's timers.
   */
  public void holdThinking() {
    faults.holdThinking();
  }

  /** Lets a held thinking start (see {@link #holdThinking()}); nothing when none is held. */
  public void releaseThinking() {
    faults.releaseThinking();
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
  public void ignoreInsertText() {
    faults.ignoreInsertText();
  }

  /** The ids the page gave the user messages of a conversation (its turn requests' messages[0].id), oldest first. */
  public List<String> userMessageIds(String conversationId) {
    return transcripts.userMessageIds(conversationId);
  }

  /** The page's model rows and the model of every turn request (rows 59-64). */
  PageModels models() {
    return models;
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

  /** The sidebar, projects, temporary chats and deletes: what tests seed and what {@code /control} reports. */
  public ChatHistory history() {
    return history;
  }

  /** The page shape this fakesol serves ({@link Scenario#DOMS}). */
  public String dom() {
    return player.scenario().dom();
  }

  /** What a crash fault does: tests end the seat's Chromium here. Runs off the event loop. */
  public void onCrash(Runnable hook) {
    faults.onCrash(hook);
  }

  /** How many edits reached a Canvas editor (the user's code; REAL-PAGE row 15). */
  public int canvasEdits() {
    return session.canvasEdits();
  }

  /** The Chat/Work switch as the page shows it now: {@code chat} or {@code work}. */
  public String mode() {
    return session.mode();
  }

  /**
   * Turns REAL-PAGE row 52's burst rule on (for the rest of this fakesol's life): the page's
   * conversation JSON and {@code stream_status} asked more than {@code requests} times within
   * {@code window} answer 429 and the page shows its rate-limit modal ({@link BurstLimit}).
   */
  public FakeSol burstRule(int requests, Duration window) {
    burstLimit.rule(requests, window);
    return this;
  }

  /** Every time the conversation JSON was asked (history), in order: a task's history requests per turn. */
  public List<Instant> historyRequestTimes() {
    return burstLimit.historyRequestTimes();
  }

  /** Times the stream status was asked. */
  public int statusRequests() {
    return burstLimit.statusRequests();
  }

  /** Times the burst rule showed the modal (one per burst, however many requests it refused). */
  public int modals() {
    return burstLimit.modals();
  }

  /** Idempotent: a test may close it early and its harness again after the test. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (server != null) {
      await(server.close().toCompletionStage().toCompletableFuture());
    }
    if (ownsVertx) {
      await(vertx.close().toCompletionStage().toCompletableFuture());
    }
  }

  // ---- What the conversation endpoint and the conversation JSON ask of the rest ----------

  /** See {@link TurnPlanner#plan}. */
  TurnPlanner.Planned plan(String text, String label, String pageConversation, List<String> attached, String userMessageId) {
    return turns.plan(text, label, pageConversation, attached, userMessageId);
  }

  /** A Regenerate of the prompt {@code parentMessageId} (row 35; {@link TurnPlanner#regenerate}), or null when there is none. */
  TurnPlanner.Planned regenerate(String label, String pageConversation, String parentMessageId) {
    return turns.regenerate(label, pageConversation, parentMessageId);
  }

  /** Regenerations the page asked for: each answered the prompt again, with no new user message. */
  public int regenerations() {
    return turns.regenerations();
  }

  /** See {@link TurnPlanner#recordReplay}. */
  String recordReplay(String text, String label, String pageConversation, List<String> attached, String userMessageId,
      TurnPlanner.Recording recording) {
    return turns.recordReplay(text, label, pageConversation, attached, userMessageId, recording);
  }

  /** A turn request reached the server (the Send boundary, whatever the answer). */
  void turnRequested() {
    turns.turnRequested();
  }

  /** What a stream's thinking waits for: done at once unless a test holds it. */
  CompletableFuture<Void> thinkingHold() {
    return faults.thinkingHold();
  }

  /** The page's stream delivered the answer's terminal frames: the server is done writing it. */
  void written(String conversationId, String answerId) {
    transcripts.written(conversationId, answerId);
  }

  /** See {@link Transcripts#held}. */
  java.util.Optional<List<ObjectNode>> heldTurns(String pageConversation) {
    return transcripts.held(pageConversation);
  }

  /** {@code stop_conversation}: the server stops writing this conversation's answer (it stays cut, in progress). */
  void stopConversation(String pageConversation) {
    transcripts.stop(pageConversation);
  }

  /** See {@link BurstLimit#requested}. */
  boolean jsonRequested(boolean history) {
    return burstLimit.requested(history);
  }

  /** The account's counters as they stand now (each turn's conversation_detail_metadata). */
  AccountCounters.Snapshot counters() {
    return counters.snapshot();
  }

  /** fakesol's own id of a conversation the page knows by {@code pageConversation} (a recording's id, say). */
  String resolve(String pageConversation) {
    return aliases.resolve(pageConversation);
  }

  Vertx vertx() {
    return vertx;
  }

  // ---- Routes ----------------------------------------------------------------------------

  private Router router() {
    Router router = Router.router(vertx);
    conversationEndpoint.mountSocket(router); // before the body handler, which would consume the upgrade request
    router.route().handler(BodyHandler.create().setBodyLimit(16 * 1024 * 1024));
    page.mount(router);
    models.mount(router);
    history.mount(router);
    session.mount(router);
    router.get("/api/wire").handler(ctx -> json(ctx, 200, wire.config(player.scenario().dom())));
    transcripts.mount(router);
    turns.mount(router);
    conversationEndpoint.mount(router);
    uploads.mount(router, vertx);
    conversationJson.mount(router);
    images.mount(router);
    router.get("/control").handler(this::control);
    return router;
  }

  private void control(RoutingContext ctx) {
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
    turns.sendsAt().forEach(t -> at.add(t.toString()));
    out.put("history_requests", burstLimit.historyRequests()).put("status_requests", burstLimit.statusRequests())
        .put("modals", burstLimit.modals());
    out.put("retry_clicks", turns.retryClicks()).put("stop_clicks", turns.stopClicks())
        .put("regenerations", turns.regenerations()).put("crashes", faults.crashes())
        .put("conversations_opened", player.conversationsOpened()).put("wall", session.wall()).put("mode", session.mode())
        .put("canvas_edits", session.canvasEdits());
    history.report(out);
    wire.report(out);
    models.report(out);
    out.set("mutations", page.config().path("mutations").deepCopy()); // what the page was rendered through
    out.set("seed", page.config().path("seed"));
    uploads.report(out);
    json(ctx, 200, out);
  }

  // ---- Helpers ---------------------------------------------------------------------------

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

  private static <T> T await(CompletableFuture<T> future) {
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
