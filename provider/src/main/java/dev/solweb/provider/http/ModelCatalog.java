package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.ModelOffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Logger;

/**
 * What this account's picker offers ({@link BrowserSeat#models}), read from the page at most once an
 * hour unless asked for ({@code solwebctl models}, {@code GET /v1/models?refresh=1}). A stale or
 * missing offer is read again when the account is idle (it never delays a turn); until then the
 * last one, or none, is what is known.
 */
final class ModelCatalog {

  /** How long an offer read from the page stands. */
  static final Duration FRESH = Duration.ofHours(1);
  /** The seat work's session key: no turn uses it. */
  private static final String KEY = "solweb:models";
  private static final Logger LOG = Logger.getLogger(ModelCatalog.class.getName());

  /** An offer and when it was read. */
  record Known(ModelOffer offer, Instant readAt) {}

  /**
   * The efforts whose {@code sol-web-<effort>} ids a model list shows, whichever wire renders it:
   * those the account's picker offers once it was read, every effort before that (nothing is known
   * to be missing yet; a turn on an effort the page lacks is still refused, typed, at the seat).
   */
  static List<Effort> runnable(Optional<Known> known) {
    return known.map(k -> k.offer().efforts()).orElse(List.of(Effort.values()));
  }

  private final Dispatcher dispatcher;
  private final Clock clock;
  private Known known;
  private CompletableFuture<ModelOffer> reading;

  ModelCatalog(Dispatcher dispatcher, Clock clock) {
    this.dispatcher = dispatcher;
    this.clock = clock;
  }

  /** The offer known now; one older than {@link #FRESH}, or none, starts a read when the account is idle. */
  synchronized Optional<Known> current() {
    if ((known == null || known.readAt().plus(FRESH).isBefore(clock.instant())) && reading == null) {
      CompletableFuture<ModelOffer> read;
      try {
        read = dispatcher.runWhenIdle(KEY, BrowserSeat::models);
      } catch (RuntimeException busy) {
        return Optional.ofNullable(known);
      }
      track(read);
    }
    return Optional.ofNullable(known);
  }

  /** A read now, between turns (on demand); a read already under way is shared. */
  synchronized CompletableFuture<Known> refresh() {
    CompletableFuture<ModelOffer> read = reading != null ? reading : dispatcher.runBetweenTurns(BrowserSeat::models);
    if (reading == null) {
      track(read);
    }
    return read.thenApply(this::remember);
  }

  /** The offer a read returned, remembered once with the time it came (both callbacks of a read land here). */
  private synchronized Known remember(ModelOffer offer) {
    if (known == null || known.offer() != offer) {
      known = new Known(offer, clock.instant());
    }
    return known;
  }

  private void track(CompletableFuture<ModelOffer> read) {
    reading = read;
    read.whenComplete((offer, error) -> {
      synchronized (this) {
        if (offer != null) {
          remember(offer);
        } else {
          LOG.info("models: the picker could not be read: " + error);
        }
        if (reading == read) {
          reading = null;
        }
      }
    });
  }
}
