package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.model.Attachment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One message's content as a wire reads it, part by part: its text, and its files decoded by
 * {@link AttachmentDecoder}. Each file part is one call ({@link #image}, {@link #file},
 * {@link #anthropic}), refused with a typed 400 before anything is planned.
 *
 * <p>A text file the client sent as a file is typed into the message when it is short (up to
 * {@link #TYPED_TEXT_CHARS} characters: the model reads it exactly, and no upload is spent), and
 * uploaded as a file when it is longer (a 200 KB log: too large to type well, REAL-PAGE row 2).
 * Text the client sent as text always stays typed text.
 */
public final class MessageParts {
  /** A text file up to this long is typed, past it uploaded (oracle: "above ~60k chars it uploads files instead"). */
  public static final int TYPED_TEXT_CHARS = TurnEnvelope.MAX_RESULT_CHARS;

  private final AttachmentDecoder decoder;
  private final String where;
  private final List<String> texts = new ArrayList<>();
  private final List<Attachment> files = new ArrayList<>();
  private final Set<String> distinct = new LinkedHashSet<>();

  MessageParts(AttachmentDecoder decoder, String where) {
    this.decoder = decoder;
    this.where = where;
  }

  /** A text part, typed as sent. */
  public MessageParts text(String text) {
    texts.add(text);
    return this;
  }

  /** An image part's URL: a base64 data URL (chat {@code image_url}, Responses {@code input_image}). */
  public MessageParts image(String part, String url) throws BadRequest {
    return add(part, decoder.image(part, url));
  }

  /** A file part's data URL or base64, and its name (chat {@code file}, Responses {@code input_file}). */
  public MessageParts file(String part, String data, String filename) throws BadRequest {
    return add(part, decoder.file(part, data, filename));
  }

  /** An Anthropic {@code image} or {@code document} block, whole. */
  public MessageParts anthropic(String part, JsonNode block) throws BadRequest {
    return add(part, decoder.anthropic(part, block));
  }

  /**
   * The typed text: the text parts (and short text files) in order, one line apart; empty parts
   * before the first text add nothing (as the text-only parser always read them).
   */
  public String content() {
    StringBuilder text = new StringBuilder();
    for (String part : texts) {
      if (text.length() > 0) {
        text.append('\n');
      }
      text.append(part);
    }
    return text.toString();
  }

  /** The files to upload, in the order sent. */
  public List<Attachment> attachments() {
    return List.copyOf(files);
  }

  /** Whether no part was added. */
  public boolean isEmpty() {
    return texts.isEmpty() && files.isEmpty();
  }

  /** The message of these parts. */
  public Message message(Message.Role role, List<Message.ToolCallRef> toolCalls, String toolCallId) {
    return new Message(role, content(), toolCalls, toolCallId, files);
  }

  private MessageParts add(String part, Attachment file) throws BadRequest {
    if (file.mediaType().equals(FileTypes.TEXT)) {
      String text = new String(file.bytes(), StandardCharsets.UTF_8);
      if (text.length() <= TYPED_TEXT_CHARS) {
        texts.add(TurnEnvelope.typedFile(file.name(), text));
        return this;
      }
    }
    if (distinct.add(file.sha256()) && distinct.size() > Attachment.MAX_PER_TURN) {
      throw new BadRequest(400, "too_many_attachments", part + " (" + file.name() + ") is file "
          + distinct.size() + " of " + where + "; the page takes at most " + Attachment.MAX_PER_TURN
          + " files per message (REAL-PAGE row 49); nothing was sent");
    }
    files.add(file);
    return this;
  }
}
