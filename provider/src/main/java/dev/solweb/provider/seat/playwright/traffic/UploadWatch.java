package dev.solweb.provider.seat.playwright.traffic;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Follows the turn's files on the page's own traffic (../shared/REAL-PAGE.md row 45), one
 * {@link Track} per file: {@code POST /backend-api/files} (its file id and upload URL, or a 429
 * {@code throttled}), the {@code PUT} of the bytes, {@code POST .../uploaded}, and the processing
 * stream's JSON lines; then which file ids the Send's {@code /f/conversation} body names (row 48).
 *
 * <p>It listens to Playwright's network events, which see the page's fetches and XHRs alike, only
 * while armed; the listeners just queue, and {@link #poll} reads the queued requests on the seat's
 * thread (Playwright delivers the events during the seat's own calls). Nothing of the prompt is
 * kept: of the Send body only the file ids are read.
 */
public final class UploadWatch {

  static final String CREATE = "/backend-api/files";
  static final String PROCESS = "/backend-api/files/process_upload_stream";
  private static final Pattern UPLOADED = Pattern.compile("^/backend-api/files/([^/]+)/uploaded$");
  private static final Pattern FAILED_EVENT = Pattern.compile("\\.(error|failed|cancelled|unknown)$");
  static final String COMPLETED = "file.processing.completed";

  /** Where one file stands on the wire. */
  public enum Stage { WAITING, CREATED, PUT, UPLOADED, PROCESSING, COMPLETED, FAILED, THROTTLED }

  /** One file of the turn, as its requests showed it. */
  public static final class Track {
    private final String name;
    private final long size;
    private final boolean image;
    private Stage stage = Stage.WAITING;
    private String fileId;
    private String uploadUrl;
    private String failure;
    private long uploadedAtNanos;
    private boolean processRequested;

    Track(String name, long size, boolean image) {
      this.name = name;
      this.size = size;
      this.image = image;
    }

    public String name() {
      return name;
    }

    public boolean image() {
      return image;
    }

    public Stage stage() {
      return stage;
    }

    public String fileId() {
      return fileId;
    }

    /** What went wrong, in the page's words where it gave some (a 429's message, a failed event's). */
    public String failure() {
      return failure;
    }

    /** The page asked for the file's processing stream (an image without one finishes at {@code /uploaded}). */
    public boolean processRequested() {
      return processRequested;
    }

    /** When {@code /uploaded} succeeded ({@link System#nanoTime}), 0 before. */
    public long uploadedAtNanos() {
      return uploadedAtNanos;
    }

    /** The page started this file's upload ({@code POST /backend-api/files} seen). */
    public boolean started() {
      return stage != Stage.WAITING;
    }

    /** Stages only move forward (the page's events may arrive out of order); a failure is final. */
    private void advance(Stage to) {
      if (stage.ordinal() < to.ordinal() && stage != Stage.FAILED && stage != Stage.THROTTLED && stage != Stage.COMPLETED) {
        stage = to;
      }
    }

    private void fail(Stage to, String why) {
      if (stage != Stage.FAILED && stage != Stage.THROTTLED && stage != Stage.COMPLETED) {
        stage = to;
        failure = why;
      }
    }
  }

  /** What one file of the turn is: matched to the page's {@code POST /backend-api/files} by name and size. */
  public record Expected(String name, long size, boolean image) {}

  private final Deque<Request> started = new ArrayDeque<>();
  private final Deque<Request> finished = new ArrayDeque<>();
  private final Deque<Request> failed = new ArrayDeque<>();
  private final Map<Request, Track> creates = new IdentityHashMap<>();
  private final List<Track> tracks = new ArrayList<>();
  private List<String> sentIds;
  private volatile boolean armed;

  public UploadWatch(Page page) {
    page.onRequest(r -> queue(started, r));
    page.onRequestFinished(r -> queue(finished, r));
    page.onRequestFailed(r -> queue(failed, r));
  }

  private void queue(Deque<Request> q, Request r) {
    if (armed && relevant(r)) {
      q.add(r);
    }
  }

  private static boolean relevant(Request r) {
    String path = path(r.url());
    return "PUT".equals(r.method()) || ("POST".equals(r.method()) && (path.startsWith(CREATE) || StreamTap.TURN_PATHS.contains(path)));
  }

  /** From now on the page's upload requests and its next Send body are followed, for these files. */
  public void arm(List<Expected> files) {
    started.clear();
    finished.clear();
    failed.clear();
    creates.clear();
    tracks.clear();
    sentIds = null;
    files.forEach(f -> tracks.add(new Track(f.name(), f.size(), f.image())));
    armed = true;
  }

  /** Stops following (the turn's files are sent or given up). */
  public void disarm() {
    armed = false;
    started.clear();
    finished.clear();
    failed.clear();
  }

  public List<Track> tracks() {
    return List.copyOf(tracks);
  }

  /** The file ids the page's Send body named, once its turn request was seen. */
  public Optional<List<String>> sentIds() {
    return Optional.ofNullable(sentIds);
  }

  /** Reads what the page's requests showed since the last poll. Call after any page call (which delivers the events). */
  public void poll() {
    while (!started.isEmpty()) {
      onStarted(started.poll());
    }
    while (!finished.isEmpty()) {
      onFinished(finished.poll());
    }
    while (!failed.isEmpty()) {
      Request r = failed.poll();
      track(r).ifPresent(t -> t.fail(Stage.FAILED, r.method() + " " + path(r.url()) + " failed: " + r.failure()));
    }
  }

  private void onStarted(Request r) {
    String path = path(r.url());
    String body = r.postData();
    if (CREATE.equals(path)) {
      UploadWire.CreateRequest asked = UploadWire.createRequest(body);
      tracks.stream().filter(t -> t.stage == Stage.WAITING && !creates.containsValue(t) && t.name.equals(asked.fileName())
          && (asked.fileSize() < 0 || asked.fileSize() == t.size)).findFirst()
          .or(() -> tracks.stream().filter(t -> t.stage == Stage.WAITING && !creates.containsValue(t)
              && asked.fileSize() == t.size).findFirst())
          .ifPresent(t -> {
            creates.put(r, t);
            t.advance(Stage.CREATED); // asked for; the answer tells whether it was taken
          });
    } else if (PROCESS.equals(path)) {
      String id = UploadWire.fileIdOf(body);
      byId(id).ifPresent(t -> {
        t.processRequested = true;
        if (t.stage == Stage.UPLOADED) {
          t.advance(Stage.PROCESSING);
        }
      });
    } else if (StreamTap.TURN_PATHS.contains(path) && !path.endsWith("/resume") && sentIds == null) {
      sentIds = UploadWire.sentFileIds(body);
    }
  }

  private void onFinished(Request r) {
    String path = path(r.url());
    Response response = responseOf(r);
    int status = response == null ? 0 : response.status();
    Track create = creates.get(r);
    if (create != null) {
      String text = text(response);
      if (status == 429) {
        create.fail(Stage.THROTTLED, UploadWire.errorMessage(text).orElse("POST /backend-api/files answered 429"));
      } else if (status < 200 || status >= 300) {
        create.fail(Stage.FAILED, "POST /backend-api/files answered " + status
            + UploadWire.errorMessage(text).map(m -> ": " + m).orElse(""));
      } else {
        UploadWire.Created c = UploadWire.created(text);
        if (c.fileId() == null) {
          create.fail(Stage.FAILED, "POST /backend-api/files named no file_id");
        } else {
          create.fileId = c.fileId();
          create.uploadUrl = c.uploadUrl() == null ? null : URI.create(r.url()).resolve(c.uploadUrl()).toString();
        }
      }
      return;
    }
    if ("PUT".equals(r.method())) {
      tracks.stream().filter(t -> t.uploadUrl != null && t.uploadUrl.equals(r.url())).findFirst().ifPresent(t -> {
        if (status >= 200 && status < 300) {
          t.advance(Stage.PUT);
        } else {
          t.fail(Stage.FAILED, "the PUT of the file's bytes answered " + status);
        }
      });
      return;
    }
    Matcher uploaded = UPLOADED.matcher(path);
    if (uploaded.matches()) {
      byId(uploaded.group(1)).ifPresent(t -> {
        if (status >= 200 && status < 300) {
          t.uploadedAtNanos = System.nanoTime();
          t.advance(t.processRequested ? Stage.PROCESSING : Stage.UPLOADED);
        } else {
          t.fail(Stage.FAILED, "POST .../uploaded answered " + status);
        }
      });
      return;
    }
    if (PROCESS.equals(path)) {
      byId(UploadWire.fileIdOf(r.postData())).ifPresent(t -> {
        if (status < 200 || status >= 300) {
          t.fail(Stage.FAILED, "the processing stream answered " + status);
          return;
        }
        for (UploadWire.Line line : UploadWire.lines(text(response))) {
          if (line.event() != null && FAILED_EVENT.matcher(line.event()).find()) {
            t.fail(Stage.FAILED, "processing ended " + line.event() + (line.message() == null ? "" : ": " + line.message()));
          } else if (COMPLETED.equals(line.event())) {
            t.advance(Stage.COMPLETED);
          }
        }
        if (t.stage != Stage.COMPLETED) {
          t.fail(Stage.FAILED, "the processing stream ended without " + COMPLETED);
        }
      });
    }
  }

  private Optional<Track> track(Request r) {
    Track create = creates.get(r);
    if (create != null) {
      return Optional.of(create);
    }
    String path = path(r.url());
    if ("PUT".equals(r.method())) {
      return tracks.stream().filter(t -> t.uploadUrl != null && t.uploadUrl.equals(r.url())).findFirst();
    }
    Matcher uploaded = UPLOADED.matcher(path);
    if (uploaded.matches()) {
      return byId(uploaded.group(1));
    }
    return PROCESS.equals(path) ? byId(UploadWire.fileIdOf(r.postData())) : Optional.empty();
  }

  private Optional<Track> byId(String id) {
    return id == null ? Optional.empty() : tracks.stream().filter(t -> id.equals(t.fileId)).findFirst();
  }

  private static Response responseOf(Request r) {
    try {
      return r.response();
    } catch (PlaywrightException e) {
      return null;
    }
  }

  private static String text(Response response) {
    if (response == null) {
      return "";
    }
    try {
      return new String(response.body(), StandardCharsets.UTF_8);
    } catch (PlaywrightException e) {
      return ""; // no body kept (a page that aborted it): the events decide as if none came
    }
  }

  private static String path(String url) {
    try {
      String p = URI.create(url).getRawPath();
      return p == null ? "" : p;
    } catch (IllegalArgumentException e) {
      return "";
    }
  }
}
