package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Preamble;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.protocol.ReplyParser;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.translate.ContextBudget;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.HistoryDigest;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.Registry;
import dev.solweb.provider.translate.ReplayNeeded;
import dev.solweb.provider.translate.SessionKey;
import dev.solweb.provider.translate.ToolSpec;
import dev.solweb.provider.translate.Translate;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One turn on one seat, on the seat's thread: probe, choose delta or full replay, check the
 * context budget, open or resume the conversation, re-assert the effort and verify its label,
 * send, parse, repair a malformed reply once, and record the conversation.
 *
 * <p>Everything before {@link BrowserSeat#send} is retry-safe. A failure after it marks the
 * conversation uncertain, so the next request replays into a fresh conversation; nothing is ever
 * resent here.
 */
final class SeatTurn {

  /** What to type and into which conversation. */
  private record Plan(Conversation resume, String text, long newInput, long mandatory) {
    boolean fresh() {
      return resume == null;
    }
  }

  private final Registry registry;
  private final Clock clock;

  SeatTurn(Registry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /**
   * Runs {@code request} on {@code seat}.
   *
   * @throws SeatException when the seat fails; the caller decides on rebuilds
   * @throws TurnFailed for typed failures the seat did not raise itself (state, budget, effort,
   *     protocol)
   */
  Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) throws SeatException {
    if (request.oneShot() != null) {
      return OneShotTurn.run(seat, request, clock, onProbe);
    }
    SeatProbe probe = seat.probe();
    onProbe.accept(probe);
    requireReady(probe, clock);

    Plan plan = plan(request);
    checkBudget(plan);
    if (plan.fresh()) {
      seat.openNew();
    } else {
      try {
        seat.resume(plan.resume().url());
      } catch (SeatException e) {
        if (e.reason() != SeatException.Reason.CONVERSATION_MISSING) {
          throw e;
        }
        // Nothing was sent: a full replay into a fresh conversation is safe, once.
        plan = freshPlan(request);
        checkBudget(plan);
        seat.openNew();
      }
    }

    Set<String> tools = request.tools().stream().map(ToolSpec::name).collect(Collectors.toSet());
    Conversation before = plan.resume();
    long input = (before == null ? 0 : before.estimatedInput()) + plan.newInput();
    long output = before == null ? 0 : before.estimatedOutput();

    SeatReply reply = sendWithEffort(seat, request.effort(), plan.text());
    output += visibleTokens(reply);
    Reply parsed = ReplyParser.parse(reply.codeBlocks(), reply.prose(), tools);
    int turns = (before == null ? 0 : before.turns()) + 1;
    if (parsed instanceof Reply.Malformed malformed) {
      String correction = Preamble.correction(malformed);
      input += ContextBudget.estimateInput(correction, 1, 0);
      reply = sendWithEffort(seat, request.effort(), correction);
      output += visibleTokens(reply);
      parsed = ReplyParser.parse(reply.codeBlocks(), reply.prose(), tools);
      turns++;
      if (parsed instanceof Reply.Malformed again) {
        registry.put(new Conversation(request.sessionKey(), reply.conversationUrl(), request.effort(), 0, "",
            turns, openedAt(before), Conversation.Status.UNCERTAIN, input, output));
        throw new TurnFailed(ProviderFailure.of(Kind.PROTOCOL,
            "the model broke the reply protocol twice; after one correction: " + again.reason()));
      }
    }

    String toolCallId = null;
    Message assistant;
    if (parsed instanceof Reply.ToolCall call) {
      toolCallId = "call_" + turns + "_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      assistant = new Message(Message.Role.ASSISTANT, "",
          List.of(new Message.ToolCallRef(toolCallId, call.name(), call.arguments())), null);
    } else if (parsed instanceof Reply.Final answer) {
      assistant = new Message(Message.Role.ASSISTANT, answer.text(), List.of(), null);
    } else {
      throw new IllegalStateException("Unhandled reply: " + parsed);
    }
    registry.put(new Conversation(request.sessionKey(), reply.conversationUrl(), request.effort(),
        request.messages().size() + 1, HistoryDigest.extend(request.historyDigest(), assistant), turns, openedAt(before),
        Conversation.Status.READY, input, output));
    return new Answer(parsed, toolCallId, new Answer.Usage(input, output), reply.images());
  }

  private long openedAt(Conversation before) {
    return before == null ? clock.instant().getEpochSecond() : before.openedAtEpochSecond();
  }

  private Plan plan(TurnRequest request) {
    Optional<Conversation> existing = registry.get(request.sessionKey())
        .filter(c -> c.status() == Conversation.Status.READY);
    if (existing.isPresent()) {
      try {
        int delivered = Math.min(existing.get().deliveredCount(), request.messages().size());
        String delta = Translate.deliver(existing.get(), request.messages(), request.prefixDigests().get(delivered));
        int rendered = request.messages().size() - existing.get().deliveredCount();
        return new Plan(existing.get(), delta, ContextBudget.estimateInput(delta, rendered, 0), 0);
      } catch (ReplayNeeded replay) {
        // A desynced conversation is replaced, never patched.
      }
    }
    return freshPlan(request);
  }

  private static Plan freshPlan(TurnRequest request) {
    String preamble = Preamble.render(SessionKey.systemText(request.messages()), request.tools());
    String history = Translate.deliverAll(request.messages());
    String text = history.isEmpty() ? preamble : preamble + "\n" + history;
    long systemMessages = request.messages().stream().filter(m -> m.role() == Message.Role.SYSTEM).count();
    long mandatory = ContextBudget.estimateInput(preamble, (int) systemMessages, request.tools().size());
    return new Plan(null, text,
        ContextBudget.estimateInput(text, request.messages().size(), request.tools().size()), mandatory);
  }

  private static void checkBudget(Plan plan) {
    Conversation c = plan.resume();
    ContextBudget.check(c == null ? 0 : c.estimatedInput(), c == null ? 0 : c.estimatedOutput(),
            plan.newInput(), plan.mandatory())
        .ifPresent(failure -> {
          throw new TurnFailed(failure);
        });
  }

  /** Re-asserts the effort before every send and refuses to send under any other label. */
  private static SeatReply sendWithEffort(BrowserSeat seat, Effort effort, String text) throws SeatException {
    assertEffort(seat, effort);
    return seat.send(text);
  }

  /** Sets the effort and refuses (before Send) when the page reads back another label. */
  static void assertEffort(BrowserSeat seat, Effort effort) throws SeatException {
    Effort shown = seat.setEffort(effort);
    if (shown != effort) {
      throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE,
          "the effort control reads \"" + shown.label() + "\" but the request asked for " + effort.modelId()
              + " (\"" + effort.label() + "\"); refusing to send under another effort"));
    }
  }

  private static long visibleTokens(SeatReply reply) {
    long tokens = ContextBudget.estimateTokens(reply.prose());
    for (String block : reply.codeBlocks()) {
      tokens += ContextBudget.estimateTokens(block);
    }
    return tokens;
  }

  static void requireReady(SeatProbe probe, Clock clock) {
    switch (probe.state()) {
      case READY -> { }
      case LOGGED_OUT -> throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE,
          "ChatGPT is logged out (" + probe.detail() + "); log in to the seat's profile, nothing was sent"));
      case CAPPED -> {
        // A banner without a readable reset time still blocks; an hour is a conservative guess
        // that the detail says is one.
        boolean known = probe.capResumeAt() != null;
        throw new TurnFailed(ProviderFailure.capped(
            "usage cap reached (" + probe.detail() + (known ? ")" : "; reset time not shown, assuming 1 h)"),
            known ? probe.capResumeAt() : clock.instant().plusSeconds(3600), clock.instant()));
      }
      case CHALLENGED -> throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE,
          "the page shows a challenge (" + probe.detail() + "); nothing was sent"));
      case ERROR -> throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE,
          "the page shows an error (" + probe.detail() + "); nothing was sent"));
      default -> throw new IllegalStateException("Unhandled seat state: " + probe.state());
    }
  }
}
