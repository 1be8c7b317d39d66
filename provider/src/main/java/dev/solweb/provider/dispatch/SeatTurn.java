package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Preamble;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.protocol.ReplyParser;
import dev.solweb.provider.protocol.ReplyRules;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.SentMessage;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.translate.ChatTurn;
import dev.solweb.provider.translate.ContextBudget;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.TurnOutcome;
import dev.solweb.provider.translate.ReplayCause;
import dev.solweb.provider.translate.RunawayGuard;
import dev.solweb.provider.translate.TurnPlan;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * One turn on one seat, on the seat's thread: probe, ask translate for the plan, look for the
 * answer of a turn left uncertain in its conversation, open or resume the conversation,
 * re-assert the effort and verify its label, mark the Send (and what the page's request proved
 * of it), send, parse, repair a malformed reply once, and hand the outcome back to translate. It
 * computes no conversation state itself.
 *
 * <p>Everything before {@link BrowserSeat#send} is retry-safe. Once a send is marked, every way
 * out records an outcome: a reply, or (past the Send boundary) an uncertain conversation that
 * is never typed into again; nothing is ever resent here.
 */
public final class SeatTurn implements TurnRunner {
  private final Conversations conversations;
  private final Clock clock;
  private final AccountPacing pacing;
  private final RunawayGuard runaway;
  /** The replay cause of each turn that typed a replay, until the dispatcher asks for it. */
  private final Map<ChatTurn, ReplayCause> replays = new ConcurrentHashMap<>();

  /** Unpaced: for tests that do not exercise the Send gap. */
  public SeatTurn(Conversations conversations, Clock clock) {
    this(conversations, clock, AccountPacing.unpaced(clock));
  }

  /** @param pacing the account's Send gap and record, shared by every seat */
  public SeatTurn(Conversations conversations, Clock clock, AccountPacing pacing) {
    this(conversations, clock, pacing, new RunawayGuard(RunawayGuard.DEFAULT_LIMIT));
  }

  /** @param runaway the loop limit ({@code SOLWEBD_LOOP_LIMIT}) */
  public SeatTurn(Conversations conversations, Clock clock, AccountPacing pacing, RunawayGuard runaway) {
    this.conversations = conversations;
    this.clock = clock;
    this.pacing = pacing;
    this.runaway = runaway;
  }

  @Override
  public Optional<Answer> answerAtSubmit(TurnRequest request) {
    return request instanceof TurnRequest.Chat chat ? conversations.remembered(chat.turn()) : Optional.empty();
  }

  @Override
  public Optional<ProviderFailure> refusalAtSubmit(TurnRequest request) {
    return request instanceof TurnRequest.Chat chat ? runaway.check(chat.turn()) : Optional.empty();
  }

  @Override
  public Optional<String> replayed(TurnRequest request) {
    return request instanceof TurnRequest.Chat chat ? Optional.ofNullable(replays.remove(chat.turn()))
        .map(ReplayCause::wireName) : Optional.empty();
  }

  /**
   * @throws SeatException when the seat fails; the caller decides on rebuilds
   * @throws TurnFailed for typed failures the seat did not raise itself (state, budget, effort,
   *     protocol)
   */
  @Override
  public Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) throws SeatException {
    try {
      return runTurn(seat, request, onProbe);
    } catch (SeatException e) {
      pacing.noteBlock(e); // the page spoke of the whole account: every seat pauses
      throw e;
    }
  }

  private Answer runTurn(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) throws SeatException {
    if (request instanceof TurnRequest.Ask ask) {
      return OneShotTurn.run(seat, ask, clock, onProbe, conversations.place(), pacing);
    }
    ChatTurn turn = ((TurnRequest.Chat) request).turn();
    SeatProbe probe = seat.probe();
    onProbe.accept(probe);
    requireReady(probe, clock);
    TurnPlan planned = conversations.plan(turn);
    if (planned instanceof TurnPlan.Recover recover) {
      Optional<Answer> found = recover(seat, recover);
      if (found.isPresent()) {
        return found.get();
      }
      planned = conversations.replayUnrecovered(recover);
    }
    if (planned instanceof TurnPlan.Replay replay) {
      Optional<TurnPlan.Recover> stopped = conversations.regenerable(replay);
      if (stopped.isPresent()) {
        Optional<Answer> regenerated = regenerate(seat, stopped.get());
        if (regenerated.isPresent()) {
          return regenerated.get();
        }
      }
    }
    TurnPlan plan = open(seat, planned);
    Sends sends = new Sends(seat, plan);
    try {
      return converse(sends, turn);
    } catch (SeatException | RuntimeException e) {
      sends.abandon(e);
      if (!(e instanceof SeatException missing && missing.reason() == SeatException.Reason.CONVERSATION_MISSING
          && plan instanceof TurnPlan.Deliver deliver && sends.completed == 0)) {
        throw e;
      }
      // The page refused the turn by its code: the conversation is gone (row 20). Nothing was
      // accepted, so the turn replays into a fresh conversation, once.
      TurnPlan replay = conversations.replayMissing(deliver);
      refuseOverflow(replay);
      seat.openNew(conversations.place());
      Sends again = new Sends(seat, replay);
      try {
        return converse(again, turn);
      } catch (SeatException | RuntimeException second) {
        again.abandon(second);
        throw second;
      }
    }
  }

  private Answer converse(Sends sends, ChatTurn turn) throws SeatException {
    ReplyRules rules = conversations.rules(turn);
    SeatReply reply = sends.send(sends.plan.text(), sends.plan.attachments());
    long output = visibleTokens(reply);
    long extraInput = 0;
    Reply parsed = ReplyParser.parse(reply.codeBlocks(), reply.prose(), rules);
    if (parsed instanceof Reply.Malformed malformed) {
      String correction = Preamble.correction(malformed, rules.maxCalls());
      extraInput += ContextBudget.estimateInput(correction, 1, 0);
      reply = sends.send(correction, Attachment.none()); // the files went with the turn's first send
      output += visibleTokens(reply);
      parsed = ReplyParser.parse(reply.codeBlocks(), reply.prose(), rules);
      if (parsed instanceof Reply.Malformed again) {
        sends.record(new TurnOutcome.Uncertain(reply.conversationUrl(), "the reply protocol was broken twice"));
        throw new TurnFailed(ProviderFailure.of(Kind.PROTOCOL,
            "the model broke the reply protocol twice; after one correction: " + again.reason()));
      }
    }
    return sends.record(new TurnOutcome.Replied(parsed, reply.conversationUrl(), sends.completed, extraInput, output,
        reply.images(), reply.modelSlug())).orElseThrow();
  }

  /**
   * This exact turn was left uncertain past its Send: its answer is looked for in the conversation
   * (the page's own history) before anything is typed. A finished answer within the protocol
   * answers the request and the conversation carries on from it; none (or one that broke the
   * protocol, or a conversation that is gone) means a replay as before.
   */
  private Optional<Answer> recover(BrowserSeat seat, TurnPlan.Recover plan) throws SeatException {
    Optional<SeatReply> reply;
    try {
      reply = seat.recover(plan.uncertain().url(), plan.uncertain().sentMessageId());
    } catch (SeatException e) {
      if (e.reason() != SeatException.Reason.CONVERSATION_MISSING) {
        throw e;
      }
      return Optional.empty(); // nothing there to recover; nothing was sent
    }
    if (reply.isEmpty()) {
      return Optional.empty();
    }
    Reply parsed = ReplyParser.parse(reply.get().codeBlocks(), reply.get().prose(), conversations.rules(plan.turn()));
    if (parsed instanceof Reply.Malformed) {
      return Optional.empty(); // a correction would need its own send: the replay is the one send
    }
    AnswerStats.GLOBAL.recovered();
    return conversations.record(plan, new TurnOutcome.Replied(parsed, reply.get().conversationUrl(), 1, 0,
        visibleTokens(reply.get()), reply.get().images(), reply.get().modelSlug()));
  }

  /**
   * The identical retry of a turn solwebd stopped: the page's own regenerate on that answer, in
   * its conversation, as one page action (nothing typed; marked in flight and paced as a Send).
   * Empty when the conversation is gone or the page offers no regenerate: nothing reached the
   * page and the caller replays. A failure after the regeneration went out leaves the
   * conversation cancelled (stopped again) or uncertain, never typed into again.
   */
  private Optional<Answer> regenerate(BrowserSeat seat, TurnPlan.Recover plan) throws SeatException {
    try {
      seat.resume(plan.uncertain().url());
    } catch (SeatException e) {
      if (e.reason() != SeatException.Reason.CONVERSATION_MISSING) {
        throw e;
      }
      return Optional.empty();
    }
    Effort effort = plan.turn().input().effort();
    assertEffort(seat, effort);
    SendGate.Permit permit = pacing.gate().acquire();
    Optional<SeatReply> reply;
    try {
      conversations.sending(plan);
      reply = pacing.pacedIfOffered(permit, effort, seat, seat::regenerate);
    } catch (SeatException | RuntimeException e) {
      boolean stopped = e instanceof SeatException stop && stop.failure() != null
          && stop.failure().kind() == ProviderFailure.Kind.CANCELLED;
      boolean after = !(e instanceof SeatException seatFailure) || seatFailure.afterSend();
      conversations.record(plan, !after ? new TurnOutcome.NotSent()
          : stopped ? new TurnOutcome.Cancelled(plan.uncertain().url(), e.getMessage())
          : new TurnOutcome.Uncertain(plan.uncertain().url(), e.getMessage(), null));
      throw e;
    } finally {
      permit.release(false); // a no-op once the page action ended it
    }
    if (reply.isEmpty()) {
      conversations.record(plan, new TurnOutcome.NotSent()); // back to cancelled: the replay follows
      return Optional.empty();
    }
    Reply parsed = ReplyParser.parse(reply.get().codeBlocks(), reply.get().prose(), conversations.rules(plan.turn()));
    if (parsed instanceof Reply.Malformed malformed) {
      // A correction would be a second page action on this turn: the next retry replays instead.
      conversations.record(plan, new TurnOutcome.Uncertain(plan.uncertain().url(), "the regenerated answer broke the"
          + " reply protocol", null));
      throw new TurnFailed(ProviderFailure.of(Kind.PROTOCOL, "the regenerated answer broke the reply protocol: "
          + malformed.reason()));
    }
    return conversations.record(plan, new TurnOutcome.Replied(parsed, reply.get().conversationUrl(), 1, 0,
        visibleTokens(reply.get()), reply.get().images()));
  }

  /** Opens the plan's conversation; one that is missing from the page is replayed into a fresh one. */
  private TurnPlan open(BrowserSeat seat, TurnPlan plan) throws SeatException {
    refuseOverflow(plan);
    if (plan instanceof TurnPlan.Deliver deliver) {
      try {
        seat.resume(deliver.into().url());
        return plan;
      } catch (SeatException e) {
        if (e.reason() != SeatException.Reason.CONVERSATION_MISSING) {
          throw e;
        }
        // Nothing was sent: a full replay into a fresh conversation is safe, once.
        plan = conversations.replayMissing(deliver);
        refuseOverflow(plan);
      }
    }
    // A place the seat cannot honour refuses here, before anything is typed.
    seat.openNew(conversations.place());
    return plan;
  }

  /** The sends of one turn: each marked in flight first, and one outcome recorded at the end. */
  private final class Sends {
    final BrowserSeat seat;
    final TurnPlan plan;
    int completed;
    /** What the page's request proved of the latest send, or null. */
    SentMessage proven;
    boolean marked;
    boolean sending;
    boolean recorded;

    Sends(BrowserSeat seat, TurnPlan plan) {
      this.seat = seat;
      this.plan = plan;
    }

    /**
     * Re-asserts the effort before every send, waits for the account's Send gap, marks the send
     * on disk, then sends (uploading {@code attachments} first, when there are any).
     */
    SeatReply send(String text, List<Attachment> attachments) throws SeatException {
      assertEffort(seat, plan.turn().input().effort());
      if (plan instanceof TurnPlan.Replay replay && replay.cause() != ReplayCause.FRESH) {
        replays.put(plan.turn(), replay.cause());
      }
      SendGate.Permit permit = pacing.gate().acquire();
      marked = true;
      SeatReply reply;
      try {
        conversations.sending(plan);
        sending = true;
        proven = null;
        seat.onSent(sent -> {
          permit.sent();
          proven = sent;
          conversations.sent(plan, sent.userMessageId(), sent.conversationUrl());
        });
        reply = pacing.paced(permit, plan.turn().input().effort(), seat,
            () -> attachments.isEmpty() ? seat.send(text) : seat.send(text, attachments));
      } finally {
        seat.onSent(null);
        permit.release(false); // a no-op once the send ended it; else nothing reached the page
      }
      sending = false;
      completed++;
      return reply;
    }

    Optional<Answer> record(TurnOutcome outcome) {
      recorded = true;
      return conversations.record(plan, outcome);
    }

    /**
     * A failure once a send was marked. Past the Send boundary (a send returned, or the seat
     * says it clicked Send, or cannot say) the conversation is uncertain; before it, untouched.
     */
    void abandon(Exception e) {
      if (recorded || !marked) {
        return;
      }
      if (e instanceof SeatException full && full.conversationFull()) {
        // The page says this conversation takes no more turns: the next one replays into a fresh chat.
        record(new TurnOutcome.Retired(full.getMessage()));
        return;
      }
      boolean typed = completed > 0 || sending && !(e instanceof SeatException seatFailure && !seatFailure.afterSend());
      // A conversation the page says is gone did not take the turn, whatever its request proved.
      typed |= proven != null && !(e instanceof SeatException missing && missing.reason() == SeatException.Reason.CONVERSATION_MISSING);
      // A cap after Send (a smaller model answered, say): that answer is in the conversation, but
      // it must never be recovered as this turn's answer; without the sent message's id the next
      // request replays into a fresh conversation instead (docs/account-safety.md).
      boolean capped = e instanceof SeatException seatCap && seatCap.failure() != null
          && seatCap.failure().kind() == ProviderFailure.Kind.CAPPED;
      // solwebd clicked Stop (the client left, the turn timed out): what the page shows is partial
      // or nothing, never this turn's answer; the retry replays at once instead of waiting on it.
      boolean stopped = e instanceof SeatException seatStop && seatStop.failure() != null
          && seatStop.failure().kind() == ProviderFailure.Kind.CANCELLED;
      if (typed && stopped) {
        record(new TurnOutcome.Cancelled(proven == null ? null : proven.conversationUrl(), e.getMessage()));
        return;
      }
      record(typed ? new TurnOutcome.Uncertain(proven == null ? null : proven.conversationUrl(), e.getMessage(),
          proven == null || capped ? null : proven.userMessageId()) : new TurnOutcome.NotSent());
    }
  }

  private static void refuseOverflow(TurnPlan plan) {
    plan.overflow().ifPresent(failure -> {
      throw new TurnFailed(failure);
    });
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
