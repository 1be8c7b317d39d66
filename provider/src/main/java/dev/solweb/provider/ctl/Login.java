package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.SeatOptions;

import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.daemon.SeatStartFailure;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.LoginWindow;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code solwebctl login}: a person logs the seat's profile into ChatGPT in a visible window,
 * then the account is enrolled exactly as {@code enroll --current-profile} does it (a fresh seat
 * reads the account from the profile on disk, which also proves the login was kept). Everything
 * that would make the window pointless is refused before it opens; an auth wall is never passed
 * by the program itself (seed 004: blocked, never self-healed).
 */
final class Login {
  private static final Duration POLL = Duration.ofMillis(500);

  /**
   * @param chromium the Chromium to open
   * @param chatUrl the chat page (the real one by default; fakesol in tests)
   * @param timeout how long to wait for the person
   * @param enroll whether to enroll the account afterwards
   */
  record Request(Path chromium, URI chatUrl, Duration timeout, boolean enroll) {}

  private final CtlEnv env;
  private final PrintWriter out;
  private final Clock clock;
  private final AtomicBoolean interrupted = new AtomicBoolean();

  Login(CtlEnv env, PrintWriter out, Clock clock) {
    this.env = env;
    this.out = out;
    this.clock = clock;
  }

  int run(Request request) throws CtlException {
    Topology.requireLocal(env);
    Path profileDir = env.profileDir();
    SeatStartFailure.Seat about = SeatStartFailure.Seat.of(request.chromium(), profileDir, false, env.env());
    if (!SeatStartFailure.hasDisplay(env.env())) {
      throw new CtlException(ExitCodes.START_FAILED, "no display: DISPLAY and WAYLAND_DISPLAY are unset. A person must"
          + " see and use the login window, so xvfb-run does not help here. Run solwebctl login in a desktop session on"
          + " this machine, or with this machine's display forwarded to yours (ssh -X " + hostName() + ", then"
          + " solwebctl login)");
    }
    Optional<SeatStartFailure> missing = SeatStartFailure.precheck(about);
    if (missing.isPresent()) {
      throw new CtlException(ExitCodes.START_FAILED, missing.get().line());
    }
    String expected = enrolledAccount(profileDir);
    createProfile(profileDir);
    Profile.canonicalLocal(env); // a network or foreign profile is refused before anything opens
    ProfileLock lock = takeProfile(profileDir);
    CountDownLatch done = new CountDownLatch(1);
    Thread onCtrlC = new Thread(() -> {
      interrupted.set(true);
      try {
        done.await(20, TimeUnit.SECONDS); // the login thread closes the window and releases the lock
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "solwebctl-login-interrupt");
    Runtime.getRuntime().addShutdownHook(onCtrlC);
    try {
      String account = waitForLogin(request, about, expected);
      if (!request.enroll()) {
        say("logged in as " + account + "; not enrolled (--no-enroll)");
        return ExitCodes.OK;
      }
      ProviderIdentity identity = new Enrollment(env).enroll(
          SeatChoice.opener("playwright",
              new SeatOptions(request.chatUrl().toString(), false, request.chromium(), env.profileDir(), env.home())));
      say("enrolled " + identity.expectedAccount() + " " + identity.profileDir() + "; next: solwebctl ensure");
      return ExitCodes.OK;
    } finally {
      lock.close();
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onCtrlC);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running and has just been released.
      }
    }
  }

