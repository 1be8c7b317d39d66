package dev.solweb.provider.translate;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Which browser conversation a stateless request belongs to: sha256 hex, first 16 characters,
 * over the system text, the first user text (and its files' sha256), the sorted tool names and the effort, plus the
 * client-session header value when the client sent one. Stable across a client session,
 * distinct across tasks, efforts and client sessions.
 *
 * <p>The parts are joined with NUL separators so that no two different part lists hash alike.
 */
public final class SessionKey {
  private SessionKey() {}

  public static String of(List<Message> messages, List<ToolSpec> tools, Effort effort, Optional<String> clientSession) {
    StringBuilder material = new StringBuilder();
    material.append(keyedSystemText(messages)).append('\0');
    Optional<Message> firstUser = messages.stream().filter(m -> m.role() == Message.Role.USER).findFirst();
    material.append(firstUser.map(Message::content).orElse("")).append('\0');
    // Two tasks that open with the same words about different files are two sessions; a first
    // message without files keys as it always did.
    firstUser.map(Message::attachments).filter(files -> !files.isEmpty())
        .ifPresent(files -> files.forEach(file -> material.append(file.sha256()).append('\0')));
    material.append(String.join(",", tools.stream().map(ToolSpec::name).sorted().toList())).append('\0');
    material.append(effort.suffix());
    clientSession.ifPresent(session -> material.append('\0').append(session));
    return sha256Hex(material.toString()).substring(0, 16);
  }

  /** What {@link #clientTag} hashes before the header value; changing it is a new version. */
  public static final String CLIENT_TAG_SEPARATOR = "solweb/client-tag/v1\0";

  /**
   * A short public name for a client-session header value, without the value ever being shown:
   * a client finds its own turns in {@code /healthz} by it, and the registry keeps it to find a
   * session's conversations again ({@code factory-gpt run --cleanup}). It is sha256 hex, first 12 characters,
   * over {@link #CLIENT_TAG_SEPARATOR} and the value. The value carries 256 random bits, so the
   * tag reveals nothing of it.
   */
  public static String clientTag(String clientSession) {
    return sha256Hex(CLIENT_TAG_SEPARATOR + clientSession).substring(0, 12);
  }

  /**
   * The system text as the key sees it: a leading system message as sent, a system message inside
   * the history (Claude Code 2.1.33x sends its environment second, as blocks in one request and a
   * string in the next) up to whitespace, so a change of its form keeps the session.
   */
  private static String keyedSystemText(List<Message> messages) {
    List<String> parts = new java.util.ArrayList<>();
    boolean leading = true;
    for (Message message : messages) {
      leading &= message.role() == Message.Role.SYSTEM;
      if (message.role() == Message.Role.SYSTEM) {
        parts.add(leading ? message.content() : Continuity.canonicalText(message.content()));
      }
    }
    return String.join("\n\n", parts);
  }

  /** All system (and developer) message text, in order, joined by blank lines. */
  public static String systemText(List<Message> messages) {
    return String.join("\n\n", messages.stream()
        .filter(m -> m.role() == Message.Role.SYSTEM).map(Message::content).toList());
  }

  static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
