package dev.solweb.provider.translate;

import dev.solweb.provider.model.Attachment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/** Files for tests: bytes that begin as the real formats do, distinct by {@code seed}. */
public final class TestFiles {
  private TestFiles() {}

  public static byte[] png(int size, int seed) {
    return withMagic(size, seed, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
  }

  public static byte[] jpeg(int size, int seed) {
    return withMagic(size, seed, 0xFF, 0xD8, 0xFF, 0xE0);
  }

  public static byte[] pdf(int size, int seed) {
    return withMagic(size, seed, '%', 'P', 'D', 'F', '-', '1', '.', '7');
  }

  /** {@code lines} lines of a log, distinct by {@code seed}. */
  public static byte[] log(int lines, int seed) {
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      log.append("2026-12-04T17:00:").append(i % 60).append(" run ").append(seed).append(" step ").append(i)
          .append(" ok\n");
    }
    return log.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static String dataUrl(String declaredType, byte[] bytes) {
    return "data:" + declaredType + ";base64," + Base64.getEncoder().encodeToString(bytes);
  }

  public static String sha256(byte[] bytes) {
    return AttachmentDecoder.sha256(bytes);
  }

  /** A decoded PNG attachment named {@code name}. */
  public static Attachment pngAttachment(String name, int seed) {
    byte[] bytes = png(64, seed);
    return new Attachment(name, "image/png", bytes, sha256(bytes));
  }

  private static byte[] withMagic(int size, int seed, int... magic) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, (byte) 0);
    for (int i = 0; i < magic.length; i++) {
      bytes[i] = (byte) magic[i];
    }
    for (int i = magic.length; i < size; i++) {
      bytes[i] = (byte) ((seed * 31 + i * 7) & 0xFF);
    }
    return bytes;
  }
}
