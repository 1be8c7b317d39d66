package dev.solweb.provider.seat.playwright.browser;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlaywrightMessagesTest {

  @Test
  void aWrappedDriverErrorKeepsOnlyItsMessage() {
    // The shape PlaywrightException carries when the browser goes away after Send.
    String raw = "Error {\n"
        + "  message='Target page, context or browser has been closed\n"
        + "  name='TargetClosedError\n"
        + "  stack='TargetClosedError: Target page, context or browser has been closed\n"
        + "    at Connection.sendMessageToServer (/tmp/playwright-java-8817244/package/lib/server/connection.js:42:9)\n"
        + "    at /tmp/playwright-java-8817244/package/lib/server/dispatchers/dispatcher.js:300:15\n"
        + "}";

    assertThat(PlaywrightMessages.clean(raw)).isEqualTo("Target page, context or browser has been closed");
  }

  @Test
  void aCallLogAfterTheFirstLineIsDropped() {
    String raw = "Timeout 30000ms exceeded.\n=========================== logs ===========================\n"
        + "waiting for locator(\"#prompt-textarea\")\n";

    assertThat(PlaywrightMessages.clean(raw)).isEqualTo("Timeout 30000ms exceeded.");
  }

  @Test
  void localPathsAndStackFramesInTheLineAreRemoved() {
    String raw = "Error: spawn /home/owner/.cache/ms-playwright/chromium-1134/chrome-linux/chrome ENOENT"
        + " at ChildProcess._handle.onexit (node:internal/child_process:284:19)";

    String clean = PlaywrightMessages.clean(raw);

    assertThat(clean).isEqualTo("Error: spawn <path> ENOENT").doesNotContain("/home", "ms-playwright", " at ");
  }

  @Test
  void nothingToSayIsSaidPlainly() {
    assertThat(PlaywrightMessages.clean(null)).isEqualTo("no detail");
    assertThat(PlaywrightMessages.clean("  \n ")).isEqualTo("no detail");
  }

  @Test
  void aLongMessageIsClipped() {
    assertThat(PlaywrightMessages.clean("x".repeat(1000))).hasSize(301).endsWith("…");
  }
}
