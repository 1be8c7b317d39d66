package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.provider.seat.playwright.browser.DriverCache;
import dev.solweb.testkit.Programs;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link StreamTap#INIT_SCRIPT} in headless Chromium on a loopback page of our own: the page's own
 * code must read every response exactly as without the tap, the server must see exactly the
 * requests the page made, and the buffer must hold the turn bodies (and only those) minus the JWT.
 */
class StreamTapBrowserTest {

  static final String JWT_LINE = "data: {\"type\": \"resume_conversation_token\", \"token\": \"eyJhbGciOi.SECRETJWT.sig\"}";
  /** Chunks as the server writes them: a CRLF and a 4-byte UTF-8 character split between chunks. */
  static final List<byte[]> TURN_CHUNKS = chunks(
      "event: delta_encoding\r\ndata: \"v1\"\r", "\n\r\n" + JWT_LINE + "\r\n\r\n",
      "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a\", \"content\": {\"parts\": [\"h\u00e9 \uD83D\uDE42",
      "\"]}}}}\n\ndata: {\"type\": \"message_stream_complete\", \"conversation_id\": \"c-1\"}\n\ndata: [DONE]\n\n");

  static Vertx vertx;
  static HttpServer server;
  static Playwright playwright;
  static Browser browser;
  static final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  static final List<String> seenAuthorization = new CopyOnWriteArrayList<>();
  static final List<String> seenBodies = new CopyOnWriteArrayList<>();
  BrowserContext context;
  Page page;

  static List<byte[]> chunks(String... parts) {
    byte[] all = String.join("", parts).getBytes(StandardCharsets.UTF_8);
    List<byte[]> out = new ArrayList<>();
    int from = 0;
    for (String p : parts) {
      int len = p.getBytes(StandardCharsets.UTF_8).length;
      out.add(java.util.Arrays.copyOfRange(all, from, from + len));
      from += len;
    }
    // Split the emoji's four bytes across two writes as well.
    byte[] third = out.get(2);
    out.set(2, java.util.Arrays.copyOf(third, third.length - 2));
    byte[] fourth = out.get(3);
    byte[] joined = new byte[2 + fourth.length];
    System.arraycopy(third, third.length - 2, joined, 0, 2);
    System.arraycopy(fourth, 0, joined, 2, fourth.length);
    out.set(3, joined);
    return out;
  }

