package dev.solweb.provider.seat.playwright.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reaper on a /proc tree laid out as Chromium leaves one: a browser and its rewritten children. */
class OrphanReaperTest {
  @TempDir Path proc;

  private void process(long pid, long ppid, String cmdline) throws Exception {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Files.writeString(dir.resolve("stat"), pid + " (chromium (x)) S " + ppid + " " + pid
        + " 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 12345 0 0");
    Files.writeString(dir.resolve("status"), "Name:\tchromium\nUid:\t1000\t1000\t1000\t1000\n");
    Files.writeString(dir.resolve("cmdline"), cmdline);
  }

  @Test
  void findsTheBrowserItsRewrittenChildrenAndTheirDescendantsButNothingElse() throws Exception {
    Path profile = Path.of("/home/owner/.overdeck/gptbridge/profile");
    process(100, 1, "/usr/lib/chromium/chromium\0--user-data-dir=" + profile + "\0--headless\0");
    // Zygote children join their arguments with spaces into one string (setproctitle).
    process(101, 100, "/usr/lib/chromium/chromium --type=zygote --user-data-dir=" + profile);
    process(102, 101, "/usr/lib/chromium/chromium --type=renderer --lang=en-US");
    // Orphaned when the browser was killed: reparented to init, still naming the profile.
    process(103, 1, "/usr/lib/chromium/chromium --type=gpu-process --user-data-dir=" + profile + " --enable-logging");
    process(200, 1, "/usr/lib/chromium/chromium\0--user-data-dir=" + profile + "-other\0");
    process(201, 200, "/usr/lib/chromium/chromium --type=renderer");
    process(300, 1, "/usr/bin/java\0-jar\0solwebd.jar\0");

    assertThat(OrphanReaper.find(proc, profile, 300)).containsExactlyInAnyOrder(100L, 101L, 102L, 103L);
  }

  @Test
  void neverFindsItself() throws Exception {
    Path profile = Path.of("/tmp/profile");
    process(100, 1, "/usr/bin/java\0--user-data-dir=/tmp/profile\0");

    assertThat(OrphanReaper.find(proc, profile, 100)).isEmpty();
  }
}
