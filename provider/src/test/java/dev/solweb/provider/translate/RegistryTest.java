package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.solweb.provider.model.Effort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryTest {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = dev.solweb.provider.platform.Json.MAPPER;
  private static final String MARKER = "PROMPT-MARKER-5f1e9c";

  @TempDir Path home;

  private static List<Message> history() {
    return List.of(
        Message.system("system " + MARKER),
        Message.user("user " + MARKER),
        new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef("call_1_12345678", "write",
            JsonNodeFactory.instance.objectNode().put("content", "args " + MARKER))), null),
        new Message(Message.Role.TOOL, "result " + MARKER, List.of(), "call_1_12345678"),
        new Message(Message.Role.ASSISTANT, "answer " + MARKER, List.of(), null));
  }

  private static Conversation conversation(String key) {
    List<Message> delivered = history();
    return new Conversation(key, "https://chat.invalid/c/" + key, Effort.XHIGH, delivered.size(),
        HistoryDigest.of(delivered), 2, 1_764_000_000L, Conversation.Status.READY, null, 12_345, 678, null);
  }

  @Test
  void conversationSurvivesAReloadInANewInstance() {
    Path file = home.resolve("registry.json");
    Registry first = Registry.persistent(file);
    first.put(conversation("aaaaaaaaaaaaaaaa"));
    first.put(conversation("bbbbbbbbbbbbbbbb"));
    first.put(conversation("bbbbbbbbbbbbbbbb").uncertain());

    Registry reloaded = Registry.persistent(file);

    assertThat(reloaded.size()).isEqualTo(2);
    assertThat(reloaded.get("aaaaaaaaaaaaaaaa")).contains(conversation("aaaaaaaaaaaaaaaa"));
    assertThat(reloaded.get("bbbbbbbbbbbbbbbb")).contains(conversation("bbbbbbbbbbbbbbbb").uncertain());
  }

  private static Conversation inFlight(Conversation ready) {
    return new Conversation(ready.sessionKey(), ready.url(), ready.effort(), ready.deliveredCount(),
        ready.deliveredDigest(), ready.turns(), ready.openedAtEpochSecond(), Conversation.Status.IN_FLIGHT,
        "digest-of-the-turn-being-sent", ready.estimatedInput(), ready.estimatedOutput(), null);
  }

  @Test
  void aConversationMarkedInFlightWhenTheDaemonStoppedLoadsUncertain() throws Exception {
    Path file = home.resolve("registry.json");
    Registry before = Registry.persistent(file);
    before.put(conversation("aaaaaaaaaaaaaaaa"));
    before.put(conversation("bbbbbbbbbbbbbbbb"));
    assertThat(before.markInFlight(inFlight(conversation("aaaaaaaaaaaaaaaa")))).isTrue();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
        home.resolve("registry.in-flight").resolve("aaaaaaaaaaaaaaaa")))).isEqualTo("rw-------");

    Registry after = Registry.persistent(file);

    assertThat(after.get("aaaaaaaaaaaaaaaa").orElseThrow().status()).isEqualTo(Conversation.Status.UNCERTAIN);
    assertThat(after.get("bbbbbbbbbbbbbbbb").orElseThrow().status()).isEqualTo(Conversation.Status.READY);
    assertThat(Registry.persistent(file).get("aaaaaaaaaaaaaaaa").orElseThrow().status())
        .as("the mark was applied once and stays applied").isEqualTo(Conversation.Status.UNCERTAIN);
  }

  @Test
  void recordingTheOutcomeClearsTheMark() {
    Path file = home.resolve("registry.json");
    Registry registry = Registry.persistent(file);
    registry.markInFlight(inFlight(conversation("aaaaaaaaaaaaaaaa")));

    registry.put(conversation("aaaaaaaaaaaaaaaa"));

    assertThat(home.resolve("registry.in-flight").resolve("aaaaaaaaaaaaaaaa")).doesNotExist();
    assertThat(Registry.persistent(file).get("aaaaaaaaaaaaaaaa").orElseThrow().status()).isEqualTo(Conversation.Status.READY);
  }

  @Test
  void theLastAnswerIsKeptInAFileOfItsOwnAndNotInTheRegistry() throws Exception {
    Path file = home.resolve("registry.json");
    RememberedAnswer answer = new RememberedAnswer("digest", "answer " + MARKER, null, null, null, null, 10, 2, List.of(), 1_764_000_000L);
    Registry.persistent(file).put(conversation("aaaaaaaaaaaaaaaa").withAnswer(answer));

    assertThat(Files.readString(file)).doesNotContain(MARKER);
    Path stored = home.resolve("registry.answers").resolve("aaaaaaaaaaaaaaaa.json");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(stored))).isEqualTo("rw-------");
    assertThat(Registry.persistent(file).get("aaaaaaaaaaaaaaaa").orElseThrow().lastAnswer()).isEqualTo(answer);
  }

  @Test
  void anAnswerFileFromBeforeSeveralCallsIsReadAsItsOneCall() throws Exception {
    RememberedAnswer legacy = JSON.readValue("{\"history_digest\": \"d\", \"tool\": \"read\", \"arguments\": {\"path\": \"a\"},"
        + " \"tool_call_id\": \"call_1_0a1b2c3d\", \"prompt_tokens\": 5, \"completion_tokens\": 1, \"answered_at\": 1}",
        RememberedAnswer.class);

    Answer answer = legacy.answer();
    assertThat(answer.reply()).isInstanceOf(dev.solweb.provider.protocol.Reply.ToolCall.class);
    assertThat(answer.calls()).singleElement().satisfies(call -> {
      assertThat(call.id()).isEqualTo("call_1_0a1b2c3d");
      assertThat(call.arguments().path("path").asText()).isEqualTo("a");
    });
    assertThat(JSON.writeValueAsString(legacy)).contains("\"calls\":[{\"id\":\"call_1_0a1b2c3d\"")
        .doesNotContain("tool_call_id");
  }

  @Test
  void theLeastRecentlyChangedConversationIsDroppedPastTheBound() {
    Registry registry = Registry.inMemory();
    for (int i = 0; i <= Registry.MAX_CONVERSATIONS; i++) {
      registry.put(conversation(String.format("%016d", i)));
    }
    registry.put(conversation(String.format("%016d", 0)));
    registry.put(conversation("newest0000000000"));

    assertThat(registry.size()).isEqualTo(Registry.MAX_CONVERSATIONS);
    assertThat(registry.get(String.format("%016d", 0))).as("changed again, so kept").isPresent();
    assertThat(registry.get(String.format("%016d", 1))).isEmpty();
    assertThat(registry.get(String.format("%016d", 2))).isEmpty();
    assertThat(registry.get("newest0000000000")).isPresent();
  }

  @Test
  void fileIsWrittenWithMode0600() throws Exception {
    Path file = home.resolve("registry.json");
    Registry.persistent(file).put(conversation("aaaaaaaaaaaaaaaa"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void aWorldReadableFileBecomes0600OnTheNextWrite() throws Exception {
    Path file = home.resolve("registry.json");
    Registry.persistent(file).put(conversation("aaaaaaaaaaaaaaaa"));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    Registry.persistent(file).put(conversation("bbbbbbbbbbbbbbbb"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void corruptFileGivesAnEmptyRegistryAndIsSetAside() throws Exception {
    Path file = home.resolve("registry.json");
    Files.writeString(file, "[{\"session_key\": \"aaaa\", truncated");

    Registry registry = Registry.persistent(file);

    assertThat(registry.size()).isZero();
    assertThat(file).doesNotExist();
    assertThat(home.resolve("registry.json.corrupt")).hasContent("[{\"session_key\": \"aaaa\", truncated");
  }

  @Test
  void entryMissingARequiredFieldCountsAsCorrupt() throws Exception {
    Path file = home.resolve("registry.json");
    Files.writeString(file, "[{\"session_key\":\"aaaaaaaaaaaaaaaa\",\"url\":\"https://chat.invalid/c/x\"}]");

    Registry registry = Registry.persistent(file);

    assertThat(registry.get("aaaaaaaaaaaaaaaa")).isEmpty();
    assertThat(home.resolve("registry.json.corrupt")).exists();
  }

  @Test
  void entryWithoutItsDeliveredDigestCountsAsCorrupt() throws Exception {
    Path file = home.resolve("registry.json");
    Registry.persistent(file).put(conversation("aaaaaaaaaaaaaaaa"));
    String written = Files.readString(file);
    Files.writeString(file, written.replaceAll("\"delivered_digest\":\"[0-9a-f]+\",", ""));
    assertThat(Files.readString(file)).isNotEqualTo(written);

    assertThat(Registry.persistent(file).get("aaaaaaaaaaaaaaaa")).isEmpty();
    assertThat(home.resolve("registry.json.corrupt")).exists();
  }

  @Test
  void registryStillWritesAfterSettingACorruptFileAside() throws Exception {
    Path file = home.resolve("registry.json");
    Files.writeString(file, "not json at all");
    Registry registry = Registry.persistent(file);
    registry.put(conversation("aaaaaaaaaaaaaaaa"));

    assertThat(Registry.persistent(file).get("aaaaaaaaaaaaaaaa")).isPresent();
  }

  @Test
  void fileNeverContainsPromptText() throws Exception {
    Path file = home.resolve("registry.json");
    Registry.persistent(file).put(conversation("aaaaaaaaaaaaaaaa"));

    String written = Files.readString(file);

    assertThat(written).contains("aaaaaaaaaaaaaaaa").doesNotContain(MARKER).doesNotContain("PROMPT-MARKER");
  }

  @Test
  void inMemoryRegistryWritesNoFile() {
    Registry registry = Registry.inMemory();
    registry.put(conversation("aaaaaaaaaaaaaaaa"));

    assertThat(registry.get("aaaaaaaaaaaaaaaa")).contains(conversation("aaaaaaaaaaaaaaaa"));
    assertThat(home).isEmptyDirectory();
  }
}
