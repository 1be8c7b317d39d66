package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.EffortPicker;
import dev.solweb.provider.seat.playwright.traffic.ObservedRequest;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.WireEffort;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The effort the page will use, checked before Send (a step of {@link PageTurn}): its
 * {@code /prepare} (sent while the user types, debounced) names the model and
 * {@code thinking_effort} ({@link WireEffort}); a mismatch is chosen again once and checked again,
 * and a page still wrong, or naming an effort the table does not know, is refused with nothing
 * sent. A page that sends no {@code /prepare} (older shapes) has its pill label read back instead.
 * Every failure here is before Send ({@code afterSend=false}) and leaves the composer empty.
 */
final class EffortCheck {

  /**
   * How long the seat waits after typing for the page's {@code /prepare} once the page is known to
   * send one. No source gives the page's debounce (REAL-PAGE row 31); fakesol's is 300 ms.
   */
  static final Duration PREPARE_WAIT = Duration.ofSeconds(3);
  /** The same wait on a page not yet seen to prepare or not (a seat's first turn). */
  static final Duration FIRST_PREPARE_WAIT = Duration.ofMillis(800);

  private final ChatGptPage chat;
  private final PageStream stream;
  private final SeatFaults faults;
  private final Effort effort;
  private final TurnTimings timings;

  EffortCheck(PageTurn.Tab tab, Effort effort, TurnTimings timings) {
    this.chat = tab.chat();
    this.stream = tab.stream();
    this.faults = tab.faults();
    this.effort = effort;
    this.timings = timings;
  }

  /** Checks the effort of the text typed since {@code typing} (a {@link PageStream#mark}); {@code tapped}: the page's requests are seen. */
  void check(long typing, boolean tapped) throws SeatException {
    Duration bound = !tapped ? Duration.ZERO
        : stream.prepares() == null ? FIRST_PREPARE_WAIT : stream.prepares() ? PREPARE_WAIT : Duration.ZERO;
    Optional<ObservedRequest> prepared = bound.isZero() ? Optional.empty()
        : stream.awaitRequest(ObservedRequest.Kind.PREPARE, typing, bound);
    timings.mark("prepare wait");
    if (prepared.isEmpty()) {
      checkLabel();
      timings.mark("effort read-back");
      return;
    }
    Optional<Effort> named = WireEffort.effort(prepared.get());
    if (named.isPresent() && named.get() == effort) {
      return;
    }
    refuseUnknown(prepared.get(), named);
    long again = stream.mark();
    chat.chooseEffort(effort, true); // once more, whatever the pill says; the page prepares again for the choice
    Optional<ObservedRequest> second = stream.awaitRequest(ObservedRequest.Kind.PREPARE, again, PREPARE_WAIT);
    timings.mark("effort chosen again");
    if (second.isEmpty()) {
      chat.clearComposer();
      throw failed(Kind.UNAVAILABLE, "the page's /prepare names " + prepared.get().effortWords() + " (" + named.get().label()
          + ") but " + effort.label() + " was asked, and after choosing " + effort.label() + " again the page sent no new"
          + " /prepare within " + PREPARE_WAIT.toSeconds() + " s; nothing was sent", false);
    }
    Optional<Effort> now = WireEffort.effort(second.get());
    refuseUnknown(second.get(), now);
    if (now.get() != effort) {
      chat.clearComposer();
      throw faults.effortRefused(chat.state(Set.of()), "the page will send " + second.get().effortWords() + " ("
          + now.get().label() + ") but " + effort.label() + " was asked, also after choosing it again; nothing was sent");
    }
  }

  /** A /prepare whose model and effort the table does not know: refused by name, before Send. */
  private void refuseUnknown(ObservedRequest request, Optional<Effort> named) throws SeatException {
    if (named.isEmpty()) {
      chat.clearComposer();
      throw failed(Kind.UNAVAILABLE, "the page's /prepare names " + request.effortWords() + ", which is no effort the seat"
          + " knows (" + effort.label() + " was asked); nothing was sent", false);
    }
  }

  /**
   * The effort is read back at send time where the page sends no /prepare: the pill's attribute,
   * else its label; a pill in a language the seat has no table for ({@code <html lang>}) is read
   * through its menu (a slider's value in its own range). A mismatch is never sent.
   */
  private void checkLabel() throws SeatException {
    Optional<Effort> shown = chat.effort().pillEffort();
    if (shown.isEmpty() && chat.effortPillLabel() != null && !chat.effort().labelsKnown()) {
      shown = menuEffort();
    }
    if (shown.orElse(null) == effort) {
      return;
    }
    chat.clearComposer();
    throw faults.effortMismatch(chat.state(Set.of()), chat.effortPillLabel(), effort);
  }

  /** The effort the pill's menu shows checked (opened and closed again), or empty when it shows none. */
  private Optional<Effort> menuEffort() {
    try {
      EffortPicker.EffortMenu menu = chat.effortPicker();
      return Optional.ofNullable(menu.checked()).map(EffortPicker.EffortOption::effort);
    } catch (SeatException | PlaywrightException e) {
      return Optional.empty();
    }
  }
}
