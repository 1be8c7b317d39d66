package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each session's conversation holds, message by message, as short hashes of each field the
 * digest covers (no text), kept in memory for the most recent sessions: when a history no longer
 * extends its conversation, the replay's log line names the first message that differs (index,
 * role, field) and tells a compaction from a rewrite. After a restart it is empty, and the
 * registry's digest alone decides, as before. Thread-safe.
 */
final class DeliveredHistory {
  /** Sessions remembered; the least recently recorded is forgotten first. */
  static final int SESSIONS = 256;

  /** The first message where a history departs from what was delivered. */
  record Difference(int index, String role, String field) {
    String line() {
      return "message " + index + " (" + role + ") differs in " + field;
    }
  }

  private final Map<String, List<Map<String, String>>> bySession = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Map<String, String>>> eldest) {
      return size() > SESSIONS;
    }
  };

  /** Remembers that {@code sessionKey}'s conversation now holds {@code messages}. */
  synchronized void record(String sessionKey, List<Message> messages) {
    List<Map<String, String>> prints = new ArrayList<>(messages.size());
    messages.forEach(message -> prints.add(fingerprint(message)));
    bySession.put(sessionKey, prints);
  }

  synchronized void forget(String sessionKey) {
    bySession.remove(sessionKey);
  }

  /**
   * The first of {@code messages} that differs from what {@code sessionKey}'s conversation holds
   * ({@code field} {@code "absent"} when the history ends before it), or empty when nothing is
   * known of the session or {@code messages} extends it.
   */
  synchronized Optional<Difference> firstDifference(String sessionKey, List<Message> messages) {
    List<Map<String, String>> held = bySession.get(sessionKey);
    if (held == null) {
      return Optional.empty();
    }
    for (int i = 0; i < held.size(); i++) {
      String heldRole = held.get(i).get("role");
      if (i >= messages.size()) {
        return Optional.of(new Difference(i, heldRole, "absent"));
      }
      Map<String, String> now = fingerprint(messages.get(i));
      for (Map.Entry<String, String> field : held.get(i).entrySet()) {
        if (!field.getValue().equals(now.get(field.getKey()))) {
          return Optional.of(new Difference(i, heldRole, field.getKey()));
        }
      }
      if (!now.keySet().equals(held.get(i).keySet())) {
        return Optional.of(new Difference(i, heldRole, "files"));
      }
    }
    return Optional.empty();
  }

  private static Map<String, String> fingerprint(Message message) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = HistoryDigest.canonical(message).fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String value = field.getKey().equals("role") ? field.getValue().asText().toLowerCase(java.util.Locale.ROOT)
          : SessionKey.sha256Hex(field.getValue().toString()).substring(0, 12);
      fields.put(field.getKey(), value);
    }
    return fields;
  }
}
