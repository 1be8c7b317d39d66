package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.platform.Poll;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What wakes the seat while it waits for the page: a {@code MutationObserver} on the whole
 * document ({@link #INIT_SCRIPT}, installed in every document), and the traffic tap's news
 * ({@code window.__solwebTap.newsWithin}). A wait is one round trip the page answers as soon as
 * either moves, so the seat reads the page's full state when something changed instead of on a
 * fixed beat. The observer adds, changes and repeats nothing in the page: it counts.
 *
 * <p>A change the observer cannot see (a layout or a style that moves no node, the URL's
 * {@code pushState}) is why the seat still reads the state on a safety-net beat.
 */
public final class PageChanges {

  /**
   * The document's change counter: its start differs per document (its time origin), so a wait
   * that names another document's count returns at once, as a change.
   */
  public static final String INIT_SCRIPT = """
      (() => {
        if (window.__solwebChanges) return;
        let count = Math.floor(performance.timeOrigin || Date.now()) * 1000;
        const waiters = [];
        const changed = () => { count++; while (waiters.length) waiters.shift()(); };
        new MutationObserver(changed).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        Object.defineProperty(window, '__solwebChanges', { value: {
          count() { return count; },
          /** Resolves as soon as the count is not {@code since} or the tap has news, else after {@code ms}. */
          wait(since, ms) {
            const out = (news) => ({ count, news });
            if (count !== since) return Promise.resolve(out(false));
            return new Promise((resolve) => {
              let done = false;
              const finish = (news) => {
                if (done) return;
                done = true;
                clearTimeout(timer);
                const i = waiters.indexOf(onChange);
                if (i >= 0) waiters.splice(i, 1);
                resolve(out(news));
              };
              const onChange = () => finish(false);
              waiters.push(onChange);
              const timer = setTimeout(() => finish(false), ms);
              const tap = window.__solwebTap;
              if (tap) tap.newsWithin(ms).then((news) => { if (news) finish(true); }, () => {});
            });
          },
        } });
      })();
      """;

  /** No count: the document has no observer (not installed, or a document being replaced). */
  public static final long UNKNOWN = Long.MIN_VALUE;

  /** How a wait ended: the document's change count then, and whether the tap had news. */
  public record Wake(long count, boolean news) {
    /** Whether the page may have changed since {@code since}: another count, or no count to compare. */
    public boolean changedSince(long since) {
      return count == UNKNOWN || since == UNKNOWN || count != since;
    }
  }

  private static final String WAIT = """
      ([since, ms]) => {
        if (window.__solwebChanges) return window.__solwebChanges.wait(since, ms);
        const tap = window.__solwebTap;
        if (tap) return tap.newsWithin(ms).then((news) => ({ count: null, news }));
        return new Promise((r) => setTimeout(() => r({ count: null, news: false }), ms));
      }
      """;

  private PageChanges() {}

  /** The document's change count now, or {@link #UNKNOWN}. */
  public static long count(Page page) {
    try {
      return number(page.evaluate("() => window.__solwebChanges ? window.__solwebChanges.count() : null"));
    } catch (PlaywrightException e) {
      return UNKNOWN; // a document going away: the next read tells
    }
  }

  /**
   * Waits at most {@code within} for the document to change from count {@code since} or for the
   * tap's news. A page navigating or gone ends the wait as a change after the interval, so the
   * next read tells what the page is.
   */
  @SuppressWarnings("unchecked")
  public static Wake await(Page page, long since, Duration within) {
    long start = System.nanoTime();
    try {
      // Playwright serializes no Long: the count goes as a double (exact below 2^53), the time as an int.
      Object out = page.evaluate(WAIT, List.of(since == UNKNOWN ? -1.0 : (double) since, (int) Math.max(1, within.toMillis())));
      Map<String, Object> m = out instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
      return new Wake(number(m.get("count")), Boolean.TRUE.equals(m.get("news")));
    } catch (PlaywrightException e) {
      Poll.restOf(within, start);
      return new Wake(UNKNOWN, false);
    }
  }

  private static long number(Object o) {
    return o instanceof Number n ? n.longValue() : UNKNOWN;
  }
}
