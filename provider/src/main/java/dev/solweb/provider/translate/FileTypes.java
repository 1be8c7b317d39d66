package dev.solweb.provider.translate;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A file's type read from its bytes, never from what the client declared: the magic numbers of
 * the images the page's image input takes (PNG, JPEG, GIF, WebP) and of the documents its file
 * input takes (PDF, the zip and OLE2 office formats, named by the file's extension), and text
 * (strict UTF-8 without NUL). Anything else is unknown, and refused by the caller.
 */
final class FileTypes {
  static final String TEXT = "text/plain";

  private static final Map<String, String> ZIP_FAMILY = Map.of(
      "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation");
  private static final Map<String, String> OLE2_FAMILY = Map.of(
      "doc", "application/msword",
      "xls", "application/vnd.ms-excel",
      "ppt", "application/vnd.ms-powerpoint");
  private static final Map<String, String> EXTENSIONS = Map.ofEntries(
      Map.entry("image/png", "png"), Map.entry("image/jpeg", "jpg"), Map.entry("image/gif", "gif"),
      Map.entry("image/webp", "webp"), Map.entry("application/pdf", "pdf"), Map.entry(TEXT, "txt"),
      Map.entry("application/zip", "zip"));

  private FileTypes() {}

  /**
   * The media type of {@code bytes}, or empty when they are none the page takes.
   *
   * @param name the file's name: only tells a zip or OLE2 container's office format apart
   */
  static Optional<String> of(byte[] bytes, String name) {
    if (starts(bytes, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
      return Optional.of("image/png");
    }
    if (starts(bytes, 0xFF, 0xD8, 0xFF)) {
      return Optional.of("image/jpeg");
    }
    if (starts(bytes, 'G', 'I', 'F', '8', '7', 'a') || starts(bytes, 'G', 'I', 'F', '8', '9', 'a')) {
      return Optional.of("image/gif");
    }
    if (starts(bytes, 'R', 'I', 'F', 'F') && bytes.length >= 12 && bytes[8] == 'W' && bytes[9] == 'E'
        && bytes[10] == 'B' && bytes[11] == 'P') {
      return Optional.of("image/webp");
    }
    if (starts(bytes, '%', 'P', 'D', 'F', '-')) {
      return Optional.of("application/pdf");
    }
    if (starts(bytes, 'P', 'K', 0x03, 0x04)) {
      return Optional.of(ZIP_FAMILY.getOrDefault(extension(name), "application/zip"));
    }
    if (starts(bytes, 0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1)) {
      return Optional.ofNullable(OLE2_FAMILY.get(extension(name)));
    }
    return text(bytes) ? Optional.of(TEXT) : Optional.empty();
  }

  /** The usual extension of a type, for a name solwebd makes up ({@code bin} when it has none). */
  static String extensionOf(String mediaType) {
    String known = EXTENSIONS.get(mediaType);
    if (known != null) {
      return known;
    }
    for (Map<String, String> family : java.util.List.of(ZIP_FAMILY, OLE2_FAMILY)) {
      for (Map.Entry<String, String> entry : family.entrySet()) {
        if (entry.getValue().equals(mediaType)) {
          return entry.getKey();
        }
      }
    }
    return "bin";
  }

  /** The first bytes as hex, for a refusal that says what the file looked like. */
  static String head(byte[] bytes) {
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < Math.min(8, bytes.length); i++) {
      hex.append(i == 0 ? "" : " ").append(String.format("%02x", bytes[i] & 0xFF));
    }
    return hex.length() == 0 ? "none (empty)" : hex.toString();
  }

  private static boolean text(byte[] bytes) {
    if (bytes.length == 0) {
      return false;
    }
    for (byte b : bytes) {
      if (b == 0) {
        return false;
      }
    }
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  private static boolean starts(byte[] bytes, int... magic) {
    if (bytes.length < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if ((bytes[i] & 0xFF) != magic[i]) {
        return false;
      }
    }
    return true;
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }
}
