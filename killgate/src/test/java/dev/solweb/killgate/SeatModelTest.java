package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.ModelOffer;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seat chooses the model a turn runs on and proves it from the page's request (REAL-PAGE rows
 * 59, 61, 62, 64 on fakesol's {@code model-families}), keeps October's family-less checked row, and
 * reaches a covered menu row with the keyboard (row 65). fakesol's {@code /control} says which
 * model every Send named.
 */
class SeatModelTest extends SeatHarness {

  private static final String ANSWERS = "{\"dom\": \"%s\", \"default\": [{\"prose\": \"one\", \"stream_ms\": 100},"
      + " {\"prose\": \"two\", \"stream_ms\": 100}, {\"prose\": \"three\", \"stream_ms\": 100},"
      + " {\"prose\": \"four\", \"stream_ms\": 100}]}";

  private PlaywrightSeat seatOn(String dom, String... mutations) throws Exception {
    return seatRunning(null, dom, mutations);
  }

  /** A seat whose options carry {@code model} as solwebd passes {@code SOLWEBD_MODEL} down. */
  private PlaywrightSeat seatRunning(String model, String dom, String... mutations) throws Exception {
    sol = FakeSol.start(vertx, false, scenario(ANSWERS.formatted(dom)), 0, Clock.systemUTC(),
        PageMutations.named(List.of(mutations), 7));
    sol.onCrash(() -> OrphanReaper.reap(ownOptions().profileDir()));
    factory = PlaywrightSeatFactory.create(options().withModel(model), Clock.systemUTC(), CompletionTracker.Rule.DEFAULT);
    return newSeat();
  }

