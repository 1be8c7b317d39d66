package dev.solweb.provider.seat.playwright.traffic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import dev.solweb.provider.seat.PageCounters;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the page's stream says about ONE turn, over every body that carried it (the POST, its
 * {@code /resume}s, a followed WebSocket handoff), and the stream's completion rule
 * (../shared/CHATGPT-STREAM.md "Reading an answer"): the answer is the assistant text message
 * ({@code recipient} all, {@code channel} final, or no channel and {@code end_turn}) that was NOT
 * already finished when this turn first showed it (a follow-up stream re-sends older finished
 * messages first); the turn is complete when that message is {@code finished_successfully} with
 * {@code end_turn} AND {@code message_stream_complete} or {@code [DONE]} arrived in the body that
 * finished it or a later one. An end of body before that is not completion.
 */
public final class StreamTurn {

  static final String FINISHED = "finished_successfully";
  /** Citation pills in raw text: U+E200 ... U+E202 ... U+E201, rendered by the DOM, not markdown. */
  private static final Pattern CITATION = Pattern.compile("\uE200[^\uE201]*\uE201");

  /** Progress of a turn as the stream shows it. */
  public enum Phase { WAITING, THINKING, WRITING, COMPLETE }

  private static final class Msg {
    /** The message's latest shape, status and end_turn as the stream showed them. */
    StreamEvent.MessageSeen seen = new StreamEvent.MessageSeen(null, null, null, null, null, null, false, false);
    boolean live;
    int finishedBody = -1;
    final StringBuilder text = new StringBuilder();
    String slug;
  }

  private final Map<String, Msg> messages = new LinkedHashMap<>();
  private final List<Integer> terminalBodies = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private final List<String> errorCodes = new ArrayList<>();
  private boolean reviewing;
  private final List<StreamEvent.HandoffOption> handoff = new ArrayList<>();
  private List<StreamEvent.Limit> limits = List.of();
  private StreamEvent.Limits counters;
  private String plan;
  private List<String> blockedFeatures = List.of();
  private int body = -1;
  private int bodies;
  private String conversationId;
  private String inputMessageId;
  private String turnSlug;
  private List<String> adjustments = List.of();
  private boolean thinking;
  private boolean thinkingNow;
  private Double thinkingSeconds;
  private boolean moderationBlocked;

  /** A new body of this turn begins; later events belong to it. */
  public void beginBody() {
    body++;
    bodies++;
  }

  public void accept(List<StreamEvent> events) {
    events.forEach(this::accept);
  }

  public void accept(StreamEvent e) {
    if (body < 0) {
      beginBody();
    }
    if (e instanceof StreamEvent.Conversation c) {
      conversationId = conversationId == null ? c.conversationId() : conversationId;
    } else if (e instanceof StreamEvent.InputMessage i) {
      inputMessageId = i.messageId();
    } else if (e instanceof StreamEvent.MessageSeen m) {
      seen(m);
    } else if (e instanceof StreamEvent.TextAppended t) {
      Msg msg = msg(t.messageId());
      msg.text.append(t.text());
      thinkingNow &= !visibleText(msg);
    } else if (e instanceof StreamEvent.TextReplaced t) {
      StringBuilder sb = msg(t.messageId()).text;
      sb.setLength(0);
      sb.append(t.text());
    } else if (e instanceof StreamEvent.ModelSeen m) {
      if (m.messageId() == null) {
        turnSlug = m.slug() != null ? m.slug() : turnSlug;
      } else if (m.slug() != null) {
        msg(m.messageId()).slug = m.slug();
      }
      if (!m.adjustments().isEmpty()) {
        adjustments = m.adjustments();
      }
    } else if (e instanceof StreamEvent.Marker m) {
      thinking |= "cot_token".equals(m.marker());
      thinkingNow = "cot_token".equals(m.marker()) || (thinkingNow && !"final_channel_token".equals(m.marker()));
    } else if (e instanceof StreamEvent.ThinkingFinished t) {
      thinking = true;
      thinkingNow = false;
      if (t.seconds() != null) {
        thinkingSeconds = (thinkingSeconds == null ? 0 : thinkingSeconds) + t.seconds();
      }
    } else if (e instanceof StreamEvent.Plan p) {
      plan = p.planType();
    } else if (e instanceof StreamEvent.Limits l) {
      counters = l;
      limits = l.progress();
      blockedFeatures = l.blockedFeatures();
    } else if (e instanceof StreamEvent.ErrorFrame f) {
      errors.add(f.message());
      if (f.code() != null) {
        errorCodes.add(f.code());
      }
    } else if (e instanceof StreamEvent.SafetyReview r) {
      reviewing = r.active();
    } else if (e instanceof StreamEvent.Handoff h) {
      handoff.addAll(h.options());
    } else if (e instanceof StreamEvent.Moderation m) {
      moderationBlocked |= m.blocked();
    } else if (e instanceof StreamEvent.StreamComplete s) {
      terminalBodies.add(body);
      if (conversationId == null && s.conversationId() != null && !s.conversationId().startsWith("WEB:")) {
        conversationId = s.conversationId();
      }
    } else if (e instanceof StreamEvent.Done) {
      terminalBodies.add(body);
    }
    // Encoding, Title, Other and Unreadable change nothing the turn reports.
  }

