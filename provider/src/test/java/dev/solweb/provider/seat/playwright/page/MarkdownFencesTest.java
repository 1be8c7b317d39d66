package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownFencesTest {

  @Test
  void splitsBlocksFromProse() {
    MarkdownFences.Split s = MarkdownFences.split("Here:\n\n```json\n{\"a\": 1}\n```\n\nDone.");
    assertThat(s.blocks()).containsExactly("{\"a\": 1}");
    assertThat(s.prose()).isEqualTo("Here:\n\n\nDone.");
  }

  @Test
  void aShorterBacktickRunInsideALongerFenceIsContent() {
    String code = "{\"md\": \"```js\\nx\\n```\", \"u\": \"ünïcødé ✓ {}\"}\n```\nstill inside";
    MarkdownFences.Split s = MarkdownFences.split("````json\n" + code + "\n````\n");
    assertThat(s.blocks()).containsExactly(code);
    assertThat(s.prose()).isEmpty();
  }

  @Test
  void tildeFencesAndMultipleBlocksAndEmptyLinesSurvive() {
    MarkdownFences.Split s = MarkdownFences.split("~~~\na\n\n  b\n~~~\ntext\n```python\nprint(1)\n```");
    assertThat(s.blocks()).containsExactly("a\n\n  b", "print(1)");
    assertThat(s.prose()).isEqualTo("text");
  }

  @Test
  void anUnclosedFenceRunsToTheEnd() {
    assertThat(MarkdownFences.split("```\nx\ny").blocks()).containsExactly("x\ny");
  }

  @Test
  void inlineTripleBackticksAreNotAFence() {
    assertThat(MarkdownFences.split("use ``` like ```this``` ok").blocks()).isEmpty();
  }
}
