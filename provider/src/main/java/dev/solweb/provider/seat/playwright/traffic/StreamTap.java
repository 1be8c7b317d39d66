package dev.solweb.provider.seat.playwright.traffic;

import com.microsoft.playwright.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The passive in-page observer of the page's own conversation stream (../shared/CHATGPT-STREAM.md
 * "Observing it without disturbing the page"). {@link #INIT_SCRIPT} runs at document start in the
 * page's main world and wraps {@code window.fetch}: for a response to exactly one of
 * {@link #TURN_PATHS} on the page's own origin with an event-stream content type, it reads a
 * {@code clone()} of the body into a page-side buffer; for an HTTP error there it keeps the error
 * body. It calls the original with the page's receiver and arguments, and returns the page's own
 * Promise (so the page gets its own Response); it adds, changes and repeats no request, never
 * looks at request headers or bodies, and drops {@code resume_conversation_token} lines (a JWT)
 * before they are buffered. The seat drains the buffer with {@link #drain}. A seat started with
 * {@code -Dsolweb.streamTap=off} installs no tap: the DOM rule then decides alone.
 */
public final class StreamTap {

  /** The turn and its continuation; siblings like {@code /prepare} and {@code /init} are not the turn. */
  static final List<String> TURN_PATHS = List.of(
      "/backend-api/f/conversation", "/backend-api/f/conversation/resume", "/backend-api/conversation");

  public static final String INIT_SCRIPT = """
      (() => {
        if (window.__solwebTap) return;
        const PATHS = %s;
        const MAX_CHARS = 16 * 1024 * 1024;
        const MAX_ERROR = 64 * 1024;
        const bodies = [];
        let seq = 0;
        const original = window.fetch;
        if (typeof original !== 'function') return;
        const urlOf = (input) => {
          try {
            const raw = typeof input === 'string' ? input : (input instanceof URL ? input.href : input && input.url);
            return raw ? new URL(raw, location.href) : null;
          } catch (e) { return null; }
        };
        // Lines only leave this function whole, so a JWT line is dropped however the bytes were chunked.
        const keep = (body, text, last) => {
          const p = body.pending + text;
          let cut = last ? p.length : 0;
          for (let i = p.length - 1; !last && i >= 0; i--) {
            // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
            if (p[i] === '\\n' || (p[i] === '\\r' && i < p.length - 1)) { cut = i + 1; break; }
          }
          body.pending = p.slice(cut);
          if (cut === 0) return;
          const lines = p.slice(0, cut).match(/[^\\r\\n]*(?:\\r\\n|\\n|\\r)|[^\\r\\n]+$/g) || [];
          const kept = lines.filter((l) => !/^data:.*"resume_conversation_token"/.test(l)).join('');
          if (body.overflow || body.size + kept.length > MAX_CHARS) { body.overflow = true; return; }
          body.size += kept.length;
          body.chunks.push(kept);
          body.at = Date.now();
        };
        const observe = (path) => (response) => {
          let type = '';
          try { type = response.headers.get('content-type') || ''; } catch (e) { return; }
          const body = { id: ++seq, path, status: response.status, stream: /text\\/event-stream/i.test(type),
            chunks: [], pending: '', size: 0, at: 0, ended: false, error: null, errorBody: null, overflow: false };
          if (!body.stream && response.status < 400) return;
          let copy;
          try { copy = response.clone(); } catch (e) { return; } // the page already used the body
          bodies.push(body);
          if (bodies.length > 64) bodies.splice(0, bodies.length - 64);
          if (!body.stream) {
            copy.text().then((t) => { body.errorBody = t.slice(0, MAX_ERROR); }, (e) => { body.error = String(e && e.name); })
              .finally(() => { body.ended = true; });
            return;
          }
          const reader = copy.body.getReader();
          const decoder = new TextDecoder('utf-8');
          const pump = () => reader.read().then(({ done, value }) => {
            if (done) { keep(body, decoder.decode(), true); body.ended = true; return; }
            keep(body, decoder.decode(value, { stream: true }), false);
            return pump();
          });
          pump().catch((e) => { keep(body, '', true); body.error = String((e && e.name) || e); body.ended = true; });
        };
        const wrapped = function fetch(input, init) {
          const pending = original.apply(this, arguments);
          const url = urlOf(input);
          if (url && url.origin === location.origin && PATHS.includes(url.pathname) && pending && pending.then) {
            pending.then(observe(url.pathname), () => {});
          }
          return pending;
        };
        Object.defineProperty(wrapped, 'length', { value: original.length });
        window.fetch = wrapped;
        Object.defineProperty(window, '__solwebTap', { value: {
          /** Whether a drain would bring news: text not yet drained, or a body that ended since. */
          waiting() { return bodies.some((b) => b.chunks.length > 0 || b.ended); },
          drain() {
            const out = bodies.map((b) => {
              const text = b.chunks.join('');
              b.chunks = [];
              return { id: b.id, path: b.path, status: b.status, stream: b.stream, text, at: b.at, ended: b.ended,
                error: b.error, errorBody: b.errorBody, overflow: b.overflow };
            });
            for (let i = bodies.length - 1; i >= 0; i--) if (bodies[i].ended) bodies.splice(i, 1);
            return out;
          },
        } });
      })();
      """.formatted(toJsArray(TURN_PATHS));

  /** What one drain returned for one body: the text since the last drain and how the body stands. */
  record Chunk(long id, String path, int status, boolean stream, String text, long atMillis, boolean ended, String error,
      String errorBody, boolean overflow) {}

  private StreamTap() {}

  /**
   * Waits at most {@code within} for the buffer to hold news for a drain (new text, an ended
   * body): the seat's pause between polls, cut short when the page's stream moves, so a terminal
   * chunk is read as soon as it arrives instead of at the next fixed poll. Without a tap (off, or
   * a page that has none) it simply waits {@code within}.
   */
  static void awaitNews(Page page, java.time.Duration within) {
    long start = System.nanoTime();
    try {
      page.waitForFunction("() => !!(window.__solwebTap && window.__solwebTap.waiting())", null,
          new Page.WaitForFunctionOptions().setTimeout(within.toMillis()).setPollingInterval(5));
    } catch (com.microsoft.playwright.TimeoutError e) {
      // nothing new within the interval: poll as usual
    } catch (com.microsoft.playwright.PlaywrightException e) {
      // a page navigating or gone: the next poll tells; keep the interval
      long left = within.toNanos() - (System.nanoTime() - start);
      if (left > 0) {
        try {
          Thread.sleep(left / 1_000_000);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Everything the buffer gathered since the last drain, per body, oldest first; ended bodies leave the buffer. */
  @SuppressWarnings("unchecked")
  static List<Chunk> drain(Page page) {
    Object out = page.evaluate("() => window.__solwebTap ? window.__solwebTap.drain() : []");
    List<Chunk> chunks = new ArrayList<>();
    for (Map<String, Object> m : (List<Map<String, Object>>) out) {
      chunks.add(new Chunk(((Number) m.get("id")).longValue(), (String) m.get("path"), ((Number) m.get("status")).intValue(),
          Boolean.TRUE.equals(m.get("stream")), (String) m.get("text"), ((Number) m.get("at")).longValue(),
          Boolean.TRUE.equals(m.get("ended")),
          (String) m.get("error"), (String) m.get("errorBody"), Boolean.TRUE.equals(m.get("overflow"))));
    }
    return chunks;
  }

  private static String toJsArray(List<String> items) {
    StringBuilder sb = new StringBuilder("[");
    for (String s : items) {
      sb.append(sb.length() > 1 ? ", " : "").append('\'').append(s).append('\'');
    }
    return sb.append(']').toString();
  }
}
