package dev.solweb.killgate.fakesol;

import static dev.solweb.killgate.fakesol.FakeSol.JSON;
import static dev.solweb.killgate.fakesol.FakeSol.body;
import static dev.solweb.killgate.fakesol.FakeSol.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The upload half of fakesol (../shared/REAL-PAGE.md rows 44-49): the routes behind the page's four
 * upload requests, what each turn's Send named, and the upload faults. The page side
 * ({@code upload.js}) draws the inputs and chips and makes the requests itself, as the real page does.
 *
 * <ol>
 *   <li>{@code POST /backend-api/files} {@code {file_name, file_size, use_case}} answers
 *       {@code {status: success, file_id, upload_url}} (429 {@code throttled} under that fault, 400
 *       above row 49's sizes);
 *   <li>{@code PUT upload_url} with {@code x-ms-blob-type: BlockBlob} stores the bytes, 201;
 *   <li>{@code POST /backend-api/files/{id}/uploaded} {@code {}};
 *   <li>{@code POST /backend-api/files/process_upload_stream} streams JSON lines
 *       {@code file.processing.started}, (documents) {@code .metadata}, {@code .file_ready},
 *       {@code .completed} (or {@code .failed} under that fault).
 * </ol>
 *
 * <p>What a turn carried is what its {@code /f/conversation} body names by file id (row 48), never
 * what the page showed: {@code /control} reports it per turn as {@code upload_turns}.
 */
public final class FakeSolUploads {

  /** The upload faults a test sets ({@link #fault}); each comes from a REAL-PAGE row. */
  public enum Fault {
    /**
     * Row 46: the chip shows at once with no progress, Send stays usable, and processing takes
     * {@link #SLOW_PROCESSING_MS}, and the stream stays open as long again after its completed line
     * (the page takes the file in at the stream's end); a Send before it ends drops the file without a word.
     */
    EARLY_CHIP,
    /** Row 45: the processing stream ends with {@code file.processing.failed}. */
    PROCESSING_FAILS,
    /** Row 49: {@code POST /backend-api/files} answers 429 {@code throttled}, the wait only in its text. */
    THROTTLED,
    /** Row 45: an image finishes after {@code /uploaded} with no processing stream; the chip shows a loaded preview. */
    IMAGE_WITHOUT_STREAM,
    /** A zero-sized file input first in the composer that starts no upload, and no id on the real one. */
    DECOY_INPUT,
    /** No file input in the DOM: only "Add files and more" and its menu item open the file chooser. */
    MENU_ONLY
  }

  /** How long processing takes under {@link Fault#EARLY_CHIP}: long enough for a hasty Send to drop the file. */
  static final long SLOW_PROCESSING_MS = 1500;
  /** Row 49's limits. */
  static final long MAX_FILE = 512L * 1024 * 1024;
  static final long MAX_IMAGE = 20L * 1024 * 1024;
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("h:mm a", Locale.US);

  /** One file the page created: what it declared, what it put, and how far it got. */
  public record Stored(String fileId, String name, long declaredSize, byte[] bytes, String sha256, boolean uploaded,
      boolean processed) {

    Stored with(byte[] put) {
      return new Stored(fileId, name, declaredSize, put, FakeSolUploads.sha256(put), uploaded, processed);
    }
  }

  /** One turn request and the files its body named, in body order. */
  public record Turn(String userMessageId, List<Stored> files) {}

  private final Clock clock;
  private final Set<Fault> faults = EnumSet.noneOf(Fault.class);
  private final Map<String, Stored> files = new LinkedHashMap<>();
  private final List<Turn> turns = new ArrayList<>();
  private int createRequests;
  private Instant throttledUntil;

  /** The page's side is {@code upload.js}, which FakeSol's render step serves beside the page's own scripts. */
  FakeSolUploads(Clock clock) {
    this.clock = clock;
  }

  /** Turns a fault on (for the rest of this fakesol's life). */
  public synchronized FakeSolUploads fault(Fault fault) {
    faults.add(fault);
    return this;
  }

  /** Under {@link Fault#THROTTLED}: when the 429's text says uploads are possible again (default: in an hour). */
  public synchronized FakeSolUploads throttledUntil(Instant until) {
    this.throttledUntil = until;
    return this;
  }

  /** Every turn request so far, with the files its body named. */
  public synchronized List<Turn> turns() {
    return List.copyOf(turns);
  }

  /** Every file the page created ({@code POST /backend-api/files} answered 200), sent or not. */
  public synchronized List<Stored> files() {
    return List.copyOf(files.values());
  }

  /** How many {@code POST /backend-api/files} the page made, refused ones included. */
  public synchronized int createRequests() {
    return createRequests;
  }

  void mount(Router router, Vertx vertx) {
    router.get("/api/uploads").handler(this::config);
    router.post("/backend-api/files").handler(this::create);
    router.put("/fakesol-blob/:id").handler(this::put);
    router.post("/backend-api/files/process_upload_stream").handler(ctx -> process(ctx, vertx));
    router.post("/backend-api/files/:id/uploaded").handler(this::uploaded);
  }

  private synchronized void config(RoutingContext ctx) {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray("faults");
    faults.forEach(f -> list.add(f.name().toLowerCase(Locale.ROOT)));
    json(ctx, 200, out);
  }

  private synchronized void create(RoutingContext ctx) {
    createRequests++;
    JsonNode body = body(ctx);
    String name = body.path("file_name").asText("");
    long size = body.path("file_size").asLong(-1);
    if (faults.contains(Fault.THROTTLED)) {
      Instant until = throttledUntil != null ? throttledUntil : clock.instant().plusSeconds(3600);
      ObjectNode out = JSON.createObjectNode();
      out.putObject("detail").put("code", "throttled").put("message", "You've reached your file upload limit. You can upload"
          + " more files after " + CLOCK.format(until.atZone(ZoneId.systemDefault())) + ".");
      json(ctx, 429, out);
      return;
    }
    boolean image = name.matches("(?i).*\\.(png|jpe?g|gif|webp)$");
    if (name.isEmpty() || size < 0 || size > MAX_FILE || (image && size > MAX_IMAGE)) {
      json(ctx, 400, JSON.createObjectNode().put("detail", "File too large or unnamed: " + name + " (" + size + " bytes)"));
      return;
    }
    String id = "file_" + UUID.randomUUID().toString().replace("-", "");
    files.put(id, new Stored(id, name, size, new byte[0], sha256(new byte[0]), false, false));
    // The real upload_url is a signed blob URL on another host; fakesol's is on its own origin.
    json(ctx, 200, JSON.createObjectNode().put("status", "success").put("file_id", id)
        .put("upload_url", "/fakesol-blob/" + id + "?sig=" + Integer.toHexString(id.hashCode())));
  }

  private synchronized void put(RoutingContext ctx) {
    Stored stored = files.get(ctx.pathParam("id"));
    if (stored == null || !"BlockBlob".equals(ctx.request().getHeader("x-ms-blob-type"))) {
      ctx.response().setStatusCode(stored == null ? 404 : 400).end();
      return;
    }
    files.put(stored.fileId(), stored.with(ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes()));
    ctx.response().setStatusCode(201).end();
  }

  private synchronized void uploaded(RoutingContext ctx) {
    Stored s = files.get(ctx.pathParam("id"));
    if (s == null || s.bytes().length != s.declaredSize()) {
      json(ctx, s == null ? 404 : 400, JSON.createObjectNode().put("status", "error"));
      return;
    }
    files.put(s.fileId(), new Stored(s.fileId(), s.name(), s.declaredSize(), s.bytes(), s.sha256(), true, s.processed()));
    json(ctx, 200, JSON.createObjectNode().put("status", "success"));
  }

  /** The processing stream: one JSON object per line, written as processing goes. */
  private void process(RoutingContext ctx, Vertx vertx) {
    JsonNode body = body(ctx);
    String id = body.path("file_id").asText("");
    boolean document = body.path("index_for_retrieval").asBoolean(false);
    boolean fails;
    long pace;
    long hold;
    synchronized (this) {
      Stored s = files.get(id);
      if (s == null || !s.uploaded()) {
        json(ctx, 404, JSON.createObjectNode().put("detail", "no uploaded file " + id));
        return;
      }
      fails = faults.contains(Fault.PROCESSING_FAILS);
      pace = faults.contains(Fault.EARLY_CHIP) ? SLOW_PROCESSING_MS / 3 : 40;
      hold = faults.contains(Fault.EARLY_CHIP) ? SLOW_PROCESSING_MS : pace;
    }
    HttpServerResponse res = ctx.response().setChunked(true).putHeader("content-type", "application/x-ndjson")
        .putHeader("cache-control", "no-store");
    List<String> events = new ArrayList<>(List.of("file.processing.started"));
    if (fails) {
      events.add("file.processing.failed");
    } else {
      if (document) {
        events.add("file.processing.metadata");
      }
      events.add("file.processing.file_ready");
      events.add("file.processing.completed");
    }
    writeLines(vertx, res, id, events, 0, pace, hold);
  }

  private void writeLines(Vertx vertx, HttpServerResponse res, String id, List<String> events, int at, long pace, long hold) {
    if (res.closed()) {
      return;
    }
    if (at == events.size()) {
      res.end();
      return;
    }
    String event = events.get(at);
    ObjectNode line = JSON.createObjectNode().put("file_id", id).put("event", event);
    if (event.endsWith(".failed")) {
      line.put("message", "We couldn't process this file.");
    }
    if (event.endsWith(".completed")) {
      synchronized (this) {
        Stored s = files.get(id);
        files.put(id, new Stored(s.fileId(), s.name(), s.declaredSize(), s.bytes(), s.sha256(), true, true));
      }
    }
    res.write(Buffer.buffer(line.toString() + "\n"));
    // The early chip's page also holds its stream open a while after completed, and takes the file in
    // only at the stream's end: a Send on the completed line alone still drops it.
    long next = event.endsWith(".completed") ? hold : pace;
    vertx.setTimer(next, t -> writeLines(vertx, res, id, events, at + 1, pace, hold));
  }

  /**
   * A turn request's body: records the files it names (image pointers in the parts, ids in
   * {@code metadata.attachments}) and returns their names, as the submission records them.
   */
  synchronized List<String> sent(JsonNode body) {
    JsonNode message = body.path("messages").path(0);
    List<String> ids = new ArrayList<>();
    for (JsonNode part : message.path("content").path("parts")) {
      String pointer = part.path("asset_pointer").asText("");
      if (!pointer.isEmpty()) {
        ids.add(pointer.substring(pointer.indexOf("://") + 3));
      }
    }
    List<String> names = new ArrayList<>();
    for (JsonNode a : message.path("metadata").path("attachments")) {
      String id = a.path("id").asText("");
      if (!id.isEmpty() && !ids.contains(id)) {
        ids.add(id);
      } else if (id.isEmpty()) {
        names.add(a.path("name").asText()); // a page that names a file it never uploaded
      }
    }
    List<Stored> named = new ArrayList<>();
    for (String id : ids) {
      Stored s = files.get(id);
      if (s != null) {
        named.add(s);
      }
    }
    turns.add(new Turn(message.path("id").asText(null), List.copyOf(named)));
    List<String> out = new ArrayList<>(named.stream().map(Stored::name).toList());
    out.addAll(names);
    return out;
  }

  /** The prompt of a turn's user message: its last text part (after any image pointers, row 48). */
  static String prompt(JsonNode message) {
    String text = "";
    for (JsonNode part : message.path("content").path("parts")) {
      if (part.isTextual()) {
        text = part.asText();
      }
    }
    return text;
  }

  /** {@code /control}: {@code upload_turns: [{user_message_id, uploads: [{name, bytes, sha256, file_id}]}]}. */
  synchronized void report(ObjectNode control) {
    ArrayNode out = control.putArray("upload_turns");
    for (Turn turn : turns) {
      ObjectNode t = out.addObject().put("user_message_id", turn.userMessageId());
      ArrayNode uploads = t.putArray("uploads");
      turn.files().forEach(f -> uploads.addObject().put("name", f.name()).put("bytes", f.bytes().length)
          .put("sha256", f.sha256()).put("file_id", f.fileId()));
    }
    control.put("upload_requests", createRequests);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
