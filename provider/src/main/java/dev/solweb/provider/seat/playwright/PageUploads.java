package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.options.FilePayload;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.UploadReadiness;
import dev.solweb.provider.seat.playwright.page.CapTimes;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.Uploads;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.StreamEvent;
import dev.solweb.provider.seat.playwright.traffic.UploadWatch;
import dev.solweb.provider.seat.playwright.traffic.UploadWatch.Stage;
import dev.solweb.provider.seat.playwright.traffic.UploadWatch.Track;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A turn's files, uploaded as a person uploads them and proven by the page's own traffic
 * (../shared/REAL-PAGE.md rows 44-49). Before anything is typed: images into an image input,
 * everything else into the generic one ({@code setInputFiles}), the chooser behind "Add files and
 * more" where no input starts an upload; then each file followed through its four requests
 * ({@link UploadWatch}) until its {@code file.processing.completed} (or, for an image the page
 * finishes without a stream, a loaded preview and no progress). A cap or a failed upload fails the
 * turn typed with nothing typed, and takes the turn's chips out of the composer. After Send:
 * the page's turn request must name every file id, or the turn fails (not resent).
 */
final class PageUploads {

  /** How long a chosen input may take to start the page's {@code POST /backend-api/files}. */
  static final Duration START_WAIT = Duration.ofSeconds(3);
  /** How long the files of one turn may take to be processed: a base, and more per megabyte. */
  static final Duration READY_BASE = Duration.ofSeconds(60);
  static final Duration READY_PER_MB = Duration.ofSeconds(2);
  /** Row 46: how long after {@code /uploaded} an image with no stream must show its loaded preview. */
  static final Duration IMAGE_GRACE = Duration.ofMillis(800);
  /** How long after a file's {@code completed} line a stream still held open keeps it from ready. */
  static final Duration STREAM_END_GRACE = Duration.ofSeconds(2);
  /** How long the page's turn request may take to be seen after the Send was proven. */
  static final Duration SENT_BODY_WAIT = Duration.ofSeconds(5);

  private final ChatGptPage chat;
  private final Uploads controls;
  private final UploadWatch watch;
  private final PageStream stream;
  private final SeatFaults faults;
  private final PageTurn.Tab tab;
  private final Clock clock;
  private final UploadReadiness readiness;
  /** The file ids of the files uploaded for the turn in flight. */
  private List<String> fileIds = List.of();

  PageUploads(PageTurn.Tab tab, Uploads controls, UploadWatch watch, Clock clock, UploadReadiness readiness) {
    this.tab = tab;
    this.chat = tab.chat();
    this.controls = controls;
    this.watch = watch;
    this.stream = tab.stream();
    this.faults = tab.faults();
    this.clock = clock;
    this.readiness = readiness;
  }

  /**
   * Uploads {@code files} and waits until every one is processed; returns the time from the first
   * {@code setInputFiles} to ready. Every failure is before Send ({@code afterSend=false}).
   */
  Duration upload(List<Attachment> files) throws SeatException {
    refuseKnownCap();
    if (!controls.chips().isEmpty()) {
      controls.removeAll(); // files an earlier, failed turn left: never sent along with these
    }
    List<UploadWatch.Expected> expected = files.stream()
        .map(f -> new UploadWatch.Expected(f.name(), f.bytes().length, f.image())).toList();
    watch.arm(expected);
    long start = System.nanoTime();
    try {
      List<Attachment> images = files.stream().filter(Attachment::image).toList();
      List<Attachment> others = files.stream().filter(f -> !f.image()).toList();
      if (!images.isEmpty()) {
        hand(images, true);
      }
      if (!others.isEmpty()) {
        hand(others, false);
      }
      awaitReady(files);
      fileIds = watch.tracks().stream().map(Track::fileId).toList();
      return Duration.ofNanos(System.nanoTime() - start);
    } catch (SeatException | RuntimeException e) {
      watch.disarm();
      removeChips();
      throw e;
    }
  }

