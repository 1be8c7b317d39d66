package dev.solweb.factory.session;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The Sol conversation identity Pi sends as {@code X-Overdeck-Client-Session} (seed 001, "Sol
 * conversation identity"): {@code v1.} + unpadded base64url(SHA-256(DOMAIN_SEPARATOR || id)).
 *
 * <p>The raw Factory session id never leaves this class: only the derived value reaches Pi's
 * environment ({@code OVERDECK_PI_CLIENT_SESSION}), solwebd and receipts. The domain separator
 * keeps this hash from ever equalling a SHA-256 of the same id computed for another purpose.
 *
 * <p>Derivation, reproducible in a shell:
 * <pre>
 * printf 'solweb/factory-client-session/v1\0%s' "$ID" | openssl dgst -sha256 -binary \
 *   | base64 | tr '+/' '-_' | tr -d '='      # then prefix "v1."
 * </pre>
 */
public record ClientSession(String value) {

  /** ASCII label, then one NUL byte, then the id's UTF-8 bytes. Changing it is a new version. */
  public static final String DOMAIN_SEPARATOR = "solweb/factory-client-session/v1\0";

  /** What solwebd accepts; the header is validated before the body. */
  public static final Pattern WIRE_FORMAT = Pattern.compile("^v1\\.[A-Za-z0-9_-]{43}$");

  public ClientSession {
    if (value == null || !WIRE_FORMAT.matcher(value).matches()) {
      throw new IllegalArgumentException("client session must match " + WIRE_FORMAT.pattern());
    }
  }

  /**
   * Derives the identity of a Factory session id.
   *
   * @throws IllegalArgumentException when the id is null, empty or not encodable as UTF-8 (an
   *     unpaired surrogate); this happens before any process is spawned
   */
  public static ClientSession derive(String factorySessionId) {
    if (factorySessionId == null || factorySessionId.isEmpty()) {
      throw new IllegalArgumentException("Factory session id is empty; refusing to derive a client session");
    }
    try {
      ByteBuffer utf8 = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(factorySessionId));
      byte[] bytes = new byte[utf8.remaining()];
      utf8.get(bytes);
      return fromUtf8(bytes);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("Factory session id is not valid Unicode text (unpaired surrogate)", e);
    }
  }

  /**
   * Derives the identity of a Factory session id given as raw bytes (as read from a file or an
   * environment block).
   *
   * @throws IllegalArgumentException when the bytes are null, empty or not well-formed UTF-8
   */
  public static ClientSession derive(byte[] factorySessionIdUtf8) {
    if (factorySessionIdUtf8 == null || factorySessionIdUtf8.length == 0) {
      throw new IllegalArgumentException("Factory session id is empty; refusing to derive a client session");
    }
    try {
      StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(factorySessionIdUtf8));
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("Factory session id is not well-formed UTF-8", e);
    }
    return fromUtf8(factorySessionIdUtf8);
  }

  private static ClientSession fromUtf8(byte[] id) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(DOMAIN_SEPARATOR.getBytes(StandardCharsets.US_ASCII));
      sha.update(id);
      return new ClientSession("v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(sha.digest()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  public static boolean isValid(String value) {
    return value != null && WIRE_FORMAT.matcher(value).matches();
  }

  @Override
  public String toString() {
    return value;
  }
}
