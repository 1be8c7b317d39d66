package dev.solweb.factory.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's seat rule: fakesol only where fakesol and Chromium both exist, and always a stated reason. */
class DemoSeatTest {

  @TempDir Path tmp;

  private Path executable(String relative) throws Exception {
    Path file = tmp.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  @Test
  void autoDrivesFakesolInChromiumWhenBothAreThere() throws Exception {
    executable("root/bin/fakesol");
    Path chromium = executable("chromium");
    DemoSeat.Choice choice = DemoSeat.choose("auto", tmp.resolve("root"), chromium);
    assertThat(choice.kind()).isEqualTo(DemoSeat.Kind.FAKESOL);
    assertThat(choice.why()).contains("Chromium is at " + chromium);
    assertThat(DemoSeat.fakesol("http://127.0.0.1:4242/", chromium, choice.why()).seatArgs())
        .containsExactly("--seat", "playwright", "--chat-url", "http://127.0.0.1:4242/", "--headless", "--chromium",
            chromium.toString());
  }

  @Test
  void autoFallsToTheScriptedSeatSayingWhy() throws Exception {
    Path chromium = executable("chromium");
    assertThat(DemoSeat.choose("auto", tmp.resolve("root"), chromium))
        .isEqualTo(new DemoSeat.Choice(DemoSeat.Kind.SCRIPTED, "fakesol (the imitation ChatGPT page the Playwright seat"
            + " drives) is not part of this checkout; the scripted seat plays the page"));
    executable("root/bin/fakesol");
    assertThat(DemoSeat.choose("auto", tmp.resolve("root"), tmp.resolve("no-chromium")).why())
        .startsWith("there is no Chromium at " + tmp.resolve("no-chromium"));
    assertThat(DemoSeat.scripted("x").seatArgs()).containsExactly("--seat", "scripted:pi-demo");
  }

  @Test
  void fakesolAskedForWhereItCannotRunIsRefusedNotReplaced() {
    assertThatThrownBy(() -> DemoSeat.choose("fakesol", tmp.resolve("root"), tmp.resolve("no-chromium")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--seat fakesol cannot run");
    assertThatThrownBy(() -> DemoSeat.choose("playwright", tmp, tmp))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto, scripted or fakesol");
  }
}
