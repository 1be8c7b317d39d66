package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** What one model reply means under the wire protocol. */
public sealed interface Reply {

  /**
   * The tool calls this reply makes, in the order the model wrote them; empty for a final answer
   * or a malformed reply. Every wire renders a tool reply from this list alone.
   */
  List<ToolCall> calls();

  /** One reply's calls as the one shape that fits: a {@link ToolCall} alone, else {@link ToolCalls}. */
  static Reply of(List<ToolCall> calls) {
    return calls.size() == 1 ? calls.get(0) : new ToolCalls(calls);
  }

  /** Call a client tool by name with an object of arguments. */
  record ToolCall(String name, ObjectNode arguments) implements Reply {
    @Override
    public List<ToolCall> calls() {
      return List.of(this);
    }
  }

  /**
   * Several independent calls in one reply ({@code {"calls": [...]}}): the agent may run them at
   * the same time, and their results come back together in one turn.
   */
  record ToolCalls(List<ToolCall> calls) implements Reply {
    public ToolCalls {
      calls = List.copyOf(calls);
      if (calls.size() < 2) {
        throw new IllegalArgumentException("several calls means two or more; one call is a ToolCall");
      }
    }
  }

  /** The final answer text. */
  record Final(String text) implements Reply {
    @Override
    public List<ToolCall> calls() {
      return List.of();
    }
  }

  /** The reply broke the protocol; {@code reason} names the exact violation for the correction turn. */
  record Malformed(String reason) implements Reply {
    @Override
    public List<ToolCall> calls() {
      return List.of();
    }
  }
}
