package dev.solweb.provider.translate;

import dev.solweb.provider.protocol.Reply;
import java.util.List;

/** How a planned turn ended on the page, as {@link Conversations#record} takes it. */
public sealed interface TurnOutcome {

  /**
   * The model answered within the protocol.
   *
   * @param reply a {@link Reply.ToolCall}, {@link Reply.ToolCalls} or {@link Reply.Final}
   * @param conversationUrl the durable URL of the conversation that now holds the turn
   * @param sends how many texts were typed (2 after a correction turn)
   * @param extraInput estimated input of texts typed besides the plan's (the correction turn)
   * @param output estimated output tokens of the visible replies
   * @param model the model slug that answered, as the page named it, or null when unknown
   */
  record Replied(Reply reply, String conversationUrl, int sends, long extraInput, long output, List<String> images,
      String model) implements TurnOutcome {
    public Replied {
      if (reply instanceof Reply.Malformed) {
        throw new IllegalArgumentException("a malformed reply is not an answer");
      }
      images = images == null ? List.of() : List.copyOf(images);
    }

    /** A reply whose model is not known. */
    public Replied(Reply reply, String conversationUrl, int sends, long extraInput, long output, List<String> images) {
      this(reply, conversationUrl, sends, extraInput, output, images, null);
    }
  }

  /**
   * Past the Send boundary the turn did not end in an answer (the browser was lost, the turn
   * timed out or was cancelled, the model broke the protocol twice): what the conversation holds
   * is unknown, so it is never typed into again.
   *
   * @param conversationUrl the conversation's URL if the page showed one, else null
   * @param sentMessageId the user message id the page's own request proved sent, else null; with
   *     it the next identical request looks for the answer in the conversation first
   */
  record Uncertain(String conversationUrl, String why, String sentMessageId) implements TurnOutcome {
    public Uncertain(String conversationUrl, String why) {
      this(conversationUrl, why, null);
    }
  }

  /**
   * solwebd stopped the turn past its Send (its client left and did not rejoin, the turn timed
   * out): the page holds a partial answer or none, which is never read as this turn's. The
   * conversation is not typed into again; the next request replays at once.
   *
   * @param conversationUrl the conversation's URL if the page showed one, else null
   */
  record Cancelled(String conversationUrl, String why) implements TurnOutcome {}

  /**
   * The seat failed before Send (the browser lost before the click, say): the conversation is as
   * it was before the turn, and the turn may run again.
   */
  record NotSent() implements TurnOutcome {}

  /**
   * The conversation cannot take another turn (the page says it is full, say): its next turn
   * goes to a fresh conversation with a replay. Nothing about this turn is uncertain.
   */
  record Retired(String why) implements TurnOutcome {}
}
