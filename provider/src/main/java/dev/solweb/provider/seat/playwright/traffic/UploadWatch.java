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
 * <p>Requests and their statuses come from Playwright's network events, which see the page's
 * fetches and XHRs alike (only while armed; the listeners just queue, and {@link #poll} reads the
 * queue on the seat's thread, as Playwright delivers the events during the seat's own calls). A
 * response counts once its headers arrive: Chromium reports an upload's PUT and its processing
 * stream as aborted after they were answered, and keeps no body of the stream for DevTools (as for
 * the conversation stream, ../shared/CHATGPT-STREAM.md). So the stream's lines are read in the
 * page, by {@link #INIT_SCRIPT}: a pass-through {@code fetch} wrapper that reads a {@code clone()}
 * of that one route's answer and keeps each line's event, message and file id, nothing else.
 * Nothing of the prompt is kept: of the Send body only the file ids are read.
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
    private long completedAtNanos;
    private boolean streamEnded;
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

    /** When the stream said {@code file.processing.completed} ({@link System#nanoTime}), 0 before. */
    public long completedAtNanos() {
      return completedAtNanos;
    }

    /**
     * The processing stream has ended, so the page has read all of it too: the seat reads its own
     * clone of the stream, and a page that takes the file in only at the stream's end would drop a
     * file sent between its {@code completed} line and that end.
     */
    public boolean streamEnded() {
      return streamEnded;
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

  /** Keeps the processing stream's lines in the page for {@link #poll}; installed at document start. */
  public static final String INIT_SCRIPT = """
      (() => {
        if (window.__solwebUploads) return;
        const original = window.fetch;
        if (typeof original !== 'function') return;
        const lines = [];
        const keep = (item) => { lines.push(item); if (lines.length > 512) lines.splice(0, lines.length - 512); };
        const wrapped = function fetch(input, init) {
          const pending = original.apply(this, arguments);
          try {
            const url = new URL(typeof input === 'string' ? input : (input instanceof URL ? input.href : input.url), location.href);
            const method = String((init && init.method) || (input instanceof Request ? input.method : 'GET')).toUpperCase();
            if (method === 'POST' && url.origin === location.origin && url.pathname === '%s') {
              let fileId = null;
              try { fileId = JSON.parse(init && typeof init.body === 'string' ? init.body : 'null').file_id; } catch (e) { fileId = null; }
              pending.then((response) => {
                const reader = response.clone().body.getReader();
                const decoder = new TextDecoder();
                let rest = '';
                const line = (l) => {
                  const t = l.replace(/^data:\\s*/, '').trim();
                  if (!t.startsWith('{')) return;
                  try {
                    const j = JSON.parse(t);
                    keep({ fileId: j.file_id || fileId, event: String(j.event || j.type || ''), message: j.message || j.error || null });
                  } catch (e) { /* not a line of JSON */ }
                };
                const pump = () => reader.read().then(({ done, value }) => {
                  rest += done ? decoder.decode() : decoder.decode(value, { stream: true });
                  const parts = rest.split(/\\r?\\n/);
                  rest = done ? '' : parts.pop();
                  parts.forEach(line);
                  if (done) { keep({ fileId, event: '', ended: true }); return; }
                  return pump();
                });
                pump().catch((e) => keep({ fileId, event: '', ended: true, message: String((e && e.name) || e) }));
              }, () => {});
            }
          } catch (e) { /* never in the page's way */ }
          return pending;
        };
        Object.defineProperty(wrapped, 'length', { value: original.length });
        window.fetch = wrapped;
        Object.defineProperty(window, '__solwebUploads', { value: { drain: () => lines.splice(0) } });
      })();
      """.formatted(PROCESS);

  private final Page page;
  /** The page's requests as the events came, in order: a request (started), its answer, or its failure. */
  private final Deque<Object> events = new ArrayDeque<>();
  /** Stream lines whose file id no answer had named yet when they were read. */
  private final List<Map<String, Object>> heldLines = new ArrayList<>();
  private final Map<Request, Track> creates = new IdentityHashMap<>();
  private final List<Track> tracks = new ArrayList<>();
  private List<String> sentIds;
  private volatile boolean armed;

  public UploadWatch(Page page) {
    this.page = page;
    page.onRequest(r -> {
      if (armed && relevant(r)) {
        events.add(r);
      }
    });
    page.onResponse(x -> {
      if (armed && relevant(x.request())) {
        events.add(x);
      }
    });
    page.onRequestFailed(r -> {
      if (armed && relevant(r)) {
        events.add(new Failed(r));
      }
    });
  }

  private record Failed(Request request) {}

  private static boolean relevant(Request r) {
    String path = path(r.url());
    return "PUT".equals(r.method()) || ("POST".equals(r.method()) && (path.startsWith(CREATE) || StreamTap.TURN_PATHS.contains(path)));
  }

  /** From now on the page's upload requests and its next Send body are followed, for these files. */
  public void arm(List<Expected> files) {
    drainLines();
    events.clear();
    heldLines.clear();
    creates.clear();
    tracks.clear();
    sentIds = null;
    files.forEach(f -> tracks.add(new Track(f.name(), f.size(), f.image())));
    armed = true;
  }

  /** Stops following (the turn's files are sent or given up). */
  public void disarm() {
    armed = false;
    events.clear();
    heldLines.clear();
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
    heldLines.addAll(drainLines()); // a page call: it also delivers the queued events
    while (!events.isEmpty()) {
      Object e = events.poll();
      if (e instanceof Request r) {
        onStarted(r);
      } else if (e instanceof Response x) {
        onAnswered(x);
      } else if (e instanceof Failed f && responseOf(f.request()) == null) { // never answered: the request itself failed
        Request r = f.request();
        track(r).ifPresent(t -> t.fail(Stage.FAILED, r.method() + " " + path(r.url()) + " failed: " + r.failure()));
      }
    }
    heldLines.removeIf(this::onLine);
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> drainLines() {
    Object out = page.evaluate("() => window.__solwebUploads ? window.__solwebUploads.drain() : []");
    return out instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
  }

  /** One line of a processing stream, kept in the page: its event, or its end. False while its file id is unknown. */
  private boolean onLine(Map<String, Object> line) {
    Optional<Track> track = byId((String) line.get("fileId"));
    track.ifPresent(t -> {
      String event = String.valueOf(line.get("event"));
      Object message = line.get("message");
      if (FAILED_EVENT.matcher(event).find()) {
        t.fail(Stage.FAILED, "processing ended " + event + (message == null ? "" : ": " + message));
      } else if (COMPLETED.equals(event)) {
        if (t.stage != Stage.COMPLETED) {
          t.completedAtNanos = System.nanoTime();
        }
        t.advance(Stage.COMPLETED);
      } else if (Boolean.TRUE.equals(line.get("ended"))) {
        t.streamEnded = true;
        if (t.stage != Stage.COMPLETED) {
          t.fail(Stage.FAILED, "the processing stream ended without " + COMPLETED + (message == null ? "" : " (" + message + ")"));
        }
      }
    });
    return track.isPresent();
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

  private void onAnswered(Response response) {
    Request r = response.request();
    String path = path(r.url());
    int status = response.status();
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
    if (PROCESS.equals(path) && (status < 200 || status >= 300)) {
      byId(UploadWire.fileIdOf(r.postData())).ifPresent(t -> t.fail(Stage.FAILED, "the processing stream answered " + status));
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
