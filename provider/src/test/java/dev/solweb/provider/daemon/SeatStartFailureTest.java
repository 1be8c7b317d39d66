package dev.solweb.provider.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.daemon.SeatStartFailure.Cause;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every start failure becomes one line naming the cause and the fix; the trace never leaks in. */
class SeatStartFailureTest {

  private static final Path PROFILE = Path.of("/home/o/.overdeck/gptbridge/profile");
  // Playwright 1.62's message for a headed launch without an X server (measured on this machine).
  private static final String XSERVER_BOX = """
      Error {
        message='Target page, context or browser has been closed
      Browser logs:

      ╔════════════════════════════════════════════════════════════════════════════════════════════════╗
      ║ Looks like you launched a headed browser without having a XServer running.                     ║
      ║ Set either 'headless: true' or use 'xvfb-run <your-playwright-app>' before running Playwright. ║
      ╚════════════════════════════════════════════════════════════════════════════════════════════════╝
        name='TargetClosedError
      """;

  @TempDir Path dir;

  private SeatStartFailure.Seat seat(Path chromium, boolean headless, Map<String, String> env) {
    return new SeatStartFailure.Seat(chromium, PROFILE, headless, env, null);
  }

  private Path executable() throws Exception {
    Path chromium = Files.writeString(dir.resolve("chromium"), "#!/bin/sh\n");
    chromium.toFile().setExecutable(true);
    return chromium;
  }

  @Test
  void aHeadedSeatWithoutDisplayIsRefusedBeforeLaunchWithTheWaysToGiveItOne() throws Exception {
    SeatStartFailure failure = SeatStartFailure.precheck(seat(executable(), false, Map.of())).orElseThrow();
    assertThat(failure.cause()).isEqualTo(Cause.NO_DISPLAY);
    assertThat(failure.line()).startsWith("no display: DISPLAY and WAYLAND_DISPLAY are unset")
        .contains("; fix: ", "xvfb-run -a solwebd", "desktop session").doesNotContain("\n");
  }

  @Test
  void aDisplayOrHeadlessPassesThePrecheck() throws Exception {
    Path chromium = executable();
    assertThat(SeatStartFailure.precheck(seat(chromium, false, Map.of("DISPLAY", ":0")))).isEmpty();
    assertThat(SeatStartFailure.precheck(seat(chromium, false, Map.of("WAYLAND_DISPLAY", "wayland-0")))).isEmpty();
    assertThat(SeatStartFailure.precheck(seat(chromium, true, Map.of()))).isEmpty();
    assertThat(SeatStartFailure.precheck(seat(chromium, false, Map.of("DISPLAY", " ")))).isPresent();
  }

  @Test
  void aMissingOrNonExecutableChromiumIsNamedWithItsPath() throws Exception {
    Path missing = dir.resolve("no-chromium");
    SeatStartFailure failure = SeatStartFailure.precheck(seat(missing, true, Map.of())).orElseThrow();
    assertThat(failure.cause()).isEqualTo(Cause.CHROMIUM_MISSING);
    assertThat(failure.line()).contains(missing.toString(), "apt-get install -y chromium", "--chromium PATH");
    Path plain = Files.writeString(dir.resolve("plain"), "not a program");
    assertThat(SeatStartFailure.precheck(seat(plain, true, Map.of("DISPLAY", ":0"))).orElseThrow().cause())
        .isEqualTo(Cause.CHROMIUM_MISSING);
  }

  @Test
  void playwrightsXServerBoxBecomesOneNoDisplayLine() {
    SeatException launch = SeatException.broken("could not start Chromium /usr/bin/chromium on profile " + PROFILE,
        false, new RuntimeException(XSERVER_BOX));
    SeatStartFailure failure = SeatStartFailure.ofLaunch(launch, seat(Path.of("/usr/bin/chromium"), false, Map.of()));
    assertThat(failure.cause()).isEqualTo(Cause.NO_DISPLAY);
    assertThat(failure.line()).doesNotContain("╔", "\n", "TargetClosedError");
  }

  @Test
  void playwrightsMissingExecutableBecomesChromiumMissing() {
    RuntimeException error = new RuntimeException("Error {\n  message='Failed to launch chromium because executable"
        + " doesn't exist at /nope/chromium\n  name='Error\n");
    SeatStartFailure failure = SeatStartFailure.ofLaunch(error, seat(Path.of("/nope/chromium"), true, Map.of()));
    assertThat(failure.cause()).isEqualTo(Cause.CHROMIUM_MISSING);
    assertThat(failure.detail()).isEqualTo("Chromium missing: /nope/chromium is not an executable file");
  }