  private Msg msg(String id) {
    return messages.computeIfAbsent(id, k -> new Msg());
  }

  private void seen(StreamEvent.MessageSeen m) {
    boolean known = messages.containsKey(m.messageId());
    Msg msg = msg(m.messageId());
    if (!known) {
      msg.live = !FINISHED.equals(m.status());
    } else if (m.fresh()) {
      msg.text.setLength(0); // a later body (a /resume) restates the message: its text follows whole
    }
    msg.seen = m;
    if (FINISHED.equals(m.status()) && m.endTurn() && msg.finishedBody < 0) {
      msg.finishedBody = body;
    }
    if ("assistant".equals(m.role()) && m.contentType() != null
        && (m.contentType().equals("thoughts") || m.contentType().equals("reasoning_recap"))) {
      thinking = true;
      thinkingNow = m.contentType().equals("thoughts") && !FINISHED.equals(m.status());
    }
  }

  // ---- Reading ---------------------------------------------------------------------------

  /** The answer message: the last live assistant text message addressed to all, in the final channel. */
  private Optional<Map.Entry<String, Msg>> answer() {
    Map.Entry<String, Msg> found = null;
    for (Map.Entry<String, Msg> e : messages.entrySet()) {
      Msg msg = e.getValue();
      StreamEvent.MessageSeen m = msg.seen;
      boolean text = "assistant".equals(m.role()) && "text".equals(m.contentType())
          && (m.recipient() == null || "all".equals(m.recipient()));
      boolean finalChannel = "final".equals(m.channel())
          || (m.channel() == null && (m.endTurn() || !FINISHED.equals(m.status())));
      if (msg.live && text && finalChannel) {
        found = e;
      }
    }
    return Optional.ofNullable(found);
  }

  /** The stream's completion rule (see the class comment). */
  public boolean complete() {
    return answer().map(e -> {
      Msg m = e.getValue();
      return FINISHED.equals(m.seen.status()) && m.seen.endTurn() && m.finishedBody >= 0
          && terminalBodies.stream().anyMatch(b -> b >= m.finishedBody);
    }).orElse(false);
  }

  /** Whether the answer message exists and has not reached {@code finished_successfully}. */
  public boolean answerUnfinished() {
    return answer().map(e -> !FINISHED.equals(e.getValue().seen.status())).orElse(false);
  }

  /** Whether a terminal frame ({@code message_stream_complete} or {@code [DONE]}) arrived in any body. */
  public boolean terminalSeen() {
    return !terminalBodies.isEmpty();
  }

  public Optional<String> answerMessageId() {
    return answer().map(Map.Entry::getKey);
  }

  /** The answer's raw text as the stream carried it (citation markers included). */
  public Optional<String> answerText() {
    return answer().map(e -> e.getValue().text.toString());
  }

  /** The answer's markdown: the raw text without the private-use citation markers. */
  public Optional<String> answerMarkdown() {
    return answerText().map(StreamTurn::withoutCitations);
  }

