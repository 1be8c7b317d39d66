package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.killgate.fakesol.ChatHistory;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.translate.ConversationPlace;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The owner's history on fakesol with the real seat (issue 14): deletes through the page's own
 * menu and confirmation, verified by reopening the exact URL, never touching the owner's personal
 * chats; Projects by name and by URL; temporary chats; and every refusal before anything is typed.
 */
class SeatHistoryTest extends SeatHarness {

  private static final String TWO_REPLIES = "{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}]}";
  private final HttpClient http = HttpClient.newHttpClient();

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(sol.url().resolve(path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    return Json.MAPPER.readTree(r.body());
  }

  private int status(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(sol.url().resolve(path)).GET().build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static List<String> texts(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }

  private SeatReply newChat(PlaywrightSeat seat, ConversationPlace place, String text) throws Exception {
    seat.openNew(place);
    seat.setEffort(Effort.HIGH);
    return seat.send(text);
  }

  @ParameterizedTest
  @ValueSource(strings = {"en", "ru"})
  void aDeleteRemovesExactlyThatConversationAndARepeatIsNotFound(String locale) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"locale\": \"" + locale + "\", \"default\": [{\"prose\": \"one\"}]}"));
    String taxes = sol.history().personal("My taxes");
    String trip = sol.history().personal("Trip to Porto");
    String first = newChat(seat, ConversationPlace.HISTORY, "managed one").conversationUrl();
    String second = newChat(seat, ConversationPlace.HISTORY, "managed two").conversationUrl();
    String firstId = sol.sends().get(0).conversationId();

    assertThat(seat.delete(first)).isEqualTo(Deletion.DELETED);

    JsonNode control = get("control");
    assertThat(texts(control.path("deletes"), "conversation_id")).containsExactly(firstId);
    assertThat(control.path("deletes").get(0).path("applied").asBoolean()).isTrue();
    assertThat(control.path("deletes").get(0).path("personal").asBoolean()).isFalse();
    assertThat(control.path("deleted_ids")).hasSize(1);
    assertThat(control.path("deleted_ids").get(0).asText()).isEqualTo(firstId);
    // The owner's chats are still listed and still open; the other managed one too.
    assertThat(texts(get("api/history").path("conversations"), "id"))
        .contains(taxes, trip, sol.sends().get(1).conversationId()).doesNotContain(firstId);
    assertThat(status("api/conversation/" + taxes)).isEqualTo(200);
    assertThat(status("api/conversation/" + trip)).isEqualTo(200);

