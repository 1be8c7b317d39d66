package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.page.MarkdownFences;
import dev.solweb.provider.seat.playwright.page.PageWait;
import dev.solweb.provider.seat.playwright.traffic.ConversationHistory;
import dev.solweb.provider.seat.playwright.traffic.HistoryPolls;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.StreamStatus;
import dev.solweb.provider.seat.playwright.traffic.StreamTap;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The answer of a turn left uncertain, read from its conversation instead of typed again
 * ({@link dev.solweb.provider.seat.BrowserSeat#recover}): the conversation is opened (never reloaded), and
 * the history JSON the page loads for it is read ({@link ConversationHistory}); where the page
 * loads none the seat asks the same route itself, from the page, with the page's own headers
 * ({@link PageStream#refetch}), and nothing else. A finished answer after the user message the
 * page's request named is the reply; one still being written is waited for as the page waits (it
 * polls the JSON and {@code stream_status} in pairs; the seat asks them itself when the page is
 * quiet); no answer, or a stream that failed, is nothing to recover. Never types, never clicks.
 */
final class PageRecovery {

  /** How long the page may take to load the history JSON by itself before the seat asks for it. */
  private static final Duration HISTORY_WAIT = Duration.ofSeconds(3);
  /** How long the page may be quiet before the seat asks stream_status and the JSON itself (then with the account's backoff). */
  private static final Duration QUIET = Duration.ofSeconds(2);
  private static final Pattern HISTORY = Pattern.compile("^/backend-api/conversations?/[0-9A-Za-z][0-9A-Za-z-]{7,}$");
  private static final Logger LOG = Logger.getLogger(PageRecovery.class.getName());

  private final PageStream stream;
  private final SeatNavigation navigation;
  private final PageWait wait;
  private final AtomicBoolean stopRequested;
  private final HistoryPolls polls;

  PageRecovery(PageStream stream, SeatNavigation navigation, PageWait wait, AtomicBoolean stopRequested,
      HistoryPolls polls) {
    this.stream = stream;
    this.navigation = navigation;
    this.wait = wait;
    this.stopRequested = stopRequested;
    this.polls = polls;
  }

  /** One poll's reading of the documents: the reply, nothing, or still waiting (null). */
  private record Reading(Optional<SeatReply> reply) {}

  Optional<SeatReply> recover(String url, String userMessageId) throws SeatException {
    String id = navigation.conversationIdOf(url).orElseThrow(() -> SeatException.conversationMissing(url));
    String historyRoute = "/backend-api/conversations/" + id + "?include_has_versions=true&num_turns=10";
    String statusRoute = "/backend-api/conversation/" + id + "/stream_status";
    stream.watch();
    // Never a reload (REAL-PAGE row 52: a reload fires the history burst that trips the "Too many
    // requests" modal): a tab already on the conversation stays; one elsewhere opens it, and the
    // page loads its history JSON; where it loads none the seat asks, paced by the account.
    navigation.resume(url);
    HistoryPolls.Poller asks = polls.poller();
    long opened = System.nanoTime();
    boolean[] asked = {false};
    long[] news = {System.nanoTime()};
    int[] read = {0};
    boolean[] writing = {false};
    Reading done = wait.until(Duration.ofDays(365), () -> {
      if (stopRequested.get()) {
        throw failed(Kind.CANCELLED, "stopped while looking for the answer of the uncertain turn in " + url
            + "; nothing was sent", false);
      }
      stream.refresh();
      List<StreamTap.Document> documents = stream.documents();
      boolean historySeen = false;
      for (int i = read[0]; i < documents.size(); i++, read[0]++) {
        StreamTap.Document d = documents.get(i);
        news[0] = System.nanoTime();
        byte[] body = d.text() == null ? new byte[0] : d.text().getBytes(StandardCharsets.UTF_8);
        asks.answered(d.status());
        if (d.path().endsWith("/stream_status")) {
          StreamStatus status = StreamStatus.decode(d.status(), body);
          if (status == StreamStatus.FAILURE) {
            LOG.info("the uncertain turn's answer failed on the server (stream_status FAILURE): nothing to recover in " + url);
            return new Reading(Optional.empty());
          }
          continue; // COMPLETE or IS_STREAMING: the JSON says what the conversation holds

        }
        if (!HISTORY.matcher(d.path()).matches() || !d.path().endsWith("/" + id)) {
          continue;
        }
        historySeen = true;
        if (d.status() == 404) {
          throw SeatException.conversationMissing(url + " (its history answers 404)");
        }
        Optional<ConversationHistory> history = ConversationHistory.decode(body);
        if (history.isEmpty()) {
          continue;
        }
        ConversationHistory.Found found = history.get().answerAfter(userMessageId);
        if (found instanceof ConversationHistory.Answered a) {
          MarkdownFences.Split split = MarkdownFences.split(a.markdown());
          return new Reading(Optional.of(new SeatReply(split.blocks(), split.prose(), url, a.modelSlug(), List.of(),
              SeatReply.Source.HISTORY)));
        }
        if (found instanceof ConversationHistory.Nothing nothing) {
          LOG.info("nothing to recover in " + url + ": " + nothing.why());
          return new Reading(Optional.empty());
        }
        writing[0] = true;
      }
      long now = System.nanoTime();
      boolean quiet = now - news[0] > QUIET.toNanos();
      boolean unloaded = !historySeen && read[0] == 0 && now - opened > HISTORY_WAIT.toNanos() && !asked[0];
      if ((unloaded || (writing[0] && quiet)) && asks.due()) {
        // The page's own pair, asked by the seat: status first, then the JSON (only these routes exist for it).
        stream.refetch(statusRoute);
        stream.refetch(historyRoute);
        asked[0] = true;
      }
      return null;
    }, () -> null, () -> stream.awaitNews(PageTurn.POLL));
    return done.reply();
  }
}
