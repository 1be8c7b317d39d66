package dev.solweb.provider.translate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.solweb.provider.model.Effort;

/**
 * What the registry knows of one managed browser conversation. No prompt text: the delivered
 * prefix is kept as a count and a digest ({@link HistoryDigest}); the one text kept is the
 * answer to the last turn ({@link RememberedAnswer}, stored in a file of its own), bounded in
 * size and age.
 *
 * @param url the durable conversation URL; empty while the first send of a fresh conversation is
 *     in flight (the page shows the URL only after Send)
 * @param deliveredCount how many client messages (plus our own answers) the conversation holds
 * @param deliveredDigest {@link HistoryDigest} of those messages
 * @param status see {@link Status}
 * @param inFlight {@link HistoryDigest} of the turn being sent while {@code status} is
 *     {@code in_flight}, else null
 * @param estimatedInput cumulative estimated input tokens typed into this conversation
 * @param estimatedOutput cumulative estimated output tokens of visible answers
 * @param lastAnswer the answer to the last turn, or null
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
    @JsonProperty("last_answer") @JsonInclude(JsonInclude.Include.NON_NULL) RememberedAnswer lastAnswer) {

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
    /** The conversation can take no more turns (full): the next request replays into a fresh one. */
    @JsonProperty("retired") RETIRED
  }

  /** This entry with another status; leaving {@code in_flight} clears the mark. */
  public Conversation withStatus(Status next) {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        next, next == Status.IN_FLIGHT ? inFlight : null, estimatedInput, estimatedOutput, lastAnswer);
  }

  public Conversation uncertain() {
    return withStatus(Status.UNCERTAIN);
  }

  /** This entry with another remembered answer (null for none). */
  Conversation withAnswer(RememberedAnswer answer) {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns, openedAtEpochSecond,
        status, inFlight, estimatedInput, estimatedOutput, answer);
  }
}
