package dev.solweb.provider.platform;

/**
 * A security or identity check refused: a private file that is missing, not a regular file,
 * owned by someone else, readable by others, empty or malformed, or a machine identity that is
 * ambiguous. The message is one line naming the file and what is wrong (never its content); the
 * texts are a contract shared with bin/solwebctl's token fast path. solwebctl answers it with exit
 * code 3, solwebd with "cannot start".
 */
public final class Refused extends Exception {
  public Refused(String message) {
    super(message);
  }

  public Refused(String message, Throwable cause) {
    super(message, cause);
  }
}
