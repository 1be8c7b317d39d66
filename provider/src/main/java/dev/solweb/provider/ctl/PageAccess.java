package dev.solweb.provider.ctl;

import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the page-reading verbs (doctor, capture) reach the page: through the running solwebd of
 * this home when it holds the profile (it runs the read on a seat between turns), else by opening
 * the profile here, under its lock, in a Chromium of their own. A profile held by anything else
 * (an ask-gpt, a daemon of another home) is refused, never shared.
 *
 * @param chatUrl the page to read; null means the daemon's current page, or the real home page
 *     when opening the profile here
 */
record PageAccess(CtlEnv env, URI chatUrl, Path profile, boolean headless, Path chromium) {

  /**
   * @param profile null for the home's profile ($SOLWEBD_PROFILE, else {@code <home>/profile})
   * @throws CtlException {@link ExitCodes#USAGE} for a chat URL that is not http(s)
   */
  static PageAccess of(CtlEnv env, URI chatUrl, Path profile, boolean headless, Path chromium) throws CtlException {
    boolean web = chatUrl == null
        || (("https".equals(chatUrl.getScheme()) || "http".equals(chatUrl.getScheme())) && chatUrl.getHost() != null);
    if (!web) {
      throw new CtlException(ExitCodes.USAGE, "--chat-url must be an http(s) URL, got: " + chatUrl);
    }
    Path dir = (profile == null ? env.profileDir() : profile).toAbsolutePath().normalize();
    return new PageAccess(env, chatUrl, dir, headless, chromium);
  }

  /** A daemon read waits for the turn ahead of it (SOLWEBD_TURN_TIMEOUT, 300 s) and its own. */
  static final Duration DAEMON_WAIT = Duration.ofSeconds(420);

  /** One read, by either path. */
  interface Read<T> {
    T onSeat(PlaywrightSeat seat, URI url) throws SeatException;

    /** @param query {@code url=...&} (or empty) for a route under /v1/ */
    T throughDaemon(DaemonClient daemon, String query) throws CtlException, DaemonClient.Unreachable;
  }

  /**
   * @throws CtlException {@link ExitCodes#REFUSED} when the page cannot be opened (Chromium does
   *     not start, the URL does not load, the profile is held by another process, the daemon refuses)
   */
  <T> T read(Read<T> read) throws CtlException {
    Optional<ProfileLock> lock;
    try {
      lock = ProfileLock.tryAcquire(profile);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "cannot take the profile lock " + ProfileLock.fileFor(profile) + ": " + e.getMessage(), e);
    }
    if (lock.isPresent()) {
      try (ProfileLock held = lock.get()) {
        return direct(read);
      }
    }
    String holder = ProfileLock.holder(profile);
    Optional<DaemonState> state = DaemonState.read(env.stateFile());
    if (state.isEmpty() || !holder.equals(Long.toString(state.get().pid()))) {
      throw new CtlException(ExitCodes.REFUSED, "the profile " + profile + " is in use by pid " + holder
          + ", which is not the solwebd of " + env.home() + ": end that process (an ask-gpt, or a daemon of"
          + " another home: solwebctl stop with its SOLWEBD_HOME) and run this again");
    }
    DaemonClient daemon = new DaemonClient(state.get().port(), TokenFile.read(env));
    String query = chatUrl == null ? "" : "url=" + URLEncoder.encode(chatUrl.toString(), StandardCharsets.UTF_8) + "&";
    try {
      return read.throughDaemon(daemon, query);
    } catch (DaemonClient.Unreachable e) {
      throw new CtlException(ExitCodes.REFUSED, e.getMessage() + " although it holds the profile " + profile
          + "; stop it with solwebctl stop and run this again", e);
    }
  }

  private <T> T direct(Read<T> read) throws CtlException {
    URI url = chatUrl == null ? PlaywrightOptions.DEFAULT_CHAT_URL : chatUrl;
    PlaywrightOptions options = new PlaywrightOptions(url, headless, chromium, profile, env.home());
    try (PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(options)) {
      PlaywrightSeat seat = factory.create(0);
      try {
        return read.onSeat(seat, url);
      } finally {
        seat.close();
      }
    } catch (SeatException e) {
      throw new CtlException(ExitCodes.REFUSED, e.failure().detail(), e);
    } catch (IllegalStateException e) {
      throw new CtlException(ExitCodes.REFUSED, e.getMessage(), e);
    }
  }
}
