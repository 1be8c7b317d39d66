package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seat on the November page's controls (REAL-PAGE rows 55, 57, 60): Send outside any form, a
 * zero-size twin editor before the real one, turns that leave the DOM and come back as new nodes.
 * Each turn must arrive exactly once, with the text typed into the composer a person sees, and its
 * answer read back; the Copy of a remounted turn is the new node's.
 */
class SeatNovemberPageTest extends SeatHarness {

  private static final String BLOCKS = "{\"prose\": \"Two blocks.\", \"blocks\": [\"{\\\"tool\\\": \\\"write\\\"}\", \"a\\n\\n  b\\nc\"]}";

  private PlaywrightSeat seat(String dom, String mutations) throws Exception {
    PageMutations.Plan plan = mutations.isBlank() ? PageMutations.Plan.NONE
        : PageMutations.named(List.of(mutations.split("\\+")), 9);
    return seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": [" + BLOCKS + ", " + BLOCKS + ", " + BLOCKS + "]}"), plan);
  }

  /** Rows 55 and 57 on the shapes the issue saw fail, and with a language the seat has no table for (zh: 发送). */
  @ParameterizedTest
  @CsvSource({"2026-10, formless-send", "2026-09-en, formless-send", "2026-10, formless-send+lang-zh",
      "2026-10, twin-editor", "2026-09-en, twin-editor", "2026-08, twin-editor", "2026-10, formless-send+twin-editor+lang-ja"})
  void aTurnIsTypedIntoTheComposerAPersonSeesAndSentOnce(String dom, String mutations) throws Exception {
    PlaywrightSeat seat = seat(dom, mutations);
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    SeatReply reply = seat.send("first");
    assertThat(reply.codeBlocks()).containsExactly("{\"tool\": \"write\"}", "a\n\n  b\nc");
    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.sends().get(0).text()).isEqualTo("first");
    assertThat(sol.sends().get(0).effort()).isEqualTo(Effort.HIGH);
  }

  /** Row 60 (and the 2026-11 shape, which has rows 57 and 60): three turns of one conversation, Copy first, then the DOM. */
  @ParameterizedTest
  @ValueSource(strings = {"2026-09:turns-remount", "2026-10:turns-remount", "2026-11:"})
  void turnsThatRemountAreReadAgainNeverStale(String domAndMutations) throws Exception {
    String[] p = domAndMutations.split(":", -1);
    PlaywrightSeat seat = seat(p[0], p[1]);
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    String url = seat.send("first").conversationUrl();
    for (String text : new String[] {"second", "third"}) {
      if (text.equals("third")) {
        sol.breakCopyButtons();
      }
      seat.resume(url);
      seat.setEffort(Effort.HIGH);
      SeatReply r = seat.send(text);
      assertThat(r.codeBlocks()).containsExactly("{\"tool\": \"write\"}", "a\n\n  b\nc");
      assertThat(r.prose()).isEqualTo("Two blocks.");
    }
    assertThat(sol.sends()).extracting(s -> s.text()).containsExactly("first", "second", "third");
  }
}
