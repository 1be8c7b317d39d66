package dev.solweb.provider.translate;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.protocol.Preamble;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.protocol.ReplyRules;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * The one owner of conversation state. The rest of the daemon uses two verbs: {@link #plan} a
 * turn from a keyed request (deliver a delta into the conversation that holds the prefix, or
 * replay into a fresh one, with the context budget checked), and {@link #record} how it ended
 * (the new {@link Conversation}, the answer memory). Between them the seat calls
 * {@link #sending} before every Send, which marks the conversation in flight on disk: a daemon
 * killed after Send finds the mark at start and never types into that conversation again.
 *
 * <p>The answer memory ({@link #remembered}) answers an identical re-send of a conversation's
 * last turn without typing, across restarts too; it keeps answers up to
 * {@link #MAX_ANSWER_CHARS} characters for {@link #MAX_ANSWER_AGE}. The dispatcher guarantees one
 * turn at a time per session key, so a plan never races the record of the turn before it.
 *
 * <p>The managed history is read and pruned through it too, never through the registry: list
 * ({@link #list()}, {@link #list(ConversationSelection)}), retention ({@link #retentionDue}) and
 * the record of a delete ({@link #deleted}, a tombstone).
 */
public final class Conversations {
  private static final Logger LOG = Logger.getLogger(Conversations.class.getName());
  /** Answers longer than this are not remembered: a re-send of that turn is typed again, fresh. */
  public static final int MAX_ANSWER_CHARS = 64 * 1024;
  /** A remembered answer older than this is not used: a client retry comes within minutes. */
  public static final Duration MAX_ANSWER_AGE = Duration.ofHours(24);

  private final Registry registry;
  private final Clock clock;
  private final ConversationPlace place;
  private final int maxCallsPerReply;
  private final ReplayCounts replays;
  private final DeliveredHistory history;

  Conversations(Registry registry, Clock clock) {
    this(registry, clock, ConversationPlace.HISTORY);
  }

  Conversations(Registry registry, Clock clock, ConversationPlace place) {
    this(registry, clock, place, ReplyRules.DEFAULT_MAX_CALLS);
  }

  /** Conversations kept in memory only (a daemon without a home, tests), opened in the owner's history. */
  public static Conversations inMemory(Clock clock) {
    return inMemory(clock, ConversationPlace.HISTORY);
  }

  /**
   * @param place where fresh conversations are opened ({@code SOLWEBD_PROJECT},
   *     {@code SOLWEBD_TEMPORARY}); a ready conversation elsewhere is replayed, not resumed
   * @param maxCallsPerReply the daemon's cap on tool calls in one reply ({@code SOLWEBD_MAX_CALLS})
   */
  Conversations(Registry registry, Clock clock, ConversationPlace place, int maxCallsPerReply) {
    this(registry, clock, place, maxCallsPerReply, new ReplayCounts(), new DeliveredHistory());
  }

  private Conversations(Registry registry, Clock clock, ConversationPlace place, int maxCallsPerReply,
      ReplayCounts replays, DeliveredHistory delivered) {
    this.registry = registry;
    this.clock = clock;
    this.place = place;
    this.maxCallsPerReply = maxCallsPerReply;
    this.replays = replays;
    this.history = delivered;
  }

  /** These conversations with another cap on the tool calls of one reply (the registry and counts are shared). */
  public Conversations withMaxCallsPerReply(int maxCallsPerReply) {
    return new Conversations(registry, clock, place, maxCallsPerReply, replays, history);
  }

  /** The replays since start, by cause ({@code /healthz} {@code replays}). */
  public ReplayCounts replays() {
    return replays;
  }

  /**
   * What a reply to {@code turn} may hold: its tools and schemas, and one call when the request
   * said {@code parallel_tool_calls: false}, else up to the daemon's cap. The preamble of a fresh
   * conversation teaches these rules; the seat turn holds the reply to them.
   */
  public ReplyRules rules(ChatTurn turn) {
    return ReplyRules.of(turn.input().tools(), turn.input().parallelToolCalls(), maxCallsPerReply);
  }

  public static Conversations inMemory(Clock clock, ConversationPlace place) {
    return new Conversations(Registry.inMemory(), clock, place);
  }

  /**
   * The conversations of {@code registryFile} (see {@link Registry} for the files beside it),
   * loaded now: in-flight marks read as uncertain, temporary chats as expired, a corrupt file set
   * aside.
   */
  public static Conversations persistent(Path registryFile, Clock clock, ConversationPlace place) {
    return new Conversations(Registry.persistent(registryFile), clock, place);
  }

  /** As {@link #persistent(Path, Clock, ConversationPlace)}, for history work that opens no conversation. */
  public static Conversations persistent(Path registryFile, Clock clock) {
    return persistent(registryFile, clock, ConversationPlace.HISTORY);
  }

  /**
   * The conversations of {@code registryFile} as a daemon starting now would see them, without
   * writing anything: what {@code solwebctl conversations list} reads while no daemon runs.
   */
  public static List<Conversation> snapshot(Path registryFile) {
    return Registry.snapshot(registryFile);
  }

  /** The registry behind these conversations, for translate's own tests. */
  Registry registry() {
    return registry;
  }

  /** Where the seat opens this daemon's fresh conversations. */
  public ConversationPlace place() {
    return place;
  }

  /** Every managed conversation, tombstones included, least recently changed first. */
  public List<Conversation> list() {
    return List.copyOf(registry.all());
  }

  /**
   * The managed conversations {@code selection} names, as of now.
   *
   * @throws IllegalArgumentException naming every ID that is not a managed conversation
   */
  public List<Conversation> list(ConversationSelection selection) {
    return selection.select(registry.all(), clock.instant());
  }

  /** How many conversations the registry holds (tombstones included). */
  public int count() {
    return registry.size();
  }

  /** The registry's current entry for {@code sessionKey}. */
  public Optional<Conversation> current(String sessionKey) {
    return registry.get(sessionKey);
  }

  /**
   * Retention ({@code SOLWEBD_RETENTION_DAYS}): the conversations to delete from the page now,
   * those last used at least {@code idle} ago that the page may still hold (not tombstones, and
   * with a URL).
   */
  public List<Conversation> retentionDue(Duration idle) {
    long cutoff = clock.instant().minus(idle).getEpochSecond();
    return registry.all().stream()
        .filter(c -> c.status() != Conversation.Status.DELETED && !c.url().isEmpty() && c.lastUsedEpochSecond() <= cutoff)
        .toList();
  }

  /**
   * Records that the page no longer holds {@code url}, the conversation of {@code sessionKey}:
   * its entry becomes a tombstone dated now, never resumed. Nothing changes when the entry
   * meanwhile names another URL (a newer conversation of that session) or is a tombstone already.
   *
   * @return the tombstone, or empty when nothing was recorded
   */
  public Optional<Conversation> deleted(String sessionKey, String url) {
    return registry.tombstone(sessionKey, url, now());
  }

  /** The recorded answer to exactly this turn, if it was its conversation's last and is recent. */
  public Optional<Answer> remembered(ChatTurn turn) {
    long oldest = clock.instant().minus(MAX_ANSWER_AGE).getEpochSecond();
    return registry.get(turn.sessionKey())
        .map(Conversation::lastAnswer)
        .filter(answer -> answer.historyDigest().equals(turn.historyDigest()) && answer.answeredAt() >= oldest)
        .map(RememberedAnswer::answer);
  }

  /**
   * Decides what to type for {@code turn}: the delta after the delivered prefix when a ready
   * conversation holds it, else the preamble and the whole history for a fresh conversation. The
   * plan's {@link TurnPlan#overflow()} says whether it fits the context budget.
   */
  public TurnPlan plan(ChatTurn turn) {
    Optional<Conversation> existing = registry.get(turn.sessionKey());
    if (existing.isEmpty()) {
      return replay(turn, null, ReplayCause.FRESH, "a session not seen before");
    }
    Conversation conversation = existing.get();
    if (conversation.recoverable() && conversation.inFlight().equals(turn.historyDigest())) {
      return new TurnPlan.Recover(turn, conversation); // the same turn again: its answer may be there already
    }
    if (conversation.status() != Conversation.Status.READY) {
      return replay(turn, conversation, ReplayCause.of(conversation.status()),
          "the conversation is " + conversation.status().name().toLowerCase(java.util.Locale.ROOT));
    }
    String misplaced = ProjectMatch.misplaced(conversation, place);
    if (misplaced != null) {
      return replay(turn, conversation, ReplayCause.MISPLACED, misplaced + "; replaying it into a fresh conversation in "
          + place);
    }
    List<Message> messages = turn.messages();
    int delivered = Math.min(conversation.deliveredCount(), messages.size());
    try {
      Delivery.Typed delta = Delivery.deliver(conversation, messages, turn.prefixDigests().get(delivered));
      int rendered = messages.size() - conversation.deliveredCount();
      return new TurnPlan.Deliver(turn, conversation, delta.text(), ContextBudget.estimateInput(delta.text(), rendered, 0),
          delta.uploads());
    } catch (ReplayNeeded desync) {
      // A desynced conversation is replaced, never patched.
      Optional<DeliveredHistory.Difference> first = history.firstDifference(turn.sessionKey(), messages);
      return replay(turn, conversation, desync.replayCause(), desync.getMessage()
          + first.map(d -> "; " + d.line()).orElse("; the first message that differs is not known (delivered before"
              + " this daemon started)"));
    }
  }

  /**
   * The conversation a {@link TurnPlan.Deliver} meant to resume is gone from the page. Nothing
   * was sent, so a full replay into a fresh conversation is safe (once: the caller does not ask
   * again for the replay it gets).
   */
  public TurnPlan.Replay replayMissing(TurnPlan.Deliver plan) {
    return replay(plan.turn(), plan.into(), ReplayCause.MISSING, "the conversation is missing from the page");
  }

  /**
   * The conversation a {@link TurnPlan.Recover} looked in holds no answer to the turn (or is gone):
   * replay as before, into a fresh conversation.
   */
  public TurnPlan.Replay replayUnrecovered(TurnPlan.Recover plan) {
    return replay(plan.turn(), plan.uncertain(), ReplayCause.UNRECOVERED,
        "the uncertain turn's conversation holds no answer to it");
  }

  /**
   * The identical retry of a turn solwebd stopped ({@code cancelled}, its conversation known):
   * the page's own regenerate may answer it in that conversation, with nothing typed. The plan
   * records as a recovery does (the conversation carries on from the new answer); when the page
   * offers no regenerate, {@code replay} is typed instead, into a fresh conversation.
   */
  public Optional<TurnPlan.Recover> regenerable(TurnPlan.Replay replay) {
    Conversation stopped = replay.replaced();
    if (replay.cause() != ReplayCause.CANCELLED || stopped == null || stopped.status() != Conversation.Status.CANCELLED
        || stopped.url() == null || stopped.url().isEmpty() || !replay.turn().historyDigest().equals(stopped.inFlight())) {
      return Optional.empty();
    }
    return Optional.of(new TurnPlan.Recover(replay.turn(), stopped));
  }

  /**
   * The page's own request proved the plan's send (the user message id, the conversation URL or
   * null while a new chat has none): recorded on its in-flight mark, so that a daemon killed now
   * can look for the answer in the conversation ({@link TurnPlan.Recover}) instead of replaying.
   */
  public void sent(TurnPlan plan, String userMessageId, String conversationUrl) {
    if (!registry.markSent(plan.turn().sessionKey(), userMessageId, conversationUrl)) {
      LOG.warning("session " + plan.turn().sessionKey() + ": the sent message could not be recorded on its in-flight mark;"
          + " if this turn is left uncertain it replays");
    }
  }

  /**
   * Marks the plan's conversation in flight, on disk, before the seat clicks Send (call it
   * before every send of the turn). Refuses when the mark cannot be written: a Send the registry
   * does not know of could be typed twice after a restart.
   *
   * @throws TurnFailed {@code unavailable} when the registry file cannot be written; nothing was sent
   */
  public void sending(TurnPlan plan) {
    ChatTurn turn = plan.turn();
    Conversation base = base(plan);
    Conversation mark = new Conversation(turn.sessionKey(), base == null ? "" : base.url(), turn.input().effort(),
        base == null ? 0 : base.deliveredCount(), base == null ? HistoryDigest.EMPTY : base.deliveredDigest(),
        base == null ? 0 : base.turns(), openedAt(base), Conversation.Status.IN_FLIGHT, turn.historyDigest(),
        base == null ? 0 : base.estimatedInput(), base == null ? 0 : base.estimatedOutput(),
        previousAnswer(plan), now(), null, temporary(base), 0, clientSession(turn)).withFiles(files(base, plan));
    if (!registry.markInFlight(mark)) {
      throw new TurnFailed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
          "the conversation registry could not be written, so the turn cannot be marked in flight; nothing was sent"));
    }
  }

  /**
   * Records how a planned turn ended: a reply becomes the conversation's new delivered state
   * and its answer memory; any other outcome leaves a conversation that is never typed into
   * again, so its next turn replays.
   *
   * @return the answer for {@link TurnOutcome.Replied}, empty otherwise
   */
  public Optional<Answer> record(TurnPlan plan, TurnOutcome outcome) {
    ChatTurn turn = plan.turn();
    Conversation base = base(plan);
    int turnsBefore = base == null ? 0 : base.turns();
    long input = (base == null ? 0 : base.estimatedInput()) + plan.newInput();
    long output = base == null ? 0 : base.estimatedOutput();
    if (plan instanceof TurnPlan.Replay replay && !(outcome instanceof TurnOutcome.NotSent)) {
      replays.count(replay.cause()); // it reached the page
    }
    if (outcome instanceof TurnOutcome.Replied replied) {
      return Optional.of(recordReply(plan, base, replied, turnsBefore, input, output));
    }
    if (outcome instanceof TurnOutcome.Cancelled cancelled) {
      // Never recoverable (no sent message id): the next request replays at once. The stopped
      // turn's digest stays so that its identical retry may regenerate in place (regenerable).
      String url = cancelled.conversationUrl() != null ? cancelled.conversationUrl() : base == null ? "" : base.url();
      registry.put(new Conversation(turn.sessionKey(), url, turn.input().effort(), 0, HistoryDigest.EMPTY,
          turnsBefore + 1, openedAt(base), Conversation.Status.CANCELLED, turn.historyDigest(), input, output,
          previousAnswer(plan),
          now(), null, temporary(base), 0, clientSession(turn)).withFiles(files(base, plan)));
      history.forget(turn.sessionKey());
      return Optional.empty();
    }
    if (outcome instanceof TurnOutcome.Uncertain uncertain) {
      String url = uncertain.conversationUrl() != null ? uncertain.conversationUrl() : base == null ? "" : base.url();
      boolean proven = uncertain.sentMessageId() != null;
      registry.put(new Conversation(turn.sessionKey(), url, turn.input().effort(), 0, HistoryDigest.EMPTY,
          turnsBefore + 1, openedAt(base), Conversation.Status.UNCERTAIN, proven ? turn.historyDigest() : null, input,
          output, previousAnswer(plan), now(), null, temporary(base), 0, clientSession(turn),
          proven ? uncertain.sentMessageId() : null).withFiles(files(base, plan)));
      return Optional.empty();
    }
    if (outcome instanceof TurnOutcome.NotSent) {
      Conversation before = previous(plan);
      if (before == null) {
        registry.remove(turn.sessionKey());
      } else {
        registry.put(before);
      }
      return Optional.empty();
    }
    if (outcome instanceof TurnOutcome.Retired) {
      registry.get(turn.sessionKey())
          .ifPresent(current -> registry.put(current.withStatus(Conversation.Status.RETIRED).usedAt(now())));
      return Optional.empty();
    }
    throw new IllegalStateException("Unhandled outcome: " + outcome);
  }

  private Answer recordReply(TurnPlan plan, Conversation base, TurnOutcome.Replied replied, int turnsBefore,
      long input, long output) {
    ChatTurn turn = plan.turn();
    int turns = turnsBefore + replied.sends();
    long totalInput = input + replied.extraInput();
    long totalOutput = output + replied.output();
    // The number groups one reply's calls (Continuity), so no two replies in the client's history
    // may share it: past every number the history already holds (a compaction shortens the history,
    // so its place alone would repeat a kept reply's number), and never below the reply's place.
    int reply = Math.max((int) turn.messages().stream().filter(m -> m.role() == Message.Role.ASSISTANT).count(),
        Continuity.lastReply(turn.messages())) + 1;
    List<String> ids = callIds(reply, replied.reply().calls().size());
    Message assistant;
    if (replied.reply() instanceof Reply.Final answer) {
      assistant = new Message(Message.Role.ASSISTANT, answer.text(), List.of(), null);
    } else {
      // The calls of one reply are one assistant message, as every client replays them.
      List<Message.ToolCallRef> refs = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        Reply.ToolCall call = replied.reply().calls().get(i);
        refs.add(new Message.ToolCallRef(ids.get(i), call.name(), call.arguments()));
      }
      assistant = new Message(Message.Role.ASSISTANT, "", refs, null);
    }
    Answer answer = new Answer(replied.reply(), ids, new Answer.Usage(totalInput, totalOutput), replied.images(),
        replied.model());
    RememberedAnswer memory = RememberedAnswer.of(turn.historyDigest(), answer, clock.instant().getEpochSecond());
    List<Message> held = new ArrayList<>(turn.messages());
    held.add(assistant);
    history.record(turn.sessionKey(), held);
    registry.put(new Conversation(turn.sessionKey(), replied.conversationUrl(), turn.input().effort(),
        turn.messages().size() + 1, HistoryDigest.extend(turn.historyDigest(), assistant), turns, openedAt(base),
        Conversation.Status.READY, null, totalInput, totalOutput, memory.size() <= MAX_ANSWER_CHARS ? memory : null,
        now(), null, temporary(base), 0, clientSession(turn)).withFiles(files(base, plan)));
    return answer;
  }

  /** {@code call_<reply>_<8 hex>}, one per call, distinct within the reply. */
  private static List<String> callIds(int turn, int count) {
    Set<String> ids = new LinkedHashSet<>();
    while (ids.size() < count) {
      ids.add("call_" + turn + "_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()));
    }
    return List.copyOf(ids);
  }

  private TurnPlan.Replay replay(ChatTurn turn, Conversation replaced, ReplayCause cause, String why) {
    if (cause != ReplayCause.FRESH) {
      LOG.info("session " + turn.sessionKey() + ": replay (" + cause.wireName() + "): " + why);
    }
    List<Message> messages = turn.messages();
    String preamble = Preamble.render(SessionKey.systemText(messages), rules(turn));
    Delivery.Typed history = Delivery.replayed(messages);
    String text = history.text().isEmpty() ? preamble : preamble + "\n" + history.text();
    int tools = turn.input().tools().size();
    long systemMessages = messages.stream().filter(m -> m.role() == Message.Role.SYSTEM).count();
    long mandatory = ContextBudget.estimateInput(preamble, (int) systemMessages, tools);
    return new TurnPlan.Replay(turn, replaced, text, ContextBudget.estimateInput(text, messages.size(), tools),
        mandatory, cause, why, history.uploads());
  }

  /** The conversation the turn types into: the resumed one, or none for a fresh conversation. */
  private static Conversation base(TurnPlan plan) {
    return plan instanceof TurnPlan.Deliver deliver ? deliver.into()
        : plan instanceof TurnPlan.Recover recover ? recover.uncertain() : null;
  }

  /** The registry entry before this turn: the resumed conversation, or the one a replay replaces. */
  private static Conversation previous(TurnPlan plan) {
    return plan instanceof TurnPlan.Replay replay ? replay.replaced() : base(plan);
  }

  /**
   * The files the plan's conversation holds once its send went: the resumed conversation's and
   * the plan's uploads (a fresh conversation holds only what its replay uploaded).
   */
  private static List<Conversation.HeldFile> files(Conversation base, TurnPlan plan) {
    List<Conversation.HeldFile> files = new ArrayList<>(base == null ? List.of() : base.files());
    files.addAll(Conversation.HeldFile.of(plan.attachments()));
    return files;
  }

  /** A replaced conversation's memory still answers a re-send of its own last turn. */
  private static RememberedAnswer previousAnswer(TurnPlan plan) {
    Conversation previous = previous(plan);
    return previous == null ? null : previous.lastAnswer();
  }

  /** A resumed conversation stays what it was; a fresh one is temporary when this daemon opens temporary chats. */
  private boolean temporary(Conversation base) {
    return base == null ? place instanceof ConversationPlace.Temporary : base.temporary();
  }

  private static String clientSession(ChatTurn turn) {
    return turn.input().clientSession().map(SessionKey::clientTag).orElse(null);
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }

  private long openedAt(Conversation base) {
    return base == null ? clock.instant().getEpochSecond() : base.openedAtEpochSecond();
  }
}
