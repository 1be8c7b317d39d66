package dev.solweb.provider.seat;

import java.util.List;
import java.util.Objects;

/**
 * What one send produced, as the seat read it from the page.
 *
 * @param codeBlocks the reply's code blocks, each the raw text between its fences (never rebuilt
 *     from innerText)
 * @param prose the visible answer text outside code blocks
 * @param conversationUrl the durable conversation URL after the send (never a transient
 *     {@code /c/WEB:} URL): {@code <origin>/c/<id>} in the owner's history;
 *     {@code <origin>/g/g-p-<slug>/c/<id>} inside a ChatGPT Project; for a temporary chat
 *     {@code <origin>/c/<id>?temporary-chat=true} (the id from the page's stream: the page never
 *     shows it, and no URL reopens it once its tab has left it; the query marks it temporary)
 * @param modelSlug the model that answered ({@code data-message-model-slug}) or null if unknown
 * @param images images the reply carried, as files the seat saved (one-shot asks only)
 * @param source where the seat read the answer: the page's own conversation stream, the DOM, a
 *     script, or the conversation's history (a recovered answer); null when a seat does not say
 */
public record SeatReply(
    List<String> codeBlocks,
    String prose,
    String conversationUrl,
    String modelSlug,
    List<String> images,
    Source source) {

  /** Where an answer was read; {@code HISTORY}: the conversation's own history, after a turn left uncertain. */
  public enum Source { STREAM, DOM, SCRIPT, HISTORY }

  public SeatReply {
    codeBlocks = List.copyOf(codeBlocks);
    Objects.requireNonNull(prose, "prose");
    Objects.requireNonNull(conversationUrl, "conversationUrl");
    images = images == null ? List.of() : List.copyOf(images);
  }

  public SeatReply(List<String> codeBlocks, String prose, String conversationUrl, String modelSlug, List<String> images) {
    this(codeBlocks, prose, conversationUrl, modelSlug, images, null);
  }

  public SeatReply(List<String> codeBlocks, String prose, String conversationUrl) {
    this(codeBlocks, prose, conversationUrl, null, List.of(), null);
  }
}
