package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.EffortPicker;
import dev.solweb.provider.seat.playwright.page.EffortProbe;
import dev.solweb.provider.seat.playwright.traffic.ObservedRequest;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.WireEffort;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * One turn's proof, before Send, that the page will run the effort and the model asked for
 * (REAL-PAGE rows 17, 25, 31, 61, 62): the page's own {@code /prepare} names both, read by
 * {@link WireEffort} and the model step's slug proof ({@code ModelPicker}); where the page sends
 * none, the pill is read back. A mismatch is chosen again once; still wrong is refused, nothing sent.
 */
final class PrepareProof {

  /**
   * How long the seat waits after typing for the page's {@code /prepare} once the page is known to
   * send one. No source gives the page's debounce (REAL-PAGE row 31); fakesol's is 300 ms.
   */
  static final Duration PREPARE_WAIT = Duration.ofSeconds(3);
  /** The same wait on a page not yet seen to prepare or not (a seat's first turn). */
  static final Duration FIRST_PREPARE_WAIT = Duration.ofMillis(800);

  private final PageTurn.Tab tab;
  private final ChatGptPage chat;
  private final PageStream stream;
  private final Effort effort;
  private final TurnTimings timings;
  private final boolean tapped;

  PrepareProof(PageTurn.Tab tab, PageStream stream, Effort effort, TurnTimings timings, boolean tapped) {
    this.tab = tab;
    this.chat = tab.chat();
    this.stream = stream;
    this.effort = effort;
    this.timings = timings;
    this.tapped = tapped;
  }

  /**
   * The effort the page will use, checked before Send: its {@code /prepare} (sent while the user
   * types, debounced) names the model and {@code thinking_effort} ({@link WireEffort}); a mismatch
   * is chosen again once and checked again, and a page still wrong, or naming an effort the table
   * does not know, is refused with nothing sent. A page that sends no {@code /prepare} (older
   * shapes) has its pill label read back instead.
   */
  void check(long typing) throws SeatException {
    Duration bound = !tapped ? Duration.ZERO
        : stream.prepares() == null ? FIRST_PREPARE_WAIT : stream.prepares() ? PREPARE_WAIT : Duration.ZERO;
    Optional<ObservedRequest> prepared = bound.isZero() ? Optional.empty()
        : stream.awaitRequest(ObservedRequest.Kind.PREPARE, typing, bound);
    timings.mark("prepare wait");
    if (prepared.isEmpty()) {
      checkEffortLabel();
      timings.mark("effort read-back");
      return;
    }
    Optional<Effort> named = WireEffort.effort(prepared.get());
    Optional<String> wrongModel = chat.effort().models().prove(prepared.get().model());
    EffortProbe probe = chat.effort().probe();
    if (named.isPresent() && named.get() == effort && wrongModel.isEmpty()) {
      probe.named(effort);
      return;
    }
    refuseUnknown(prepared.get(), named);
    if (probe.active() && wrongModel.isEmpty()) {
      probeRows(probe);
      return;
    }
    long again = stream.mark();
    chat.chooseEffort(effort, true); // once more, whatever the pill says; the page prepares again for the choice
    Optional<ObservedRequest> second = stream.awaitRequest(ObservedRequest.Kind.PREPARE, again, PREPARE_WAIT);
    timings.mark("effort chosen again");
    if (second.isEmpty()) {
      chat.clearComposer();
      throw failed(Kind.UNAVAILABLE, "the page's /prepare names " + prepared.get().effortWords() + " (" + named.get().label()
          + wrongModel.map(w -> "; " + w).orElse("") + ") but " + effort.label() + " was asked, and after choosing "
          + effort.label() + " again the page sent no new /prepare within " + PREPARE_WAIT.toSeconds() + " s; nothing was sent",
          false);
    }
    Optional<Effort> now = WireEffort.effort(second.get());
    refuseUnknown(second.get(), now);
    Optional<String> stillWrong = chat.effort().models().prove(second.get().model());
    if (stillWrong.isPresent()) {
      chat.clearComposer();
      throw failed(Kind.UNAVAILABLE, stillWrong.get() + ", also after choosing the model again (" + effort.label()
          + " was asked); nothing was sent", false);
    }
    if (now.get() != effort) {
      chat.clearComposer();
      throw tab.faults().effortRefused(chat.state(Set.of()), "the page will send " + second.get().effortWords() + " ("
          + now.get().label() + ") but " + effort.label() + " was asked, also after choosing it again; nothing was sent");
    }
  }

  /**
   * Effort rows the seat cannot read ({@link EffortProbe}): the next one is chosen and the page's
   * {@code /prepare} read, until one names the effort asked; a row the page sends no /prepare for,
   * a wrong model, or no row left is refused with the composer cleared and nothing sent.
   */
  private void probeRows(EffortProbe probe) throws SeatException {
    for (int round = 0; round < Effort.values().length; round++) {
      long again = stream.mark();
      try {
        chat.chooseEffort(effort, true); // unavailable, naming the rows tried, when none is left
      } catch (SeatException | PlaywrightException e) {
        chat.clearComposer();
        throw e;
      }
      Optional<ObservedRequest> next = stream.awaitRequest(ObservedRequest.Kind.PREPARE, again, PREPARE_WAIT);
      timings.mark("effort probed");
      if (next.isEmpty()) {
        chat.clearComposer();
        throw failed(Kind.UNAVAILABLE, "after choosing the effort row " + probe.tried() + " for " + effort.label()
            + " the page sent no /prepare within " + PREPARE_WAIT.toSeconds() + " s to name it; nothing was sent", false);
      }
      Optional<Effort> named = WireEffort.effort(next.get());
      refuseUnknown(next.get(), named);
      Optional<String> wrongModel = chat.effort().models().prove(next.get().model());
      if (wrongModel.isPresent()) {
        chat.clearComposer();
        throw failed(Kind.UNAVAILABLE, wrongModel.get() + " while trying effort rows for " + effort.label()
            + "; nothing was sent", false);
      }
      if (named.get() == effort) {
        probe.named(effort);
        return;
      }
    }
    chat.clearComposer();
    throw failed(Kind.UNAVAILABLE, "the page's /prepare named none of the effort rows " + probe.tried() + " "
        + effort.label() + "; nothing was sent", false);
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
  private void checkEffortLabel() throws SeatException {
    Optional<Effort> shown = chat.effort().pillEffort();
    if (shown.isEmpty() && chat.effortPillLabel() != null && !chat.effort().labelsKnown()) {
      shown = menuEffort();
    }
    if (shown.orElse(null) == effort) {
      return;
    }
    chat.clearComposer();
    throw tab.faults().effortMismatch(chat.state(Set.of()), chat.effortPillLabel(), effort);
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
