package dev.solweb.killgate.fakesol;

import java.util.HashMap;
import java.util.Map;

/**
 * The conversation ids a replayed recording ({@code fakesol --stream-file}) brought with it: the
 * page adopts the id the recording's stream says, so its address bar, history and next request
 * carry that id, while fakesol keeps the conversation under the id its scenario player made. Every
 * id the page sends is resolved here; every id fakesol shows the page goes out as the page knows it.
 */
final class ConversationAliases {

  private final Map<String, String> toScenario = new HashMap<>();
  private final Map<String, String> toPage = new HashMap<>();

  /** From now on the page calls the scenario's conversation {@code scenarioId} by {@code pageId}. */
  synchronized void adopt(String scenarioId, String pageId) {
    if (pageId == null || pageId.isEmpty() || pageId.equals(scenarioId)) {
      return;
    }
    String before = toPage.put(scenarioId, pageId);
    if (before != null) {
      toScenario.remove(before);
    }
    toScenario.put(pageId, scenarioId);
  }

  /** The scenario's id for an id the page sent (itself when it is not an alias; null stays null). */
  synchronized String resolve(String pageId) {
    return pageId == null ? null : toScenario.getOrDefault(pageId, pageId);
  }

  /** The id the page knows a scenario conversation by. */
  synchronized String shown(String scenarioId) {
    return toPage.getOrDefault(scenarioId, scenarioId);
  }
}
