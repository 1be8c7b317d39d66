package dev.solweb.provider.seat.playwright.traffic;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-sent events from bytes that arrive in arbitrary chunks (the HTML living standard's
 * event-stream rules): lines end with LF, CRLF or CR, a blank line dispatches, {@code data:}
 * lines of one event join with LF, {@code event:} names it, a leading colon is a comment. A
 * chunk may end inside a UTF-8 sequence or between the CR and LF of one line ending: bytes are
 * held until their line is whole, and CR and LF never occur inside a multi-byte sequence, so a
 * line decodes as UTF-8 exactly once.
 */
final class SseReader {

  /** One dispatched event: its {@code event:} name (null when unnamed) and its data. */
  record Event(String name, String data) {}

  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final StringBuilder data = new StringBuilder();
  private String name;
  private boolean hasData;
  private boolean afterCr;

  /** Feeds {@code length} bytes at {@code offset}; returns the events they completed. */
  List<Event> feed(byte[] bytes, int offset, int length) {
    List<Event> out = new ArrayList<>();
    for (int i = offset; i < offset + length; i++) {
      byte b = bytes[i];
      if (b == '\n' && afterCr) {
        afterCr = false; // the LF of a CRLF already ended its line
        continue;
      }
      afterCr = b == '\r';
      if (b == '\n' || b == '\r') {
        endLine(out);
      } else {
        line.write(b);
      }
    }
    return out;
  }

  List<Event> feed(byte[] bytes) {
    return feed(bytes, 0, bytes.length);
  }

  /** The body ended: a last line without its terminator and an event without its blank line still count. */
  List<Event> end() {
    List<Event> out = new ArrayList<>();
    if (line.size() > 0) {
      endLine(out);
    }
    dispatch(out);
    return out;
  }

  private void endLine(List<Event> out) {
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (text.isEmpty()) {
      dispatch(out);
      return;
    }
    if (text.startsWith(":")) {
      return;
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    switch (field) {
      case "data" -> {
        if (hasData) {
          data.append('\n');
        }
        data.append(value);
        hasData = true;
      }
      case "event" -> name = value.strip();
      default -> { } // id, retry and unknown fields carry nothing the seat reads
    }
  }

  private void dispatch(List<Event> out) {
    if (hasData) {
      out.add(new Event(name, data.toString()));
    }
    data.setLength(0);
    hasData = false;
    name = null;
  }
}
