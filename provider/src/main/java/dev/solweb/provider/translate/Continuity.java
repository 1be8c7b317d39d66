package dev.solweb.provider.translate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What makes a client's history the same conversation as the one solwebd delivered: the client
 * owns its user text, tool results, system text and files; solwebd owns its answers. A client
 * re-serializes those answers as it likes (Claude Code echoes Edit with {@code "replace_all":
 * false} added, JavaScript clients drop nulls, a Responses client splits one reply into items,
 * text is re-wrapped or trimmed), so an answer is recognised by what solwebd minted: the ids of
 * its tool calls ({@code call_<turn>_<hex>}, the same id on every wire), or, for a final answer,
 * its text up to whitespace.
 */
final class Continuity {
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  /** The ids {@link Conversations} mints: {@code call_<turn>_<8 hex>}; the turn groups one reply's calls. */
  private static final Pattern MINTED = Pattern.compile("call_(\\d+)_[0-9a-f]{8}");

  private Continuity() {}

  /** Whether solwebd minted {@code id} (a call of one of its replies). */
  static boolean minted(String id) {
    return MINTED.matcher(id).matches();
  }

  /** {@code text} with every run of whitespace one space, trimmed: re-wrapping and trimming change nothing. */
  static String canonicalText(String text) {
    return WHITESPACE.matcher(text).replaceAll(" ").strip();
  }

  /**
   * {@code messages} with solwebd's replies whole again: adjacent assistant messages are one
   * (a reply split into several messages, an empty message left by a dropped thinking block), and
   * an assistant message of calls only joins the one before it when the tool results between
   * answer that one's calls and every call of both carries an id solwebd minted in the same reply
   * (one reply's calls, its results interleaved by a client that replays each call apart).
   */
  static List<Message> merged(List<Message> messages) {
    List<Message> out = new ArrayList<>(messages.size());
    for (Message message : messages) {
      if (message.role() != Message.Role.ASSISTANT || out.isEmpty()) {
        out.add(message);
        continue;
      }
      Message last = out.get(out.size() - 1);
      if (last.role() == Message.Role.ASSISTANT) {
        out.set(out.size() - 1, join(last, message));
        continue;
      }
      int owner = interleavedOwner(out, message);
      if (owner < 0) {
        out.add(message);
        continue;
      }
      out.set(owner, join(out.get(owner), message)); // its results stay after the whole reply
    }
    return out;
  }

  /**
   * The index of the assistant message in {@code out} that {@code next} is the rest of, or -1:
   * {@code out} ends with tool results that all answer that message's calls, and both hold only
   * calls minted in one reply.
   */
  private static int interleavedOwner(List<Message> out, Message next) {
    if (!next.content().isBlank() || next.toolCalls().isEmpty()) {
      return -1;
    }
    int i = out.size() - 1;
    while (i >= 0 && out.get(i).role() == Message.Role.TOOL) {
      i--;
    }
    if (i < 0 || i == out.size() - 1 || out.get(i).role() != Message.Role.ASSISTANT) {
      return -1;
    }
    Message owner = out.get(i);
    String reply = replyOf(owner);
    if (reply == null || !reply.equals(replyOf(next))) {
      return -1;
    }
    Set<String> calls = new HashSet<>();
    owner.toolCalls().forEach(call -> calls.add(call.id()));
    for (int j = i + 1; j < out.size(); j++) {
      if (!calls.contains(out.get(j).toolCallId())) {
        return -1;
      }
    }
    return i;
  }

  /** The highest reply number among the calls solwebd minted in {@code messages}, 0 when there is none. */
  static int lastReply(List<Message> messages) {
    int last = 0;
    for (Message message : messages) {
      for (Message.ToolCallRef call : message.toolCalls()) {
        Matcher matcher = MINTED.matcher(call.id());
        if (matcher.matches()) {
          last = Math.max(last, Integer.parseInt(matcher.group(1)));
        }
      }
    }
    return last;
  }

  /** The turn number every call of {@code message} was minted in, or null when they differ or one was not minted. */
  private static String replyOf(Message message) {
    String turn = null;
    for (Message.ToolCallRef call : message.toolCalls()) {
      Matcher matcher = MINTED.matcher(call.id());
      if (!matcher.matches() || turn != null && !turn.equals(matcher.group(1))) {
        return null;
      }
      turn = matcher.group(1);
    }
    return turn;
  }

  private static Message join(Message first, Message second) {
    String text = first.content().isEmpty() ? second.content()
        : second.content().isEmpty() ? first.content() : first.content() + "\n\n" + second.content();
    List<Message.ToolCallRef> calls = new ArrayList<>(first.toolCalls());
    calls.addAll(second.toolCalls());
    return new Message(Message.Role.ASSISTANT, text, calls, null);
  }
}
