package dev.solweb.provider.translate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stops a runaway client before it spends the account: a session whose requests come back with
 * the same newest tool call (same name, same arguments) more than {@link #limit} times in a row
 * is in a loop (a model that calls the same thing again and again, a client that restarts its
 * task), and its next request gets a typed {@code protocol} failure naming the loop, typed into
 * nothing. A re-send of the same request (same history) is a retry, not another step, and does not
 * count. In memory, for the most recent sessions. Thread-safe.
 */
public final class RunawayGuard {
  /** The default for {@code SOLWEBD_LOOP_LIMIT}. */
  public static final int DEFAULT_LIMIT = 8;
  /** The setting that changes {@link #limit}. */
  public static final String LIMIT_ENV = "SOLWEBD_LOOP_LIMIT";
  private static final int SESSIONS = 256;
  private static final ObjectMapper SORTED = Json.MAPPER.copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private record Streak(String signature, String lastHistory, int count) { }

  private final int limit;
  private final Map<String, Streak> bySession = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Streak> eldest) {
      return size() > SESSIONS;
    }
  };

  /** @param limit how many requests in a row may repeat one tool call (at least 1) */
  public RunawayGuard(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException(LIMIT_ENV + " must be at least 1, got " + limit);
    }
    this.limit = limit;
  }

  /** Parses {@code SOLWEBD_LOOP_LIMIT}. @throws IllegalArgumentException naming the setting */
  public static int parseLimit(String value) {
    try {
      int limit = Integer.parseInt(value.strip());
      if (limit < 1) {
        throw new IllegalArgumentException(LIMIT_ENV + " must be at least 1, got " + value);
      }
      return limit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(LIMIT_ENV + " must be a whole number, got " + value, e);
    }
  }

  public int limit() {
    return limit;
  }

  /**
   * Counts {@code turn} and says whether it is one step too many of a loop: the {@code protocol}
   * failure to answer it with, or empty to let it through.
   */
  public synchronized Optional<ProviderFailure> check(ChatTurn turn) {
    String signature = newestCall(turn.messages());
    if (signature == null) {
      bySession.remove(turn.sessionKey());
      return Optional.empty();
    }
    Streak streak = bySession.get(turn.sessionKey());
    if (streak != null && streak.lastHistory().equals(turn.historyDigest())) {
      return refusal(streak); // the same request again: a retry, not a step
    }
    int count = streak != null && streak.signature().equals(signature) ? streak.count() + 1 : 1;
    Streak next = new Streak(signature, turn.historyDigest(), count);
    bySession.put(turn.sessionKey(), next);
    return refusal(next);
  }

  private Optional<ProviderFailure> refusal(Streak streak) {
    if (streak.count() <= limit) {
      return Optional.empty();
    }
    String call = streak.signature().length() > 200 ? streak.signature().substring(0, 200) + "..." : streak.signature();
    return Optional.of(ProviderFailure.of(ProviderFailure.Kind.PROTOCOL, "runaway loop: this session sent the same"
        + " tool call " + streak.count() + " times in a row (" + call + "); more than " + LIMIT_ENV + "=" + limit
        + ", so solwebd typed nothing; change the task or the history to go on"));
  }

  /** The newest assistant message's calls as one line (names and arguments, no ids), or null when it made none. */
  private static String newestCall(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      Message message = messages.get(i);
      if (message.role() == Message.Role.ASSISTANT) {
        if (message.toolCalls().isEmpty()) {
          return null;
        }
        StringBuilder line = new StringBuilder();
        for (Message.ToolCallRef call : message.toolCalls()) {
          line.append(line.isEmpty() ? "" : ", ").append(call.name()).append(' ').append(canonical(call));
        }
        return line.toString();
      }
    }
    return null;
  }

  private static String canonical(Message.ToolCallRef call) {
    try {
      return SORTED.writeValueAsString(SORTED.convertValue(call.arguments(), Object.class));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }
}
