package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.model.Attachment;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a client's file part into an {@link Attachment}, once, whatever the wire: a chat
 * completions {@code image_url} or {@code file} part, a Responses {@code input_image} or
 * {@code input_file}, an Anthropic {@code image} or {@code document} block. Every check runs
 * before anything is planned, so a refused request sends nothing at all: the type is read from
 * the bytes' magic numbers ({@link FileTypes}; the declared type is ignored), the size is held to
 * the page's limits (REAL-PAGE row 49: {@value #IMAGE_LIMIT_MB} MB an image,
 * {@value #FILE_LIMIT_MB} MB a file) and to this daemon's {@code SOLWEBD_MAX_ATTACHMENT_MB},
 * checked on the base64 length before the bytes are decoded. Only data (a {@code data:} URL or
 * bare base64) is taken: solwebd fetches nothing from the network, and keeps no files a client
 * could name by id.
 *
 * <p>Each refusal is a {@link BadRequest} 400 whose message names the part, the file and the limit.
 * Wires reach it through {@link #parts}, one {@link MessageParts} per message.
 */
public final class AttachmentDecoder {
  public static final String MAX_MB_ENV = "SOLWEBD_MAX_ATTACHMENT_MB";
  /** The page's image limit (REAL-PAGE row 49). */
  public static final long IMAGE_LIMIT_MB = 20;
  /** The page's limit for any other file (REAL-PAGE row 49). */
  public static final long FILE_LIMIT_MB = 512;
  /**
   * The default per-file limit: a screenshot or a log is far below it, and one file of it in
   * base64 (about 13.4 MB) fits a request body beside the history ({@link #bodyLimit}).
   */
  public static final long DEFAULT_MAX_MB = 10;

  private static final long MB = 1L << 20;
  private final long maxBytes;

  /** @param maxBytes this daemon's per-file limit ({@code SOLWEBD_MAX_ATTACHMENT_MB}) */
  public AttachmentDecoder(long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException(MAX_MB_ENV + " must be at least 1 byte, got " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /** The decoder of a daemon with the default limit. */
  public static AttachmentDecoder defaults() {
    return new AttachmentDecoder(DEFAULT_MAX_MB * MB);
  }

  /**
   * {@code SOLWEBD_MAX_ATTACHMENT_MB} in bytes: a whole number of megabytes from 1 to
   * {@value #FILE_LIMIT_MB} (above the page's own limit it could never be used).
   *
   * @throws IllegalArgumentException naming the variable
   */
  public static long parseMegabytes(String value) {
    long mb;
    try {
      mb = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(MAX_MB_ENV + " must be a whole number of megabytes, got " + value);
    }
    if (mb < 1 || mb > FILE_LIMIT_MB) {
      throw new IllegalArgumentException(MAX_MB_ENV + " must be 1 to " + FILE_LIMIT_MB + " (the page's file limit), got " + mb);
    }
    return mb * MB;
  }

  /**
   * The request body limit that holds one file of {@code maxAttachmentBytes} in base64 (4/3 of it)
   * with a megabyte to spare for the history around it: {@code configuredBody} when it is larger.
   */
  public static long bodyLimit(long configuredBody, long maxAttachmentBytes) {
    return Math.max(configuredBody, base64Length(maxAttachmentBytes) + MB);
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** A message's content, built part by part: {@code where} names the message in refusals. */
  public MessageParts parts(String where) {
    return new MessageParts(this, where);
  }

  /**
   * An image part's URL (chat {@code image_url.url}, Responses {@code input_image.image_url}): a
   * base64 {@code data:} URL of an image; an {@code http(s)} URL is refused.
   */
  Attachment image(String where, String url) throws BadRequest {
    if (url == null || url.isEmpty()) {
      throw invalid(where + " has no image URL; send the image as a data URL (data:image/png;base64,...)");
    }
    Attachment image = decode(where, null, dataUrl(where, url), true);
    if (!image.image()) {
      throw new BadRequest(400, "unsupported_attachment_type", where + " (" + image.name() + ") is sent as an image but its bytes are "
          + image.mediaType() + "; the page's image input takes PNG, JPEG, GIF and WebP (send documents as a file part);"
          + " nothing was sent");
    }
    return image;
  }

  /**
   * A file part's data (chat {@code file.file_data}, Responses {@code input_file.file_data}): a
   * base64 {@code data:} URL or bare base64, with the client's file name when it gave one.
   */
  Attachment file(String where, String data, String filename) throws BadRequest {
    if (data == null || data.isEmpty()) {
      throw invalid(where + " has no file_data; send the file's bytes as base64 (file ids and URLs are not taken:"
          + " solwebd keeps no files and fetches nothing from the network)");
    }
    return decode(where, filename, data.startsWith("data:") ? dataUrl(where, data) : data, false);
  }

  /**
   * An Anthropic Messages {@code image} or {@code document} block, whole: its {@code source} of
   * type {@code base64} ({@code data}), or {@code text} (a plain-text document's {@code data});
   * a {@code url} or {@code file} source is refused. A document's {@code title} names the file.
   */
  Attachment anthropic(String where, JsonNode block) throws BadRequest {
    String type = block.path("type").asText("");
    if (!type.equals("image") && !type.equals("document")) {
      throw invalid(where + " is a '" + type + "' block, not an image or a document");
    }
    JsonNode source = block.path("source");
    String title = block.path("title").isTextual() ? block.path("title").asText() : null;
    switch (source.path("type").asText("")) {
      case "base64" -> {
        JsonNode data = source.get("data");
        if (data == null || !data.isTextual()) {
          throw invalid(where + ".source.data must be a base64 string");
        }
        Attachment decoded = decode(where, title, data.asText(), type.equals("image"));
        if (type.equals("image") && !decoded.image()) {
          throw new BadRequest(400, "unsupported_attachment_type", where + " (" + decoded.name()
              + ") is an image block but its bytes are " + decoded.mediaType() + "; nothing was sent");
        }
        return decoded;
      }
      case "text" -> {
        JsonNode data = source.get("data");
        if (data == null || !data.isTextual()) {
          throw invalid(where + ".source.data must be the document's text");
        }
        byte[] bytes = data.asText().getBytes(StandardCharsets.UTF_8);
        return checked(where, title, bytes, FileTypes.TEXT);
      }
      case "url" -> throw networkRefused(where);
      default -> throw invalid(where + ".source has type '" + source.path("type").asText("")
          + "'; solwebd takes base64 and text sources (it keeps no files and fetches nothing from the network)");
    }
  }

  /** The base64 payload of a {@code data:<type>;base64,<payload>} URL; the declared type is ignored. */
  private static String dataUrl(String where, String url) throws BadRequest {
    String lower = url.length() > 8 ? url.substring(0, 8).toLowerCase(Locale.ROOT) : url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      throw networkRefused(where);
    }
    int comma = url.indexOf(',');
    if (!url.startsWith("data:") || comma < 0) {
      throw invalid(where + " must be a data URL (data:<type>;base64,<data>); got one starting '"
          + url.substring(0, Math.min(12, url.length())).replaceAll("[^\\x20-\\x7e]", "?") + "'");
    }
    if (!url.substring(0, comma).endsWith(";base64")) {
      throw invalid(where + " is a data URL without ;base64; send the bytes base64-encoded");
    }
    return url.substring(comma + 1);
  }

  /**
   * Decodes {@code base64}: the type from the first bytes, the size from the length, both checked
   * before the whole is decoded; then the type from every byte (text must decode as UTF-8).
   */
  private Attachment decode(String where, String name, String base64, boolean image) throws BadRequest {
    String payload = base64.strip();
    if (payload.indexOf('\n') >= 0 || payload.indexOf('\r') >= 0 || payload.indexOf(' ') >= 0) {
      payload = payload.replaceAll("\\s+", ""); // wrapped base64 (MIME style) is still base64
    }
    byte[] head = decodeBase64(where, name, payload.substring(0, Math.min(16, payload.length() & ~3)));
    String headType = FileTypes.of(head, name == null ? "" : name).filter(t -> !t.equals(FileTypes.TEXT)).orElse("");
    // The decoded size, from the length alone: a file over its limit is refused before it is decoded.
    int padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
    long size = payload.length() / 4 * 3L - padding;
    refuseSize(where, name == null ? "the " + (image ? "image" : "file") : name, size, headType.startsWith("image/"));
    byte[] bytes = decodeBase64(where, name, payload);
    Optional<String> type = FileTypes.of(bytes, name == null ? "" : name);
    if (type.isEmpty()) {
      throw new BadRequest(400, "unsupported_attachment_type", where + " (" + (name == null ? "sent without a name" : name)
          + ") is no type the page takes: its bytes are not an image (PNG, JPEG, GIF, WebP), a PDF, an office"
          + " document or UTF-8 text (first bytes: " + FileTypes.head(bytes) + "); nothing was sent");
    }
    return checked(where, name, bytes, type.get());
  }

  /** The attachment of checked bytes: exact size against the limits, and a name. */
  private Attachment checked(String where, String name, byte[] bytes, String mediaType) throws BadRequest {
    String sha256 = sha256(bytes);
    String shown = name(name, mediaType, sha256);
    refuseSize(where, shown, bytes.length, mediaType.startsWith("image/"));
    return new Attachment(shown, mediaType, bytes, sha256);
  }

  private void refuseSize(String where, String name, long size, boolean image) throws BadRequest {
    long pageLimit = (image ? IMAGE_LIMIT_MB : FILE_LIMIT_MB) * MB;
    if (size <= Math.min(pageLimit, maxBytes)) {
      return;
    }
    String limit = maxBytes < pageLimit
        ? "this daemon takes files up to " + megabytes(maxBytes) + " (" + MAX_MB_ENV + ")"
        : "the page takes " + (image ? "images up to " + IMAGE_LIMIT_MB : "files up to " + FILE_LIMIT_MB)
            + " MB (REAL-PAGE row 49)";
    throw new BadRequest(400, "attachment_too_large", where + " (" + name + ") is "
        + megabytes(size) + "; " + limit + "; nothing was sent");
  }

  private static byte[] decodeBase64(String where, String name, String payload) throws BadRequest {
    try {
      return Base64.getDecoder().decode(payload);
    } catch (IllegalArgumentException e) {
      throw invalid(where + (name == null ? "" : " (" + name + ")") + " is not valid base64: " + e.getMessage());
    }
  }

  /**
   * The client's name without any directory part or control character; a made-up
   * {@code image-<sha8>.<ext>} or {@code file-<sha8>.<ext>} for a part without one (stable, so a
   * re-sent history names it alike).
   */
  static String name(String given, String mediaType, String sha256) {
    if (given != null) {
      String base = given.substring(Math.max(given.lastIndexOf('/'), given.lastIndexOf('\\')) + 1)
          .replaceAll("\\p{Cntrl}", "").strip();
      if (!base.isEmpty() && !base.equals(".") && !base.equals("..")) {
        return base.length() <= 200 ? base : base.substring(0, 200);
      }
    }
    return (mediaType.startsWith("image/") ? "image-" : "file-") + sha256.substring(0, 8) + "."
        + FileTypes.extensionOf(mediaType);
  }

  static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB (%d bytes)", bytes / (double) MB, bytes);
  }

  private static long base64Length(long bytes) {
    return (bytes + 2) / 3 * 4;
  }

  private static BadRequest networkRefused(String where) {
    return new BadRequest(400, "attachment_url_unsupported", where + " is an http(s) URL; solwebd fetches nothing from"
        + " the network: send the file's bytes as a data URL (data:image/png;base64,...); nothing was sent");
  }

  private static BadRequest invalid(String message) {
    return new BadRequest(400, "invalid_attachment", message);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
