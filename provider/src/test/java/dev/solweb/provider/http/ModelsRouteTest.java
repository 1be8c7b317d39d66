package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.ModelOffer;
import dev.solweb.provider.seat.SeatException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/models} lists what the account's picker offers (REAL-PAGE rows 56, 62): every
 * effort's id until the picker was read, then the runnable ids and the rows; a read on demand
 * ({@code ?refresh=1}) stands for an hour, so a plain listing after it reads nothing again.
 */
class ModelsRouteTest {

  private static final String SCENARIO = "{\"default\": [{\"prose\": \"one\"}]}";

  private static List<String> ids(JsonNode listing) {
    List<String> ids = new ArrayList<>();
    listing.path("data").forEach(m -> ids.add(m.path("id").asText()));
    return ids;
  }

  @Test
  void theOfferIsReadOnDemandAndKeptForAnHour() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    TestDaemon.Options options = TestDaemon.Options.defaults().seatWrapper(seat -> new ForwardingSeat(seat) {
      @Override
      public ModelOffer models() throws SeatException {
        reads.incrementAndGet();
        return super.models();
      }
    });
    try (TestDaemon daemon = new TestDaemon(SCENARIO, options)) {
      JsonNode refreshed = TestDaemon.json(daemon.get("/v1/models?refresh=1").body());
      assertThat(refreshed.path("solweb").path("offer").asText()).isEqualTo("read");
      assertThat(ids(refreshed)).containsExactly("sol-web-instant", "sol-web-medium", "sol-web-high", "sol-web-xhigh",
          "sol-web-pro");
      JsonNode row = refreshed.path("solweb").path("rows").get(0);
      assertThat(row.path("family").asText()).isEqualTo("Sol");
      assertThat(row.path("retiring").asBoolean()).isFalse();
      assertThat(refreshed.path("solweb").path("chosen").asText()).isEqualTo(row.path("name").asText());
      assertThat(reads.get()).isEqualTo(1);

      JsonNode again = TestDaemon.json(daemon.get("/v1/models").body());
      assertThat(again.path("solweb").path("read_at").asText()).isEqualTo(refreshed.path("solweb").path("read_at").asText());
      assertThat(reads.get()).as("a fresh offer is not read again").isEqualTo(1);
    }
  }

  @Test
  void beforeAnyReadEveryEffortIsListedAsUnread() {
    JsonNode body = ModelsRoute.body(java.util.Optional.empty());
    assertThat(body.path("solweb").path("offer").asText()).isEqualTo("unread");
    assertThat(ids(body)).hasSize(5);
  }

  @Test
  void onlyTheEffortsTheAccountRunsAreListed() {
    ModelOffer offer = new ModelOffer(List.of(
        new ModelOffer.Row("GPT-6.2 Sol", "Sol", "6.2", false, false, true,
            List.of(dev.solweb.provider.model.Effort.MEDIUM, dev.solweb.provider.model.Effort.HIGH)),
        new ModelOffer.Row("GPT-5.6 Sol", "Sol", "5.6", false, true, true, List.of())),
        List.of(dev.solweb.provider.model.Effort.HIGH, dev.solweb.provider.model.Effort.MEDIUM,
            dev.solweb.provider.model.Effort.INSTANT), "GPT-6.2 Sol");
    JsonNode body = ModelsRoute.body(java.util.Optional.of(new ModelCatalog.Known(offer, java.time.Instant.EPOCH)));
    assertThat(ids(body)).containsExactly("sol-web-instant", "sol-web-medium", "sol-web-high");
    assertThat(body.path("solweb").path("rows").get(1).path("retiring").asBoolean()).isTrue();
    assertThat(body.path("solweb").path("rows").get(0).path("efforts").toString()).isEqualTo("[\"Medium\",\"High\"]");
  }

  @Test
  void bothWiresListTheSameRunnableIdsOnceThePickerWasRead() throws Exception {
    ModelOffer medium = new ModelOffer(List.of(new ModelOffer.Row("GPT-6.2 Sol", "Sol", "6.2", false, false, true,
        List.of(Effort.MEDIUM, Effort.HIGH))), List.of(Effort.HIGH, Effort.MEDIUM), "GPT-6.2 Sol");
    // The first list starts a read of the picker; the seat holds that read until the test has the
    // list, so "before a read" is made, not raced (a quick seat once finished it first).
    java.util.concurrent.CountDownLatch listed = new java.util.concurrent.CountDownLatch(1);
    TestDaemon.Options options = TestDaemon.Options.defaults().seatWrapper(seat -> new ForwardingSeat(seat) {
      @Override
      public ModelOffer models() {
        try {
          listed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return medium;
      }
    });
    try (TestDaemon daemon = new TestDaemon(SCENARIO, options)) {
      HttpResponse<String> unread = anthropic(daemon, "/v1/models");
      assertThat(ids(TestDaemon.json(unread.body()))).as("before a read: every effort").hasSize(5);
      listed.countDown();

      HttpResponse<String> refreshed = anthropic(daemon, "/v1/models?refresh=1");
      JsonNode list = TestDaemon.json(refreshed.body());
      assertThat(ids(list)).containsExactly("sol-web-medium", "sol-web-high");
      assertThat(list.path("first_id").asText()).isEqualTo("sol-web-medium");
      assertThat(list.path("last_id").asText()).isEqualTo("sol-web-high");
      assertThat(list.path("data").get(0).path("type").asText()).isEqualTo("model");

      assertThat(ids(TestDaemon.json(anthropic(daemon, "/v1/models").body()))).containsExactly("sol-web-medium", "sol-web-high");
      assertThat(ids(TestDaemon.json(daemon.get("/v1/models").body()))).containsExactly("sol-web-medium", "sol-web-high");
    }
  }

  @Test
  void anAnthropicListOfNothingHasNoFirstOrLastId() {
    JsonNode body = MessagesRoute.models(List.of());
    assertThat(body.path("data")).isEmpty();
    assertThat(body.path("first_id").isNull()).isTrue();
    assertThat(body.path("has_more").asBoolean(true)).isFalse();
  }

  private static HttpResponse<String> anthropic(TestDaemon daemon, String path) throws Exception {
    return daemon.http.send(daemon.request(path).header("anthropic-version", "2023-06-01").GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
