package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.Page;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.IdleWork;
import dev.solweb.provider.seat.playwright.page.PageChanges;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The seat's reads of the page's state while it waits for the page: a full read (the one that
 * looks for every control, banner and the answer's text) only when the page changed since the
 * last one ({@link PageChanges}) or {@link #SAFETY_NET} has passed; otherwise the last read
 * stands, since an unchanged document reads the same. Polls stay at least {@link #BEAT} apart,
 * the old fixed interval, so a page that changes fast (an answer streaming in) is polled no more
 * often than before; after the beat, the page's change or the tap's news ends the wait at once,
 * and a still page is polled again only when the safety net (or the caller's own deadline) is
 * due. Waits are cut into {@link #SLICE}s so a Stop and the seat's errands are not held back.
 */
final class PageReads {

  /** The longest a wait goes without a full read: for changes no observer sees (layout, style, the URL). */
  static final Duration SAFETY_NET = Duration.ofMillis(250);
  /** The least time between two polls (the fixed interval the seat polled at before). */
  static final Duration BEAT = PageTurn.POLL;
  /** The longest one wait round trip holds the seat's thread: a Stop and posted work wait at most this. */
  static final Duration SLICE = Duration.ofMillis(100);

  private final Page page;
  private final ChatGptPage chat;
  private final IdleWork idle;
  private final AtomicBoolean stopRequested;

  PageReads(Page page, ChatGptPage chat, IdleWork idle, AtomicBoolean stopRequested) {
    this.page = page;
    this.chat = chat;
    this.idle = idle;
    this.stopRequested = stopRequested;
  }

  /** Reads for one wait, the answer taken as the newest assistant message not in {@code baseline}. */
  Loop loop(Collection<String> baseline) {
    return new Loop(Set.copyOf(baseline));
  }

  /** One wait's reads: the first is always full. */
  final class Loop {
    private final Set<String> baseline;
    /** The document's change count the last full read covers (taken before it, so a change during it reads again). */
    private long seen;
    /** The newest count known; {@link #changed} when it is not {@link #seen}. */
    private long pending;
    private boolean changed = true;
    private long readAt;
    /** When the last wait ended (the poll after it began). */
    private long woke = System.nanoTime();
    private ChatGptPage.State last;

    private Loop(Set<String> baseline) {
      this.baseline = baseline;
      this.pending = PageChanges.count(page);
    }

    /** The page's state: read in full when it changed or the safety net is due, else the last read. */
    ChatGptPage.State state() {
      long now = System.nanoTime();
      if (last == null || changed || pending == PageChanges.UNKNOWN || now - readAt >= SAFETY_NET.toNanos()) {
        seen = pending;
        last = chat.state(baseline);
        readAt = now;
        changed = false;
      }
      return last;
    }

    /**
     * Waits the rest of the beat, then until the page changes, the tap has news, a Stop is asked,
     * the safety net's read is due, or {@code cap} (the caller's own deadline, e.g. a settle
     * window's end) is over.
     */
    void await(Duration cap) {
      long end = Math.min(System.nanoTime() + cap.toNanos(), readAt + SAFETY_NET.toNanos());
      try {
        long rest = woke + BEAT.toNanos() - System.nanoTime();
        if (rest > 0) {
          idle.runFor(Duration.ofNanos(rest));
        }
      } catch (InterruptedException e) {
        stopRequested.set(true); // as the seat's PageWait does: the Stop request carries the meaning
      }
      while (true) {
        long left = end - System.nanoTime();
        if (left <= 0 || stopRequested.get()) {
          break;
        }
        // Without an observer (a document being replaced) every poll reads: the old beat, not the long one.
        Duration slice = idle.expected() || seen == PageChanges.UNKNOWN ? BEAT : SLICE;
        PageChanges.Wake wake = PageChanges.await(page, seen, Duration.ofNanos(Math.min(left, slice.toNanos())));
        pending = wake.count();
        if (wake.changedSince(seen)) {
          changed = true;
          break;
        }
        if (wake.news()) {
          break;
        }
        idle.drain();
      }
      woke = System.nanoTime();
    }
  }
}
