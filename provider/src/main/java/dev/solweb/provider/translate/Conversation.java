package dev.solweb.provider.translate;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.solweb.provider.model.Effort;

/**
 * What the registry knows of one managed browser conversation. No prompt text: the delivered
 * prefix is kept as a count and a digest ({@link HistoryDigest}).
 *
 * @param url the durable conversation URL
 * @param deliveredCount how many client messages (plus our own answers) the conversation holds
 * @param deliveredDigest {@link HistoryDigest} of those messages
 * @param status {@code ready}, or {@code uncertain} after a failure past the Send boundary (the
 *     next request replays into a fresh conversation)
 * @param estimatedInput cumulative estimated input tokens typed into this conversation
 * @param estimatedOutput cumulative estimated output tokens of visible answers
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
    @JsonProperty("estimated_input") long estimatedInput,
    @JsonProperty("estimated_output") long estimatedOutput) {

  public enum Status {
    @JsonProperty("ready") READY,
    @JsonProperty("uncertain") UNCERTAIN
  }

  public Conversation uncertain() {
    return new Conversation(sessionKey, url, effort, deliveredCount, deliveredDigest, turns,
        openedAtEpochSecond, Status.UNCERTAIN, estimatedInput, estimatedOutput);
  }
}
