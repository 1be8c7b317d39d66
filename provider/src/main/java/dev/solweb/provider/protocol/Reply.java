package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What one model reply means under the wire protocol. */
public sealed interface Reply {

  /** Call a client tool by name with an object of arguments. */
  record ToolCall(String name, ObjectNode arguments) implements Reply {}

  /** The final answer text. */
  record Final(String text) implements Reply {}

  /** The reply broke the protocol; {@code reason} names the exact violation for the correction turn. */
  record Malformed(String reason) implements Reply {}
}
