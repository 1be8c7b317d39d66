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

  /** Just before Send: whatever the page buffered before belongs to no turn of ours. */
  public void begin() {
    for (StreamTap.Chunk c : StreamTap.drain(page)) {
      before = Math.max(before, c.id());
    }
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
    for (StreamTap.Chunk c : StreamTap.drain(page)) {
      if (c.id() <= before) {
        continue;
      }
      if (!c.stream()) {
        if (c.ended() && c.status() >= 400) {
          httpErrors.add(new HttpError(c.path(), c.status(), c.errorBody() == null ? "" : c.errorBody()));
        }
        continue;
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
    if (bodiesAtHandoff < 0 && !turn.handoff().isEmpty()) {
      bodiesAtHandoff = bodies.size();
    }
    readFrames();
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
