package dev.solweb.killgate.fakesol;

import static dev.solweb.killgate.fakesol.FakeSol.JSON;
import static dev.solweb.killgate.fakesol.FakeSol.body;
import static dev.solweb.killgate.fakesol.FakeSol.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.scenario.ScriptedReply;
import dev.solweb.provider.scenario.ScriptedReply.Fault;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The turn: what the page's composer, Send, Retry and Stop do on the server. Faults the real site
 * shows before Send (login wall, Cloudflare, "too long", a crash before Send) are decided when
 * text reaches the composer ({@code /api/precheck}); the rest when Send is clicked
 * ({@code /api/send}, or the conversation endpoint), the one moment a submission is recorded.
 */
final class TurnPlanner {

  /** How much longer than its scripted pace the server takes to finish writing an answer. */
  private static final long GENERATION_MARGIN_MS = 200;

  /** A Send's plan, the reply behind it (null when the script ran out), and what the stream needs. */
  record Planned(ObjectNode plan, ScriptedReply reply, boolean newChat, List<StreamEncoder.Previous> older) {}

  /** What a recorded body said about its turn: the ids the page adopts and the answer it shows. */
  record Recording(String conversationId, String userMessageId, String answerId, String markdown, String slug) {}

  private final ScenarioPlayer player;
  private final Clock clock;
  private final ConversationAliases aliases;
  private final Transcripts transcripts;
  private final PageSession session;
  private final PageFaults faults;
  private final AccountCounters counters;
  private final CapBanners banners;
  private final GeneratedImages images;
  /** The page's model rows: an answer names the row the page asked for where it shows model families (rows 61, 62). */
  private final PageModels models;
  /** New chats opened at precheck, by their first text: the real page sends no conversation id for them. */
  private final Map<String, String> drafts = new HashMap<>();
  /** When each turn request reached the server. */
  private final List<Instant> sendsAt = new ArrayList<>();
  private int retryClicks;
  private int stopClicks;
  private int regenerations;

  TurnPlanner(ScenarioPlayer player, Clock clock, ConversationAliases aliases, Transcripts transcripts, PageSession session,
      PageFaults faults, AccountCounters counters, CapBanners banners, GeneratedImages images, PageModels models) {
    this.player = player;
    this.clock = clock;
    this.aliases = aliases;
    this.transcripts = transcripts;
    this.session = session;
    this.faults = faults;
    this.counters = counters;
    this.banners = banners;
    this.images = images;
    this.models = models;
  }

  void mount(Router router) {
    router.post("/api/precheck").handler(this::precheck);
    router.post("/api/send").handler(this::send);
    router.post("/api/retry").handler(this::retry);
    router.post("/api/stop").handler(this::stop);
  }

  synchronized int retryClicks() {
    return retryClicks;
  }

  synchronized int stopClicks() {
    return stopClicks;
  }

