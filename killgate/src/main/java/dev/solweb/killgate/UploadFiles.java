package dev.solweb.killgate;

import dev.solweb.provider.model.Attachment;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;
import javax.imageio.ImageIO;

/** Files for the upload tests, the upload bench and the kill gate's check 13: real PNGs of about a given size, and logs. */
public final class UploadFiles {

  private UploadFiles() {}

  /** A valid PNG of random pixels (which do not compress), about {@code bytes} long. */
  public static Attachment png(String name, int bytes, long seed) {
    int side = Math.max(2, (int) Math.sqrt(bytes / 3.0));
    BufferedImage image = new BufferedImage(side, side, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(seed);
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) {
        image.setRGB(x, y, random.nextInt(0x1000000));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return attachment(name, "image/png", out.toByteArray());
  }

  /** A log of about {@code bytes}: numbered lines. */
  static Attachment log(String name, int bytes) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; sb.length() < bytes; i++) {
      sb.append("2026-12-04T17:00:00Z INFO test ").append(i).append(" passed in ").append(i % 97).append(" ms\n");
    }
    return attachment(name, "application/octet-stream", sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  static Attachment attachment(String name, String type, byte[] bytes) {
    return new Attachment(name, type, bytes, sha256(bytes));
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
