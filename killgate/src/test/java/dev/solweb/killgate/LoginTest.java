package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.scripted.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code solwebctl login} on fakesol in a headed Chromium under Xvfb, the test standing in for
 * the person at the window; and every refusal, each before a window opens or without changing
 * anything.
 */
class LoginTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OWNER = "owner@example.invalid";
  private static final String LOGGED_OUT = "{\"account\": \"" + OWNER + "\", \"state\": \"logged_out\","
      + " \"default\": [{\"prose\": \"ok\"}]}";

  private static HeadedRig rig;

  @TempDir Path dir;
  private Path home;
  private Path profile;
  private FakeSol sol;
  private final List<Process> children = new ArrayList<>();

  @BeforeAll
  static void startDisplay() throws Exception {
    rig = HeadedRig.start();
  }

  @AfterAll
  static void stopDisplay() throws Exception {
    rig.close();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (Process child : children) {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (profile != null) {
      OrphanReaper.reap(profile);
    }
    if (sol != null) {
      sol.close();
    }
  }

  private void fakesol(String scenario) {
    sol = FakeSol.start(Scenario.parse(scenario), 0);
    home = dir.resolve("home");
    profile = home.resolve("profile");
  }

  private Map<String, String> env(boolean display) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", dir.toString());
    env.put("SOLWEBD_HOME", home.toString());
    if (display) {
      env.put("DISPLAY", rig.display);
    }
    return env;
  }

  private Process solwebctl(Map<String, String> env, String... args) throws Exception {
    Process process = HeadedRig.java(env, "dev.solweb.provider.ctl.Solwebctl", List.of(args)).start();
    children.add(process);
    return process;
  }

  private Process login(Map<String, String> env, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("login", "--chat-url", sol.url().toString(),
        "--chromium", HeadedRig.debuggableChromium(dir).toString(), "--timeout", "90"));
    args.addAll(List.of(extra));
    return solwebctl(env, args.toArray(String[]::new));
  }

  private static int exit(Process process) throws InterruptedException {
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("exited").isTrue();
    return process.exitValue();
  }

  /** What a seat sees on the profile now, headless: the login must be in the profile on disk. */
  private SeatProbe probeProfile() throws Exception {
    PlaywrightOptions options = new PlaywrightOptions(sol.url(), true, PlaywrightOptions.DEFAULT_CHROMIUM, profile, home);
    try (PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(options)) {
      PlaywrightSeat seat = factory.create(0);
      try {
        return seat.probe();
      } finally {
        seat.close();
      }
    }
  }

  private void assertProfileReleased() throws Exception {
    assertThat(OrphanReaper.find(profile)).as("no Chromium left on the profile").isEmpty();
    try (var lock = ProfileLock.tryAcquire(profile).orElse(null)) {
      assertThat(lock).as("the profile lock is free").isNotNull();
    }
  }

  @Test
  void aPersonLogsInInTheVisibleWindowAndTheAccountIsEnrolled() throws Exception {
    fakesol(LOGGED_OUT);
    long start = System.nanoTime();
    Process login = login(env(true));
    HeadedRig.Output out = new HeadedRig.Output(login);
    out.await("opening " + sol.url(), Duration.ofSeconds(60));
    HeadedRig.logInAsAPerson(profile, OWNER);

    assertThat(exit(login)).as(out.text()).isZero();
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("LoginTest: solwebctl login to an enrolled identity on fakesol: %.1f s%n", seconds);
    assertThat(out.text()).contains("Log in there", "Ctrl-C",
        // Which states a poll catches depends on how fast the person is; the wall line is asserted in the Ctrl-C test.
        "solwebctl login: waiting: the window shows ", "left)",
        "logged in as " + OWNER + "; closing the window",
        "enrolled " + OWNER + " " + profile.toRealPath() + "; next: solwebctl ensure");
    var identity = JSON.readTree(Files.readString(home.resolve("identity.json")));
    assertThat(identity.get("expected_account").asText()).isEqualTo(OWNER);
    assertThat(identity.get("profile_dir").asText()).isEqualTo(profile.toRealPath().toString());
    assertProfileReleased();
    // The session lives in the profile: a headless seat opened on it later is logged in.
    SeatProbe probe = probeProfile();
    assertThat(probe.state()).isEqualTo(SeatProbe.State.READY);
    assertThat(probe.account()).isEqualTo(OWNER);
  }

  @Test
  void ctrlCClosesTheWindowReleasesTheProfileAndEnrollsNothing() throws Exception {
    fakesol(LOGGED_OUT);
    // Its own process group, as a terminal's foreground job: Ctrl-C reaches Java, the driver and Chromium.
    List<String> args = new ArrayList<>(List.of("/usr/bin/setsid"));
    ProcessBuilder pb = HeadedRig.java(env(true), "dev.solweb.provider.ctl.Solwebctl", List.of("login", "--chat-url",
        sol.url().toString(), "--timeout", "90"));
    args.addAll(pb.command());
    pb.command(args);
    Process login = pb.start();
    children.add(login);
    HeadedRig.Output out = new HeadedRig.Output(login);
    out.await("waiting: the window shows the login wall", Duration.ofSeconds(60));
    assertThat(OrphanReaper.find(profile)).as("the window is open").isNotEmpty();

    new ProcessBuilder("kill", "-INT", "--", "-" + login.pid()).inheritIO().start().waitFor();

    exit(login);
    assertThat(out.text()).contains("interrupted: the window is closed and the profile lock released; nothing was enrolled");
    assertThat(home.resolve("identity.json")).doesNotExist();
    assertProfileReleased();
    assertThat(probeProfile().state()).as("still logged out, and the profile opens").isEqualTo(SeatProbe.State.LOGGED_OUT);
  }

  @Test
  void withoutADisplayItRefusesBeforeOpeningAnythingAndSaysWhatHelps() throws Exception {
    fakesol(LOGGED_OUT);
    Process login = login(env(false));
    HeadedRig.Output out = new HeadedRig.Output(login);
    assertThat(exit(login)).isEqualTo(5);
    assertThat(out.lines()).hasSize(1);
    assertThat(out.text()).startsWith("solwebctl login: no display: DISPLAY and WAYLAND_DISPLAY are unset")
        .contains("xvfb-run does not help", "desktop session", "ssh -X");
    assertThat(profile).as("nothing was created").doesNotExist();
  }

  @Test
  void aMissingChromiumIsRefusedBeforeOpeningAnything() throws Exception {
    fakesol(LOGGED_OUT);
    Process login = solwebctl(env(true), "login", "--chat-url", sol.url().toString(), "--chromium", "/nonexistent/chromium");
    HeadedRig.Output out = new HeadedRig.Output(login);
    assertThat(exit(login)).isEqualTo(5);
    assertThat(out.text()).isEqualTo("solwebctl login: Chromium missing: /nonexistent/chromium is not an executable file;"
        + " fix: install it (Debian: apt-get install -y chromium) or pass --chromium PATH");
  }

  @Test
  void aDaemonHoldingTheProfileIsNamedWithHowToStopIt() throws Exception {
    fakesol(LOGGED_OUT);
    Process daemon = HeadedRig.java(env(false), "dev.solweb.provider.daemon.Solwebd",
        List.of("--seat", "scripted:demo", "--port", "0", "--home", home.toString())).start();
    children.add(daemon);
    new HeadedRig.Output(daemon).await("listening on", Duration.ofSeconds(60));

    Process login = login(env(true));
    HeadedRig.Output out = new HeadedRig.Output(login);
    assertThat(exit(login)).isEqualTo(3);
    assertThat(out.text()).contains("solwebctl login: solwebd (pid " + daemon.pid() + ") holds the profile",
        "stop it with `solwebctl stop`, then run solwebctl login again");
    assertThat(OrphanReaper.find(profile)).as("no window opened").isEmpty();
    assertThat(daemon.isAlive()).as("the daemon is left alone").isTrue();
  }

  @Test
  void aProfileLoggedInAsAnotherAccountThanTheEnrolledOneIsRefusedAndNothingChanges() throws Exception {
    fakesol("{\"account\": \"intruder@example.invalid\", \"default\": [{\"prose\": \"ok\"}]}");
    Files.createDirectories(profile);
    Path owner = Files.writeString(dir.resolve("owner.json"), "{\"account\": \"" + OWNER + "\"}");
    Process enroll = solwebctl(env(false), "enroll", "--current-profile", "--seat", "scripted:" + owner);
    assertThat(exit(enroll)).isZero();
    String identity = Files.readString(home.resolve("identity.json"));

    Process login = login(env(true));
    HeadedRig.Output out = new HeadedRig.Output(login);
    assertThat(exit(login)).as(out.text()).isEqualTo(3);
    assertThat(out.text()).contains("solwebctl login: wrong account: the profile " + profile.toRealPath()
        + " is logged in as intruder@example.invalid, the enrolled account is " + OWNER,
        "fix: to use intruder@example.invalid, remove identity.json");
    assertThat(Files.readString(home.resolve("identity.json"))).isEqualTo(identity);
    assertProfileReleased();
  }

  @Test
  void anIdentityEnrolledForAnotherProfileIsRefusedBeforeOpeningAnything() throws Exception {
    fakesol(LOGGED_OUT);
    Files.createDirectories(profile);
    Path owner = Files.writeString(dir.resolve("owner.json"), "{\"account\": \"" + OWNER + "\"}");
    assertThat(exit(solwebctl(env(false), "enroll", "--current-profile", "--seat", "scripted:" + owner))).isZero();
    Path other = Files.createDirectories(dir.resolve("other-profile"));

    Process login = login(env(true), "--profile", other.toString());
    HeadedRig.Output out = new HeadedRig.Output(login);
    assertThat(exit(login)).isEqualTo(3);
    assertThat(out.text()).contains("identity mismatch: this profile is " + other.toRealPath(),
        "the enrolled profile is " + profile.toRealPath());
    assertThat(OrphanReaper.find(other)).isEmpty();
  }
}