  private JsonNode control() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(sol.url().resolve("/control")).build(),
        HttpResponse.BodyHandlers.ofString());
    return Json.MAPPER.readTree(r.body());
  }

  private JsonNode lastTurn() throws Exception {
    JsonNode turns = control().path("turn_models");
    return turns.get(turns.size() - 1);
  }

  private boolean offers(String row, String effort) throws Exception {
    for (JsonNode r : control().path("models")) {
      if (r.path("name").asText().equals(row)) {
        for (JsonNode e : r.path("efforts")) {
          if (e.asText().equals(effort)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  @Test
  void everyEffortRunsOnTheNewestSolAndInstantOnItsOwnRowAndTheAnswerNamesTheModel() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10", "model-families");
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    SeatReply high = seat.send("high");
    JsonNode turn = lastTurn();
    assertThat(turn.path("row").asText()).isEqualTo("GPT-6.2 Sol");
    assertThat(turn.path("effort_label").asText()).isEqualTo("High");
    assertThat(high.modelSlug()).as("the answer names the model the page asked for").isEqualTo(turn.path("model").asText());

    seat.resume(high.conversationUrl());
    assertThat(seat.setEffort(Effort.INSTANT)).isEqualTo(Effort.INSTANT);
    seat.send("instant");
    assertThat(lastTurn().path("row").asText()).isEqualTo("GPT-6.2 Sol Instant");
    assertThat(lastTurn().path("effort_label").asText()).isEqualTo("Instant");

    seat.resume(high.conversationUrl());
    assertThat(seat.setEffort(Effort.MEDIUM)).isEqualTo(Effort.MEDIUM);
    seat.send("medium");
    assertThat(lastTurn().path("row").asText()).isEqualTo("GPT-6.2 Sol");
    assertThat(lastTurn().path("effort_label").asText()).isEqualTo("Medium");
    assertThat(sol.sends()).hasSize(3);
  }

  @Test
  void anEffortTheNewestSolDoesNotOfferIsUnavailableNamingWhatTheMenuOffers() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10", "model-families");
    seat.openNew();
    assertThatThrownBy(() -> seat.setEffort(Effort.PRO)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("Pro").contains("Medium", "High");
    });
    if (!offers("GPT-6.2 Sol", "Extra High")) {
      assertThatThrownBy(() -> seat.setEffort(Effort.XHIGH)).isInstanceOf(SeatException.class);
    } else {
      assertThat(seat.setEffort(Effort.XHIGH)).isEqualTo(Effort.XHIGH);
    }
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void thePickerOfferListsTheRowsAndTheEffortsOfTheNewestSolForThisAccount() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10", "model-families");
    seat.openNew();
    ModelOffer offer = seat.models();
    assertThat(offer.chosen()).isEqualTo("GPT-6.2 Sol");
    List<Effort> expected = new java.util.ArrayList<>(List.of(Effort.INSTANT, Effort.MEDIUM, Effort.HIGH));
    if (offers("GPT-6.2 Sol", "Extra High")) {
      expected.add(Effort.XHIGH);
    }
    assertThat(offer.efforts()).containsExactlyElementsOf(expected);
    assertThat(offer.rows()).extracting(ModelOffer.Row::name).contains("6", "GPT-6.2 Sol", "GPT-6.2 Sol Instant",
        "GPT-6.2 Astra", "GPT-5.6 Sol").doesNotContain("Latest");
    assertThat(offer.rows().stream().filter(ModelOffer.Row::retiring).map(ModelOffer.Row::name)).containsExactly("GPT-5.6 Sol");
    assertThat(sol.sends()).as("reading the picker sends nothing").isEmpty();
    seat.setEffort(Effort.HIGH);
    seat.send("after the read");
    assertThat(lastTurn().path("row").asText()).isEqualTo("GPT-6.2 Sol");
  }

  @Test
  void octobersFamilylessGpt6IsKeptAsBefore() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10");
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    seat.send("high");
    assertThat(lastTurn().path("effort_label").asText()).isEqualTo("High");
    assertThat(lastTurn().path("model").asText()).isEqualTo("gpt-5-6-thinking");
  }

  @Test
  void aCoveredMenuRowIsChosenWithTheKeyboard() throws Exception {
    PlaywrightSeat seat = seatOn("2026-08", "covered-menu");
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    seat.send("high");
    assertThat(sol.sends().get(0).effort()).isEqualTo(Effort.HIGH);
  }

  @Test
  void aCoveredModelRowIsChosenWithTheKeyboard() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10", "model-families", "covered-menu");
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    seat.send("high");
    assertThat(lastTurn().path("row").asText()).isEqualTo("GPT-6.2 Sol");
  }

  @Test
  void theModelSettingInTheSeatsOptionsChoosesAnotherFamily() throws Exception {
    PlaywrightSeat seat = seatRunning("Astra", "2026-10", "model-families");
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    SeatReply reply = seat.send("high on astra");
    assertThat(lastTurn().path("row").asText()).isEqualTo("GPT-6.2 Astra");
    assertThat(reply.modelSlug()).isEqualTo(lastTurn().path("model").asText());
  }

  @Test
  void aModelSettingNamingAFamilyThePickerLacksIsUnavailableNamingTheRowsAndSendsNothing() throws Exception {
    PlaywrightSeat seat = seatRunning("Terra", "2026-10", "model-families");
    seat.openNew();
    assertThatThrownBy(() -> seat.setEffort(Effort.HIGH)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("Terra").contains("GPT-6.2 Sol", "GPT-6.2 Astra");
    });
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void aPartialLadderInALanguageWithoutATableIsNamedByThePagesPrepareBeforeSend() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10", "model-families", "lang-es");
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    SeatReply high = seat.send("alto");
    assertThat(lastTurn().path("row").asText()).isEqualTo("GPT-6.2 Sol");
    assertThat(lastTurn().path("effort_label").asText()).isEqualTo("High");

    seat.resume(high.conversationUrl());
    seat.setEffort(Effort.MEDIUM);
    seat.send("medio");
    assertThat(lastTurn().path("effort_label").asText()).isEqualTo("Medium");

    seat.resume(high.conversationUrl());
    seat.setEffort(Effort.HIGH);
    seat.send("alto otra vez");
    assertThat(lastTurn().path("effort_label").asText()).as("a row proven once is tried first").isEqualTo("High");
    assertThat(sol.sends()).hasSize(3);
  }

  @Test
  void anEffortNoRowOfAnUnreadableLadderRunsIsUnavailableAndNothingIsSent() throws Exception {
    PlaywrightSeat seat = seatOn("2026-10", "model-families", "lang-ko");
    seat.openNew();
    Effort absent = offers("GPT-6.2 Sol", "Extra High") ? Effort.PRO : Effort.XHIGH;
    seat.setEffort(absent); // a row is tried: only the page's /prepare can say what it runs
    assertThatThrownBy(() -> seat.send("never sent")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains(absent.label()).contains("nothing was sent");
    });
    assertThat(sol.sends()).isEmpty();
  }
}
