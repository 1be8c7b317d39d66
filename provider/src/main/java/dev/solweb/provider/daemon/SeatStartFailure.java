package dev.solweb.provider.daemon;

import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a seat could not start, as one line a person can act on: the cause, what was seen, and the
 * fix. A pure classifier over what a start produced (the exception of a launch, the page state
 * of the first probe) and what a launch would need (a display, an executable Chromium); the full
 * trace goes to the log, never into this line.
 *
 * @param cause the class of failure
 * @param detail what was seen, starting with the cause's label ("no display: ...")
 * @param fix what to do about it, as commands where there are any
 */
public record SeatStartFailure(Cause cause, String detail, String fix) {

  /** The causes a person can tell apart and fix. */
  public enum Cause {
    NO_DISPLAY("no display"),
    CHROMIUM_MISSING("Chromium missing"),
    PROFILE_HELD("profile in use"),
    PROFILE_LOCKED_BY_CHROMIUM("profile locked by a running Chromium"),
    LOGGED_OUT("logged out"),
    CHALLENGE("Cloudflare challenge"),
    WRONG_ACCOUNT("wrong account"),
    PAGE_NOT_READY("page not ready"),
    OTHER("seat did not start");

    private final String label;

    Cause(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * What the classifier knows about the seat it judges.
   *
   * @param chromium the Chromium executable
   * @param profile the seat's profile directory
   * @param headless whether the seat runs headless
   * @param env the environment the browser would get (DISPLAY, WAYLAND_DISPLAY)
   * @param singletonHolder what Chromium's {@code <profile>/SingletonLock} names ("host-pid"), or null
   */
  public record Seat(Path chromium, Path profile, boolean headless, Map<String, String> env, String singletonHolder) {
    public Seat {
      env = Map.copyOf(env);
    }

    /** Reads the one thing the classifier cannot be handed purely: the SingletonLock symlink. */
    public static Seat of(Path chromium, Path profile, boolean headless, Map<String, String> env) {
      String holder = null;
      try {
        holder = Files.readSymbolicLink(profile.resolve("SingletonLock")).toString();
      } catch (Exception e) {
        // No lock, or not a symlink: nothing to name.
      }
      return new Seat(chromium, profile, headless, env, holder);
    }
  }

  private static final Pattern XSERVER = Pattern.compile(
      "without having a XServer|Missing X server|cannot open display|no DISPLAY|\\$DISPLAY", Pattern.CASE_INSENSITIVE);
  private static final Pattern NO_EXECUTABLE = Pattern.compile(
      "Executable doesn't exist|ENOENT|No such file or directory|spawn .* EACCES", Pattern.CASE_INSENSITIVE);
  private static final Pattern SINGLETON = Pattern.compile(
      "ProcessSingleton|SingletonLock|profile appears to be in use", Pattern.CASE_INSENSITIVE);
  private static final Pattern HOLDER_PID = Pattern.compile("-(\\d+)$");

  public String line() {
    return detail + "; fix: " + fix;
  }

  /**
   * What a headed launch is known to lack before anything starts: a display, an executable
   * Chromium. Empty when it may start.
   */
  public static Optional<SeatStartFailure> precheck(Seat seat) {
    if (!Files.isRegularFile(seat.chromium()) || !Files.isExecutable(seat.chromium())) {
      return Optional.of(chromiumMissing(seat));
    }
    if (!seat.headless() && !hasDisplay(seat.env())) {
      return Optional.of(noDisplay());
    }
    return Optional.empty();
  }

  /** Whether a visible window can be shown: DISPLAY (X11, or XWayland) or WAYLAND_DISPLAY is set. */
  public static boolean hasDisplay(Map<String, String> env) {
    return !blank(env.get("DISPLAY")) || !blank(env.get("WAYLAND_DISPLAY"));
  }

  /** Classifies the exception a seat's launch threw (the whole cause chain is read). */
  public static SeatStartFailure ofLaunch(Throwable error, Seat seat) {
    if (error instanceof ProfileLock.ProfileLockedException held) {
      return new SeatStartFailure(Cause.PROFILE_HELD, Cause.PROFILE_HELD.label() + ": " + held.getMessage(),
          "stop that process first (a daemon: solwebctl stop), then start again");
    }
    String text = chainText(error);
    if (XSERVER.matcher(text).find()) {
      return noDisplay();
    }
    if (SINGLETON.matcher(text).find()) {
      String holder = seat.singletonHolder();
      Matcher pid = holder == null ? null : HOLDER_PID.matcher(holder);
      String who = pid != null && pid.find() ? "pid " + pid.group(1) : "a Chromium";
      return new SeatStartFailure(Cause.PROFILE_LOCKED_BY_CHROMIUM, Cause.PROFILE_LOCKED_BY_CHROMIUM.label() + ": "
          + seat.profile() + "/SingletonLock names " + (holder == null ? "another browser" : holder)
          + " (a browser opened on this profile outside solweb)",
          "close that browser (" + who + "), then start again");
    }
    if (NO_EXECUTABLE.matcher(text).find() && text.contains(seat.chromium().toString())) {
      return chromiumMissing(seat);
    }
    return new SeatStartFailure(Cause.OTHER, Cause.OTHER.label() + ": " + firstLine(text),
        "read the full trace in the log");
  }

  /**
   * Classifies the first probe of a started seat: empty when it is usable (ready, or capped: a
   * cap lifts by itself), else the page state and its fix. {@code expectedAccount} is the
   * enrolled account, or null when none is known.
   */
  public static Optional<SeatStartFailure> ofProbe(SeatProbe probe, String expectedAccount, Seat seat) {
    return switch (probe.state()) {
      case READY, CAPPED -> probe.account() != null && expectedAccount != null && !probe.account().equals(expectedAccount)
          ? Optional.of(wrongAccount(probe.account(), expectedAccount, seat))
          : Optional.empty();
      case LOGGED_OUT -> Optional.of(new SeatStartFailure(Cause.LOGGED_OUT, Cause.LOGGED_OUT.label() + ": the profile "
          + seat.profile() + " has no ChatGPT session (" + probe.detail() + ")",
          "log in once in a visible window: solwebctl stop (if a daemon runs), then solwebctl login"));
      case CHALLENGED -> Optional.of(new SeatStartFailure(Cause.CHALLENGE, Cause.CHALLENGE.label() + ": "
          + probe.detail(), seat.headless()
              ? "drop --headless (chatgpt.com challenges headless Chromium); solwebctl login passes the check in a visible window"
              : "pass the check by hand in a visible window: solwebctl stop (if a daemon runs), then solwebctl login"));
      case ERROR -> Optional.of(new SeatStartFailure(Cause.PAGE_NOT_READY, Cause.PAGE_NOT_READY.label() + ": "
          + probe.detail(), "look at the page in a visible window: solwebctl stop (if a daemon runs), then solwebctl login --no-enroll"));
    };
  }

  /** The profile's account is not the enrolled one. */
  public static SeatStartFailure wrongAccount(String seen, String expected, Seat seat) {
    return new SeatStartFailure(Cause.WRONG_ACCOUNT, Cause.WRONG_ACCOUNT.label() + ": the profile " + seat.profile()
        + " is logged in as " + seen + ", the enrolled account is " + expected,
        "to use " + seen + ", remove identity.json from the daemon home and run solwebctl login; to use " + expected
            + ", sign out of " + seen + " in `" + seat.chromium() + " --password-store=basic --user-data-dir="
            + seat.profile() + "`, then run solwebctl login");
  }

  private static SeatStartFailure noDisplay() {
    return new SeatStartFailure(Cause.NO_DISPLAY, Cause.NO_DISPLAY.label()
        + ": DISPLAY and WAYLAND_DISPLAY are unset, and the seat runs a visible Chromium (chatgpt.com challenges headless ones)",
        "run it on a display: a desktop session, or a virtual one (Debian: apt-get install -y xvfb): `xvfb-run -a solwebd`"
            + " in the foreground, or `Xvfb :99 &` then `DISPLAY=:99 solwebctl ensure`");
  }

  private static SeatStartFailure chromiumMissing(Seat seat) {
    return new SeatStartFailure(Cause.CHROMIUM_MISSING, Cause.CHROMIUM_MISSING.label() + ": " + seat.chromium()
        + " is not an executable file", "install it (Debian: apt-get install -y chromium) or pass --chromium PATH");
  }

  private static String chainText(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null) {
        text.append(t.getMessage()).append('\n');
      }
    }
    return text.toString();
  }

  // Playwright's messages span lines and boxes: the first line that says something, clipped.
  private static String firstLine(String text) {
    for (String line : text.split("\n")) {
      String clean = line.replaceAll("[║╔╗╚╝═]", " ").replaceAll("\\s+", " ").strip().replaceFirst("^unavailable: ", "");
      if (!clean.isEmpty() && !clean.toLowerCase(Locale.ROOT).equals("error {")) {
        return clean.length() > 200 ? clean.substring(0, 200) + "…" : clean;
      }
    }
    return "no message";
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
