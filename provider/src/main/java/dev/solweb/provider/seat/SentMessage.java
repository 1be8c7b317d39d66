package dev.solweb.provider.seat;

import java.util.Objects;

/**
 * What the page's own request proved at the Send boundary: the id the page gave the new user
 * message and the conversation it went to. The seat reports it as soon as it knows it (see
 * {@link BrowserSeat#onSent}): for a follow-up both at once
 * from the request; for a new chat the id first and the conversation once the page's stream
 * names it. Never text.
 *
 * @param userMessageId the user message's id ({@code messages[0].id} of the page's request)
 * @param conversationUrl the conversation's durable URL, or null while a new chat has none yet
 */
public record SentMessage(String userMessageId, String conversationUrl) {
  public SentMessage {
    Objects.requireNonNull(userMessageId, "userMessageId");
  }
}
