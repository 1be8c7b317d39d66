package dev.solweb.killgate.fakesol;

import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;

/**
 * The faults a test arms on the page itself rather than in a scenario's replies: a crash (the
 * test ends the seat's Chromium), copy buttons that copy nothing, a composer that drops CDP
 * insertText, and a thinking held until the test lets it go.
 */
final class PageFaults {

  private final Vertx vertx;
  private int crashes;
  private boolean copyBroken;
  private boolean insertTextIgnored;
  private CompletableFuture<Void> thinkingHold; // null: each thinking starts on its timer
  private volatile Runnable crashHook = () ->
      System.err.println("fakesol: crash fault but no crash hook is set; the page just hangs");

  PageFaults(Vertx vertx) {
    this.vertx = vertx;
  }

  synchronized int crashes() {
    return crashes;
  }

  /** What a crash fault does: tests end the seat's Chromium here. Runs off the event loop. */
  void onCrash(Runnable hook) {
    this.crashHook = hook;
  }

  /** A crash fault fired: the hook runs after {@code delayMs}, off the event loop. */
  synchronized void crashSoon(long delayMs) {
    crashes++;
    Runnable hook = crashHook;
    vertx.setTimer(delayMs, id -> vertx.executeBlocking(() -> {
      hook.run();
      return null;
    }));
  }

  synchronized void breakCopyButtons() {
    copyBroken = true;
  }

  synchronized boolean copyBroken() {
    return copyBroken;
  }

  synchronized void ignoreInsertText() {
    insertTextIgnored = true;
  }

  synchronized boolean insertTextIgnored() {
    return insertTextIgnored;
  }

  synchronized void holdThinking() {
    thinkingHold = new CompletableFuture<>();
  }

  synchronized void releaseThinking() {
    if (thinkingHold != null) {
      thinkingHold.complete(null);
    }
  }

  /** What a stream's thinking waits for: done at once unless a test holds it. */
  synchronized CompletableFuture<Void> thinkingHold() {
    return thinkingHold == null ? CompletableFuture.completedFuture(null) : thinkingHold;
  }
}
