package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** POST /v1/ask: a one-shot conversation through the dispatcher, with attachments and images. */
class AskRouteTest {

  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir Path dir;

  private static HttpResponse<String> ask(TestDaemon daemon, ObjectNode body) throws Exception {
    return daemon.http.send(daemon.request("/v1/ask").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
  }

  private ObjectNode body(String prompt, String effort, List<Path> attachments, Path out) {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("prompt", prompt).put("effort", effort);
    attachments.forEach(path -> body.withArray("attachments").add(path.toString()));
    body.put("output_dir", out.toString());
    return body;
  }

  @Test
  void askTypesThePromptAsIsAttachesFilesAndSavesTheReplysImages() throws Exception {
    Path attachment = dir.resolve("notes.txt");
    Files.writeString(attachment, "whiskers");
    Path out = dir.resolve("out/images");
    try (TestDaemon daemon = new TestDaemon("""
        {"default": [{"prose": "Here is a cat.", "blocks": ["print('meow')"], "images": ["cat.png"]}]}""")) {
      HttpResponse<String> response = ask(daemon, body("draw me a cat", "high", List.of(attachment), out));
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      JsonNode answer = TestDaemon.json(response.body());
      assertThat(answer.get("answer").asText()).isEqualTo("Here is a cat.\n\n```\nprint('meow')\n```");
      assertThat(answer.get("model").asText()).isEqualTo("sol-web-high");
      assertThat(answer.get("images")).hasSize(1);
      Path image = Path.of(answer.get("images").get(0).asText());
      assertThat(image).isEqualTo(out.resolve("cat.png"));
      assertThat(Arrays.copyOf(Files.readAllBytes(image), 8)).isEqualTo(PNG_SIGNATURE);

      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(1);
      assertThat(sends.get(0).text()).isEqualTo("draw me a cat");
      assertThat(sends.get(0).attachments()).containsExactly(attachment.toString());
      assertThat(sends.get(0).effort()).isEqualTo(Effort.HIGH);
      assertThat(sends.get(0).effortLabel()).isEqualTo("High");
      // A one-shot is not a client session: nothing to resume, nothing in the registry.
      assertThat(daemon.conversations.count()).isZero();
    }
  }

  @Test
  void anAskWaitsForTheAgenticTurnHoldingTheOneSeat() throws Exception {
    try (TestDaemon daemon = new TestDaemon("""
        {"conversations": [{"match": "long task", "replies": [{"prose": "done", "delay_ms": 1500}]}],
         "default": [{"prose": "quick answer"}]}""")) {
      String chat = "{\"model\": \"sol-web-medium\", \"messages\": [{\"role\": \"user\", \"content\": \"long task\"}]}";
      CompletableFuture<HttpResponse<String>> turn = CompletableFuture.supplyAsync(() -> {
        try {
          return daemon.post(chat);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(daemon.player.awaitSends(1, java.time.Duration.ofSeconds(60))).as("the long task reached the seat").isTrue();
      HttpResponse<String> response = ask(daemon, body("a quick question", "medium", List.of(), dir.resolve("out")));
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(turn.get().statusCode()).isEqualTo(200);
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).extracting(ScenarioPlayer.Send::text).containsExactly(sends.get(0).text(), "a quick question");
      assertThat(sends.get(0).text()).contains("long task");
      assertThat(java.time.Duration.between(sends.get(0).at(), sends.get(1).at()).toMillis()).isGreaterThanOrEqualTo(1400);
    }
  }

  @Test
  void aCapDuringAnAskIsTheTypedFailureAndWallsLaterTurns() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"fault\": \"cap\", \"resume_in_s\": 600}]}")) {
      HttpResponse<String> response = ask(daemon, body("hello", "medium", List.of(), dir.resolve("out")));
      assertThat(response.statusCode()).isEqualTo(429);
      JsonNode error = TestDaemon.json(response.body()).get("error");
      assertThat(error.get("type").asText()).isEqualTo("capped");
      assertThat(error.get("resume_at").asText()).isNotEmpty();
      HttpResponse<String> chat = daemon.post("{\"model\": \"sol-web-medium\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}");
      assertThat(chat.statusCode()).isEqualTo(429);
      assertThat(daemon.player.sends()).hasSize(1);
    }
  }

  @Test
  void badAsksAre400AndSendNothing() throws Exception {
    Path file = dir.resolve("a.txt");
    Files.writeString(file, "x");
    Path out = dir.resolve("out");
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"never\"}]}")) {
      List<ObjectNode> bad = List.of(
          body("p", "medium", List.of(Path.of("relative.txt")), out),
          body("p", "medium", List.of(dir.resolve("missing.txt")), out),
          body("p", "medium", List.of(file), Path.of("relative/out")),
          body("p", "ultra", List.of(file), out),
          body("p", "", List.of(file), out),
          body(" ", "medium", List.of(file), out),
          (ObjectNode) TestDaemon.JSON.createObjectNode().put("prompt", "p").put("effort", "medium"));
      for (ObjectNode request : bad) {
        HttpResponse<String> response = ask(daemon, request);
        assertThat(response.statusCode()).as(request + " -> " + response.body()).isEqualTo(400);
        assertThat(TestDaemon.json(response.body()).get("error").get("type").asText()).isEqualTo("invalid_request_error");
      }
      HttpResponse<String> noToken = daemon.http.send(java.net.http.HttpRequest.newBuilder(daemon.uri("/v1/ask"))
          .POST(HttpRequest.BodyPublishers.ofString(body("p", "medium", List.of(), out).toString())).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(noToken.statusCode()).isEqualTo(401);
      assertThat(daemon.player.sends()).isEmpty();
    }
  }
}
