package dev.solweb.provider.seat.playwright.traffic;

import com.microsoft.playwright.Page;
import dev.solweb.provider.platform.Poll;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The passive in-page observer of the page's own traffic (../shared/CHATGPT-STREAM.md "Observing it
 * without disturbing the page"). {@link #INIT_SCRIPT} runs at document start in the page's main
 * world and wraps {@code window.fetch}; it calls the original with the page's receiver and
 * arguments and returns the page's own Promise (so the page gets its own Response); it adds,
 * changes and repeats no request. What it keeps, in a page-side buffer the seat drains:
 *
 * <ul>
 *   <li>the answer of a POST to exactly one of {@link #TURN_PATHS} on the page's own origin: a
 *       {@code clone()} of an event-stream body, with {@code resume_conversation_token} lines (a
 *       JWT) dropped before they are buffered, or the body of an HTTP error;
 *   <li>the request body of a POST to one of {@link #SENT_PATHS} ({@code /prepare} and the turn)
 *       with every {@code content}, {@code parts}, {@code attachments} and token-named key removed
 *       in the page, so the prompt never leaves it; {@link ObservedRequest} reads what is left;
 *   <li>the JSON answer of the page's own GET of a conversation ({@code /backend-api/conversation/<id>},
 *       {@code /backend-api/conversations/<id>}) or of its {@code stream_status}
 *       ({@link ConversationHistory}, {@link StreamStatus}).
 * </ul>
 *
 * It never reads request headers into the buffer: the headers of the page's own last
 * {@code /backend-api/} GET stay in the page, for {@link #refetch} (the seat's one request of its
 * own, the same route with the page's own headers, when observing cannot serve). A seat started
 * with {@code -Dsolweb.streamTap=off} installs no tap: the DOM rule then decides alone.
 */
public final class StreamTap {

  /** The turn and its continuation; siblings like {@code /prepare} and {@code /init} are not the turn. */
  static final List<String> TURN_PATHS = List.of(
      "/backend-api/f/conversation", "/backend-api/f/conversation/resume", "/backend-api/conversation");
  /** Requests whose bodies say what the page will send: {@code /prepare} (before Send) and the turn itself. */
  static final List<String> SENT_PATHS = List.of(
      ObservedRequest.PREPARE_PATH, "/backend-api/f/conversation", "/backend-api/conversation");

  public static final String INIT_SCRIPT = """
      (() => {
        if (window.__solwebTap) return;
        const PATHS = %s;
        const SENT = %s;
        const DOCUMENTS = [/^\\/backend-api\\/conversations?\\/[0-9A-Za-z][0-9A-Za-z-]{7,}$/,
          /^\\/backend-api\\/conversation\\/[0-9A-Za-z][0-9A-Za-z-]{7,}\\/stream_status$/];
        const MAX_CHARS = 16 * 1024 * 1024;
        const MAX_ERROR = 64 * 1024;
        const MAX_DOCUMENT = 8 * 1024 * 1024;
        const bodies = [];
        const requests = [];
        const documents = [];
        // Ids grow across the tab's documents too (a reload starts a new buffer, not smaller ids).
        let seq = Math.floor(performance.timeOrigin || Date.now()) * 1000;
        let ownHeaders = null; // the page's last /backend-api/ GET headers: kept here, never drained
        const original = window.fetch;
        if (typeof original !== 'function') return;
        const urlOf = (input) => {
          try {
            const raw = typeof input === 'string' ? input : (input instanceof URL ? input.href : input && input.url);
            return raw ? new URL(raw, location.href) : null;
          } catch (e) { return null; }
        };
        // The seat's pending waits for news (newsWithin): each is answered when anything is kept.
        const waiters = [];
        const news = () => { while (waiters.length) waiters.shift()(true); };
        const bounded = (list, item) => { list.push(item); if (list.length > 64) list.splice(0, list.length - 64); news(); };
        const end = (body) => { body.ended = true; news(); };
        // The prompt stays in the page: every text-bearing key goes before the body is kept.
        const scrub = (text) => {
          try {
            return JSON.stringify(JSON.parse(text), (k, v) =>
              (k === 'content' || k === 'parts' || k === 'attachments' || /token/i.test(k)) ? undefined : v);
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
          news();
        };
        const observe = (id, path) => (response) => {
          let type = '';
          try { type = response.headers.get('content-type') || ''; } catch (e) { return; }
          const body = { id, path, status: response.status, stream: /text\\/event-stream/i.test(type),
            chunks: [], pending: '', size: 0, at: 0, ended: false, error: null, errorBody: null, overflow: false };
          if (!body.stream && response.status < 400) return;
          let copy;
          try { copy = response.clone(); } catch (e) { return; } // the page already used the body
          bounded(bodies, body);
          if (!body.stream) {
            copy.text().then((t) => { body.errorBody = t.slice(0, MAX_ERROR); }, (e) => { body.error = String(e && e.name); })
              .finally(() => end(body));
            return;
          }
          const reader = copy.body.getReader();
          const decoder = new TextDecoder('utf-8');
          const pump = () => reader.read().then(({ done, value }) => {
            if (done) { keep(body, decoder.decode(), true); end(body); return; }
            keep(body, decoder.decode(value, { stream: true }), false);
            return pump();
          });
          pump().catch((e) => { keep(body, '', true); body.error = String((e && e.name) || e); end(body); });
        };
        const keepDocument = (id, url) => (response) => {
          let copy;
          try { copy = response.clone(); } catch (e) { return; }
          copy.text().then((t) => {
            if (t.length <= MAX_DOCUMENT) bounded(documents, { id, path: url.pathname, query: url.search, status: response.status, text: t });
          }, () => {});
        };
        const sent = (id, path, input, init) => {
          const at = Date.now();
          const record = (text) => bounded(requests, { id, path, at, body: scrub(text) });
          if (init && typeof init.body === 'string') record(init.body);
          else if (input instanceof Request && !(init && init.body != null)) input.clone().text().then(record, () => {});
        };
        const wrapped = function fetch(input, init) {
          const url = urlOf(input);
          const own = !!url && url.origin === location.origin;
          const method = String((init && init.method) || (input instanceof Request ? input.method : 'GET')).toUpperCase();
          const id = ++seq;
          if (own && method === 'POST' && SENT.includes(url.pathname)) {
            try { sent(id, url.pathname, input, init); } catch (e) { /* never in the page's way */ }
          }
          if (own && method === 'GET' && url.pathname.startsWith('/backend-api/') && init && init.headers) ownHeaders = init.headers;
          const pending = original.apply(this, arguments);
          if (own && pending && pending.then) {
            if (PATHS.includes(url.pathname) && method !== 'GET') pending.then(observe(id, url.pathname), () => {});
            else if (method === 'GET' && DOCUMENTS.some((re) => re.test(url.pathname))) pending.then(keepDocument(id, url), () => {});
          }
          return pending;
        };
        Object.defineProperty(wrapped, 'length', { value: original.length });
        window.fetch = wrapped;
        Object.defineProperty(window, '__solwebTap', { value: {
          /** Whether a drain would bring news: text not yet drained, a body that ended since, a request or a document. */
          waiting() { return requests.length > 0 || documents.length > 0 || bodies.some((b) => b.chunks.length > 0 || b.ended); },
          /** Resolves true as soon as a drain would bring news, false after {@code ms} without any. */
          newsWithin(ms) {
            if (this.waiting()) return Promise.resolve(true);
            return new Promise((resolve) => {
              waiters.push(resolve);
              setTimeout(() => { const i = waiters.indexOf(resolve); if (i >= 0) { waiters.splice(i, 1); resolve(false); } }, ms);
            });
          },
          drain() {
            const out = bodies.map((b) => {
              const text = b.chunks.join('');
              b.chunks = [];
              return { id: b.id, path: b.path, status: b.status, stream: b.stream, text, at: b.at, ended: b.ended,
                error: b.error, errorBody: b.errorBody, overflow: b.overflow };
            });
            for (let i = bodies.length - 1; i >= 0; i--) if (bodies[i].ended) bodies.splice(i, 1);
            return { bodies: out, requests: requests.splice(0), documents: documents.splice(0) };
          },
          /** The seat's own GET of a page route, with the page's own headers; the answer comes as a drained document. */
          refetch(path) {
            const url = new URL(path, location.href);
            if (url.origin !== location.origin || !DOCUMENTS.some((re) => re.test(url.pathname))) return Promise.resolve(false);
            const id = ++seq;
            return original.call(window, url.href, { credentials: 'include', headers: ownHeaders || undefined })
              .then((r) => { keepDocument(id, url)(r); return true; }, () => false);
          },
          /**
           * The page's own delete of one conversation (REAL-PAGE row 31: DELETE
           * /backend-api/conversation/id/{id} -> {success: true}), with the page's own headers:
           * the seat's way to delete where the page shows no menu for it (row 38).
           */
          remove(conversationId) {
            if (!/^[0-9A-Za-z][0-9A-Za-z-]{7,}$/.test(conversationId)) return Promise.resolve({ status: 0, text: '' });
            const url = new URL('/backend-api/conversation/id/' + conversationId, location.href);
            return original.call(window, url.href, { method: 'DELETE', credentials: 'include', headers: ownHeaders || undefined })
              .then((r) => r.text().then((text) => ({ status: r.status, text: text.slice(0, MAX_ERROR) })),
                () => ({ status: 0, text: '' }));
          },
        } });
      })();
      """.formatted(toJsArray(TURN_PATHS), toJsArray(SENT_PATHS));

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
      // One round trip that the page answers when news comes or the time is up: no 5 ms polling in
      // the page and no timeout error per quiet interval, as a waitForFunction had (dozens a second;
      // SeatVariantsTest took 5 % less CPU without them).
      page.evaluate("(ms) => window.__solwebTap ? window.__solwebTap.newsWithin(ms)"
          + " : new Promise((r) => setTimeout(() => r(false), ms))", (int) within.toMillis()); // Playwright serializes no Long
    } catch (com.microsoft.playwright.PlaywrightException e) {
      // a page navigating or gone: the next poll tells; keep the interval
      Poll.restOf(within, start);
    }
  }

  /** A request the page sent: its tap id (its answer's too), path, page time and scrubbed JSON body (null: unreadable). */
  record Sent(long id, String path, long atMillis, String body) {}

  /** A JSON document the page (or {@link #refetch}) got: a conversation's history or its stream status. */
  public record Document(long id, String path, String query, int status, String text) {}

  /** One drain: the bodies' news, and the requests and documents since the last drain. */
  record Drained(List<Chunk> bodies, List<Sent> requests, List<Document> documents) {}

  /** Everything the buffer gathered since the last drain, oldest first; ended bodies leave the buffer. */
  @SuppressWarnings("unchecked")
  static Drained drain(Page page) {
    Object out = page.evaluate("() => window.__solwebTap ? window.__solwebTap.drain() : null");
    if (!(out instanceof Map<?, ?> m)) {
      return new Drained(List.of(), List.of(), List.of());
    }
    List<Chunk> chunks = new ArrayList<>();
    for (Map<String, Object> c : (List<Map<String, Object>>) m.get("bodies")) {
      chunks.add(new Chunk(number(c.get("id")), (String) c.get("path"), (int) number(c.get("status")),
          Boolean.TRUE.equals(c.get("stream")), (String) c.get("text"), number(c.get("at")), Boolean.TRUE.equals(c.get("ended")),
          (String) c.get("error"), (String) c.get("errorBody"), Boolean.TRUE.equals(c.get("overflow"))));
    }
    List<Sent> sent = new ArrayList<>();
    for (Map<String, Object> r : (List<Map<String, Object>>) m.get("requests")) {
      sent.add(new Sent(number(r.get("id")), (String) r.get("path"), number(r.get("at")), (String) r.get("body")));
    }
    List<Document> documents = new ArrayList<>();
    for (Map<String, Object> d : (List<Map<String, Object>>) m.get("documents")) {
      documents.add(new Document(number(d.get("id")), (String) d.get("path"), (String) d.get("query"),
          (int) number(d.get("status")), (String) d.get("text")));
    }
    return new Drained(chunks, sent, documents);
  }

  /**
   * Asks the page for {@code path} (a conversation's history or stream status route on its own
   * origin, nothing else) with the headers of its own last {@code /backend-api/} GET; the answer
   * arrives as a {@link Document} at a later drain. False when the page has no tap, the route is
   * not one of those, or the request failed.
   */
  static boolean refetch(Page page, String path) {
    return Boolean.TRUE.equals(page.evaluate("(p) => window.__solwebTap ? window.__solwebTap.refetch(p) : false", path));
  }

  /** What the page's own delete answered: its HTTP status (0: no answer, or no tap) and the start of its body. */
  public record Deleted(int status, String text) {
    /** The page's delete took: 2xx with {@code success: true} (row 31), or an empty 2xx body. */
    public boolean ok() {
      return status >= 200 && status < 300 && (text.isBlank() || text.replace(" ", "").contains("\"success\":true"));
    }
  }

  /** Deletes conversation {@code id} by the page's own request ({@code remove} in the tap); status 0 without a tap. */
  @SuppressWarnings("unchecked")
  static Deleted delete(Page page, String id) {
    Object out = page.evaluate("(id) => window.__solwebTap ? window.__solwebTap.remove(id) : { status: 0, text: '' }", id);
    Map<String, Object> m = out instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    return new Deleted((int) number(m.get("status")), m.get("text") instanceof String t ? t : "");
  }

  private static long number(Object o) {
    return o instanceof Number n ? n.longValue() : 0;
  }

  private static String toJsArray(List<String> items) {
    StringBuilder sb = new StringBuilder("[");
    for (String s : items) {
      sb.append(sb.length() > 1 ? ", " : "").append('\'').append(s).append('\'');
    }
    return sb.append(']').toString();
  }
}
