package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SessionKeyTest {
  private static final String SESSION_A = "v1." + "a".repeat(43);
  private static final String SESSION_B = "v1." + "b".repeat(43);

  private static ToolSpec tool(String name) {
    return new ToolSpec(name, "does " + name, JsonNodeFactory.instance.objectNode().put("type", "object"));
  }

  private static List<Message> history(String system, String firstUser) {
    return List.of(Message.system(system), Message.user(firstUser));
  }

  private static final List<Message> BASE = history("You are a coding agent.", "create hello.txt");
  private static final List<ToolSpec> TOOLS = List.of(tool("read"), tool("write"), tool("bash"));

  private static String baseKey() {
    return SessionKey.of(BASE, TOOLS, Effort.HIGH, Optional.empty());
  }

  @Test
  void sameSystemFirstUserToolsAndEffortGiveTheSameKeyWhateverTheToolOrder() {
    List<ToolSpec> reordered = List.of(tool("write"), tool("bash"), tool("read"));

    assertThat(SessionKey.of(history("You are a coding agent.", "create hello.txt"), reordered, Effort.HIGH,
        Optional.empty())).isEqualTo(baseKey());
  }

  @Test
  void keyIsSixteenLowercaseHexCharacters() {
    assertThat(baseKey()).matches("[0-9a-f]{16}");
    assertThat(SessionKey.of(BASE, TOOLS, Effort.HIGH, Optional.of(SESSION_A))).matches("[0-9a-f]{16}");
  }

  @Test
  void laterMessagesDoNotChangeTheKey() {
    List<Message> later = new ArrayList<>(BASE);
    later.add(new Message(Message.Role.ASSISTANT, "", List.of(
        new Message.ToolCallRef("call_1_00000000", "write", JsonNodeFactory.instance.objectNode().put("path", "x"))),
        null));
    later.add(new Message(Message.Role.TOOL, "wrote x", List.of(), "call_1_00000000"));
    later.add(Message.user("now a second, different user message"));

    assertThat(SessionKey.of(later, TOOLS, Effort.HIGH, Optional.empty())).isEqualTo(baseKey());
  }

  @Test
  void anyChangeOfSystemFirstUserToolNameEffortOrClientSessionGivesADifferentKey() {
    Map<String, String> variants = new LinkedHashMap<>();
    variants.put("base", baseKey());
    variants.put("system", SessionKey.of(history("You are a careful coding agent.", "create hello.txt"), TOOLS,
        Effort.HIGH, Optional.empty()));
    variants.put("first user", SessionKey.of(history("You are a coding agent.", "create hello2.txt"), TOOLS,
        Effort.HIGH, Optional.empty()));
    variants.put("a tool name", SessionKey.of(BASE, List.of(tool("read"), tool("edit"), tool("bash")),
        Effort.HIGH, Optional.empty()));
    variants.put("one tool fewer", SessionKey.of(BASE, List.of(tool("read"), tool("write")),
        Effort.HIGH, Optional.empty()));
    variants.put("effort", SessionKey.of(BASE, TOOLS, Effort.XHIGH, Optional.empty()));
    variants.put("client session present", SessionKey.of(BASE, TOOLS, Effort.HIGH, Optional.of(SESSION_A)));
    variants.put("client session different", SessionKey.of(BASE, TOOLS, Effort.HIGH, Optional.of(SESSION_B)));

    assertThat(variants.values()).as("keys by variant: %s", variants).doesNotHaveDuplicates();
  }

  @Test
  void everyEffortGetsItsOwnKey() {
    List<String> keys = new ArrayList<>();
    for (Effort effort : Effort.values()) {
      keys.add(SessionKey.of(BASE, TOOLS, effort, Optional.empty()));
    }
    assertThat(keys).doesNotHaveDuplicates();
  }

  @Test
  void movingTextBetweenSystemAndFirstUserChangesTheKey() {
    // The parts are separated, so "ab" + "c" never hashes like "a" + "bc".
    String a = SessionKey.of(history("ab", "c"), TOOLS, Effort.HIGH, Optional.empty());
    String b = SessionKey.of(history("a", "bc"), TOOLS, Effort.HIGH, Optional.empty());

    assertThat(a).isNotEqualTo(b);
  }
}
