package dev.solweb.provider.translate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the registry knows of one managed browser conversation. No prompt text: the delivered
 * prefix is kept as a count and a digest ({@link HistoryDigest}); the one text kept is the
 * answer to the last turn ({@link RememberedAnswer}, stored in a file of its own), bounded in
 * size and age.
 *
 * <p>Entries written before history hygiene (issue 14) lack {@code last_used}, {@code project},
 * {@code temporary} and {@code deleted_at}; they load with the defaults: last used when opened,
 * the project read from the URL, not temporary, not deleted.
 *
 * @param url the durable conversation URL; empty while the first send of a fresh conversation is
 *     in flight (the page shows the URL only after Send). A tombstone keeps it.
 * @param deliveredCount how many client messages (plus our own answers) the conversation holds
 * @param deliveredDigest {@link HistoryDigest} of those messages
 * @param status see {@link Status}
 * @param inFlight {@link HistoryDigest} of the turn being sent while {@code status} is
 *     {@code in_flight}; of the turn left {@code uncertain} (when its send was proven) or
 *     {@code cancelled}, so that its identical retry is known; else null
 * @param estimatedInput cumulative estimated input tokens typed into this conversation
 * @param estimatedOutput cumulative estimated output tokens of visible answers
 * @param lastAnswer the answer to the last turn, or null
 * @param lastUsedEpochSecond when a turn last used it (0 in old files: read as {@code opened_at})
 * @param project the ChatGPT Project slug of its URL ({@code /g/g-p-<slug>/c/<id>}), or null
 * @param temporary opened as a temporary chat ({@code SOLWEBD_TEMPORARY}): gone once its page is
 * @param deletedAtEpochSecond when it was deleted from the page (status {@code deleted}), else 0
 * @param clientSession {@link SessionKey#clientTag} of the client-session header its
 *     turns carried (a digest: the header value is the client's), or null; what
 *     {@code factory-gpt run --cleanup} deletes by
 * @param sentMessageId the id the page gave the user message of the send in flight (or left
 *     uncertain), from the page's own request; with {@code in_flight} (that turn's digest) it is
 *     what lets the next identical request look for its answer in the conversation instead of
 *     typing it again. Null when no send was proven so.
 * @param files the files uploaded into the conversation, by sha256 and name (never their bytes:
 *     a client re-sends its whole history, files too, every request), so a later turn never
 *     uploads one again; with a send in flight, or left uncertain, they include that send's
 */
public record Conversation(
    @JsonProperty("session_key") String sessionKey,
    @JsonProperty("url") String url,
    @JsonProperty("effort") Effort effort,
    @JsonProperty("delivered_count") int deliveredCount,
    @JsonProperty("delivered_digest") String deliveredDigest,
    @JsonProperty("turns") int turns,
    @JsonProperty("opened_at") long openedAtEpochSecond,
    @JsonProperty("status") Status status,
    @JsonProperty("in_flight") String inFlight,
    @JsonProperty("estimated_input") long estimatedInput,
    @JsonProperty("estimated_output") long estimatedOutput,
    @JsonProperty("last_answer") @JsonInclude(JsonInclude.Include.NON_NULL) RememberedAnswer lastAnswer,
    @JsonProperty("last_used") long lastUsedEpochSecond,
    @JsonProperty("project") String project,
    @JsonProperty("temporary") boolean temporary,
    @JsonProperty("deleted_at") long deletedAtEpochSecond,
    @JsonProperty("client_session") String clientSession,
    @JsonProperty("sent_message_id") @JsonInclude(JsonInclude.Include.NON_NULL) String sentMessageId,
    @JsonProperty("files") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<HeldFile> files) {

  private static final Pattern PROJECT_PATH = Pattern.compile("/g/g-p-([A-Za-z0-9_-]+)(?:/|$)");
  private static final Pattern CONVERSATION_ID = Pattern.compile("/c/([^/?#]+)");

  /** Only a {@code ready} conversation is ever typed into again. */
  public enum Status {
    /** Holds exactly {@code deliveredCount} messages: the next turn may be a delta. */
    @JsonProperty("ready") READY,
    /**
     * A text is being typed (set on disk before Send, cleared when the reply is recorded). A
     * daemon that finds this mark at start did not see the turn end: it reads as uncertain.
     */
    @JsonProperty("in_flight") IN_FLIGHT,
    /** A failure past the Send boundary: the next request replays into a fresh conversation. */
    @JsonProperty("uncertain") UNCERTAIN,
    /**
     * solwebd stopped its last turn (the client left and did not rejoin, the turn timed out): the
     * answer on the page is partial or none and is never read as this turn's; its identical retry
     * is answered by the page's Regenerate here where the page offers one, and any other request
     * (or one the page offers none for) replays into a fresh conversation at once, never waiting.
     */
    @JsonProperty("cancelled") CANCELLED,
    /** The conversation can take no more turns (full): the next request replays into a fresh one. */
    @JsonProperty("retired") RETIRED,
    /**
     * A temporary chat from before a daemon restart: the page that held it is gone, so it cannot
     * be resumed; the next request replays into a fresh conversation.
     */
    @JsonProperty("expired") EXPIRED,
    /**
     * A tombstone: deleted from the page (or found already gone). Keeps the URL and the deletion
     * time; never resumed, so the next request of its session opens a fresh conversation.
     */
    @JsonProperty("deleted") DELETED
  }

  /** A file the conversation holds: its sha256 (how it is recognised) and the name it was uploaded under. */
  public record HeldFile(@JsonProperty("sha256") String sha256, @JsonProperty("name") String name) {
    static List<HeldFile> of(List<Attachment> attachments) {
      return attachments.stream().map(file -> new HeldFile(file.sha256(), file.name())).toList();
    }
  }

  public Conversation {
    files = files == null ? List.of() : List.copyOf(files);
    if (project == null) {
      project = projectOf(url);
    }
    if (lastUsedEpochSecond == 0) {
      lastUsedEpochSecond = openedAtEpochSecond;
    }
  }

  /** An entry that holds no files. */
  public Conversation(String sessionKey, String url, Effort effort, int deliveredCount, String deliveredDigest,
      int turns, long openedAtEpochSecond, Status status, String inFlight, long estimatedInput, long estimatedOutput,
      RememberedAnswer lastAnswer, long lastUsedEpochSecond, String project, boolean temporary, long deletedAtEpochSecond,
      String clientSession, String sentMessageId) {
    this(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond, status, inFlight,
        estimatedInput, estimatedOutput, lastAnswer, lastUsedEpochSecond, project, temporary, deletedAtEpochSecond,
        clientSession, sentMessageId, List.of());
  }

  /** An entry with no send proven by the page's request (no {@code sent_message_id}). */
  public Conversation(String sessionKey, String url, Effort effort, int deliveredCount, String deliveredDigest,
      int turns, long openedAtEpochSecond, Status status, String inFlight, long estimatedInput, long estimatedOutput,
      RememberedAnswer lastAnswer, long lastUsedEpochSecond, String project, boolean temporary, long deletedAtEpochSecond,
      String clientSession) {
    this(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond, status, inFlight,
        estimatedInput, estimatedOutput, lastAnswer, lastUsedEpochSecond, project, temporary, deletedAtEpochSecond,
        clientSession, null);
  }

  /** An entry without the hygiene fields: last used when opened, project from the URL, not temporary. */
  public Conversation(String sessionKey, String url, Effort effort, int deliveredCount, String deliveredDigest,
      int turns, long openedAtEpochSecond, Status status, String inFlight, long estimatedInput, long estimatedOutput,
      RememberedAnswer lastAnswer) {
    this(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond, status, inFlight,
        estimatedInput, estimatedOutput, lastAnswer, openedAtEpochSecond, null, false, 0, null);
  }

  /**
   * The ChatGPT Project slug of a project's URL ({@code /g/g-p-<slug>/c/<id>} of a conversation in
   * it, {@code /g/g-p-<slug>/project} of its home), or null for any other URL.
   */
  public static String projectOf(String url) {
    if (url == null) {
      return null;
    }
    Matcher matcher = PROJECT_PATH.matcher(url);
    return matcher.find() ? matcher.group(1) : null;
  }

  /** The conversation id of its URL (the part after {@code /c/}), or null while the URL is unknown. */
  public String conversationId() {
    if (url == null) {
      return null;
    }
    Matcher matcher = CONVERSATION_ID.matcher(url);
    return matcher.find() ? matcher.group(1) : null;
  }

  /** This entry with another status; leaving {@code in_flight} clears the mark (and the send it proved). */
  public Conversation withStatus(Status next) {
    boolean inFlightNow = next == Status.IN_FLIGHT;
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        next, inFlightNow ? inFlight : null, estimatedInput, estimatedOutput, lastAnswer,
        lastUsedEpochSecond, project, temporary, deletedAtEpochSecond, clientSession, inFlightNow ? sentMessageId : null, files);
  }

  public Conversation uncertain() {
    return sentMessageId == null ? withStatus(Status.UNCERTAIN) : uncertainAfterSend(sentMessageId, url);
  }

  /**
   * This in-flight entry once its send is proven by the page's request: the user message id and
   * the conversation it went to ({@code sentUrl}, or this entry's URL when null).
   */
  public Conversation sent(String userMessageId, String sentUrl) {
    return new Conversation(sessionKey, sentUrl == null || sentUrl.isEmpty() ? url : sentUrl, effort, deliveredCount,
        deliveredDigest, turns, openedAtEpochSecond, status, inFlight, estimatedInput, estimatedOutput, lastAnswer,
        lastUsedEpochSecond, null, temporary, deletedAtEpochSecond, clientSession, userMessageId, files);
  }

  /**
   * Uncertain past a Send the page's request proved: it keeps the turn's digest ({@code in_flight})
   * and the user message id, so the same request can be answered from the conversation.
   */
  public Conversation uncertainAfterSend(String userMessageId, String sentUrl) {
    return new Conversation(sessionKey, sentUrl == null || sentUrl.isEmpty() ? url : sentUrl, effort, deliveredCount,
        deliveredDigest, turns, openedAtEpochSecond, Status.UNCERTAIN, inFlight, estimatedInput, estimatedOutput,
        lastAnswer, lastUsedEpochSecond, null, temporary, deletedAtEpochSecond, clientSession, userMessageId, files);
  }

  /** Whether its answer may be looked up in the conversation: uncertain past a proven send, with a URL, not temporary. */
  public boolean recoverable() {
    return status == Status.UNCERTAIN && sentMessageId != null && inFlight != null && url != null && !url.isEmpty()
        && !temporary;
  }

  /**
   * The tombstone of this entry: status {@code deleted}, the URL and {@code at} kept, the
   * remembered answer (the only text) dropped with the conversation it came from.
   */
  public Conversation tombstone(long atEpochSecond) {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        Status.DELETED, null, estimatedInput, estimatedOutput, null, lastUsedEpochSecond, project, temporary,
        atEpochSecond, clientSession, null, files);
  }

  /** This entry marked as a temporary chat (or not). */
  public Conversation withTemporary(boolean isTemporary) {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        status, inFlight, estimatedInput, estimatedOutput, lastAnswer, lastUsedEpochSecond, project, isTemporary,
        deletedAtEpochSecond, clientSession, sentMessageId, files);
  }

  /** This entry last used at {@code atEpochSecond}. */
  public Conversation usedAt(long atEpochSecond) {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        status, inFlight, estimatedInput, estimatedOutput, lastAnswer, atEpochSecond, project, temporary,
        deletedAtEpochSecond, clientSession, sentMessageId, files);
  }

  /** The sha256 of every file the conversation holds. */
  public Set<String> fileDigests() {
    return files.stream().map(HeldFile::sha256).collect(Collectors.toUnmodifiableSet());
  }

  /** This entry holding {@code more} files besides its own (each once). */
  Conversation withFiles(List<HeldFile> more) {
    List<HeldFile> all = new ArrayList<>(files);
    Set<String> known = fileDigests();
    more.stream().filter(file -> !known.contains(file.sha256())).forEach(all::add);
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        status, inFlight, estimatedInput, estimatedOutput, lastAnswer, lastUsedEpochSecond, project, temporary,
        deletedAtEpochSecond, clientSession, sentMessageId, all);
  }

  /** This entry with another remembered answer (null for none). */
  Conversation withAnswer(RememberedAnswer answer) {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        status, inFlight, estimatedInput, estimatedOutput, answer, lastUsedEpochSecond, project, temporary,
        deletedAtEpochSecond, clientSession, sentMessageId, files);
  }
}
