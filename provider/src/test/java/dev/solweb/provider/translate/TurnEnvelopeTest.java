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

  @Test
  void aSurrogatePairAtTheHeadCutIsElidedWholeNotSplit() {
    // 29999 chars, then an emoji whose high half would be char 30000 of the head.
    String content = "a".repeat(29_999) + "😀" + "m".repeat(100) + "b".repeat(30_000);

    String elided = TurnEnvelope.elide(content);

    assertThat(elided).startsWith("a".repeat(29_999) + "\n…102 chars elided…\n").endsWith("b".repeat(30_000));
    assertThat(loneSurrogates(elided)).isZero();
  }

  @Test
  void aSurrogatePairAtTheTailCutIsElidedWholeNotSplit() {
    // The tail's first char would be the low half of the emoji just before the last 29999 chars.
    String content = "a".repeat(30_000) + "m".repeat(100) + "😀" + "b".repeat(29_999);

    String elided = TurnEnvelope.elide(content);

    assertThat(elided).isEqualTo("a".repeat(30_000) + "\n…102 chars elided…\n" + "b".repeat(29_999));
    assertThat(loneSurrogates(elided)).isZero();
  }

  @Test
  void pairsAwayFromTheCutsAreKeptIntact() {
    String content = "😀".repeat(20_000) + "m".repeat(21) + "😀".repeat(20_000);

    String elided = TurnEnvelope.elide(content);

    assertThat(loneSurrogates(elided)).isZero();
    assertThat(elided).startsWith("😀".repeat(15_000)).endsWith("😀".repeat(15_000));
    assertThat(elided.length() - "\n…20021 chars elided…\n".length()).isEqualTo(TurnEnvelope.MAX_RESULT_CHARS);
  }

  private static long loneSurrogates(String text) {
    long lone = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1)))) {
        lone++;
      } else if (Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)))) {
        lone++;
      }
    }
    return lone;
  }

  @Test
  void resultsThatFitTogetherAreKeptWhole() {
    List<String> contents = List.of("a".repeat(20_000), "b".repeat(20_000), "c".repeat(20_000));

    assertThat(TurnEnvelope.elideTogether(contents, 60_000)).isEqualTo(contents);
  }

  @Test
  void resultsOverTheBoundTogetherShareItMaxMinFairly() {
    // 1000 fits its equal share and is kept whole; the two large ones split the rest equally.
    List<String> kept = TurnEnvelope.elideTogether(List.of("a".repeat(50_000), "s".repeat(1_000), "c".repeat(40_000)),
        61_000);

    assertThat(kept.get(1)).isEqualTo("s".repeat(1_000));
    assertThat(kept.get(0)).isEqualTo("a".repeat(15_000) + "\n…20000 chars elided…\n" + "a".repeat(15_000));
    assertThat(kept.get(2)).isEqualTo("c".repeat(15_000) + "\n…10000 chars elided…\n" + "c".repeat(15_000));
  }

  @Test
  void oneResultAloneKeepsTheSingleResultBound() {
    String content = "h".repeat(30_000) + "m".repeat(5) + "t".repeat(30_000);

    assertThat(TurnEnvelope.elideTogether(List.of(content), TurnEnvelope.MAX_TURN_RESULT_CHARS))
        .containsExactly(TurnEnvelope.elide(content));
  }
}
