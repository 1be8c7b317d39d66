package dev.solweb.provider.seat.playwright;

import com.google.gson.JsonObject;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Mouse;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.MouseButton;
import com.microsoft.playwright.options.ScreenshotAnimations;
import com.microsoft.playwright.options.ScreenshotCaret;
import com.microsoft.playwright.options.ScreenshotType;
import com.microsoft.playwright.options.ViewportSize;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.seat.PageInput;
import dev.solweb.provider.seat.ScreenFrame;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatScreen;
import dev.solweb.provider.seat.playwright.browser.PlaywrightMessages;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The seat's {@link SeatScreen} on its Playwright page: Playwright's screenshot for the picture
 * (caret and animations left as they are, so nothing is injected into the page), a CDP session
 * of its own, opened when the seat starts, for the screencast ({@code Page.startScreencast},
 * every frame acknowledged), and Playwright's mouse and keyboard (CDP {@code Input.dispatch*})
 * for the person's hands. Everything here runs on the seat's thread through {@link SeatErrands}:
 * Playwright for Java is not thread-safe.
 */
final class PageScreen implements SeatScreen {
  private static final Logger LOG = Logger.getLogger(PageScreen.class.getName());
  /** The pause in which an idle seat lets the page's events in while someone watches. */
  private static final Duration PUMP = Duration.ofMillis(10);
  /** The longest a picture may hold the seat's thread. */
  private static final Duration PICTURE_TIMEOUT = Duration.ofSeconds(10);

  private final Page page;
  private final CDPSession cdp;
  private final SeatErrands errands;
  private final List<Consumer<ScreenFrame>> watchers = new CopyOnWriteArrayList<>();
  private final AtomicLong sequence = new AtomicLong();
  private boolean casting; // the seat's thread only

  /** On the seat's thread, once the page is open. */
  PageScreen(Page page, SeatErrands errands) {
    this.page = page;
    this.errands = errands;
    this.cdp = page.context().newCDPSession(page);
    cdp.on("Page.screencastFrame", this::frame);
    errands.expectWhile(() -> casting); // read on the seat's thread, like casting itself
  }

  @Override
  public CompletableFuture<byte[]> png() {
    // Playwright's own screenshot: it follows the page across a cross-site navigation (a login's
    // round trip) and gives up after its timeout, where a raw CDP capture can wait for ever for a
    // renderer that is being swapped. The caret as it is and animations allowed: nothing is
    // injected into the page.
    return errand(() -> page.screenshot(new Page.ScreenshotOptions().setType(ScreenshotType.PNG)
        .setCaret(ScreenshotCaret.INITIAL).setAnimations(ScreenshotAnimations.ALLOW).setTimeout(PICTURE_TIMEOUT.toMillis())));
  }

  @Override
  public Watch watch(Consumer<ScreenFrame> frames) {
    watchers.add(frames);
    post(this::castAsWatched);
    return new Watch() {
      private boolean closed;

      @Override
      public synchronized void close() {
        if (!closed) {
          closed = true;
          watchers.remove(frames);
          post(PageScreen.this::castAsWatched);
        }
      }
    };
  }

  @Override
  public CompletableFuture<Void> input(PageInput input) {
    return errand(() -> {
      relay(input);
      return null;
    });
  }

  @Override
  public boolean serve(Duration slice) {
    long deadline = System.nanoTime() + slice.toNanos();
    errands.drain();
    try {
      while (casting && System.nanoTime() < deadline && !page.isClosed()) {
        page.waitForTimeout(PUMP.toMillis()); // Playwright reads the page's events (frames) only inside a call
        errands.drain();
      }
    } catch (PlaywrightException e) {
      return false; // the page is gone: the next turn's probe says so
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the seat's screen failed while serving", e);
    }
    return casting || errands.pending();
  }