  /** Waits until Stop was clicked {@code count} times (the page reports it on its own request); false when {@code bound} passed first. */
  synchronized boolean awaitStopClicks(int count, java.time.Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (stopClicks < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  /** A turn request reached the server (the Send boundary, whatever the answer). */
  synchronized void turnRequested() {
    sendsAt.add(clock.instant());
  }

  synchronized List<Instant> sendsAt() {
    return List.copyOf(sendsAt);
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
          session.logOut();
          out.put("outcome", "login");
        }
        case CLOUDFLARE -> {
          player.next(conversation);
          session.challenge();
          out.put("outcome", "cloudflare");
        }
        case CRASH_BEFORE_SEND -> {
          player.next(conversation);
          out.put("outcome", "crash");
          faults.crashSoon(100);
        }
        // Shown as soon as the user is about to send; text turns still go through.
        case FEATURE_CAP -> out.put("banner", banners.featureCapText(player.peek(conversation).orElseThrow()));
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
    Optional<String> prompt = conversation == null ? Optional.empty() : transcripts.reopenPrompt(conversation, parentMessageId);
    if (prompt.isEmpty()) {
      return null;
    }
    regenerations++;
    return plan(prompt.get(), label, pageConversation, List.of(), parentMessageId, true);
  }

  /** Regenerations the page asked for ({@link #regenerate}). */
  synchronized int regenerations() {
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
        session.logOut();
      } else if (fault == Fault.CLOUDFLARE) {
        session.challenge();
      } else if (fault == Fault.CRASH_BEFORE_SEND) {
        faults.crashSoon(100);
      }
      return new Planned(plan, reply, false, List.of());
    }
    if (!variant) {
      player.record(new ScenarioPlayer.Send(conversation, Effort.fromLabel(label).orElse(null), label, text, clock.instant(), attached));
    }
    boolean newChat = transcripts.isEmpty(conversation);
    List<StreamEncoder.Previous> older = transcripts.answers(conversation);
    String userId = userMessageId != null ? userMessageId : UUID.randomUUID().toString();
    if (!variant) {
      transcripts.add(conversation, JSON.createObjectNode().put("role", "user").put("id", userId).put("text", text));
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
    String scriptedOr = reply.modelSlug() == null ? answerSlug(label) : reply.modelSlug();
    ObjectNode answer = null;
    switch (fault == null ? Fault.DELETED : fault) {
      case CAP -> plan.put("banner", banners.capText(banners.resumeAt(reply), null))
          .put("resume_at", banners.resumeAt(reply).toString());
      // REAL-PAGE row 7, as peers saw them.
      case CAPACITY -> plan.put("banner", "ChatGPT is at capacity right now. We're experiencing high demand; please try again soon.");
      case UNUSUAL_ACTIVITY -> plan.put("banner",
          "Unusual activity has been detected from your device. Try again later.");
      case CONVERSATION_FULL -> plan.put("message_id", UUID.randomUUID().toString()).put("slug", answerSlug(label));
      // REAL-PAGE row 29: the page draws the question and its form; the stream carries no answer.
      case STRUCTURED_QUESTION -> plan.put("message_id", UUID.randomUUID().toString()).put("slug", answerSlug(label))
          .put("question", reply.prose());
      case FEATURE_CAP -> {
        if (!attached.isEmpty()) {
          // Uploads are capped: the page takes the send but fails it, as a site would.
          plan.put("fault", "something_went_wrong").put("error", banners.featureCapText(reply));
        } else {
          plan.putNull("fault");
          answer = answer(plan, reply, scriptedOr);
        }
      }
      case CAP_DOWNGRADE -> {
        plan.put("banner", banners.capText(banners.resumeAt(reply), "downgrade"));
        answer = answer(plan, reply, reply.modelSlug() == null ? "gpt-5-mini" : reply.modelSlug());
      }
      case MODEL_CAP_EXCEEDED -> {
        // Row 51: the turn request is refused 429 by code; the asked model's count is spent.
        plan.put("banner", banners.capText(banners.resumeAt(reply), null)).put("resume_at", banners.resumeAt(reply).toString());
        counters.exhaust(CapBanners.defaultSlug(label));
      }
      case SMALLER_MODEL -> {
        // Row 51: no banner; the stream names a smaller model and says why. The page draws the answer as any other.
        plan.putNull("fault").put("smaller_model", true);
        answer = answer(plan, reply, reply.modelSlug() == null ? CapBanners.SMALLER_SLUG : reply.modelSlug());
      }
      case CRASH -> faults.crashSoon(300);
      case SOMETHING_WENT_WRONG -> plan.put("error",
          "Something went wrong. If this issue persists please contact us through our help center at help.openai.com.");
      case HANG -> { }
      case DELETED -> answer = answer(plan, reply, scriptedOr);
      // fakesol's upload faults are FakeSolUploads.Fault (the page's own requests); these scenario ones are ScriptedSeat's.
      case UPLOAD_FAILED, UPLOAD_THROTTLED -> answer = answer(plan.putNull("fault"), reply, scriptedOr);
      default -> throw new IllegalStateException("Unhandled fault at Send: " + fault);
    }
    if (answer != null) {
      counters.spend(answer.path("slug").asText(null), attached.size());
      // The server writes the answer at the reply's pace, whether or not a browser still listens.
      long now = clock.millis();
      long writing = reply.delayMs() + reply.thinkingMs() + reply.falsePauseMs() + reply.streamMs() + reply.preambleMs()
          + (reply.preamble() == null || reply.preamble().isEmpty() ? 0 : 1500);
      answer.put("started_at_ms", now).put("finish_at_ms", now + writing + GENERATION_MARGIN_MS);
      transcripts.add(conversation, answer);
    }
    return new Planned(plan, reply, newChat, older);
  }

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
    String userId = recording.userMessageId() != null ? recording.userMessageId()
        : userMessageId != null ? userMessageId : UUID.randomUUID().toString();
    transcripts.add(conversation, JSON.createObjectNode().put("role", "user").put("id", userId).put("text", text));
    if (recording.answerId() != null) {
      transcripts.add(conversation, JSON.createObjectNode().put("role", "assistant").put("id", recording.answerId())
          .put("slug", recording.slug()).put("markdown", recording.markdown()));
    }
    return aliases.shown(conversation);
  }

  /** The answer turn of a reply: its markdown with every block fenced, its images; the plan gets the same. */
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
    ArrayNode generated = images.generate(reply.images());
    plan.put("message_id", messageId).put("slug", slug).put("prose", reply.prose()).put("markdown", markdown.toString());
    plan.set("blocks", blocks);
    plan.set("images", generated);
    ObjectNode turn = JSON.createObjectNode().put("role", "assistant").put("id", messageId).put("slug", slug)
        .put("prose", reply.prose()).put("markdown", markdown.toString());
    turn.set("blocks", blocks);
    turn.set("images", generated);
    return turn;
  }

  /** ChatGPT's Retry resubmits the last message: counted, and recorded as a second submission. */
  private synchronized void retry(RoutingContext ctx) {
    retryClicks++;
    String conversation = aliases.resolve(body(ctx).path("conversation_id").asText(null));
    String label = session.effortLabel();
    transcripts.lastUserText(conversation).ifPresent(text -> player.record(
        new ScenarioPlayer.Send(conversation, Effort.fromLabel(label).orElse(null), label, text, clock.instant())));
    json(ctx, 200, JSON.createObjectNode().put("ok", true));
  }

  private synchronized void stop(RoutingContext ctx) {
    stopClicks++;
    notifyAll();
    transcripts.stopAll();
    json(ctx, 200, JSON.createObjectNode().put("ok", true));
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

  /** The model an answer names: the row the page asked for where it shows model families (rows 61, 62), else the effort's. */
  private String answerSlug(String label) {
    return models.answering().orElseGet(() -> CapBanners.defaultSlug(label));
  }
}