  /** Raw answer text without its private-use citation markers (the page renders them as pills). */
  public static String withoutCitations(String raw) {
    return CITATION.matcher(raw).replaceAll("");
  }

  /** Characters of answer text received so far. */
  public int charsReceived() {
    return answer().map(e -> e.getValue().text.length()).orElse(0);
  }

  public String conversationId() {
    return conversationId;
  }

  /** The user message id the stream echoed ({@code input_message}). */
  public String inputMessageId() {
    return inputMessageId;
  }

  /** The answer's model slug, else the turn's ({@code server_ste_metadata}), else null. */
  public String modelSlug() {
    return answer().map(e -> e.getValue().slug).filter(s -> s != null).orElse(turnSlug);
  }

  /** {@code model_adjustments}, e.g. {@code auto:smaller_model:reached_message_cap}; empty when none. */
  public List<String> modelAdjustments() {
    return adjustments;
  }

  /** Whether the model thought at any point of this turn (a marker, thoughts, a recap). */
  public boolean thinking() {
    return thinking;
  }

  /**
   * Whether the model is thinking now: after a {@code cot_token} marker or in a live thoughts
   * message, until {@code final_channel_token}, a reasoning recap or visible answer text.
   * Thinking can come back mid-answer, so this goes true again where {@link #thinking} stays.
   */
  public boolean thinkingNow() {
    return thinkingNow;
  }

  private static boolean visibleText(Msg msg) {
    return msg.seen == null || msg.seen.contentType() == null || msg.seen.contentType().equals("text");
  }

  /** Summed {@code finished_duration_sec} of the turn's reasoning recaps, or null when none said. */
  public Double thinkingSeconds() {
    return thinkingSeconds;
  }

  /** The page's own counters as this turn's {@code conversation_detail_metadata} gave them, if it came. */
  public Optional<StreamEvent.Limits> counters() {
    return Optional.ofNullable(counters);
  }

  /**
   * The page's counters this turn carried, as the seat port reports them, with the plan this
   * turn named (else {@code knownPlan}); empty when no {@code conversation_detail_metadata} came.
   */
  public Optional<PageCounters> pageCounters(String knownPlan, Instant readAt) {
    if (counters == null) {
      return Optional.empty();
    }
    return Optional.of(new PageCounters(plan != null ? plan : knownPlan,
        counters.progress().stream().map(l -> new PageCounters.Counter(l.feature(), l.remaining(), l.resetAfter())).toList(),
        counters.modelLimits().stream().map(l -> new PageCounters.Counter(l.modelSlug(), l.remaining(), l.resetAfter()))
            .toList(),
        counters.blockedFeatures(), counters.defaultModelSlug(), readAt));
  }

  /** The account's plan as this turn's {@code server_ste_metadata} named it, or null. */
  public String plan() {
    return plan;
  }

  public List<StreamEvent.Limit> limits() {
    return List.copyOf(limits);
  }

  public List<String> blockedFeatures() {
    return List.copyOf(blockedFeatures);
  }

  public List<String> errors() {
    return List.copyOf(errors);
  }

  /** The page's error codes the stream's error frames named ({@code conversation_too_large}, ...), in order. */
  public List<String> errorCodes() {
    return List.copyOf(errorCodes);
  }

  /** Whether a safety review is on now ({@code safety_review_update} active): a phase, the answer still comes. */
  public boolean reviewing() {
    return reviewing && !complete();
  }

  public boolean moderationBlocked() {
    return moderationBlocked;
  }

  /** The handoff options the stream offered; empty when the answer came in the body itself. */
  public List<StreamEvent.HandoffOption> handoff() {
    return List.copyOf(handoff);
  }

  /** How many bodies carried this turn so far. */
  public int bodies() {
    return bodies;
  }

  public Phase phase() {
    if (complete()) {
      return Phase.COMPLETE;
    }
    if (charsReceived() > 0) {
      return Phase.WRITING;
    }
    return thinking ? Phase.THINKING : Phase.WAITING;
  }
}
