package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TurnEnvelopeTest {

  @Test
  void multipleResultsAndAUserTurnRenderThePinnedShape() {
    String typed = TurnEnvelope.join(List.of(
        TurnEnvelope.toolResult("call_3_aaaaaaaa", "first output"),
        TurnEnvelope.toolResult("call_3_bbbbbbbb", "second\noutput"),
        TurnEnvelope.user("now commit")));

    assertThat(typed).isEqualTo("""
        TOOL RESULT [call_3_aaaaaaaa]
        first output

        TOOL RESULT [call_3_bbbbbbbb]
        second
        output

        USER
        now commit""");
  }

  @Test
  void resultAtTheLimitIsKeptWhole() {
    String content = "x".repeat(TurnEnvelope.MAX_RESULT_CHARS);

    assertThat(TurnEnvelope.toolResult("id", content)).isEqualTo("TOOL RESULT [id]\n" + content);
  }

  @Test
  void oversizedResultIsElidedInTheMiddleKeepingSixtyThousandCharacters() {
    assertThat(TurnEnvelope.MAX_RESULT_CHARS).isEqualTo(60_000);
    String head = "h".repeat(30_000);
    String middle = "m".repeat(12_345);
    String tail = "t".repeat(30_000);

    String rendered = TurnEnvelope.toolResult("call_1_abcdef01", head + middle + tail);

    String marker = "\n…12345 chars elided…\n";
    assertThat(rendered).isEqualTo("TOOL RESULT [call_1_abcdef01]\n" + head + marker + tail);
    String kept = rendered.substring("TOOL RESULT [call_1_abcdef01]\n".length()).replace(marker, "");
    assertThat(kept).hasSize(60_000).doesNotContain("m");
  }

  @Test
  void oneCharacterOverTheLimitElidesExactlyOne() {
    String content = "a".repeat(30_000) + "Z" + "b".repeat(30_000);

    assertThat(TurnEnvelope.elide(content))
        .isEqualTo("a".repeat(30_000) + "\n…1 chars elided…\n" + "b".repeat(30_000));
  }
}
