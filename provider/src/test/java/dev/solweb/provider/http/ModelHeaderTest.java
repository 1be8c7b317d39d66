package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every answer says which model answered (REAL-PAGE rows 61, 62): {@code x-solweb-model} is the
 * page's slug on every wire, a comment line in a stream (its headers left first), while the body's
 * {@code model} keeps the id the client asked for; {@code /healthz} shows the last one.
 */
class ModelHeaderTest {

  private static final String SLUG = "sol-6.2";
  /** An answer naming the model that answered, as a page names it (each new conversation gets it). */
  private static final String SCENARIO = "{\"default\": [{\"prose\": \"one\", \"model_slug\": \"" + SLUG + "\"}]}";

  private static String chat(boolean stream, String text) {
    return "{\"model\": \"sol-web-high\", \"stream\": " + stream + ", \"messages\": [{\"role\": \"user\", \"content\": \""
        + text + "\"}]}";
  }

  @Test
  void eachWireNamesTheModelInAHeaderAndKeepsTheAskedIdInItsBody() throws Exception {
    try (TestDaemon daemon = new TestDaemon(SCENARIO)) {
      assertThat(TestDaemon.json(daemon.get("/healthz").body()).path("model").isNull()).as("no answer yet").isTrue();

      HttpResponse<String> chat = daemon.post(chat(false, "chat"));
      assertThat(chat.statusCode()).as(chat.body()).isEqualTo(200);
      assertThat(chat.headers().firstValue("x-solweb-model")).contains(SLUG);
      assertThat(TestDaemon.json(chat.body()).path("model").asText()).isEqualTo("sol-web-high");

      HttpResponse<String> responses = daemon.post("/v1/responses",
          "{\"model\": \"sol-web-high\", \"input\": \"responses\"}", Map.of());
      assertThat(responses.statusCode()).as(responses.body()).isEqualTo(200);
      assertThat(responses.headers().firstValue("x-solweb-model")).contains(SLUG);
      assertThat(TestDaemon.json(responses.body()).path("model").asText()).isEqualTo("sol-web-high");

      HttpResponse<String> messages = daemon.post("/v1/messages", "{\"model\": \"sol-web-high\", \"max_tokens\": 100,"
          + " \"messages\": [{\"role\": \"user\", \"content\": \"messages\"}]}", Map.of("anthropic-version", "2023-06-01"));
      assertThat(messages.statusCode()).as(messages.body()).isEqualTo(200);
      assertThat(messages.headers().firstValue("x-solweb-model")).contains(SLUG);
      assertThat(TestDaemon.json(messages.body()).path("model").asText()).isEqualTo("sol-web-high");

      TestDaemon.Stream stream = daemon.stream(chat(true, "stream"));
      assertThat(stream.events()).extracting(TestDaemon.Event::data).contains("NON-DATA LINE: : x-solweb-model: " + SLUG);
      assertThat(stream.events().stream().filter(e -> !e.data().startsWith("NON-DATA LINE: ") && !e.done())
          .map(TestDaemon.Event::json).map(j -> j.path("model").asText()).distinct()).containsExactly("sol-web-high");

      JsonNode health = TestDaemon.json(daemon.get("/healthz").body());
      assertThat(health.path("model").asText()).isEqualTo(SLUG);
    }
  }

  @Test
  void anAnswerThatNamesNoModelHasNoHeader() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"one\"}]}")) {
      HttpResponse<String> unknown = daemon.post(chat(false, "unknown"));
      assertThat(unknown.statusCode()).isEqualTo(200);
      assertThat(unknown.headers().firstValue("x-solweb-model")).isEmpty();
      assertThat(TestDaemon.json(daemon.get("/healthz").body()).path("model").isNull()).isTrue();
    }
  }
}