  @Test
  void aProfileHeldByAnotherSolwebdNamesTheHolderAndHowToStopIt() {
    ProfileLock.ProfileLockedException held = new ProfileLock.ProfileLockedException(
        "profile lock /h/profile.lock is held by pid 4242: another solwebd (or ask-gpt) is using profile /h/profile; stop it first");
    SeatStartFailure failure = SeatStartFailure.ofLaunch(held, seat(Path.of("/usr/bin/chromium"), false, Map.of()));
    assertThat(failure.cause()).isEqualTo(Cause.PROFILE_HELD);
    assertThat(failure.line()).contains("pid 4242", "solwebctl stop");
  }

  @Test
  void aChromiumSingletonNamesTheBrowserThatHoldsTheProfile() {
    RuntimeException error = new RuntimeException("Failed to create a ProcessSingleton for your profile directory.");
    SeatStartFailure failure = SeatStartFailure.ofLaunch(error,
        new SeatStartFailure.Seat(Path.of("/usr/bin/chromium"), PROFILE, false, Map.of(), "workstation-31337"));
    assertThat(failure.cause()).isEqualTo(Cause.PROFILE_LOCKED_BY_CHROMIUM);
    assertThat(failure.line()).contains(PROFILE + "/SingletonLock names workstation-31337", "close that browser (pid 31337)");
  }

  @Test
  void anUnknownLaunchErrorKeepsItsFirstMeaningfulLineAndPointsAtTheLog() {
    RuntimeException error = new RuntimeException("Error {\n  message='something new broke\nat x.y(z)\n");
    SeatStartFailure failure = SeatStartFailure.ofLaunch(error, seat(Path.of("/usr/bin/chromium"), true, Map.of()));
    assertThat(failure.cause()).isEqualTo(Cause.OTHER);
    assertThat(failure.line()).isEqualTo("seat did not start: message='something new broke; fix: read the full trace in the log");
  }

  @Test
  void blockedPagesNameTheirFixAndUsablePagesPass() {
    SeatStartFailure.Seat headed = seat(Path.of("/usr/bin/chromium"), false, Map.of("DISPLAY", ":0"));
    SeatStartFailure.Seat headless = seat(Path.of("/usr/bin/chromium"), true, Map.of());
    assertThat(SeatStartFailure.ofProbe(SeatProbe.ready("o@x"), null, headed)).isEmpty();
    assertThat(SeatStartFailure.ofProbe(SeatProbe.ready("o@x"), "o@x", headed)).isEmpty();
    assertThat(SeatStartFailure.ofProbe(new SeatProbe(SeatProbe.State.CAPPED, null, null, "cap"), null, headed)).isEmpty();

    SeatStartFailure out = SeatStartFailure.ofProbe(
        new SeatProbe(SeatProbe.State.LOGGED_OUT, null, null, "login wall"), null, headed).orElseThrow();
    assertThat(out.cause()).isEqualTo(Cause.LOGGED_OUT);
    assertThat(out.line()).contains(PROFILE.toString(), "login wall", "solwebctl login");

    SeatProbe challenge = new SeatProbe(SeatProbe.State.CHALLENGED, null, null, "Cloudflare challenge: Just a moment...");
    assertThat(SeatStartFailure.ofProbe(challenge, null, headed).orElseThrow().line())
        .contains("Just a moment...", "solwebctl login").doesNotContain("--headless");
    assertThat(SeatStartFailure.ofProbe(challenge, null, headless).orElseThrow().line()).contains("drop --headless");

    SeatStartFailure wrong = SeatStartFailure.ofProbe(SeatProbe.ready("intruder@x"), "owner@x", headed).orElseThrow();
    assertThat(wrong.cause()).isEqualTo(Cause.WRONG_ACCOUNT);
    assertThat(wrong.line()).contains("logged in as intruder@x", "enrolled account is owner@x", "remove identity.json",
        "--user-data-dir=" + PROFILE);

    assertThat(SeatStartFailure.ofProbe(new SeatProbe(SeatProbe.State.ERROR, null, null, "no composer on http://x/"),
        null, headed).orElseThrow().cause()).isEqualTo(Cause.PAGE_NOT_READY);
  }
}
