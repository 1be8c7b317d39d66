package dev.solweb.provider.http.operator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * 256-bit random secrets (one-time codes, session ids) and the digests they are kept under: the
 * daemon's maps hold only SHA-256 of each, so a heap dump or a debug print shows no live secret.
 */
final class Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /** 32 random bytes, base64url without padding (43 characters). */
  static String mint() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static String digest(String secret) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /** True for a string that could be a secret of {@link #mint}: a guard before hashing anything a client sent. */
  static boolean wellFormed(String given) {
    return given != null && given.length() == 43 && given.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_');
  }
}
