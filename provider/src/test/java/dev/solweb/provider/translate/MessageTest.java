package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Message parse(String json) throws Exception {
    return Message.fromJson(JSON.readTree(json), 3);
  }

  private static BadRequest refusal(String json) throws Exception {
    return catchThrowableOfType(BadRequest.class, () -> parse(json));
  }

  @Test
  void stringContentEqualsTheSameTextAsAnArrayOfOneTextPart() throws Exception {
    Message plain = parse("{\"role\":\"user\",\"content\":\"fix the bug\"}");
    Message parts = parse("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"fix the bug\"}]}");

    assertThat(parts).isEqualTo(plain);
    assertThat(parts.content()).isEqualTo("fix the bug");
  }

  @Test
  void differentTextIsNotEqual() throws Exception {
    assertThat(parse("{\"role\":\"user\",\"content\":\"fix the bug\"}"))
        .isNotEqualTo(parse("{\"role\":\"user\",\"content\":\"fix the bugs\"}"));
  }

  @Test
  void nullContentEqualsEmptyStringAndAbsentContent() throws Exception {
    String call = "\"tool_calls\":[{\"id\":\"call_1_abcdef01\",\"type\":\"function\","
        + "\"function\":{\"name\":\"read\",\"arguments\":\"{}\"}}]";
    Message nullContent = parse("{\"role\":\"assistant\",\"content\":null," + call + "}");
    Message emptyContent = parse("{\"role\":\"assistant\",\"content\":\"\"," + call + "}");
    Message noContent = parse("{\"role\":\"assistant\"," + call + "}");

    assertThat(nullContent).isEqualTo(emptyContent).isEqualTo(noContent);
    assertThat(nullContent.content()).isEmpty();
  }

  @Test
  void developerRoleIsTheSystemRole() throws Exception {
    Message developer = parse("{\"role\":\"developer\",\"content\":\"be brief\"}");

    assertThat(developer).isEqualTo(parse("{\"role\":\"system\",\"content\":\"be brief\"}"));
    assertThat(developer.role()).isEqualTo(Message.Role.SYSTEM);
  }

  @Test
  void toolCallArgumentsCompareAsParsedJsonWhateverTheKeyOrderAndWhitespace() throws Exception {
    Message compact = parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_2_00ff00ff\","
        + "\"type\":\"function\",\"function\":{\"name\":\"edit\","
        + "\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\",\\\"edits\\\":[{\\\"old\\\":\\\"x\\\",\\\"new\\\":\\\"y\\\"}],\\\"n\\\":1}\"}}]}");
    Message reordered = parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_2_00ff00ff\","
        + "\"type\":\"function\",\"function\":{\"name\":\"edit\","
        + "\"arguments\":\"{ \\\"n\\\": 1,\\n  \\\"edits\\\": [ { \\\"new\\\": \\\"y\\\", \\\"old\\\": \\\"x\\\" } ],\\n  \\\"path\\\": \\\"a.txt\\\" }\"}}]}");
    Message otherValue = parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_2_00ff00ff\","
        + "\"type\":\"function\",\"function\":{\"name\":\"edit\","
        + "\"arguments\":\"{\\\"path\\\":\\\"b.txt\\\",\\\"edits\\\":[{\\\"old\\\":\\\"x\\\",\\\"new\\\":\\\"y\\\"}],\\\"n\\\":1}\"}}]}");

    assertThat(reordered).isEqualTo(compact);
    assertThat(otherValue).isNotEqualTo(compact);
    assertThat(compact.toolCalls()).singleElement().satisfies(call -> {
      assertThat(call.name()).isEqualTo("edit");
      assertThat(call.arguments().path("path").asText()).isEqualTo("a.txt");
    });
  }

  @Test
  void toolCallArgumentNumbersCompareByValueAsJavaScriptClientsReSerializeThem() throws Exception {
    // The model may write 120.0 or 1.5e3; Pi and ccr parse the arguments and JSON.stringify them
    // back as 120 and 1500 when they replay the history.
    Message asModelWrote = new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef("call_1_00000000",
        "bash", JSON.readTree("{\"timeout\": 120.0, \"limit\": 1.5e3, \"ratio\": 0.50, \"n\": 7}"))), null);
    Message asClientEchoed = parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1_00000000\","
        + "\"type\":\"function\",\"function\":{\"name\":\"bash\","
        + "\"arguments\":\"{\\\"timeout\\\":120,\\\"limit\\\":1500,\\\"ratio\\\":0.5,\\\"n\\\":7}\"}}]}");
    Message otherNumber = parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1_00000000\","
        + "\"type\":\"function\",\"function\":{\"name\":\"bash\","
        + "\"arguments\":\"{\\\"timeout\\\":121,\\\"limit\\\":1500,\\\"ratio\\\":0.5,\\\"n\\\":7}\"}}]}");

    assertThat(asClientEchoed).isEqualTo(asModelWrote);
    assertThat(HistoryDigest.of(List.of(asClientEchoed))).isEqualTo(HistoryDigest.of(List.of(asModelWrote)));
    assertThat(otherNumber).isNotEqualTo(asModelWrote);
    // The digest keys solwebd's own calls by the ids it minted (Continuity): the arguments are the client's echo.
    assertThat(HistoryDigest.of(List.of(otherNumber))).isEqualTo(HistoryDigest.of(List.of(asModelWrote)));
  }

  @Test
  void unknownKeysSuchAsCacheControlAreIgnored() throws Exception {
    Message bare = parse("{\"role\":\"user\",\"content\":\"hello\"}");
    Message decorated = parse("{\"role\":\"user\",\"name\":\"me\",\"reasoning\":\"...\",\"store\":true,"
        + "\"cache_control\":{\"type\":\"ephemeral\"},"
        + "\"content\":[{\"type\":\"text\",\"text\":\"hello\",\"cache_control\":{\"type\":\"ephemeral\"}}]}");

    assertThat(decorated).isEqualTo(bare);
  }

  @Test
  void toolMessageKeepsItsToolCallId() throws Exception {
    Message result = parse("{\"role\":\"tool\",\"tool_call_id\":\"call_1_abcdef01\",\"content\":\"ok\"}");

    assertThat(result.role()).isEqualTo(Message.Role.TOOL);
    assertThat(result.toolCallId()).isEqualTo("call_1_abcdef01");
    assertThat(result).isNotEqualTo(parse("{\"role\":\"tool\",\"tool_call_id\":\"call_1_abcdef02\",\"content\":\"ok\"}"));
  }

  @Test
  void aDataUrlImagePartBecomesAnAttachmentTypedByItsBytesAndTheTextStaysText() throws Exception {
    byte[] jpeg = TestFiles.jpeg(300, 1);
    Message message = parse("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},"
        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + TestFiles.dataUrl("image/png", jpeg) + "\"}}]}");

    assertThat(message.content()).isEqualTo("look");
    assertThat(message.attachments()).singleElement().satisfies(file -> {
      assertThat(file.mediaType()).isEqualTo("image/jpeg"); // the bytes say JPEG, whatever the URL declared
      assertThat(file.bytes()).isEqualTo(jpeg);
      assertThat(file.sha256()).isEqualTo(TestFiles.sha256(jpeg));
      assertThat(file.name()).isEqualTo("image-" + TestFiles.sha256(jpeg).substring(0, 8) + ".jpg");
    });
  }

  @Test
  void anImageOnAnAssistantMessageIsRefused() throws Exception {
    BadRequest refused = refusal("{\"role\":\"assistant\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\""
        + TestFiles.dataUrl("image/png", TestFiles.png(40, 1)) + "\"}}]}");

    assertThat(refused).isNotNull();
    assertThat(refused.getMessage()).contains("messages[3].content[0]").contains("assistant message");
  }

  @Test
  void unknownRoleIsRefusedNamingTheRole() throws Exception {
    BadRequest refused = refusal("{\"role\":\"robot\",\"content\":\"beep\"}");

    assertThat(refused).isNotNull();
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.getMessage()).contains("messages[3].role").contains("robot");
  }

  @Test
  void missingRoleIsRefused() throws Exception {
    BadRequest refused = refusal("{\"content\":\"beep\"}");

    assertThat(refused).isNotNull();
    assertThat(refused.getMessage()).contains("messages[3].role");
  }

  @Test
  void toolMessageWithoutToolCallIdIsRefused() throws Exception {
    BadRequest refused = refusal("{\"role\":\"tool\",\"content\":\"output\"}");

    assertThat(refused).isNotNull();
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.getMessage()).contains("messages[3]").contains("tool_call_id");
  }

  @Test
  void contentOfAnotherJsonTypeIsRefused() throws Exception {
    BadRequest refused = refusal("{\"role\":\"user\",\"content\":42}");

    assertThat(refused).isNotNull();
    assertThat(refused.getMessage()).contains("messages[3].content");
  }
}
