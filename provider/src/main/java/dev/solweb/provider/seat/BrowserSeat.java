package dev.solweb.provider.seat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.translate.ConversationPlace;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one semantic port to a ChatGPT page. Everything the daemon knows about a browser goes
 * through these verbs; every selector lives behind an implementation.
 *
 * <p>Threading: a seat is confined to the one thread the dispatcher gives it; every method but
 * {@link #stop()} is called only from that thread and may block. {@link #stop()} may be called
 * from any thread while {@link #send} blocks.
 *
 * <p>The page's own traffic is the truth where the seat can see it: the Send boundary is the
 * page's request, not the click ({@link #onSent}), and an uncertain turn's answer
 * is looked up in the conversation ({@link #recover}) before anything is typed again.
 *
 * <p>Failures: every method throws {@link SeatException}; its {@link SeatException.Reason} tells
 * the dispatcher whether to rebuild the seat, replay into a fresh conversation or fail the turn,
 * and {@link SeatException#afterSend()} whether the Send boundary was crossed. After the Send
 * boundary nothing is ever resent automatically.
 */
public interface BrowserSeat extends AutoCloseable {

  /** Reads the page state without changing it: ready, logged out, capped, ... and the account. */
  SeatProbe probe() throws SeatException;

  /** Opens a new, empty conversation. Its URL is known only after the first {@link #send}. */
  void openNew() throws SeatException;

  /**
   * Opens a new, empty conversation in {@code place}, and proves it is there before anything is
   * typed (a project's page, the temporary-chat banner). The default opens ordinary ones only: a
   * seat that cannot honour another place refuses instead of writing into the owner's history.
   */
  default void openNew(ConversationPlace place) throws SeatException {
    if (place instanceof ConversationPlace.History) {
      openNew();
      return;
    }
    throw SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
        getClass().getSimpleName() + " cannot open conversations in " + place + "; nothing was typed"), false);
  }

  /**
   * Resumes a conversation this seat created before, by its URL, and waits for its history.
   * A project chat ({@code /g/g-p-<slug>/c/<id>}) must still be in that project, and a temporary
   * chat ({@code ...?temporary-chat=true}, see {@link SeatReply#conversationUrl()}) resumes only
   * in the tab that still holds it; otherwise both are missing.
   *
   * @throws SeatException with {@link SeatException.Reason#CONVERSATION_MISSING} when the
   *     conversation is gone (nothing was sent, so a full replay is safe)
   */
  void resume(String conversationUrl) throws SeatException;

  /**
   * Selects the effort for the next send and returns the effort the page reads back afterwards
   * (which may differ: the page decides). A label the seat cannot map to an {@link Effort} is a
   * typed {@code unavailable} naming the label, never a guess.
   */
  Effort setEffort(Effort effort) throws SeatException;

  /**
   * Types {@code text} into the composer, clicks Send and waits for the complete reply.
   * Everything before the click is retry-safe; a failure after it has {@code afterSend() == true}.
   */
  SeatReply send(String text) throws SeatException;

  /**
   * As {@link #send(String)}, with {@code attachments} uploaded through the page's own file inputs
   * first; each upload is proven by the page's traffic (every file processed, every file id named in
   * the Send request). The default refuses before anything is typed: a seat that cannot upload
   * never sends without the files.
   */
  default SeatReply send(String text, List<Attachment> attachments) throws SeatException {
    if (attachments.isEmpty()) {
      return send(text);
    }
    throw SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
        getClass().getSimpleName() + " cannot upload files; nothing was sent"), false);
  }

  /**
   * Where the next sends report what the page's own request proved at the Send boundary
   * ({@link SentMessage}: the user message id, the conversation), on the seat's thread while the
   * answer is still coming: what the in-flight mark records, so an uncertain turn can later be
   * looked up in the conversation ({@link #recover}). Null stops it. A seat that cannot see the
   * page's requests never reports; the default is such a seat.
   */
  default void onSent(Consumer<SentMessage> listener) {
  }

  /**
   * After a turn was left uncertain past the Send boundary (the daemon killed, the browser lost,
   * a timeout): opens {@code conversationUrl} and looks in the conversation itself (the history
   * the page loads) for the answer to the user message {@code userMessageId}, waiting as the
   * page waits while it is still being written. Never types, never clicks Send or Retry.
   *
   * @return the answer, read as any reply; empty when the conversation holds none (the caller
   *     replays as before). The default holds none.
   * @throws SeatException as {@link #resume}: {@code CONVERSATION_MISSING} when the conversation
   *     is gone (nothing to recover; a replay is safe)
   */
  default Optional<SeatReply> recover(String conversationUrl, String userMessageId) throws SeatException {
    return Optional.empty();
  }

  /**
   * The page's own regenerate on the last answer of the conversation the seat has open (a turn
   * solwebd stopped, retried identically): one page action, nothing typed, the same conversation.
   * The control is found by its place (the last exchange's action bar) and proven by the page's
   * request (a turn request with {@code action: variant} and no new user text); the new answer is
   * read as a send's is. Called after {@link #resume} and {@link #setEffort}.
   *
   * @return the new answer; empty when the page offers no regenerate there or no regeneration
   *     request was seen (the caller replays into a fresh conversation). The default offers none.
   * @throws SeatException as {@link #send}, once the regeneration request went out
   */
  default Optional<SeatReply> regenerate() throws SeatException {
    return Optional.empty();
  }

  /**
   * One-shot ask ({@code ask-gpt}, {@code POST /v1/ask}) in a conversation just opened with
   * {@link #openNew}: uploads {@code attachments} into the composer, types {@code text}, clicks
   * Send, waits for the complete reply and saves every image of the reply into {@code outputDir}.
   * Paths are absolute (the daemon's cwd is not the caller's); the reply's {@code images} are the
   * absolute paths of the saved files.
   *
   * <p>The default refuses before Send: a seat that cannot attach or harvest says so instead of
   * dropping attachments silently. Same failure contract as {@link #send}.
   */
  default SeatReply ask(String text, List<Path> attachments, Path outputDir) throws SeatException {
    throw SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
        getClass().getSimpleName() + " cannot run one-shot asks (attachments, images); nothing was sent"), false);
  }

  /**
   * Deletes a conversation this daemon created, by its exact URL, through the page's own
   * conversation menu and confirmation, then proves it is gone (its URL shows the page's
   * not-found state). Never touches any other conversation. A URL that already shows not-found is
   * {@link Deletion#NOT_FOUND}, not a failure, so a repeat is a no-op.
   *
   * @throws SeatException a typed {@code unavailable} when the page did not delete it (no
   *     confirmation, or the conversation still opens afterwards): the caller must not record a
   *     tombstone
   */
  default Deletion delete(String conversationUrl) throws SeatException {
    throw SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
        getClass().getSimpleName() + " cannot delete conversations; nothing was deleted"), false);
  }

  /**
   * {@code solwebctl doctor}: reads the page at {@code url} (null: the seat's current page) and
   * reports, as one JSON object (docs/solwebctl.md), every check the seat needs; with
   * {@code openEffortMenu} it opens the effort menu to list its rows, then presses Escape.
   * Read-only: it never types and never clicks Send, Stop or Retry.
   *
   * <p>The default refuses: a seat without a page has nothing to read.
   *
   * @throws SeatException a typed {@code unavailable} when the page cannot be opened
   */
  default String doctor(URI url, boolean openEffortMenu) throws SeatException {
    throw noPage();
  }

  /**
   * {@code solwebctl capture}: the page at {@code url} (null: the current page) as sanitized HTML
   * for a bug report (conversation text replaced by placeholders, the e-mail and tokens scrubbed);
   * with {@code openEffortMenu} the menu is open in the capture. Read-only, as {@link #doctor}.
   */
  default String capture(URI url, boolean openEffortMenu) throws SeatException {
    throw noPage();
  }

  /**
   * What this account's picker offers ({@code GET /v1/models}, {@code solwebctl models}): the model
   * rows, and the efforts the model ids can run. Read-only but for choosing the row a turn would
   * choose anyway; types nothing. The default refuses: a seat without a page has no picker.
   *
   * @throws SeatException a typed {@code unavailable} when the picker cannot be read
   */
  default ModelOffer models() throws SeatException {
    throw SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "this daemon's seat is "
        + getClass().getSimpleName() + ", which has no picker to read"), false);
  }

  private SeatException noPage() {
    return SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "this daemon's seat is "
        + getClass().getSimpleName() + ", which has no page to read; doctor and capture need --seat playwright"), false);
  }

  /**
   * The page's own counters as the last send or ask read them (its plan, what it says is left),
   * or empty for a seat that reads none (the default, a scripted seat). Called on the seat's thread.
   */
  default Optional<PageCounters> counters() {
    return Optional.empty();
  }

  /**
   * Where the next sends and asks report their progress ({@link TurnProgress#NONE} to stop);
   * the dispatcher sets it on the seat's thread before each turn. The default ignores it: such a
   * seat's turns show only the dispatcher's own states.
   */
  default void progress(TurnProgress listener) {
  }

  /**
   * The page's picture, screencast and hands ({@link SeatScreen}), for the operator page; empty
   * for a seat without a page (the default, a scripted seat). The seat makes it once, when it
   * starts; it is safe to use from any thread.
   */
  default Optional<SeatScreen> screen() {
    return Optional.empty();
  }

  /** Asks an in-flight {@link #send} to click Stop and return with a {@code cancelled} failure. */
  void stop();

  /** Closes the browser side; the seat is not used again. */
  @Override
  void close();
}
