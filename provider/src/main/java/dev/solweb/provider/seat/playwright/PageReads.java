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
 * stands, since an unchanged document reads the same. Full reads are at least {@link #BEAT}
 * apart, the old fixed poll's interval: a page that changes faster (an answer streaming in) is
 * read no more often than before, and the tap's news still ends a wait at once (the stream's
 * rule decides from the traffic, not from the read). Waits are cut into {@link #SLICE}s so a
 * Stop and the seat's errands are not held back.
 */
final class PageReads {

  /** The longest a wait goes without a full read: for changes no observer sees (layout, style, the URL). */
  static final Duration SAFETY_NET = Duration.ofMillis(250);
  /** The least time between two full reads. */
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
    private ChatGptPage.State last;

    private Loop(Set<String> baseline) {
      this.baseline = baseline;
      this.pending = PageChanges.count(page);
    }

    /** The page's state: read in full when it changed (once the beat allows) or the safety net is due, else the last read. */
    ChatGptPage.State state() {
      long now = System.nanoTime();
      long age = now - readAt;
      if (last == null || pending == PageChanges.UNKNOWN || age >= SAFETY_NET.toNanos() || (changed && age >= BEAT.toNanos())) {
        seen = pending;
        last = chat.state(baseline);
        readAt = now;
        changed = false;
      }
      return last;
    }

    /**
     * Waits until the page changes (its read then due), the tap has news, a Stop is asked, the
     * safety net's read is due, or {@code cap} (the caller's own deadline, e.g. a settle window's
     * end) is over.
     */
    void await(Duration cap) {
      long end = Math.min(System.nanoTime() + cap.toNanos(), readAt + SAFETY_NET.toNanos());
      while (true) {
        if (changed) {
          end = Math.min(end, readAt + BEAT.toNanos()); // a change is read on the next beat
        }
        long left = end - System.nanoTime();
        if (left <= 0 || stopRequested.get()) {
          return;
        }
        // Without an observer (a document being replaced) every wake reads: the old beat, not the long one.
        Duration slice = idle.expected() || seen == PageChanges.UNKNOWN ? BEAT : SLICE;
        Duration within = Duration.ofNanos(Math.min(left, slice.toNanos()));
        // Once a change waits for its read, only the tap's news ends the wait early.
        PageChanges.Wake wake = changed ? PageChanges.awaitNews(page, within) : PageChanges.await(page, seen, within);
        pending = wake.count();
        changed |= wake.changedSince(seen);
        if (wake.news()) {
          return;
        }
        idle.drain();
      }
    }
  }
}
