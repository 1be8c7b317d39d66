package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeatBasicsTest extends SeatHarness {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aTurnReturnsProseBlocksTheDurableUrlAndTheSlug() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("""
        {"account": "owner@example.invalid",
         "default": [{"prose": "Here is the call.", "blocks": ["{\\"tool\\": \\"write\\"}"], "stream_ms": 200}]}
        """));
    SeatProbe probe = seat.probe();
    assertThat(probe.state()).isEqualTo(SeatProbe.State.READY);
    assertThat(probe.account()).isEqualTo("owner@example.invalid");

    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    SeatReply reply = seat.send("hello");

    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).hasSize(1);
    assertThat(sends.get(0).text()).isEqualTo("hello");
    assertThat(sends.get(0).effort()).isEqualTo(Effort.HIGH);
    assertThat(reply.prose()).isEqualTo("Here is the call.");
    assertThat(reply.codeBlocks()).containsExactly("{\"tool\": \"write\"}");
    assertThat(reply.modelSlug()).isEqualTo("gpt-5-thinking");
    assertThat(reply.conversationUrl()).isEqualTo(sol.url() + "c/" + sends.get(0).conversationId());
  }

  @Test
  void theTransientWebUrlIsNeverReturned() throws Exception {
    // fakesol shows /c/WEB:<uuid> until 400 ms after the answer is complete.
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"quick\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    SeatReply reply = seat.send("hi");
    assertThat(reply.conversationUrl()).doesNotContain("WEB").endsWith("/c/" + sol.sends().get(0).conversationId());
  }

  @Test
  void a145KbMultiLinePromptArrivesExactly() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"got it\"}]}"));
    StringBuilder b = new StringBuilder();
    int line = 0;
    while (b.length() < 145 * 1024) {
      switch (line % 7) {
        case 0 -> b.append("def f").append(line).append("(x):\t# tab, {braces} and `ticks`");
        case 1 -> b.append("    return x * ").append(line).append("  ");
        case 2 -> b.append("");
        case 3 -> b.append("ünïcødé ✓ 日本語 🙂 line ").append(line);
        case 4 -> b.append("```json");
        case 5 -> b.append("{\"k\": [1, 2, {\"deep\": \"<tag> & 'quote'\"}]}");
        default -> b.append("   ");
      }
      b.append('\n');
      line++;
    }
    String prompt = b.append("the end").toString();
    assertThat(prompt.length()).isGreaterThan(145 * 1024);

    seat.openNew();
    seat.setEffort(Effort.HIGH);
    seat.send(prompt);

    assertThat(sol.sends()).hasSize(1);
    String got = sol.sends().get(0).text();
    assertThat(got.length()).isEqualTo(prompt.length());
    assertThat(got).isEqualTo(prompt);
  }

  @Test
  void codeBlocksSurviveExactly() throws Exception {
    String json = "{\n  \"tool\": \"write\",\n  \"arguments\": {\n    \"path\": \"a/b.md\",\n"
        + "    \"content\": \"# Title\\n```js\\nconst x = {a: `t${1}`};\\n```\\nünïcødé ✓ 日本語 🙂 {}[]\"\n  }\n}";
    String withFence = "line one\n```\nnot a fence inside\n````\n\n  indented  ";
    Map<String, Object> reply = Map.of("prose", "Two blocks follow.", "blocks", List.of(json, withFence), "stream_ms", 100);
    PlaywrightSeat seat = seatOn(scenario(JSON.writeValueAsString(Map.of("default", List.of(reply)))));
    seat.openNew();
    seat.setEffort(Effort.XHIGH);
    SeatReply got = seat.send("write it");
    assertThat(got.codeBlocks()).containsExactly(json, withFence);
    assertThat(got.prose()).isEqualTo("Two blocks follow.");
  }

  @Test
  void withoutTheCopyButtonCodeBlocksAreReadPerBlockFromTheDom() throws Exception {
    String json = "{\"tool\": \"final\", \"text\": \"a ```fence``` {x} ünïcødé 🙂\"}";
    String lines = "first\n\n  indented\nlast";
    Map<String, Object> reply = Map.of("prose", "Fallback.", "blocks", List.of(json, lines));
    PlaywrightSeat seat = seatOn(scenario(JSON.writeValueAsString(Map.of("default", List.of(reply)))));
    sol.breakCopyButtons();
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    SeatReply got = seat.send("go");
    assertThat(got.codeBlocks()).containsExactly(json, lines);
    assertThat(got.prose()).isEqualTo("Fallback.");
  }

  @Test
  void aNewSeatOnTheSameProfileResumesTheConversationByUrl() throws Exception {
    PlaywrightSeat first = seatOn(scenario("{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}]}"));
    first.openNew();
    first.setEffort(Effort.HIGH);
    String url = first.send("turn one").conversationUrl();

    PlaywrightSeat second = newSeat(); // closes the first: one browser per profile
    second.resume(url);
    second.setEffort(Effort.HIGH);
    SeatReply reply = second.send("turn two");

    assertThat(reply.prose()).isEqualTo("two");
    assertThat(reply.conversationUrl()).isEqualTo(url);
    assertThat(sol.sends()).extracting(ScenarioPlayer.Send::conversationId).containsOnly(sol.sends().get(0).conversationId());
    assertThat(sol.player().conversationsOpened()).isEqualTo(1);
  }

  @Test
  void aDeletedConversationIsReportedMissingAndNothingIsSent() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"one\"}, {\"fault\": \"deleted\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    String url = seat.send("turn one").conversationUrl();

    PlaywrightSeat fresh = newSeat();
    assertThatThrownBy(() -> fresh.resume(url))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.reason()).isEqualTo(SeatException.Reason.CONVERSATION_MISSING);
          assertThat(e.afterSend()).isFalse();
        });
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aConversationTheSeatDidNotCreateIsNeverOpened() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": []}"));
    assertThatThrownBy(() -> seat.resume("https://elsewhere.example/c/0b6f7d1e-1111-4222-8333-944455556666"))
        .isInstanceOfSatisfying(SeatException.class,
            e -> assertThat(e.reason()).isEqualTo(SeatException.Reason.CONVERSATION_MISSING));
    assertThatThrownBy(() -> seat.resume(sol.url() + "c/WEB:0b6f7d1e-1111-4222-8333-944455556666"))
        .isInstanceOfSatisfying(SeatException.class,
            e -> assertThat(e.reason()).isEqualTo(SeatException.Reason.CONVERSATION_MISSING));
  }

  @Test
  void anOlderTurnReRenderingWhileTheNewOneStreamsIsNotTheAnswer() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("""
        {"default": [{"prose": "the OLD answer"},
                     {"prose": "the new answer", "rerender_previous": true, "stream_ms": 400}]}
        """));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    seat.send("first");
    SeatReply reply = seat.send("second");
    assertThat(reply.prose()).isEqualTo("the new answer");
  }
}
