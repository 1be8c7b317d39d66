package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {

  private static List<SseReader.Event> read(String body, int split) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    SseReader r = new SseReader();
    List<SseReader.Event> out = new ArrayList<>(r.feed(b, 0, split));
    out.addAll(r.feed(b, split, b.length - split));
    out.addAll(r.end());
    return out;
  }

  /** Every split point yields the same events as the whole body at once. */
  private static List<SseReader.Event> readAnyway(String body) {
    List<SseReader.Event> whole = read(body, body.getBytes(StandardCharsets.UTF_8).length);
    for (int k = 0; k <= body.getBytes(StandardCharsets.UTF_8).length; k++) {
      assertThat(read(body, k)).as("split at byte %d", k).isEqualTo(whole);
    }
    return whole;
  }

  @Test
  void lfCrlfAndBareCrAllEndLines() {
    assertThat(readAnyway("data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n"))
        .extracting(SseReader.Event::data).containsExactly("a", "b", "c", "d");
  }

  @Test
  void dataLinesOfOneEventJoinWithNewlinesAndTheEventNameIsKept() {
    assertThat(readAnyway("event: delta\ndata: {\"a\":\ndata: 1}\n\ndata:x\n\n")).containsExactly(
        new SseReader.Event("delta", "{\"a\":\n1}"), new SseReader.Event(null, "x"));
  }

  @Test
  void commentsIdsAndEmptyEventsCarryNothing() {
    assertThat(readAnyway(": ping\n\nid: 7\nretry: 10\n\n\n\ndata: y\n\n")).extracting(SseReader.Event::data).containsExactly("y");
  }

  @Test
  void aMultiByteCharacterSplitAcrossChunksDecodesOnce() {
    assertThat(readAnyway("data: h\u00e9llo \uD83D\uDE42 \u4e16\n\n")).extracting(SseReader.Event::data)
        .containsExactly("h\u00e9llo \uD83D\uDE42 \u4e16");
  }

  @Test
  void anUnterminatedLastEventStillCountsAtTheEnd() {
    assertThat(readAnyway("data: [DONE]")).extracting(SseReader.Event::data).containsExactly("[DONE]");
  }
}
