package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.seat.playwright.page.ChatGptPage.CodeBlocks;
import dev.solweb.provider.seat.playwright.page.ChatGptPage.DomAnswer;
import dev.solweb.provider.seat.playwright.page.ChatGptPage.Image;
import dev.solweb.provider.seat.playwright.page.ChatGptPage.ImageRef;
import dev.solweb.provider.seat.playwright.page.ChatGptPage.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reading an answer back from the page: its code blocks through the turn's Copy or from the DOM,
 * its images and their bytes. Every read finds the message again by its id (a turn may have
 * remounted since the last read: row 60). Confined to the seat's thread, like the page.
 */
final class AnswerReader {

  private final Page page;
  private final ChatGptPage chat;

  AnswerReader(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /** The images of the assistant message {@code messageId}'s turn, in page order, one per file id. */
  @SuppressWarnings("unchecked")
  List<ImageRef> images(String messageId) {
    Object out = chat.evaluate(AnswerScripts.IMAGES, List.of(messageId, Controls.script(), ChatGptPage.ANSWER_IMAGE));
    List<ImageRef> refs = new ArrayList<>();
    for (Map<String, Object> m : out == null ? List.<Map<String, Object>>of() : (List<Map<String, Object>>) out) {
      refs.add(new ImageRef((String) m.get("url"), (String) m.get("fileId")));
    }
    return refs;
  }

  /**
   * The bytes behind an image URL, fetched with the page's own cookies (the browser context's
   * request client), so a signed-in file service answers as it does for the page.
   */
  Image download(String url) {
    com.microsoft.playwright.APIResponse r = page.request().get(url,
        com.microsoft.playwright.options.RequestOptions.create().setTimeout(30_000));
    try {
      if (!r.ok()) {
        throw new PlaywrightException("image " + url + " answered HTTP " + r.status());
      }
      return new Image(r.body(), r.headers().getOrDefault("content-type", ""));
    } finally {
      r.dispose();
    }
  }

  /**
   * The answer's code blocks, for a cross-check that knows what it expects: the DOM's own reading
   * of the blocks first (one evaluate), and when it already agrees exactly that is the answer; else
   * the Copy, where a copied text that agrees is taken at once, without the stillness wait (a copy
   * that agrees exactly is not a partial one), and anything else waits for stillness as usual.
   */
  CodeBlocks codeBlocks(String messageId, Predicate<List<String>> expected) {
    MarkdownFences.Split shown = domAnswer(messageId).split();
    if (expected.test(shown.blocks())) {
      return new CodeBlocks(shown.blocks(), shown.prose(), Source.DOM);
    }
    String markdown = copyTurnMarkdown(messageId, md -> expected.test(MarkdownFences.split(md).blocks()));
    if (markdown != null && !markdown.isBlank()) {
      MarkdownFences.Split split = MarkdownFences.split(markdown);
      return new CodeBlocks(split.blocks(), split.prose(), Source.COPY);
    }
    MarkdownFences.Split dom = domAnswer(messageId).split();
    return new CodeBlocks(dom.blocks(), dom.prose(), Source.DOM);
  }

  /**
   * Clicks the answer turn's Copy as a person would (oracle) and returns what it copied, at once
   * when it is {@code enough}, else once it held still; null when nothing was copied within 2 s
   * (the caller reads the DOM instead). See {@link CopyButton}.
   */
  String copyTurnMarkdown(String messageId, Predicate<String> enough) {
    return new CopyButton(page, chat).copy(messageId, enough);
  }

  /** Whether the page shows a message with this id, by any of the answer's strategies. */
  boolean hasMessage(String messageId) {
    return Boolean.TRUE.equals(chat.evaluate(AnswerScripts.HAS_MESSAGE, List.of(messageId, Controls.script())));
  }

  /** The answer as the DOM shows it; empty when the page shows no message with that id. */
  @SuppressWarnings("unchecked")
  DomAnswer domAnswer(String messageId) {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(AnswerScripts.DOM_BLOCKS, List.of(messageId, Controls.script()));
    if (m == null) {
      return new DomAnswer(List.of(), List.of(), "", "");
    }
    return new DomAnswer((List<String>) m.get("blocks"), (List<String>) m.get("langs"),
        ChatGptPage.withoutStatusLines((String) m.get("prose")), (String) m.get("markdown"));
  }
}