  /**
   * On the owner's thread, for a page that has no seat pool behind it (the login window): does
   * the posted work and lets the page's events in for {@code time}.
   */
  void idleFor(Duration time) throws InterruptedException {
    long deadline = System.nanoTime() + time.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      if (casting) {
        serve(Duration.ofNanos(left));
      } else {
        errands.runFor(Duration.ofNanos(Math.min(left, PUMP.toNanos() * 2)));
      }
    }
  }

  @Override
  public void onWork(Runnable wake) {
    errands.onPost(wake);
  }

  /** Starts the screencast for the first watcher, stops it after the last. */
  private void castAsWatched() {
    boolean wanted = !watchers.isEmpty();
    if (wanted == casting || page.isClosed()) {
      return;
    }
    try {
      if (wanted) {
        ViewportSize viewport = page.viewportSize();
        JsonObject args = new JsonObject();
        args.addProperty("format", "jpeg");
        args.addProperty("quality", 70);
        args.addProperty("maxWidth", viewport == null ? PlaywrightOptions.PAGE_WIDTH : viewport.width);
        args.addProperty("maxHeight", viewport == null ? PlaywrightOptions.PAGE_HEIGHT : viewport.height);
        cdp.send("Page.startScreencast", args);
      } else {
        cdp.send("Page.stopScreencast");
      }
      casting = wanted;
    } catch (PlaywrightException e) {
      casting = false;
    }
  }

  /** A screencast frame (on the seat's thread, inside whatever Playwright call let it in): hand it over, acknowledge it. */
  private void frame(JsonObject event) {
    int session = event.get("sessionId").getAsInt();
    errands.post(() -> {
      JsonObject ack = new JsonObject();
      ack.addProperty("sessionId", session);
      try {
        cdp.send("Page.screencastFrameAck", ack);
      } catch (PlaywrightException e) {
        // the page went away; nothing more will come
      }
    });
    JsonObject meta = event.getAsJsonObject("metadata");
    ScreenFrame frame = new ScreenFrame(Base64.getDecoder().decode(event.get("data").getAsString()),
        (int) Math.round(meta.get("deviceWidth").getAsDouble()), (int) Math.round(meta.get("deviceHeight").getAsDouble()),
        sequence.incrementAndGet());
    for (Consumer<ScreenFrame> watcher : watchers) {
      watcher.accept(frame);
    }
  }

  private void relay(PageInput input) {
    double[] point = input.point();
    if (point != null) {
      ViewportSize viewport = page.viewportSize();
      if (viewport != null && (point[0] < 0 || point[1] < 0 || point[0] > viewport.width || point[1] > viewport.height)) {
        throw new IllegalArgumentException("(" + point[0] + ", " + point[1] + ") is outside the page's viewport "
            + viewport.width + "x" + viewport.height);
      }
    }
    if (input instanceof PageInput.Mouse m) {
      MouseButton button = MouseButton.valueOf(m.button().toUpperCase(Locale.ROOT));
      Mouse mouse = page.mouse();
      switch (m.action()) {
        case MOVE -> mouse.move(m.x(), m.y());
        case DOWN -> {
          mouse.move(m.x(), m.y());
          mouse.down(new Mouse.DownOptions().setButton(button).setClickCount(m.clickCount()));
        }
        case UP -> {
          mouse.move(m.x(), m.y());
          mouse.up(new Mouse.UpOptions().setButton(button).setClickCount(m.clickCount()));
        }
        case CLICK -> mouse.click(m.x(), m.y(), new Mouse.ClickOptions().setButton(button).setClickCount(m.clickCount()));
        default -> throw new IllegalStateException("unhandled mouse action " + m.action());
      }
    } else if (input instanceof PageInput.Wheel w) {
      page.mouse().move(w.x(), w.y());
      page.mouse().wheel(w.dx(), w.dy());
    } else if (input instanceof PageInput.Key k) {
      try {
        if (k.down()) {
          page.keyboard().down(k.key());
        } else {
          page.keyboard().up(k.key());
        }
      } catch (PlaywrightException e) {
        if (String.valueOf(e.getMessage()).contains("Unknown key")) {
          throw new IllegalArgumentException("unknown key \"" + k.key() + "\" (a KeyboardEvent.key name: Enter, a, ArrowLeft, ...)");
        }
        throw e;
      }
    } else if (input instanceof PageInput.Text t) {
      page.keyboard().insertText(t.text());
    }
  }

  /** Runs {@code work} on the seat's thread; a page failure is a typed {@link SeatException}, bad input an IllegalArgumentException. */
  private <T> CompletableFuture<T> errand(Supplier<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    boolean posted = errands.post(() -> {
      try {
        if (page.isClosed()) {
          throw SeatException.broken("the seat's page is closed", false, null);
        }
        result.complete(work.get());
      } catch (PlaywrightException e) {
        result.completeExceptionally(SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
            "the seat's page did not answer: " + PlaywrightMessages.clean(e.getMessage())), false));
      } catch (SeatException | RuntimeException e) {
        result.completeExceptionally(e);
      }
    });
    if (!posted) {
      result.completeExceptionally(new IllegalStateException("the seat has " + SeatErrands.CAPACITY
          + " page errands waiting; try again"));
    }
    return result;
  }

  private void post(Runnable errand) {
    if (!errands.post(errand)) {
      throw new IllegalStateException("the seat has " + SeatErrands.CAPACITY + " page errands waiting; try again");
    }
  }
}
