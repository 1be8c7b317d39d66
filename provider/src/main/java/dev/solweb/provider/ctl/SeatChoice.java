package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.SeatMixin;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.daemon.SeatOptions;
import dev.solweb.provider.daemon.SeatSelection;
import dev.solweb.provider.seat.SeatException;

/**
 * The seat enroll probes, chosen by name exactly as solwebd chooses its seats (the daemon's
 * {@link SeatSelection}): {@code playwright} (the real page, the default) or
 * {@code scripted:<file|name>}. Never a fallback from one to the other.
 */
final class SeatChoice {

  private SeatChoice() {}

  static Enrollment.SeatOpener opener(CtlEnv env, SeatMixin options) {
    return opener(options.seat(), options.options(env.home(), env.profileDir()));
  }

  /** A seat of kind {@code seat} on exactly these options (login enrolls through the window's profile). */
  static Enrollment.SeatOpener opener(String seat, SeatOptions options) {
    return () -> {
      try {
        return SeatSelection.factory(seat, options).create(0);
      } catch (IllegalArgumentException e) {
        throw new CtlException(ExitCodes.USAGE, "--seat " + seat + ": " + e.getMessage(), e);
      } catch (ProfileLock.ProfileLockedException e) {
        throw new CtlException(ExitCodes.REFUSED, "the profile is in use: " + e.getMessage(), e);
      } catch (SeatException e) {
        throw new CtlException(ExitCodes.REFUSED, "cannot open the " + seat + " seat: " + e.getMessage(), e);
      }
    };
  }
}
