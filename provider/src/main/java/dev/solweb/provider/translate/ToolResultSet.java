package dev.solweb.provider.translate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The tool results that answer one assistant turn's calls, typed as one block of the turn: in the
 * order of the calls (clients send them as the tools finish: Claude Code through ccr does),
 * each under its {@code TOOL RESULT [<id>]} header, held to
 * {@link TurnEnvelope#MAX_TURN_RESULT_CHARS} together, and, when some calls got no result, a
 * {@code NOTE} naming them, so a partial set is never mistaken for the whole.
 *
 * @param calls the calls of the assistant message the results follow (empty when none precedes them)
 * @param results the consecutive tool messages, as the client sent them
 */
record ToolResultSet(List<Message.ToolCallRef> calls, List<Message> results) {

  ToolResultSet {
    calls = List.copyOf(calls);
    results = List.copyOf(results);
  }

  /** The results after {@code assistant} (null when no assistant message precedes them). */
  static ToolResultSet after(Message assistant, List<Message> results) {
    return new ToolResultSet(assistant == null ? List.of() : assistant.toolCalls(), results);
  }

  /** @param fileMarker the lines naming a result's files, appended after its (elided) content */
  String render(Function<Message, String> fileMarker) {
    List<Message> ordered = inCallOrder();
    List<String> kept = TurnEnvelope.elideTogether(ordered.stream().map(Message::content).toList(),
        TurnEnvelope.MAX_TURN_RESULT_CHARS);
    List<String> blocks = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i++) {
      blocks.add("TOOL RESULT [" + ordered.get(i).toolCallId() + "]\n" + kept.get(i) + fileMarker.apply(ordered.get(i)));
    }
    List<Message.ToolCallRef> missing = missing();
    if (!missing.isEmpty()) {
      blocks.add("NOTE\n" + (calls.size() - missing.size()) + " of " + calls.size() + " results arrived; the agent sent"
          + " none for " + missing.stream().map(c -> c.id() + " (" + c.name() + ")").collect(Collectors.joining(", "))
          + ". Call again whatever of it you still need.");
    }
    return TurnEnvelope.join(blocks);
  }

  /** Each call's first result in call order; any other result (no call of the set, a repeat) after them, as sent. */
  private List<Message> inCallOrder() {
    boolean[] placed = new boolean[results.size()];
    List<Message> ordered = new ArrayList<>();
    for (Message.ToolCallRef call : calls) {
      for (int j = 0; j < results.size(); j++) {
        if (!placed[j] && results.get(j).toolCallId().equals(call.id())) {
          placed[j] = true;
          ordered.add(results.get(j));
          break;
        }
      }
    }
    for (int j = 0; j < results.size(); j++) {
      if (!placed[j]) {
        ordered.add(results.get(j));
      }
    }
    return ordered;
  }

  private List<Message.ToolCallRef> missing() {
    List<String> answered = results.stream().map(Message::toolCallId).toList();
    return calls.stream().filter(call -> !answered.contains(call.id())).toList();
  }
}
