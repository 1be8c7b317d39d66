package dev.solweb.provider.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

class SeatMixinTest {
  @Command(name = "probe")
  static final class Probe {
    @Mixin SeatMixin seat;
  }

  private static SeatMixin parse(String... args) {
    Probe probe = new Probe();
    new CommandLine(probe).parseArgs(args);
    return probe.seat;
  }

  @Test
  void unsetOptionsStayUnsetForALauncherAndTakeTheDefaultsWhereASeatOpens() {
    SeatMixin seat = parse();

    assertThat(seat.seat()).isEqualTo("playwright");
    assertThat(seat.browser().chatUrl()).isNull();
    assertThat(seat.browser().chromium()).isNull();
    assertThat(seat.browser().args()).as("a launcher passes on nothing that was not given").isEmpty();
    assertThat(seat.options(Path.of("/h"), Path.of("/h/profile")))
        .isEqualTo(new PlaywrightOptions(URI.create(PlaywrightOptions.REAL_CHAT_URL), false, Path.of("/usr/bin/chromium"),
            Path.of("/h/profile"), Path.of("/h")));
  }

  @Test
  void givenOptionsWin() {
    SeatMixin seat = parse("--seat", "scripted:demo", "--chat-url", "http://127.0.0.1:9/", "--headless",
        "--chromium", "/opt/chromium", "--profile", "/p");

    assertThat(seat.seat()).isEqualTo("scripted:demo");
    assertThat(seat.options(Path.of("/h"), Path.of("/h/profile"))).isEqualTo(
        new PlaywrightOptions(URI.create("http://127.0.0.1:9/"), true, Path.of("/opt/chromium"), Path.of("/p"), Path.of("/h")));
    assertThat(seat.browser().args())
        .containsExactly("--chat-url", "http://127.0.0.1:9/", "--headless", "--chromium", "/opt/chromium", "--profile", "/p");
  }
}
