package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What fakesol's page sends on the wire around a turn ({@code wire.js}; ../shared/REAL-PAGE.md rows
 * 17, 25, 31): whether it posts {@code /prepare} while the user types (the late-2026 shapes do;
 * older shapes post only a bare sibling at Send), how long typing must rest first, and the effort
 * its requests carry: the pill's, or one fixed whatever the pill shows ({@code --page-effort}: a
 * browser left in Work mode, a stale pill). Keeps every {@code /prepare} body's effort fields for
 * {@code /control}; never the text.
 *
 * <p>No public source gives the real page's debounce (row 31 says so); fakesol rests
 * {@link #DEFAULT_DEBOUNCE} unless told otherwise ({@code --prepare-debounce-ms}).
 */
public final class PageWire {

  /** fakesol's choice, as no source gives the real interval. */
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(300);
  /** The shapes whose page prepares while typing (row 17 was measured on the October page). */
  static final Set<String> PREPARING_SHAPES = Set.of("2026-09-turnkey", "2026-09-en", "2026-10", "2026-11");

  /** Row 25, read back: a request's model and thinking_effort to the effort it means (fakesol's own copy of the facts). */
  private static final Map<String, Effort> THINKING = Map.of(
      "standard", Effort.MEDIUM, "extended", Effort.HIGH, "max", Effort.XHIGH);

  /** One /prepare the page sent: its effort fields and how it was dispatched. */
  public record Prepare(String model, String thinkingEffort, String dispatch, String conversationId, long atMillis) {}

  private final Clock clock;
  private volatile Boolean prepare;
  private volatile Duration debounce = DEFAULT_DEBOUNCE;
  private volatile Effort pageEffort;
  private volatile int ignoredSendClicks;
  private final List<Prepare> prepares = new ArrayList<>();

  PageWire(Clock clock) {
    this.clock = clock;
  }

  /** Whether the page posts /prepare while typing; null (the default) goes by the page shape. */
  public PageWire prepare(Boolean on) {
    this.prepare = on;
    return this;
  }

  public PageWire debounce(Duration rest) {
    if (rest.isNegative()) {
      throw new IllegalArgumentException("a debounce cannot be negative: " + rest);
    }
    this.debounce = rest;
    return this;
  }

  /** The effort every request of the page carries, whatever its pill shows; null: the pill's. */
  public PageWire pageEffort(Effort effort) {
    this.pageEffort = effort;
    return this;
  }

  /**
   * The page takes the next {@code clicks} Send clicks and does nothing with them (a page still
   * hydrating): no request, the text stays in the composer. Read by a page when it loads.
   */
  public PageWire ignoreSendClicks(int clicks) {
    this.ignoredSendClicks = clicks;
    return this;
  }

  /** Whether the page of shape {@code dom} posts /prepare while typing. */
  public boolean prepares(String dom) {
    return prepare != null ? prepare : PREPARING_SHAPES.contains(dom);
  }

  /** {@code GET /api/wire}: what wire.js does on this page. */
  ObjectNode config(String dom) {
    ObjectNode out = FakeSol.JSON.createObjectNode().put("prepare", prepares(dom)).put("debounce_ms", debounce.toMillis());
    out.put("page_effort", pageEffort == null ? null : pageEffort.label());
    out.put("ignore_send_clicks", ignoredSendClicks);
    ignoredSendClicks = 0; // one page load takes them
    return out;
  }

  /** A {@code /prepare} body arrived: its effort fields are kept, its text is not. */
  synchronized void prepared(JsonNode body) {
    prepares.add(new Prepare(text(body.path("model")), text(body.path("thinking_effort")),
        text(body.path("client_prepare_dispatch")), text(body.path("conversation_id")), clock.millis()));
  }

  public synchronized List<Prepare> prepares() {
    return List.copyOf(prepares);
  }

  /**
   * The effort label a turn request means: its {@code model} and {@code thinking_effort} by row
   * 25, else its {@code thinking_effort} as the page's own label (an older page sent the label).
   */
  static String label(JsonNode body) {
    String model = text(body.path("model"));
    String effort = text(body.path("thinking_effort"));
    return wireEffort(model, effort).map(Effort::label).orElse(effort);
  }

  private static Optional<Effort> wireEffort(String model, String effort) {
    if (model == null) {
      return Optional.empty();
    }
    if (!model.matches("gpt-\\d+(-\\d+)?(-thinking|-pro)?")) {
      // A model slug spelled another way (rows 61, 62: model-families): its thinking_effort, else
      // its Pro or Instant variant, as the seat reads it.
      if (effort != null) {
        return Optional.ofNullable(THINKING.get(effort.toLowerCase(Locale.ROOT)));
      }
      return Optional.of(model.contains("pro") ? Effort.PRO : Effort.INSTANT);
    }
    if (model.endsWith("-pro")) {
      return effort == null ? Optional.of(Effort.PRO) : Optional.empty();
    }
    if (model.endsWith("-thinking")) {
      return effort == null ? Optional.empty() : Optional.ofNullable(THINKING.get(effort.toLowerCase(Locale.ROOT)));
    }
    return effort == null && model.matches("gpt-\\d+(-\\d+)?") ? Optional.of(Effort.INSTANT) : Optional.empty();
  }

  /** {@code /control}'s {@code prepares}. */
  synchronized void report(ObjectNode control) {
    ArrayNode out = control.putArray("prepares");
    for (Prepare p : prepares) {
      out.addObject().put("model", p.model()).put("thinking_effort", p.thinkingEffort()).put("dispatch", p.dispatch())
          .put("conversation_id", p.conversationId()).put("at_ms", p.atMillis());
    }
  }

  private static String text(JsonNode n) {
    return n.isTextual() ? n.asText() : null;
  }
}
