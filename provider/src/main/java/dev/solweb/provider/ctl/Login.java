package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.SeatStartFailure;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.HostName;
import dev.solweb.provider.platform.Poll;
import dev.solweb.provider.platform.SecureFile;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.LoginWindow;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
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
  // 500 ms was too short on a loaded two-core machine (the JVM's hook ran later; seen in a full killgate run).
  private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(2);

  /**
   * @param chromium the Chromium to open
   * @param chatUrl the chat page (the real one by default; fakesol in tests)
   * @param timeout how long to wait for the person
   * @param enroll whether to enroll the account afterwards
   * @param web whether the window is used from a browser ({@code --web}): a virtual display when
   *     there is none, and the window's live view on a one-time URL ({@link LoginWebView})
   * @param webPort the view's port on 127.0.0.1 (0: a free one)
   */
  record Request(Path chromium, URI chatUrl, Duration timeout, boolean enroll, boolean web, int webPort) {
    Request(Path chromium, URI chatUrl, Duration timeout, boolean enroll) {
      this(chromium, chatUrl, timeout, enroll, false, 0);
    }
  }

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
    Map<String, String> seatEnv = env.env();
    if (request.web() && !SeatStartFailure.hasDisplay(seatEnv)) {
      // --web brings its own display (below, once the profile is ours): the checks see the one it will be.
      seatEnv = new HashMap<>(seatEnv);
      seatEnv.put("DISPLAY", ":virtual");
    }
    SeatStartFailure.Seat about = SeatStartFailure.Seat.of(request.chromium(), profileDir, false, seatEnv);
    if (!request.web() && !SeatStartFailure.hasDisplay(env.env())) {
      throw new CtlException(ExitCodes.START_FAILED, "no display: DISPLAY and WAYLAND_DISPLAY are unset. A person must"
          + " see and use the login window, so xvfb-run does not help here. Use the window from a browser:"
          + " solwebctl login --web (no desktop needed); or run solwebctl login in a desktop session on this machine, or"
          + " with this machine's display forwarded to yours (ssh -X " + HostName.get().orElse("<this host>") + ", then"
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
    VirtualDisplay virtual = null;
    if (request.web() && !SeatStartFailure.hasDisplay(env.env())) {
      try {
        virtual = VirtualDisplay.start(env.env());
      } catch (CtlException e) {
        lock.close();
        throw e;
      }
      say("no display here: the window opens on a virtual display of its own (Xvfb " + virtual.display() + ")");
    }
    String display = virtual == null ? null : virtual.display();
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
      String account = waitForLogin(request, about, expected, display);
      if (!request.enroll()) {
        say("logged in as " + account + "; not enrolled (--no-enroll)");
        return ExitCodes.OK;
      }
      ProviderIdentity identity = new Enrollment(env).enroll(
          SeatChoice.opener("playwright",
              new PlaywrightOptions(request.chatUrl(), false, request.chromium(), env.profileDir(), env.home(), display)));
      say("enrolled " + identity.expectedAccount() + " " + identity.profileDir() + "; next: solwebctl ensure");
      return ExitCodes.OK;
    } finally {
      if (virtual != null) {
        virtual.close();
      }
      lock.close();
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onCtrlC);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running and has just been released.
      }
    }
  }

  private String waitForLogin(Request request, SeatStartFailure.Seat about, String expected, String display)
      throws CtlException {
    say("opening " + request.chatUrl() + " in a Chromium window on " + about.profile() + ". Log in there"
        + (expected == null ? "" : " as " + expected) + "; the window closes by itself once you are logged in."
        + " Waiting up to " + new LoginProgress(clock.instant(), request.timeout()).left(clock.instant())
        + " (Ctrl-C stops and leaves the profile as it was).");
    LoginWindow window;
    try {
      window = LoginWindow.open(new PlaywrightOptions(request.chatUrl(), false, request.chromium(), about.profile(),
          env.home(), display), request.web());
    } catch (SeatException e) {
      throw new CtlException(ExitCodes.START_FAILED, SeatStartFailure.ofLaunch(e,
          SeatStartFailure.Seat.of(request.chromium(), about.profile(), false, env.env())).line(), e);
    }
    try (window) {
      LoginProgress progress = new LoginProgress(clock.instant(), request.timeout());
      if (!request.web()) {
        try {
          return Poll.until(POLL, () -> loggedIn(window, progress, request, about, expected));
        } catch (Poll.Interrupted e) {
          interrupted.set(true);
          return loggedIn(window, progress, request, about, expected).orElseThrow();
        }
      }
      try (LoginWebView view = LoginWebView.start(window.screen().orElseThrow(), request.webPort(), request.timeout())) {
        say("open " + view.url() + " in a browser on this machine (from another one: ssh -L " + view.port() + ":127.0.0.1:"
            + view.port() + " <this host>, then the same URL there); the link works once");
        // The window's thread does the view's work (pictures, frames, input) between its looks.
        while (true) {
          Optional<String> account = loggedIn(window, progress, request, about, expected);
          if (account.isPresent()) {
            return account.get();
          }
          try {
            window.idle(POLL);
          } catch (InterruptedException e) {
            interrupted.set(true);
            return loggedIn(window, progress, request, about, expected).orElseThrow();
          }
        }
      }
    }
  }

  /**
   * Whether Ctrl-C is what closed the window: the signal ends Chromium and the driver at once, and
   * the JVM's hook that sets the flag runs a moment later.
   */
  private boolean interruptedSoon() {
    return Poll.until(INTERRUPT_GRACE, Duration.ofMillis(50),
        () -> interrupted.get() ? Optional.of(true) : Optional.<Boolean>empty()).isPresent();
  }

  private CtlException interrupted(LoginWindow window) {
    window.close();
    say("interrupted: the window is closed and the profile lock released; nothing was enrolled");
    return new CtlException(ExitCodes.NOT_READY, "interrupted before ChatGPT was logged in; nothing was enrolled");
  }

  /** One look at the window: the account once logged in, empty while waiting; the end of the wait throws. */
  private Optional<String> loggedIn(LoginWindow window, LoginProgress progress, Request request,
      SeatStartFailure.Seat about, String expected) throws CtlException {
    if (interrupted.get()) {
      throw interrupted(window);
    }
    LoginWindow.Look look = window.look();
    if (look.closed() && interruptedSoon()) {
      // Ctrl-C reaches the window's processes too: one that closed under the look is the interrupt's.
      throw interrupted(window);
    }
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
      return Optional.of(look.account());
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
    return Optional.empty();
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
    Optional<StateFile> daemon;
    try {
      daemon = env.daemonState();
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

}
