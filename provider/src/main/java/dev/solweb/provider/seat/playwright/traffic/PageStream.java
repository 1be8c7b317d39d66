package dev.solweb.provider.seat.playwright.traffic;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.WebSocketFrame;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The seat's view of one turn's stream: the bodies {@link StreamTap} buffered in the page since
 * {@link #begin()} (the POST and its {@code /resume}s), and the WebSocket frames of a handoff,
 * observed passively through Playwright's {@code Page.onWebSocket}; each body has its own
 * {@link ConversationStreamDecoder}, all feed one {@link StreamTurn}. Confined to the seat's
 * thread, like the {@link Page} (Playwright delivers the socket events there, during its calls).
 */
public final class PageStream {

  /** An HTTP error answer on the turn path: 429 with {@code clears_in}, 403 "unusual activity", ... */
  public record HttpError(String path, int status, String body, long seenNanos) {
    HttpError(String path, int status, String body) {
      this(path, status, body, System.nanoTime());
    }
  }

  private static final int MAX_HELD_FRAMES = 10_000;

  private final Page page;
  private final Deque<String> frames = new ArrayDeque<>();
  private final Map<Long, ConversationStreamDecoder> bodies = new HashMap<>();
  private final Map<String, ConversationStreamDecoder> topics = new HashMap<>();
  private final Set<String> endedTopics = new HashSet<>();
  private final List<HttpError> httpErrors = new ArrayList<>();
  private final List<Seen> requests = new ArrayList<>();
  private final List<StreamTap.Document> documents = new ArrayList<>();
  /** The highest tap id drained so far (ids grow across the tab's documents). */
  private long highest;
  /** Whether this tab's page sends {@code /prepare} while the user types: null until a turn showed it. */
  private Boolean prepares;
  private HandoffFrames handoff = new HandoffFrames();
  private StreamTurn turn = new StreamTurn();
  private boolean armed;
  private int cutBodies;
  /** Bodies up to this tap id began before the turn (an earlier turn's tail, a page's own resume). */
  private long before;
  private final Set<Long> openBodies = new HashSet<>();
  /** How many bodies the turn had when the stream first said it handed off; -1 before that. */
  private int bodiesAtHandoff = -1;
  /** Page clock (epoch ms) of the chunk that completed the turn by the stream's rule; 0 before. */
  private long completedAtMillis;

  public PageStream(Page page) {
    this.page = page;
    page.onWebSocket(ws -> ws.onFrameReceived(this::frame));
  }

  private void frame(WebSocketFrame f) {
    if (armed && frames.size() < MAX_HELD_FRAMES) {
      String text = f.text();
      if (text == null && f.binary() != null) {
        text = new String(f.binary(), StandardCharsets.UTF_8);
      }
      if (text != null) {
        frames.add(text);
      }
    }
  }

  /**
   * Before typing: requests the page sent before now belong to no turn of ours; from here on its
   * {@code /prepare} and turn requests are kept ({@link #request}).
   */
  public void watch() {
    drain(false);
    requests.clear();
    documents.clear();
  }

  /** Just before Send: whatever the page buffered before belongs to no turn of ours. */
  public void begin() {
    drain(false);
    before = highest;
    bodies.clear();
    topics.clear();
    endedTopics.clear();
    httpErrors.clear();
    frames.clear();
    handoff = new HandoffFrames();
    turn = new StreamTurn();
    cutBodies = 0;
    openBodies.clear();
    bodiesAtHandoff = -1;
    completedAtMillis = 0;
    armed = true;
  }

  /** After the turn: stop holding socket frames. */
  public void end() {
    armed = false;
    frames.clear();
  }

  /** The pause between polls: at most {@code within}, over as soon as the tap holds news ({@link StreamTap#awaitNews}). */
  public void awaitNews(java.time.Duration within) {
    StreamTap.awaitNews(page, within);
  }

  /** Reads what arrived since the last poll into the turn. One page round trip. */
  public void poll() {
    drain(true);
    if (bodiesAtHandoff < 0 && !turn.handoff().isEmpty()) {
      bodiesAtHandoff = bodies.size();
    }
    readFrames();
  }

  /**
   * One drain of the tap: the requests and documents it kept, and (for a turn) its bodies; with
   * {@code turnBodies} false the bodies are passed over, as belonging to no turn of ours.
   */
  private void drain(boolean turnBodies) {
    StreamTap.Drained drained = StreamTap.drain(page);
    for (StreamTap.Sent sent : drained.requests()) {
      highest = Math.max(highest, sent.id());
      // A /prepare that names no effort (an older page's sibling) says nothing about the turn's effort.
      ObservedRequest.decode(sent).filter(r -> r.kind() == ObservedRequest.Kind.TURN || r.namesEffort()).ifPresent(r -> {
        requests.add(new Seen(sent.id(), r));
        if (r.kind() == ObservedRequest.Kind.PREPARE) {
          prepares = true;
        }
      });
    }
    for (StreamTap.Document d : drained.documents()) {
      highest = Math.max(highest, d.id());
      documents.add(d);
    }
    for (StreamTap.Chunk c : drained.bodies()) {
      highest = Math.max(highest, c.id());
      if (turnBodies && c.id() > before) {
        body(c);
      }
    }
  }

  private void body(StreamTap.Chunk c) {
    if (!c.stream()) {
      if (c.ended() && c.status() >= 400) {
        httpErrors.add(new HttpError(c.path(), c.status(), c.errorBody() == null ? "" : c.errorBody()));
      }
      return;
    }
    ConversationStreamDecoder d = bodies.get(c.id());
    if (d == null) {
      d = new ConversationStreamDecoder();
      bodies.put(c.id(), d);
      openBodies.add(c.id());
      turn.beginBody();
    }
    if (!c.text().isEmpty()) {
      turn.accept(d.feed(c.text().getBytes(StandardCharsets.UTF_8)));
      if (completedAtMillis == 0 && turn.complete()) {
        completedAtMillis = c.atMillis();
      }
    }
    if (c.ended()) {
      openBodies.remove(c.id());
      turn.accept(d.end());
      if (!turn.terminalSeen()) {
        cutBodies++;
      }
    }
  }

  // ---- The page's requests --------------------------------------------------------------------

  /** An observed request and its tap id (its answer body has the same id). */
  private record Seen(long id, ObservedRequest request) {}

  /** Drains what the tap holds now (requests, documents; a turn's bodies while one is armed). */
  public void refresh() {
    drain(armed);
  }

  /** Where the requests seen so far end: a later {@link #request} asks for those after it. */
  public long mark() {
    return highest;
  }

  /** The latest {@code kind} request the page sent after {@code mark} (see {@link #watch}), if one was seen. */
  public Optional<ObservedRequest> request(ObservedRequest.Kind kind, long mark) {
    Optional<ObservedRequest> found = Optional.empty();
    for (Seen seen : requests) {
      if (seen.id() > mark && seen.request().kind() == kind) {
        found = Optional.of(seen.request());
      }
    }
    return found;
  }

  /**
   * Waits at most {@code within} for a {@code kind} request after {@code mark}, draining the tap
   * as the turn's polls do (before {@link #begin} the bodies are passed over).
   */
  public Optional<ObservedRequest> awaitRequest(ObservedRequest.Kind kind, long mark, java.time.Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      drain(armed);
      Optional<ObservedRequest> found = request(kind, mark);
      if (found.isPresent() || System.nanoTime() - deadline > 0) {
        return found;
      }
      // The tap's news ends the wait at once: the bound is for a page without a tap (or whose news is lost).
      awaitNews(java.time.Duration.ofMillis(Math.max(1, Math.min(100, (deadline - System.nanoTime()) / 1_000_000))));
    }
  }

  /** Whether the page sends {@code /prepare} while the user types; null while no turn has shown it. */
  public Boolean prepares() {
    return prepares;
  }

  /** What a turn request showed: the page prepares ({@code client_prepare_state}, a /prepare seen) or not. */
  public void prepared(boolean seen) {
    prepares = seen || Boolean.TRUE.equals(prepares);
  }

  /** The JSON documents (conversation history, stream status) the page got since {@link #watch}, oldest first. */
  public List<StreamTap.Document> documents() {
    return List.copyOf(documents);
  }

  /** Asks the page for {@code path} with its own headers ({@link StreamTap#refetch}); the answer comes as a document. */
  public boolean refetch(String path) {
    return StreamTap.refetch(page, path);
  }

  /** Deletes conversation {@code id} by the page's own DELETE request, with its own headers ({@link StreamTap#delete}). */
  public StreamTap.Deleted deleteConversation(String id) {
    return StreamTap.delete(page, id);
  }

  /** Whether this page has the tap (it is off with {@code -Dsolweb.streamTap=off}, and absent on a page that broke it). */
  public boolean tapped() {
    return Boolean.TRUE.equals(page.evaluate("() => !!window.__solwebTap"));
  }

  private void readFrames() {
    if (turn.handoff().isEmpty()) {
      return; // held until the POST body says where the answer went
    }
    Set<String> wanted = new HashSet<>();
    turn.handoff().forEach(o -> wanted.add(o.topicId()));
    while (!frames.isEmpty()) {
      HandoffFrames.Item item = handoff.read(frames.poll());
      String topic = item instanceof HandoffFrames.Encoded e ? e.topicId()
          : item instanceof HandoffFrames.Finished f ? f.topicId() : null;
      if (item instanceof HandoffFrames.Ignored || (topic != null && !wanted.contains(topic)) || endedTopics.contains(key(topic))) {
        continue;
      }
      ConversationStreamDecoder d = topics.get(key(topic));
      if (d == null) {
        d = new ConversationStreamDecoder();
        topics.put(key(topic), d);
        turn.beginBody();
      }
      if (item instanceof HandoffFrames.Encoded e) {
        turn.accept(d.feed(e.sseText().getBytes(StandardCharsets.UTF_8)));
      } else {
        turn.accept(d.end());
        endedTopics.add(key(topic));
      }
    }
  }

  private static String key(String topic) {
    return topic == null ? "" : topic;
  }

  /** When (page clock, epoch ms) the chunk arrived that completed the turn by the stream's rule; 0 if none. */
  public long completedAtMillis() {
    return completedAtMillis;
  }

  public StreamTurn turn() {
    return turn;
  }

  /** Whether any turn body (a stream or an HTTP error) was seen since {@link #begin()}. */
  public boolean seen() {
    return !bodies.isEmpty() || !httpErrors.isEmpty();
  }

  /** Whether a handoff was followed where the seat sees it: its socket, or a later body ({@code /resume}). */
  public boolean handoffFollowed() {
    return !topics.isEmpty() || (bodiesAtHandoff >= 0 && bodies.size() > bodiesAtHandoff);
  }

  /** The stream handed the turn off and nothing the seat sees carries it on (yet). */
  public boolean handoffUnfollowed() {
    return bodiesAtHandoff >= 0 && !handoffFollowed();
  }

  /** A body or a followed socket topic of the turn is still open. */
  public boolean live() {
    return !openBodies.isEmpty() || topics.keySet().stream().anyMatch(t -> !endedTopics.contains(t));
  }

  /** The stream ended holding no answer text and handed nothing off: an image turn, or a refusal. */
  public boolean answerless() {
    return turn.terminalSeen() && turn.answerText().map(String::isEmpty).orElse(true) && turn.handoff().isEmpty();
  }

  /** Whose rule ends the turn now ({@link AnswerArbiter}), given whether the DOM's rule holds. */
  public AnswerArbiter.Decision decide(boolean domComplete) {
    return AnswerArbiter.decide(pollView(domComplete));
  }

  /** This poll's view for {@link AnswerArbiter}. */
  AnswerArbiter.Poll pollView(boolean domComplete) {
    return new AnswerArbiter.Poll(seen() && !bodies.isEmpty(), turn.complete(), live(), handoffUnfollowed(), answerless(),
        turn.answerUnfinished(), domComplete);
  }

  public List<HttpError> httpErrors() {
    return List.copyOf(httpErrors);
  }

  /** Bodies that ended while no terminal frame had arrived (a drop; the page resumes by itself). */
  public int cutBodies() {
    return cutBodies;
  }
}
