package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SentMessage;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.traffic.ObservedRequest;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.WireEffort;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The Send boundary of one turn (a step of {@link PageTurn}): the click, its proof (the page's own
 * turn request), and what that request names (the user message id, the conversation, the effort
 * it was sent with), reported to the seat's listener as soon as it is known. From the click on
 * nothing is ever resent.
 */
final class SendBoundary {

  /** How long a Send click may take to become the page's turn request. */
  private static final Duration SEND_PROOF = Duration.ofSeconds(5);
  /** How long the page may show a send (composer emptied, Stop) before a request the tap did not see is given up on. */
  private static final Duration SEND_DOM_GRACE = Duration.ofSeconds(1);
  private static final Logger LOG = Logger.getLogger(SendBoundary.class.getName());

  private final ChatGptPage chat;
  private final PageStream stream;
  private final SeatNavigation navigation;
  private final Effort effort;
  /** The Send's user message id and the URL reported with it, once the request proved it. */
  private String sentMessage;
  private String reportedUrl;
  private Consumer<SentMessage> atSend;

  SendBoundary(PageTurn.Tab tab, Effort effort) {
    this.chat = tab.chat();
    this.stream = tab.stream();
    this.navigation = tab.navigation();
    this.effort = effort;
  }

  /**
   * Clicks Send and waits for the proof: the page's own turn request ({@code /f/conversation}). A
   * request seen is a send, whatever the click returned; a click with no request and a page that
   * still holds the text was not one, so it is clicked once more, and a second such click fails
   * with nothing sent. Where the seat cannot see the page's requests (no tap) or the page shows
   * the send another way (the composer emptied, Stop), the click is the boundary, as before.
   * {@code sent[0]} goes true at the boundary.
   */
  void cross(boolean tapped, boolean[] sent, Consumer<SentMessage> atSend) throws SeatException {
    if (!tapped) {
      sent[0] = true;
      chat.clickSend();
      return;
    }
    for (int click = 1; ; click++) {
      long mark = stream.mark();
      PlaywrightException clickFailed = null;
      try {
        chat.clickSend();
      } catch (PlaywrightException e) {
        clickFailed = e; // the request decides whether it sent
      }
      long clicked = System.nanoTime();
      while (true) {
        Optional<ObservedRequest> request = stream.awaitRequest(ObservedRequest.Kind.TURN, mark, PageTurn.POLL);
        if (request.isPresent()) {
          sent[0] = true;
          crossed(request.get(), atSend);
          return;
        }
        long waited = System.nanoTime() - clicked;
        boolean shown = shownSent();
        if (shown && (waited > SEND_DOM_GRACE.toNanos() || clickFailed != null)) {
          sent[0] = true; // sent by a way the tap does not see: the click is the boundary
          LOG.info("the page shows the send but made no turn request the seat saw; the click is the Send boundary");
          return;
        }
        if (waited > SEND_PROOF.toNanos()) {
          break;
        }
      }
      if (click == 2) {
        chat.clearComposer();
        throw failed(Kind.UNAVAILABLE, "Send was clicked twice but the page made no turn request within "
            + SEND_PROOF.toSeconds() + " s and still holds the text; nothing was sent", false);
      }
    }
  }

  /** Whether the page shows a send the tap did not see: its composer emptied, or Stop. */
  private boolean shownSent() {
    ChatGptPage.State s = chat.state(Set.of());
    String left = chat.composerText();
    return s.stopVisible() || (left != null && left.isEmpty());
  }

  /** The Send crossed: what its request names is reported, and its effort checked once more (recorded, never resent). */
  private void crossed(ObservedRequest request, Consumer<SentMessage> atSend) {
    stream.prepared(request.prepareState() != null || stream.request(ObservedRequest.Kind.PREPARE, 0).isPresent());
    if (request.userMessageId() != null) {
      sentMessage = request.userMessageId();
      reportedUrl = request.conversationId() == null ? null : navigation.urlOf(request.conversationId());
      atSend.accept(new SentMessage(sentMessage, reportedUrl));
      this.atSend = atSend;
    }
    if (request.model() == null && request.thinkingEffort() == null) {
      return; // an older page names no effort in its request
    }
    Optional<Effort> sentWith = WireEffort.effort(request);
    if (sentWith.isEmpty() || sentWith.get() != effort) {
      AnswerStats.GLOBAL.effortMismatchAfterSend();
      LOG.warning("the page's turn request names " + request.effortWords() + " ("
          + sentWith.map(Effort::label).orElse("no effort the seat knows") + ") but " + effort.label()
          + " was asked; the turn is not resent");
    }
  }

  /**
   * The proof of a Regenerate clicked after {@code mark}: the page's turn request with action
   * {@code variant} and no new user message, its effort checked as a Send's; empty when none
   * followed within the Send's proof time (then the click sent nothing the seat can count on).
   */
  Optional<ObservedRequest> regenerated(long mark) {
    Optional<ObservedRequest> request = stream.awaitRequest(ObservedRequest.Kind.TURN, mark, SEND_PROOF);
    if (request.isEmpty() || !request.get().regeneration()) {
      LOG.info("Regenerate was clicked but the page made no regeneration request"
          + request.map(r -> " (its turn request says action " + r.action() + ")").orElse("") + "; not offered");
      return Optional.empty();
    }
    crossed(request.get(), message -> { }); // it names no new message
    return request;
  }

  /** A new chat's conversation, once the stream names it: reported with the Send's message id. */
  void reportConversation() {
    String id = stream.turn().conversationId();
    if (atSend == null || reportedUrl != null || id == null) {
      return;
    }
    reportedUrl = navigation.urlOf(id);
    if (reportedUrl != null) {
      atSend.accept(new SentMessage(sentMessage, reportedUrl));
    }
  }
}