    assertThat(seat.delete(first)).isEqualTo(Deletion.NOT_FOUND);
    assertThat(get("control").path("deletes")).hasSize(1); // the repeat clicked nothing
    assertThat(seat.delete(second)).isEqualTo(Deletion.DELETED);
    assertThat(texts(get("control").path("deletes"), "conversation_id"))
        .containsExactly(firstId, sol.sends().get(1).conversationId());
  }

  @Test
  void aDeleteThatSilentlyFailsIsUnavailableAndTheConversationStays() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    sol.history().deleteFault(ChatHistory.DeleteFault.SILENT);
    String url = newChat(seat, ConversationPlace.HISTORY, "keep me?").conversationUrl();

    assertThatThrownBy(() -> seat.delete(url)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.reason()).isEqualTo(SeatException.Reason.FAILED);
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("still opens");
      assertThat(e.afterSend()).isFalse();
    });
    JsonNode control = get("control");
    assertThat(control.path("deletes")).hasSize(1); // the page was asked, through menu and confirmation
    assertThat(control.path("deletes").get(0).path("applied").asBoolean()).isFalse();
    assertThat(control.path("deleted_ids")).isEmpty();
    seat.resume(url); // still there: it resumes and takes a turn
    assertThat(seat.send("still here").prose()).isEqualTo("two");
  }

  @Test
  void aConfirmationThatNeverAppearsIsUnavailableAndNothingIsDeleted() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    sol.history().deleteFault(ChatHistory.DeleteFault.NO_CONFIRMATION);
    String url = newChat(seat, ConversationPlace.HISTORY, "keep me").conversationUrl();

    assertThatThrownBy(() -> seat.delete(url)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("confirmation").contains("never appeared");
    });
    assertThat(get("control").path("deletes")).isEmpty();
    assertThat(status("api/conversation/" + sol.sends().get(0).conversationId())).isEqualTo(200);
  }

  @Test
  void aProjectByNameAndByUrlHoldsTheNewConversationsAndAResumeStaysInIt() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    String slug = sol.history().project("Solweb work");
    sol.history().project("Other work");

    SeatReply byName = newChat(seat, new ConversationPlace.Project("Solweb work"), "in the project");
    String id = sol.sends().get(0).conversationId();
    assertThat(byName.conversationUrl()).isEqualTo(sol.url() + "g/" + slug + "/c/" + id);

    seat.resume(byName.conversationUrl());
    SeatReply again = seat.send("follow-up");
    assertThat(again.conversationUrl()).isEqualTo(byName.conversationUrl());
    assertThat(sol.sends().get(1).conversationId()).isEqualTo(id);

    SeatReply byUrl = newChat(seat, new ConversationPlace.Project(sol.url() + "g/" + slug + "/project"), "by url");
    String second = sol.sends().get(2).conversationId();
    assertThat(byUrl.conversationUrl()).isEqualTo(sol.url() + "g/" + slug + "/c/" + second);
    JsonNode conversations = get("control").path("conversations");
    for (JsonNode c : conversations) {
      if (c.path("id").asText().equals(id) || c.path("id").asText().equals(second)) {
        assertThat(c.path("project").asText()).isEqualTo(slug);
      }
    }
  }

  @Test
  void aConversationMovedOutOfItsProjectIsMissingSoItIsReplayedInTheProject() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    sol.history().project("Solweb work");
    String url = newChat(seat, new ConversationPlace.Project("Solweb work"), "in the project").conversationUrl();
    sol.history().moveOutOfProject(sol.sends().get(0).conversationId());

    assertThatThrownBy(() -> seat.resume(url)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.reason()).isEqualTo(SeatException.Reason.CONVERSATION_MISSING);
      assertThat(e.getMessage()).contains("no longer in project");
    });
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aMissingAnAmbiguousOrAnUnknownProjectIsUnavailableBeforeAnythingIsTyped() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    sol.history().project("Twins");
    sol.history().project("Twins");
    for (String place : List.of("Nowhere", "Twins", sol.url() + "g/g-p-0123456789abcdef-gone/project", sol.url() + "c/x")) {
      assertThatThrownBy(() -> seat.openNew(new ConversationPlace.Project(place)))
          .as(place).isInstanceOfSatisfying(SeatException.class, e -> {
            assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
            assertThat(e.failure().detail()).contains("nothing was typed");
            assertThat(e.afterSend()).isFalse();
          });
    }
    JsonNode control = get("control");
    assertThat(control.path("send_count").asInt()).isZero();
    assertThat(control.path("conversations_opened").asInt()).isZero(); // not even a draft: nothing reached a composer
  }

  @Test
  void aTemporaryChatIsConfirmedNeverListedAndCannotBeReopenedOnceLeft() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    sol.history().personal("Mine");
    SeatReply first = newChat(seat, new ConversationPlace.Temporary(), "secret");
    String id = sol.sends().get(0).conversationId();
    assertThat(first.prose()).isEqualTo("one");
    assertThat(first.conversationUrl()).isEqualTo(sol.url() + "c/" + id + "?temporary-chat=true");

    seat.resume(first.conversationUrl()); // the tab still holds it
    assertThat(seat.send("more").conversationUrl()).isEqualTo(first.conversationUrl());
    assertThat(sol.sends().get(1).conversationId()).isEqualTo(id);
    assertThat(texts(get("api/history").path("conversations"), "id")).doesNotContain(id);

    seat.openNew();
    assertThatThrownBy(() -> seat.resume(first.conversationUrl())).isInstanceOfSatisfying(SeatException.class,
        e -> assertThat(e.reason()).isEqualTo(SeatException.Reason.CONVERSATION_MISSING));
    assertThat(seat.delete(first.conversationUrl())).isEqualTo(Deletion.NOT_FOUND); // its URL never opens
    assertThat(get("control").path("deletes")).isEmpty();
  }

  @Test
  void aPageWithoutTemporaryChatsIsUnavailableBeforeAnythingIsTyped() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_REPLIES));
    sol.history().disableTemporaryChats();
    assertThatThrownBy(() -> seat.openNew(new ConversationPlace.Temporary())).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("temporary").contains("nothing was typed");
    });
    assertThat(get("control").path("send_count").asInt()).isZero();
  }
}