  static String turnText() {
    StringBuilder sb = new StringBuilder();
    TURN_CHUNKS.forEach(c -> sb.append(new String(c, StandardCharsets.ISO_8859_1)));
    return new String(sb.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  @BeforeAll
  static void start() throws Exception {
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    vertx = Vertx.vertx();
    server = vertx.createHttpServer().requestHandler(StreamTapBrowserTest::handle).webSocketHandler(StreamTapBrowserTest::socket)
        .listen(0, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    DriverCache.use(System.getenv());
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
        .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setHeadless(true).setArgs(Chromium.ARGS));
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (playwright != null) {
      playwright.close();
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @BeforeEach
  void openPage() {
    hits.clear();
    seenAuthorization.clear();
    seenBodies.clear();
    context = browser.newContext();
    context.addInitScript(StreamTap.INIT_SCRIPT);
    page = context.newPage();
    page.navigate("http://127.0.0.1:" + server.actualPort() + "/");
  }

  @AfterEach
  void closePage() {
    context.close();
  }

  private static void handle(HttpServerRequest req) {
    String path = req.path();
    hits.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
    String auth = req.getHeader("authorization");
    if (auth != null) {
      seenAuthorization.add(auth);
    }
    if (req.method() == io.vertx.core.http.HttpMethod.POST) {
      req.body().onSuccess(b -> seenBodies.add(path + " " + b.toString()));
    }
    var res = req.response();
    if (path.startsWith("/backend-api/conversation/id/") && req.method() == io.vertx.core.http.HttpMethod.DELETE) {
      boolean known = path.endsWith("/6929a1b2-0c3d");
      res.setStatusCode(known ? 200 : 404).putHeader("content-type", "application/json")
          .end(known ? "{\"success\": true}" : "{\"detail\": {\"code\": \"conversation_not_found\"}}");
      return;
    }
    switch (path) {
      case "/" -> res.putHeader("content-type", "text/html").end(PAGE);
      case "/backend-api/f/conversation", "/backend-api/f/conversation/resume" -> {
        if ("json".equals(req.getParam("answer"))) {
          res.putHeader("content-type", "application/json").end("{\"ok\": true}");
          return;
        }
        if ("429".equals(req.getParam("answer"))) {
          res.setStatusCode(429).putHeader("content-type", "application/json")
              .end("{\"detail\": {\"message\": \"Too many requests\", \"clears_in\": 120}}");
          return;
        }
        if ("handoff".equals(req.getParam("answer"))) {
          res.putHeader("content-type", "text/event-stream").end(HANDOFF_BODY);
          return;
        }
        boolean hold = "hold".equals(req.getParam("answer"));
        res.setChunked(true).putHeader("content-type", "text/event-stream; charset=utf-8");
        writeSlowly(res, 0, hold);
      }
      case "/backend-api/f/conversation/prepare", "/backend-api/conversation/init" ->
          res.putHeader("content-type", "application/json").end("{\"conduit_token\": \"x\"}");
      case "/backend-api/conversations/6929a1b2-0c3d" -> res.putHeader("content-type", "application/json")
          .end("{\"conversation_id\": \"6929a1b2-0c3d\", \"async_status\": 3, \"messages\": []}");
      case "/backend-api/conversation/6929a1b2-0c3d/stream_status" -> res.putHeader("content-type", "application/json")
          .end("{\"status\": \"IS_STREAMING\"}");
      default -> res.setStatusCode(404).end();
    }
  }

  /** One chunk per 20 ms, so the page and the tap both see several reads; "hold" never ends the body. */
  private static void writeSlowly(io.vertx.core.http.HttpServerResponse res, int i, boolean hold) {
    if (i == TURN_CHUNKS.size()) {
      if (!hold) {
        res.end();
      }
      return;
    }
    res.write(Buffer.buffer(TURN_CHUNKS.get(i)));
    vertx.setTimer(20, t -> writeSlowly(res, i + 1, hold));
  }

  static final String TOPIC = "conversation-turn-a-9";
  static final String HANDOFF_BODY = "event: delta_encoding\ndata: \"v1\"\n\n"
      + "data: {\"type\": \"input_message\", \"input_message\": {\"id\": \"u-9\"}, \"conversation_id\": \"c-9\"}\n\n"
      + "data: {\"type\": \"stream_handoff\", \"conversation_id\": \"c-9\", \"options\": [{\"type\": \"subscribe_ws_topic\", \"topic_id\": \"" + TOPIC + "\"}]}\n\n"
      + "data: [DONE]\n\n";
  static final List<String> SOCKET_ITEMS = List.of(
      "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-9\", \"author\": {\"role\": \"assistant\"}, "
          + "\"content\": {\"content_type\": \"text\", \"parts\": [\"over the \"]}, \"status\": \"in_progress\", \"channel\": \"final\", \"recipient\": \"all\", "
          + "\"metadata\": {\"model_slug\": \"gpt-5-6-pro\"}}, \"conversation_id\": \"c-9\"}}\n\n",
      "data: {\"p\": \"\", \"o\": \"patch\", \"v\": [{\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"socket\"}, "
          + "{\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}, {\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}]}\n\n",
      "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"c-9\"}\n\n");

  /** The handoff socket: on subscribe, every item (the first one twice, as a replay), then done. */
  private static void socket(io.vertx.core.http.ServerWebSocket ws) {
    ws.textMessageHandler(msg -> {
      if (!msg.contains(TOPIC)) {
        return;
      }
      for (int i = 0; i < SOCKET_ITEMS.size(); i++) {
        io.vertx.core.json.JsonObject item = new io.vertx.core.json.JsonObject().put("type", "message").put("payload",
            new io.vertx.core.json.JsonObject().put("topic_id", TOPIC).put("payload", new io.vertx.core.json.JsonObject()
                .put("stream_item_id", "i-" + i).put("encoded_item", SOCKET_ITEMS.get(i))));
        ws.writeTextMessage(item.encode());
        if (i == 0) {
          ws.writeTextMessage(item.encode());
        }
      }
      ws.writeTextMessage("{\"type\": \"message\", \"payload\": {\"topic_id\": \"" + TOPIC + "\", \"payload\": {\"type\": \"done\"}}}");
    });
  }

  static final String PAGE = """
      <!doctype html><html><body><script>
      window.readAll = async (path, opts, how) => {
        const ctl = new AbortController();
        const r = await fetch(path, Object.assign({ signal: ctl.signal }, opts || {}));
        const out = { status: r.status, type: r.headers.get('content-type'), isResponse: r instanceof Response, text: '' };
        if (how === 'text') { out.text = await r.text(); return out; }
        const reader = r.body.getReader(); const dec = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          out.text += dec.decode(value, { stream: true });
          if (how === 'abort-after-done' && out.text.endsWith('data: [DONE]\\n\\n')) { ctl.abort(); break; }
        }
        out.text += dec.decode();
        return out;
      };
      window.followSocket = (topic) => new Promise((resolve) => {
        const ws = new WebSocket('ws://' + location.host + '/ws');
        let frames = 0;
        ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', topic_id: topic }));
        ws.onmessage = (e) => { frames++; if (JSON.parse(e.data).payload.payload.type === 'done') { ws.close(); resolve(frames); } };
      });
      </script></body></html>
      """;

  @SuppressWarnings("unchecked")
  private Map<String, Object> pageRead(String path, String how) {
    return (Map<String, Object>) page.evaluate("([p, how]) => readAll(p, { method: 'POST', headers: "
        + "{ 'content-type': 'application/json', 'accept': 'text/event-stream', 'authorization': 'Bearer page-secret-token' }, "
        + "body: JSON.stringify({ action: 'next', supported_encodings: ['v1'] }) }, how)", List.of(path, how));
  }

  /** Drains until {@code n} bodies ended, merging each body's text (the seat drains the same way, per poll). */
  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> drainUntilEnded(int n) {
    return (List<Map<String, Object>>) page.evaluate("""
        async (n) => {
          const acc = new Map(); const end = Date.now() + 10000;
          while (Date.now() < end) {
            for (const c of window.__solwebTap.drain().bodies) {
              const a = acc.get(c.id) || { text: '' };
              acc.set(c.id, Object.assign(a, c, { text: a.text + c.text }));
            }
            if ([...acc.values()].filter((a) => a.ended).length >= n) break;
            await new Promise((r) => setTimeout(r, 10));
          }
          return [...acc.values()];
        }""", n);
  }

  @Test
  void thePageReadsTheTurnExactlyAndTheTapHoldsTheSameBytesWithoutTheJwt() {
    Map<String, Object> read = pageRead("/backend-api/f/conversation", "reader");
    assertThat(read.get("text")).isEqualTo(turnText());
    assertThat(read.get("isResponse")).isEqualTo(true);
    assertThat(read.get("type")).isEqualTo("text/event-stream; charset=utf-8");

    List<Map<String, Object>> bodies = drainUntilEnded(1);
    assertThat(bodies).hasSize(1);
    Map<String, Object> body = bodies.get(0);
    assertThat(body.get("path")).isEqualTo("/backend-api/f/conversation");
    assertThat(body.get("status")).isEqualTo(200);
    assertThat(body.get("error")).isNull();
    assertThat(body.get("text")).isEqualTo(turnText().replace(JWT_LINE + "\r\n", ""));
    assertThat(bodies.toString()).doesNotContain("SECRETJWT").doesNotContain("page-secret-token");

    assertThat(hits.get("/backend-api/f/conversation").get()).as("no request added or repeated").isEqualTo(1);
    assertThat(seenAuthorization).containsExactly("Bearer page-secret-token");
    assertThat(seenBodies).containsExactly("/backend-api/f/conversation {\"action\":\"next\",\"supported_encodings\":[\"v1\"]}");

    // The decoder reads the tapped text as it would the wire bytes.
    StreamTurn t = new StreamTurn();
    ConversationStreamDecoder d = new ConversationStreamDecoder();
    t.accept(d.feed(((String) body.get("text")).getBytes(StandardCharsets.UTF_8)));
    t.accept(d.end());
    assertThat(t.conversationId()).isEqualTo("c-1");
  }

  /** The seat's pause between polls ends when the tap holds news, and a drain clears it. */
  @Test
  void theTapSaysWhenADrainHasNewsAndAwaitNewsReturnsOnIt() {
    assertThat(page.evaluate("() => window.__solwebTap.waiting()")).as("nothing tapped yet").isEqualTo(false);
    pageRead("/backend-api/f/conversation", "text");
    // The page read the whole body: the tap's buffer holds it (or its end) until drained.
    StreamTap.awaitNews(page, java.time.Duration.ofSeconds(10));
    assertThat(page.evaluate("() => window.__solwebTap.waiting()")).isEqualTo(true);
    List<Map<String, Object>> bodies = drainUntilEnded(1);
    assertThat(bodies).singleElement().satisfies(b -> assertThat(b.get("ended")).isEqualTo(true));
    assertThat(page.evaluate("() => window.__solwebTap.waiting()")).as("drained, the ended body left").isEqualTo(false);
  }

  @Test
  void aPageThatReadsTextGetsTheSameBodyAndSoDoesTheTap() {
    Map<String, Object> read = pageRead("/backend-api/f/conversation/resume", "text");
    assertThat(read.get("text")).isEqualTo(turnText());
    List<Map<String, Object>> bodies = drainUntilEnded(1);
    assertThat(bodies).singleElement().satisfies(b -> {
      assertThat(b.get("path")).isEqualTo("/backend-api/f/conversation/resume");
      assertThat(b.get("text")).isEqualTo(turnText().replace(JWT_LINE + "\r\n", ""));
    });
  }

  @Test
  void siblingsOfTheTurnPathAndJsonAnswersAreNotTapped() {
    for (String path : List.of("/backend-api/f/conversation/prepare", "/backend-api/conversation/init",
        "/backend-api/f/conversation?answer=json", "/backend-api/f/conversationx", "/x/backend-api/f/conversation")) {
      Map<String, Object> read = pageRead(path, "text");
      assertThat(read.get("status")).as(path).isIn(200, 404);
    }
    pageRead("/backend-api/f/conversation", "text"); // a marker body: once it ended, nothing else can be pending
    List<Map<String, Object>> bodies = drainUntilEnded(1);
    assertThat(bodies).extracting(b -> b.get("path")).containsExactly("/backend-api/f/conversation");
    assertThat(hits.get("/backend-api/f/conversation").get()).isEqualTo(2);
    assertThat(hits.get("/backend-api/f/conversation/prepare").get()).isEqualTo(1);
  }

  @Test
  void anHttpErrorOnTheTurnPathKeepsItsBodyForTheTypedFailure() {
    Map<String, Object> read = pageRead("/backend-api/f/conversation?answer=429", "text");
    assertThat(read.get("status")).isEqualTo(429);
    String json = "{\"detail\": {\"message\": \"Too many requests\", \"clears_in\": 120}}";
    assertThat(read.get("text")).isEqualTo(json);
    assertThat(drainUntilEnded(1)).singleElement().satisfies(b -> {
      assertThat(b.get("status")).isEqualTo(429);
      assertThat(b.get("stream")).isEqualTo(false);
      assertThat(b.get("errorBody")).isEqualTo(json);
    });
  }

  /** The page aborts its own fetch after the terminal frames: the tap keeps all it read and says so. */
  @Test
  void thePagesOwnAbortAfterTheTerminalFramesEndsTheTappedBody() {
    Map<String, Object> read = pageRead("/backend-api/f/conversation?answer=hold", "abort-after-done");
    assertThat(read.get("text")).isEqualTo(turnText());
    assertThat(drainUntilEnded(1)).singleElement().satisfies(b -> {
      assertThat(b.get("ended")).isEqualTo(true);
      assertThat(b.get("error")).isEqualTo("AbortError");
      assertThat((String) b.get("text")).endsWith("data: [DONE]\n\n");
    });
  }

  /** The seat's whole view: the tapped POST says where the answer went, the socket frames carry it. */
  @Test
  void pageStreamFollowsAHandoffOverTheSocketThePageOpened() {
    PageStream stream = new PageStream(page);
    stream.begin();
    pageRead("/backend-api/f/conversation?answer=handoff", "text");
    assertThat(page.evaluate("(t) => followSocket(t)", TOPIC)).isEqualTo(SOCKET_ITEMS.size() + 2);
    stream.poll();
    stream.poll(); // a poll after the socket events were delivered to this thread
    StreamTurn t = stream.turn();
    assertThat(t.handoff()).extracting(StreamEvent.HandoffOption::topicId).containsExactly(TOPIC);
    assertThat(stream.handoffFollowed()).isTrue();
    assertThat(t.complete()).isTrue();
    assertThat(t.answerText()).contains("over the socket");
    assertThat(t.modelSlug()).isEqualTo("gpt-5-6-pro");
    assertThat(t.conversationId()).isEqualTo("c-9");
    stream.end();
  }

  @Test
  void pageStreamKeepsHttpErrorsAndIgnoresABodyThatBeganBeforeTheTurn() {
    PageStream stream = new PageStream(page);
    // A body still streaming when the turn begins (an earlier turn's tail): none of it is this turn's.
    page.evaluate("() => { window.earlier = fetch('/backend-api/f/conversation', { method: 'POST' })"
        + ".then((r) => { window.gotHeaders = true; return r.text(); }); }");
    page.waitForFunction("() => window.gotHeaders === true"); // the tap saw the response before the page did
    stream.begin();
    page.evaluate("() => window.earlier");
    pageRead("/backend-api/f/conversation?answer=429", "text");
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (stream.httpErrors().isEmpty() && System.nanoTime() < deadline) {
      stream.poll();
      page.evaluate("() => new Promise((r) => setTimeout(r, 10))");
    }
    stream.poll();
    assertThat(stream.httpErrors()).extracting(PageStream.HttpError::status).containsExactly(429);
    assertThat(stream.httpErrors().get(0).body()).contains("clears_in");
    assertThat(stream.seen()).isTrue();
    assertThat(stream.turn().bodies()).as("the earlier body is not this turn's").isZero();
    assertThat(stream.turn().conversationId()).isNull();
  }

  /** Drains the tap's kept requests until {@code n} arrived (a Request object's body is read asynchronously). */
  private List<StreamTap.Sent> drainRequests(int n) {
    List<StreamTap.Sent> out = new ArrayList<>();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (out.size() < n && System.nanoTime() < deadline) {
      out.addAll(StreamTap.drain(page).requests());
      page.evaluate("() => new Promise((r) => setTimeout(r, 10))");
    }
    return out;
  }

  /** Row 17: the page's /prepare and turn bodies say model, effort and ids; the prompt never leaves the page. */
  @Test
  void theTapKeepsThePrepareAndTurnRequestBodiesWithoutThePrompt() {
    page.evaluate("""
        async () => {
          const headers = { 'content-type': 'application/json', 'authorization': 'Bearer page-secret-token' };
          await fetch('/backend-api/f/conversation/prepare', { method: 'POST', headers, body: JSON.stringify({
            action: 'next', model: 'gpt-5-6-thinking', thinking_effort: 'extended', client_prepare_dispatch: 'debounced',
            partial_query: { id: 'draft-1', author: { role: 'user' }, content: { content_type: 'text', parts: ['SECRET PROMPT'] } },
            conduit_token: 'page-conduit-secret' }) });
          // The turn as a Request object: its body is read from a clone, before the page's fetch uses it.
          await fetch(new Request('/backend-api/f/conversation', { method: 'POST', headers, body: JSON.stringify({
            action: 'next', conversation_id: '6929a1b2-0c3d', parent_message_id: 'a-0', model: 'gpt-5-6-thinking',
            thinking_effort: 'extended', client_prepare_state: 'success', supported_encodings: ['v1'],
            conversation_mode: { kind: 'gizmo_interaction', gizmo_id: 'g-p-0123456789abcdef0123456789abcdef' },
            messages: [{ id: 'u-1', author: { role: 'user' }, create_time: 1760000000.5,
              content: { content_type: 'text', parts: ['SECRET PROMPT'] }, metadata: { attachments: [{ name: 'secret.txt' }] } }] }) }))
            .then((r) => r.text());
        }""");
    List<StreamTap.Sent> sent = drainRequests(2);
    assertThat(sent).extracting(StreamTap.Sent::path)
        .containsExactly("/backend-api/f/conversation/prepare", "/backend-api/f/conversation");
    assertThat(sent.toString()).doesNotContain("SECRET PROMPT").doesNotContain("secret.txt")
        .doesNotContain("page-conduit-secret").doesNotContain("page-secret-token");
    ObservedRequest prepare = ObservedRequest.decode(sent.get(0)).orElseThrow();
    assertThat(prepare.kind()).isEqualTo(ObservedRequest.Kind.PREPARE);
    assertThat(prepare.userMessageId()).as("partial_query.id is not the final id").isNull();
    assertThat(WireEffort.effort(prepare)).contains(dev.solweb.provider.model.Effort.HIGH);
    ObservedRequest turn = ObservedRequest.decode(sent.get(1)).orElseThrow();
    assertThat(turn.userMessageId()).isEqualTo("u-1");
    assertThat(turn.conversationId()).isEqualTo("6929a1b2-0c3d");
    assertThat(turn.gizmoId()).isEqualTo("g-p-0123456789abcdef0123456789abcdef");
    assertThat(turn.prepareState()).isEqualTo("success");
    // The server got the page's bodies untouched.
    assertThat(seenBodies).anySatisfy(b -> assertThat(b).startsWith("/backend-api/f/conversation {").contains("SECRET PROMPT"));
  }

  /** Row 18: the history JSON the page loads is kept; the seat's own GET of that route carries the page's own headers. */
  @Test
  void theHistoryJsonThePageLoadsIsKeptAndARefetchUsesThePagesOwnHeaders() {
    page.evaluate("() => fetch('/backend-api/conversations/6929a1b2-0c3d?include_has_versions=true&num_turns=10',"
        + " { headers: { authorization: 'Bearer page-secret-token' } }).then((r) => r.json())");
    assertThat(StreamTap.refetch(page, "/backend-api/conversation/6929a1b2-0c3d/stream_status")).isTrue();
    assertThat(StreamTap.refetch(page, "/backend-api/f/conversation")).as("only history and stream status routes").isFalse();
    assertThat(StreamTap.refetch(page, "https://chatgpt.invalid/backend-api/conversations/6929a1b2-0c3d")).isFalse();
    List<StreamTap.Document> documents = new ArrayList<>();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (documents.size() < 2 && System.nanoTime() < deadline) {
      documents.addAll(StreamTap.drain(page).documents());
    }
    assertThat(documents).extracting(StreamTap.Document::path)
        .containsExactly("/backend-api/conversations/6929a1b2-0c3d", "/backend-api/conversation/6929a1b2-0c3d/stream_status");
    assertThat(documents.get(0).query()).isEqualTo("?include_has_versions=true&num_turns=10");
    assertThat(documents.get(0).text()).contains("\"async_status\": 3");
    assertThat(documents.get(1).text()).contains("IS_STREAMING");
    assertThat(seenAuthorization).as("the page's own GET, then the seat's with the page's headers")
        .containsExactly("Bearer page-secret-token", "Bearer page-secret-token");
    assertThat(hits).doesNotContainKey("/backend-api/f/conversation");
  }

  /** Row 31, for row 38's page with no conversation menu: the seat deletes by the page's own request and headers. */
  @Test
  void theSeatDeletesByThePagesOwnRequestWithThePagesOwnHeaders() {
    page.evaluate("() => fetch('/backend-api/conversations/6929a1b2-0c3d', { headers: { authorization: 'Bearer page-secret-token' } })"
        + ".then((r) => r.text())");

    StreamTap.Deleted deleted = StreamTap.delete(page, "6929a1b2-0c3d");
    assertThat(deleted.ok()).isTrue();
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(hits.get("/backend-api/conversation/id/6929a1b2-0c3d").get()).isEqualTo(1);
    assertThat(seenAuthorization).containsExactly("Bearer page-secret-token", "Bearer page-secret-token");

    StreamTap.Deleted missing = StreamTap.delete(page, "7777aaaa-0000");
    assertThat(missing.ok()).isFalse();
    assertThat(missing.status()).isEqualTo(404);
    assertThat(StreamTap.delete(page, "../../api/auth").status()).as("only a conversation id").isZero();
    assertThat(hits.keySet()).noneMatch(p -> p.contains("auth"));
  }

  @Test
  void theWrapperLooksLikeFetchToThePage() {
    assertThat(page.evaluate("() => [typeof fetch, fetch.name, fetch.length, Object.keys(window).includes('__solwebTap')]"))
        .isEqualTo(List.of("function", "fetch", 1, false));
  }
}
