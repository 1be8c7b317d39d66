package dev.solweb.provider.model;

import java.util.List;

/**
 * A file a client sent with a message (an image, a document, a log), decoded once and checked by
 * the wire that received it; the seat uploads it through the page's own file input.
 *
 * @param name the file name the page shows (the client's, or one solwebd made up for a pasted image)
 * @param mediaType the type found from the bytes' magic numbers, not the one the client declared
 * @param bytes the file itself
 * @param sha256 lowercase hex of {@code bytes}: how a file already uploaded is recognised, and what
 *     tests compare against what fakesol received
 */
public record Attachment(String name, String mediaType, byte[] bytes, String sha256) {

  public Attachment {
    bytes = bytes.clone();
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** True for the types the page takes through its image input. */
  public boolean image() {
    return mediaType.startsWith("image/");
  }

  /** The files of a turn: at most this many (REAL-PAGE row 49). */
  public static final int MAX_PER_TURN = 10;

  public static List<Attachment> none() {
    return List.of();
  }
}
