package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.protocol.ToolSpec;
import dev.solweb.provider.translate.BadRequest;
import dev.solweb.provider.translate.ChatTurn;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.TestFiles;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Responses parser on bytes: what a Codex body becomes in the shared, normalized turn. */
class ResponsesRequestTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SESSION = "01a23108-634a-7242-9bb3-1700406abb69";

  /** A trimmed first request of Codex 0.169 (real shape: developer prompts, env context, tools). */
  private static ObjectNode codexFirst() throws Exception {
    try (InputStream in = ResponsesRequestTest.class.getResourceAsStream("/responses/codex-first.json")) {
      return (ObjectNode) JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** The session key translate derives for the request (the route hands it the input as is). */
  private static String key(ResponsesRequest request) {
    return ChatTurn.of(request.input()).sessionKey();
  }

  private static ResponsesRequest parse(ObjectNode body, String... sessionHeaders) throws BadRequest {
    return ResponsesRequest.parse(body.toString(), List.of(sessionHeaders));
  }

  @Test
  void codexFirstRequestBecomesSystemTextUserMessagesAndOfferedTools() throws Exception {
    ResponsesRequest request = parse(codexFirst(), SESSION);

    assertThat(request.model()).isEqualTo("sol-web-high");
    assertThat(request.stream()).isTrue();
    assertThat(request.input().messages()).extracting(Message::role).containsExactly(
        Message.Role.SYSTEM, Message.Role.SYSTEM, Message.Role.USER, Message.Role.USER);
    assertThat(request.input().messages().get(3).content()).isEqualTo("create hello.txt containing hi");
    assertThat(request.input().tools()).extracting(ToolSpec::name).containsExactly(
        "exec_command", "view_image", "multi_agent_v1.spawn_agent", "multi_agent_v1.wait");
    assertThat(request.input().tools().get(0).parameters().path("required").get(0).asText()).isEqualTo("cmd");
    assertThat(request.toolNames().get("multi_agent_v1.spawn_agent"))
        .isEqualTo(new ResponsesRequest.ToolName("multi_agent_v1", "spawn_agent"));
    assertThat(request.notOffered()).containsExactly("web_search");
    assertThat(request.sessionSource()).contains("session-id");
  }

  @Test
  void instructionsComeFirstAsSystemTextAndAStringInputIsOneUserMessage() throws Exception {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-medium").put("instructions", "Be terse.")
        .put("input", "hello");

    assertThat(parse(body).input().messages())
        .containsExactly(Message.system("Be terse."), Message.user("hello"));
  }

  @Test
  void aLaterTurnCarriesTheCallAndItsOutputAndDropsReasoning() throws Exception {
    ObjectNode body = codexFirst();
    ArrayNode input = (ArrayNode) body.get("input");
    input.addObject().put("type", "reasoning").put("id", "rs_1").putArray("summary");
    input.addObject().put("type", "function_call").put("call_id", "call_1_0a1b2c3d").put("name", "exec_command")
        .put("arguments", "{\"cmd\": \"echo hi > hello.txt\"}");
    input.addObject().put("type", "function_call_output").put("call_id", "call_1_0a1b2c3d")
        .put("output", "Process exited with code 0");

    List<Message> messages = parse(body, SESSION).input().messages();

    assertThat(messages).hasSize(6);
    Message call = messages.get(4);
    assertThat(call.role()).isEqualTo(Message.Role.ASSISTANT);
    assertThat(call.toolCalls()).singleElement().satisfies(ref -> {
      assertThat(ref.id()).isEqualTo("call_1_0a1b2c3d");
      assertThat(ref.name()).isEqualTo("exec_command");
      assertThat(ref.arguments()).isEqualTo(JSON.readTree("{\"cmd\":\"echo hi > hello.txt\"}"));
    });
    assertThat(messages.get(5)).isEqualTo(
        new Message(Message.Role.TOOL, "Process exited with code 0", List.of(), "call_1_0a1b2c3d"));
  }

  @Test
  void theEchoedCallEqualsTheAnswerTheDispatcherRecordedSoTheNextTurnIsADelta() throws Exception {
    // SeatTurn records a tool-call answer as an assistant message with empty content and one call.
    ObjectNode body = codexFirst();
    ((ArrayNode) body.get("input")).addObject().put("type", "function_call").put("call_id", "call_1_0a1b2c3d")
        .put("name", "spawn_agent").put("namespace", "multi_agent_v1").put("arguments", "{\"message\":\"go\"}");

    Message echoed = parse(body, SESSION).input().messages().get(4);

    assertThat(echoed).isEqualTo(new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef(
        "call_1_0a1b2c3d", "multi_agent_v1.spawn_agent", JSON.readTree("{\"message\":\"go\"}"))), null));
  }

  @Test
  void anAssistantTextAndTheCallsAfterItAreOneAssistantMessageAsInChat() throws Exception {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode input = body.putArray("input");
    input.addObject().put("role", "user").put("content", "go");
    input.addObject().put("type", "message").put("role", "assistant").putArray("content").addObject()
        .put("type", "output_text").put("text", "Looking.");
    input.addObject().put("type", "function_call").put("call_id", "a").put("name", "ls").put("arguments", "{}");
    input.addObject().put("type", "function_call").put("call_id", "b").put("name", "ls").put("arguments", "{}");

    List<Message> messages = parse(body).input().messages();

    assertThat(messages).hasSize(2);
    assertThat(messages.get(1).content()).isEqualTo("Looking.");
    assertThat(messages.get(1).toolCalls()).extracting(Message.ToolCallRef::id).containsExactly("a", "b");
  }

  @Test
  void aToolImageIsAttachedToItsResultAndTextPartsAreJoined() throws Exception {
    byte[] png = TestFiles.png(120, 3);
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode input = body.putArray("input");
    input.addObject().put("role", "user").put("content", "look");
    input.addObject().put("type", "function_call").put("call_id", "c").put("name", "view_image").put("arguments", "{}");
    ArrayNode output = input.addObject().put("type", "function_call_output").put("call_id", "c").putArray("output");
    output.addObject().put("type", "input_text").put("text", "the image:");
    output.addObject().put("type", "input_image").put("image_url", TestFiles.dataUrl("image/png", png));
    output.addObject().put("type", "input_text").put("text", "end");

    Message result = parse(body).input().messages().get(2);

    assertThat(result.content()).isEqualTo("the image:\nend");
    assertThat(result.attachments()).singleElement()
        .satisfies(file -> assertThat(file.sha256()).isEqualTo(TestFiles.sha256(png)));
  }

  @Test
  void twoSessionsWithTheSamePromptGetTwoKeysAndOneSessionKeepsItsKey() throws Exception {
    String a = key(parse(codexFirst(), SESSION));
    String again = key(parse(codexFirst(), SESSION));
    String b = key(parse(codexFirst(), "01a23108-aaaa-7242-9bb3-1700406abb69"));

    assertThat(again).isEqualTo(a);
    assertThat(b).isNotEqualTo(a);
  }

  @Test
  void promptCacheKeyIsTheSessionWhenNoHeaderCameAndTheHeaderWinsWhenBothCame() throws Exception {
    ObjectNode body = codexFirst();
    ResponsesRequest byKey = parse(body);
    ResponsesRequest byHeader = parse(body, SESSION);
    body.put("prompt_cache_key", "something-else");
    ResponsesRequest headerWins = parse(body, SESSION);
    body.remove("prompt_cache_key");
    ResponsesRequest none = parse(body);

    assertThat(byKey.sessionSource()).contains("prompt_cache_key");
    assertThat(key(byKey)).isEqualTo(key(byHeader));
    assertThat(key(headerWins)).isEqualTo(key(byHeader));
    assertThat(none.sessionSource()).isEmpty();
    assertThat(key(none)).isNotEqualTo(key(byHeader));
  }

  @Test
  void requestsThatNeedServerStateAreRefusedSayingSo() throws Exception {
    for (String field : List.of("previous_response_id", "conversation")) {
      ObjectNode body = codexFirst().put(field, "resp_123");
      assertThatThrownBy(() -> parse(body)).isInstanceOfSatisfying(BadRequest.class, e -> {
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.type()).isEqualTo("stateful_request_unsupported");
        assertThat(e.getMessage()).contains("stateless").contains(field);
      });
    }
    assertThatThrownBy(() -> parse(codexFirst().put("store", true)))
        .isInstanceOfSatisfying(BadRequest.class, e -> assertThat(e.getMessage()).contains("store: true"));
    ObjectNode reference = codexFirst();
    ((ArrayNode) reference.get("input")).addObject().put("type", "item_reference").put("id", "msg_1");
    assertThatThrownBy(() -> parse(reference))
        .isInstanceOfSatisfying(BadRequest.class, e -> assertThat(e.type()).isEqualTo("stateful_request_unsupported"));
  }

  @Test
  void badInputIsATyped400NamingTheOffender() throws Exception {
    assertRefused("{not json", "not valid JSON");
    assertRefused("[]", "must be a JSON object");
    assertRefused("{\"model\":\"gpt-4o\",\"input\":\"hi\"}", "unknown model gpt-4o");
    assertRefused("{\"model\":\"sol-web-high\"}", "input is required");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":[{\"type\":\"computer_call\"}]}", "input[0] has type 'computer_call'");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\",\"image_url\":\"x\"}]}]}",
        "input[0].content[0] must be a data URL");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":[{\"role\":\"user\",\"content\":\"hi\"},"
        + "{\"type\":\"function_call_output\",\"call_id\":\"nope\",\"output\":\"x\"}]}", "no earlier function_call");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":[{\"role\":\"developer\",\"content\":\"only rules\"}]}",
        "at least one user message");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":\"hi\",\"tools\":[{\"type\":\"function\",\"name\":\"final\"}]}",
        "reserves");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":\"hi\",\"tools\":[{\"type\":\"function\",\"name\":\"a\"},"
        + "{\"type\":\"function\",\"name\":\"a\"}]}", "listed twice");
    assertRefused("{\"model\":\"sol-web-high\",\"input\":\"hi\",\"stream\":\"yes\"}", "stream must be a boolean");
  }

  @Test
  void aMalformedSessionIdentityIsRefusedWithoutEchoingIt() throws Exception {
    assertThatThrownBy(() -> parse(codexFirst(), "secret value with spaces"))
        .isInstanceOfSatisfying(BadRequest.class, e -> {
          assertThat(e.type()).isEqualTo("invalid_client_session");
          assertThat(e.getMessage()).doesNotContain("secret");
        });
    assertThatThrownBy(() -> parse(codexFirst(), SESSION, SESSION))
        .isInstanceOfSatisfying(BadRequest.class, e -> assertThat(e.getMessage()).contains("sent 2 times"));
  }

  private static void assertRefused(String body, String expected) {
    assertThatThrownBy(() -> ResponsesRequest.parse(body, List.of()))
        .isInstanceOfSatisfying(BadRequest.class, e -> {
          assertThat(e.status()).isBetween(400, 499);
          assertThat(e.getMessage()).contains(expected);
        });
  }
}
