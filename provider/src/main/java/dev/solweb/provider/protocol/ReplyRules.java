package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a reply may hold for one request: the tools the client offers (by name, with their
 * schemas) and how many calls one reply may make. {@link Preamble} teaches these rules and
 * {@link ReplyParser} holds a reply to them.
 *
 * @param maxCalls calls per reply: 1 when the request says {@code parallel_tool_calls: false},
 *     else the daemon's cap ({@code SOLWEBD_MAX_CALLS}, default {@link #DEFAULT_MAX_CALLS})
 * @param oneByRequest true when the request itself asked for one call per reply (the repair says so)
 */
public record ReplyRules(Map<String, ToolSpec> tools, int maxCalls, boolean oneByRequest) {

  /** The daemon's default cap on calls per reply. */
  public static final int DEFAULT_MAX_CALLS = 8;

  /**
   * The characters the results of one reply keep together: the bound one result had, so a batch
   * types no more than one large read did, and a replay of it still leaves room within the context
   * budget for the preamble, a compaction summary and the reserve (docs/compaction.md). The
   * preamble teaches it; translate's envelope holds the typed results to it.
   */
  public static final int MAX_RESULT_CHARS_PER_REPLY = 60_000;
  /** The largest cap {@code SOLWEBD_MAX_CALLS} accepts: a reply's results share one page turn. */
  public static final int LIMIT_MAX_CALLS = 64;
  /** The variable that sets the cap. */
  public static final String MAX_CALLS_ENV = "SOLWEBD_MAX_CALLS";

  public ReplyRules {
    tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
    tools.values().forEach(Objects::requireNonNull);
    if (maxCalls < 1) {
      throw new IllegalArgumentException("a reply may make at least one call, got " + maxCalls);
    }
  }

  /**
   * @param parallelToolCalls the request's {@code parallel_tool_calls} (absent is true, as in the OpenAI APIs)
   * @param cap the daemon's calls-per-reply cap
   */
  public static ReplyRules of(List<ToolSpec> tools, boolean parallelToolCalls, int cap) {
    Map<String, ToolSpec> byName = new LinkedHashMap<>();
    tools.forEach(tool -> byName.put(tool.name(), tool));
    return new ReplyRules(byName, parallelToolCalls ? cap : 1, !parallelToolCalls);
  }

  /** Tools known by name only (an empty schema: any object of arguments), the default cap. */
  public static ReplyRules names(Set<String> toolNames) {
    Map<String, ToolSpec> byName = new LinkedHashMap<>();
    toolNames.stream().sorted()
        .forEach(name -> byName.put(name, new ToolSpec(name, "", JsonNodeFactory.instance.objectNode())));
    return new ReplyRules(byName, DEFAULT_MAX_CALLS, false);
  }

  /**
   * Reads a cap setting ({@code SOLWEBD_MAX_CALLS}).
   *
   * @throws IllegalArgumentException naming the variable, for anything but 1 to {@link #LIMIT_MAX_CALLS}
   */
  public static int parseCap(String value) {
    try {
      int cap = Integer.parseInt(value.strip());
      if (cap >= 1 && cap <= LIMIT_MAX_CALLS) {
        return cap;
      }
    } catch (NumberFormatException e) {
      // Falls through to the one message.
    }
    throw new IllegalArgumentException(MAX_CALLS_ENV + " must be a whole number from 1 (one call per reply) to "
        + LIMIT_MAX_CALLS + ", got \"" + value + "\"");
  }

  public Set<String> toolNames() {
    return tools.keySet();
  }
}