  private String waitForLogin(Request request, SeatStartFailure.Seat about, String expected) throws CtlException {
    say("opening " + request.chatUrl() + " in a Chromium window on " + about.profile() + ". Log in there"
        + (expected == null ? "" : " as " + expected) + "; the window closes by itself once you are logged in."
        + " Waiting up to " + new LoginProgress(clock.instant(), request.timeout()).left(clock.instant())
        + " (Ctrl-C stops and leaves the profile as it was).");
    LoginWindow window;
    try {
      window = LoginWindow.open(new PlaywrightOptions(request.chatUrl(), false, request.chromium(), about.profile(), env.home()));
    } catch (SeatException e) {
      throw new CtlException(ExitCodes.START_FAILED, SeatStartFailure.ofLaunch(e,
          SeatStartFailure.Seat.of(request.chromium(), about.profile(), false, env.env())).line(), e);
    }
    try (window) {
      LoginProgress progress = new LoginProgress(clock.instant(), request.timeout());
      while (true) {
        if (interrupted.get()) {
          window.close();
          say("interrupted: the window is closed and the profile lock released; nothing was enrolled");
          throw new CtlException(ExitCodes.NOT_READY, "interrupted before ChatGPT was logged in; nothing was enrolled");
        }
        LoginWindow.Look look = window.look();
        if (look.closed()) {
          throw new CtlException(ExitCodes.NOT_READY,
              "the window was closed before ChatGPT was logged in; nothing was enrolled (run solwebctl login again)");
        }
        if (look.account() != null) {
          if (expected != null && !expected.equals(look.account())) {
            throw new CtlException(ExitCodes.REFUSED,
                SeatStartFailure.wrongAccount(look.account(), expected, about).line());
          }
          say("logged in as " + look.account() + "; closing the window");
          return look.account();
        }
        if (progress.expired(clock.instant())) {
          throw new CtlException(ExitCodes.NOT_READY, "not logged in within " + request.timeout().toSeconds()
              + " s (the window showed " + look.shows() + "); nothing was enrolled. Run solwebctl login again"
              + " (--timeout S for longer)");
        }
        String line = progress.due(clock.instant(), look.shows());
        if (line != null) {
          out.println(line);
          out.flush();
        }
        pause();
      }
    }
  }

  /** The enrolled account, or null when nothing is enrolled; an identity for another profile is refused first. */
  private String enrolledAccount(Path profileDir) throws CtlException {
    if (!Files.exists(env.identityFile(), LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    ProviderIdentity identity = ProviderIdentity.load(env);
    Path canonical;
    try {
      canonical = Files.exists(profileDir) ? profileDir.toRealPath() : profileDir;
    } catch (IOException e) {
      canonical = profileDir;
    }
    if (!canonical.toString().equals(identity.profileDir())) {
      throw new CtlException(ExitCodes.REFUSED, "identity mismatch: this profile is " + canonical + ", the enrolled"
          + " profile is " + identity.profileDir() + " (" + env.identityFile() + "); log in on that one"
          + " (SOLWEBD_PROFILE or --profile), or remove " + env.identityFile() + " to enroll this one");
    }
    return identity.expectedAccount();
  }

  private static void createProfile(Path profileDir) throws CtlException {
    try {
      SecureFile.createPrivateDirectories(profileDir);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "cannot create the profile " + profileDir + ": " + e.getMessage(), e);
    }
  }

  /** Holds the profile for the whole login and enrollment, so no daemon starts on it meanwhile. */
  private ProfileLock takeProfile(Path profileDir) throws CtlException {
    Optional<ProfileLock> lock;
    try {
      lock = ProfileLock.tryAcquire(profileDir);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "cannot open the profile lock " + ProfileLock.fileFor(profileDir)
          + ": " + e.getMessage(), e);
    }
    if (lock.isPresent()) {
      return lock.get();
    }
    String holder = ProfileLock.holder(profileDir);
    Optional<DaemonState> daemon;
    try {
      daemon = DaemonState.read(env.stateFile());
    } catch (CtlException unreadable) {
      daemon = Optional.empty();
    }
    if (daemon.isPresent() && Long.toString(daemon.get().pid()).equals(holder)) {
      throw new CtlException(ExitCodes.REFUSED, "solwebd (pid " + holder + ") holds the profile " + profileDir
          + ": stop it with `solwebctl stop`, then run solwebctl login again (solwebctl ensure starts it afterwards)");
    }
    throw new CtlException(ExitCodes.REFUSED, "the profile " + profileDir + " is in use: " + ProfileLock.fileFor(profileDir)
        + " is held by pid " + holder + " (a solwebd of another home, an ask-gpt, or another solwebctl login);"
        + " let it finish or stop it, then run solwebctl login again");
  }

  private void say(String line) {
    out.println("solwebctl login: " + line);
    out.flush();
  }

  private void pause() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      interrupted.set(true);
    }
  }

  private static String hostName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      return "<this host>";
    }
  }
}