  /**
   * After the Send was proven: the page's turn request must name every file id of the turn (row
   * 48). A Send that dropped a file is stopped and fails typed; nothing is resent.
   */
  void checkSent() throws SeatException {
    try {
      List<String> ids = tab.pageWait().until(SENT_BODY_WAIT, () -> {
        chat.url(); // a page call: Playwright delivers the queued network events during it
        watch.poll();
        return watch.sentIds().orElse(null);
      }, () -> null);
      List<String> missing = ids == null ? fileIds : fileIds.stream().filter(id -> !ids.contains(id)).toList();
      if (!missing.isEmpty()) {
        if (chat.stopLikeShown()) {
          chat.clickStop(true); // after Send the turn runs; the model must not answer about files it never got
        }
        throw failed(Kind.UNAVAILABLE, ids == null
            ? "the seat saw no turn request body to prove the " + fileIds.size() + " uploaded file(s) went with the Send;"
                + " the answer may lack them; not resent"
            : "the page's Send named " + (fileIds.size() - missing.size()) + " of " + fileIds.size() + " uploaded files"
                + " (dropped: " + String.join(", ", missing) + "); the turn was stopped and is not resent", true);
      }
    } finally {
      watch.disarm();
    }
  }

  /**
   * A file of a one-shot ask as an {@link Attachment}: its type from its first bytes (an image
   * only by its magic numbers; anything else goes through the generic input).
   */
  static Attachment fromFile(Path file) throws SeatException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw failed(Kind.UNAVAILABLE, "attachment " + file + " cannot be read (" + e.getMessage() + "); nothing was sent", false);
    }
    String hex;
    try {
      hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    return new Attachment(file.getFileName().toString(), imageType(bytes).orElse("application/octet-stream"), bytes, hex);
  }

  private static Optional<String> imageType(byte[] b) {
    if (starts(b, 0x89, 'P', 'N', 'G')) {
      return Optional.of("image/png");
    }
    if (starts(b, 0xFF, 0xD8, 0xFF)) {
      return Optional.of("image/jpeg");
    }
    if (starts(b, 'G', 'I', 'F', '8')) {
      return Optional.of("image/gif");
    }
    if (b.length >= 12 && starts(b, 'R', 'I', 'F', 'F') && b[8] == 'W' && b[9] == 'E' && b[10] == 'B' && b[11] == 'P') {
      return Optional.of("image/webp");
    }
    return Optional.empty();
  }

  private static boolean starts(byte[] b, int... magic) {
    if (b.length < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if ((b[i] & 0xFF) != magic[i]) {
        return false;
      }
    }
    return true;
  }

  // ---- Choosing the files --------------------------------------------------------------------

  /** Hands {@code group} to the first control whose page then starts their uploads. */
  private void hand(List<Attachment> group, boolean images) throws SeatException {
    List<FilePayload> payloads = group.stream().map(f -> new FilePayload(f.name(), f.mediaType(), f.bytes())).toList();
    List<String> names = group.stream().map(Attachment::name).toList();
    for (int index : controls.inputs(images)) {
      controls.choose(index, payloads);
      if (started(names)) {
        return;
      }
      controls.empty(index); // it started nothing (a decoy, a stale input): it keeps nothing of ours
    }
    if (controls.chooseThroughMenu(payloads) && started(names)) {
      return;
    }
    throw failed(Kind.UNAVAILABLE, "no file input of the page started an upload of " + String.join(", ", names)
        + " (neither its inputs nor the file chooser of \"Add files and more\"); nothing was sent", false);
  }

  /** Whether the page asked {@code POST /backend-api/files} for every one of {@code names} within {@link #START_WAIT}. */
  private boolean started(List<String> names) throws SeatException {
    Boolean all = tab.pageWait().until(START_WAIT, () -> {
      poll();
      List<Track> mine = watch.tracks().stream().filter(t -> names.contains(t.name())).toList();
      return mine.stream().allMatch(Track::started) ? Boolean.TRUE : null;
    }, () -> null);
    return all != null;
  }

  // ---- Ready -----------------------------------------------------------------------------------

  private void awaitReady(List<Attachment> files) throws SeatException {
    long bytes = files.stream().mapToLong(f -> f.bytes().length).sum();
    Duration within = READY_BASE.plus(READY_PER_MB.multipliedBy(bytes / (1024 * 1024)));
    tab.pageWait().until(within, () -> {
      poll();
      if (tab.stopRequested().get()) {
        throw failed(Kind.CANCELLED, "stopped while the files uploaded; nothing was sent", false);
      }
      for (Track t : watch.tracks()) {
        if (t.stage() == Stage.THROTTLED) {
          throw throttled(t);
        }
        if (t.stage() == Stage.FAILED) {
          throw failed(Kind.UNAVAILABLE, "the upload of " + t.name() + " failed: " + t.failure()
              + "; its chip was removed and nothing was sent", false);
        }
      }
      if (readiness == UploadReadiness.CHIP) {
        return controls.chips().size() >= files.size() ? Boolean.TRUE : null; // the kill gate's control only
      }
      return watch.tracks().stream().allMatch(this::ready) ? Boolean.TRUE : null;
    }, () -> failed(Kind.UNAVAILABLE, "the page did not finish processing " + pending() + " within " + within.toSeconds()
        + " s; nothing was sent", false));
  }

  /**
   * Row 46: processed by the stream (and the stream over, or a moment past its {@code completed}
   * line for a page that holds it open), or an image the page finished at {@code /uploaded} with a
   * loaded preview.
   */
  private boolean ready(Track t) {
    if (t.stage() == Stage.COMPLETED) {
      return t.streamEnded() || System.nanoTime() - t.completedAtNanos() > STREAM_END_GRACE.toNanos();
    }
    return t.image() && t.stage() == Stage.UPLOADED && !t.processRequested()
        && System.nanoTime() - t.uploadedAtNanos() > IMAGE_GRACE.toNanos() && controls.previewsLoaded();
  }

  private String pending() {
    List<String> out = new ArrayList<>();
    for (Track t : watch.tracks()) {
      if (!ready(t)) {
        out.add(t.name() + " (" + t.stage().name().toLowerCase() + ")");
      }
    }
    return String.join(", ", out);
  }

  /** One poll: the page's state (walls, the feature-cap banner of row 7), which also delivers the queued network events. */
  private void poll() throws SeatException {
    faults.failOnPage(chat.state(Set.of()), false, true);
    watch.poll();
  }

  // ---- Caps --------------------------------------------------------------------------------------

  /** Row 49: a 429 {@code throttled}; the wait is only in its text. */
  private SeatException throttled(Track t) {
    Instant now = clock.instant();
    Optional<Instant> at = CapTimes.parse(t.failure(), now, ZoneId.systemDefault());
    String what = "the page's uploads are capped (POST /backend-api/files answered 429 throttled: " + t.failure()
        + "); nothing was typed";
    return SeatException.failed(at.isPresent() ? ProviderFailure.capped(what, at.get(), now)
        : ProviderFailure.of(Kind.CAPPED, what), false);
  }

  /** Row 50: the page's own last word on {@code file_upload} (remaining 0 until its reset): capped before anything is chosen. */
  private void refuseKnownCap() throws SeatException {
    Instant now = clock.instant();
    for (StreamEvent.Limit limit : stream.turn().limits()) {
      if (!"file_upload".equals(limit.feature()) || limit.remaining() == null || limit.remaining() > 0) {
        continue;
      }
      Instant reset = null;
      try {
        reset = limit.resetAfter() == null ? null : Instant.parse(limit.resetAfter());
      } catch (DateTimeParseException e) {
        reset = null;
      }
      if (reset == null || reset.isAfter(now)) {
        String what = "the page's last turn said file_upload has 0 uploads left"
            + (reset == null ? "" : " until " + reset) + "; nothing was typed";
        throw SeatException.failed(reset != null ? ProviderFailure.capped(what, reset, now)
            : ProviderFailure.of(Kind.CAPPED, what), false);
      }
    }
  }

  private void removeChips() {
    try {
      controls.removeAll();
    } catch (RuntimeException e) {
      // the page is gone or busy: the next turn with files removes what is left first
    }
  }
}
