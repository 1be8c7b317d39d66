package dev.solweb.provider.seat.playwright.inspect;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.solweb.provider.platform.Json;
import java.util.List;

/**
 * What {@code solwebctl doctor} saw on a ChatGPT page, read without typing or sending
 * ({@link PageInspector} builds it). Its JSON form, documented in docs/solwebctl.md, is what
 * {@code doctor --json} prints and what the daemon's {@code GET /v1/doctor} answers; a field is
 * a fact the page showed, never a guess, so an unreadable thing is null or {@code unknown}.
 *
 * @param url the page's own location after it settled
 * @param state one word for what the page is ready for: {@code ready}, {@code busy} (Stop or a
 *     live-work signal shows), {@code logged_out}, {@code challenged}, {@code capped}, {@code error},
 *     {@code no_composer}
 * @param signedIn the session endpoint reported a user (null: it did not answer)
 * @param domVariant the closest known page shape: {@code 2026-03}, {@code 2026-07},
 *     {@code 2026-08}, {@code 2026-09}, {@code 2026-09-turnkey}, {@code 2026-10}, or {@code unknown}
 * @param domClosest with {@code dom_variant} {@code unknown}: the known shape the page comes closest to (else null)
 * @param turns conversation turns mounted on the page (long threads mount only the last few)
 * @param lastReply the newest assistant message, or null when the page shows none
 * @param banners every visible banner, toast or error line, with what the seat makes of it
 * @param checks one verdict per thing the seat needs; the report is ok when all are
 */
@JsonPropertyOrder({"ok", "url", "state", "signed_in", "dom_variant", "dom_closest", "composer", "send", "stop", "turns",
    "last_reply", "effort", "banners", "checks"})
public record PageReport(
    String url,
    String state,
    @JsonProperty("signed_in") Boolean signedIn,
    @JsonProperty("dom_variant") String domVariant,
    @JsonProperty("dom_closest") @JsonInclude(JsonInclude.Include.NON_NULL) String domClosest,
    Composer composer,
    Send send,
    Stop stop,
    int turns,
    @JsonProperty("last_reply") @JsonInclude(JsonInclude.Include.ALWAYS) LastReply lastReply,
    EffortReport effort,
    List<Banner> banners,
    List<Check> checks) {

  /** Page shapes named after when they were seen (REAL-PAGE.md rows 1, 4, 13-16 and 26-28). */
  public static final List<String> DOM_VARIANTS = List.of("2026-03", "2026-07", "2026-08", "2026-09", "2026-09-turnkey",
      "2026-10", "unknown");
  /** How the effort is picked (REAL-PAGE.md row 1, shapes a-d; row 26, October's Power slider). */
  public static final List<String> PICKERS = List.of("menu", "advanced-submenu", "slider", "power", "unknown");

  /** Reads reports of newer daemons too: a field this one does not know is skipped. */
  private static final ObjectReader READER = Json.MAPPER.readerFor(PageReport.class)
      .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** A report of a page that matches a known shape (no closest shape to name). */
  public PageReport(String url, String state, Boolean signedIn, String domVariant, Composer composer, Send send, Stop stop,
      int turns, LastReply lastReply, EffortReport effort, List<Banner> banners, List<Check> checks) {
    this(url, state, signedIn, domVariant, null, composer, send, stop, turns, lastReply, effort, banners, checks);
  }

  public PageReport {
    banners = List.copyOf(banners);
    checks = List.copyOf(checks);
    if (!DOM_VARIANTS.contains(domVariant)) {
      throw new IllegalArgumentException("dom_variant must be one of " + DOM_VARIANTS + ", got: " + domVariant);
    }
  }

  /**
   * @param editable the composer accepts input (contenteditable, not disabled)
   * @param via which strategy found it ({@code id}, {@code label}, {@code structure}), null when none did
   */
  @JsonPropertyOrder({"found", "editable", "via"})
  public record Composer(boolean found, boolean editable, String via) {}

  /**
   * @param enabled Send is clickable now (it is disabled, or absent, while the composer is empty)
   * @param via which strategy found it ({@code testid}, {@code label}), null when none did
   */
  @JsonPropertyOrder({"found", "enabled", "via"})
  public record Send(boolean found, boolean enabled, String via) {}

  /** @param via which strategy found it ({@code testid}, {@code label}, {@code structure}), null when none did */
  @JsonPropertyOrder({"found", "via"})
  public record Stop(boolean found, String via) {}

  /**
   * @param complete Stop is gone and the finished-turn action bar shows
   * @param markdown the raw markdown from the turn's Copy button, else the prose read from the DOM
   * @param codeBlocks each code block's text, from {@code source}
   * @param source {@code copy} (the Copy button's markdown) or {@code dom} (read from the page: the
   *     markdown its blocks make, each code block exact with its language from the block's header)
   * @param via which renderer's strategy found the message: {@code author-role} (up to September),
   *     {@code markdown-text-style} (the turn-key thread), {@code dil} (October's renderer)
   */
  @JsonPropertyOrder({"message_id", "model_slug", "complete", "markdown", "code_blocks", "source", "via"})
  public record LastReply(
      @JsonProperty("message_id") String messageId,
      @JsonProperty("model_slug") String modelSlug,
      boolean complete,
      String markdown,
      @JsonProperty("code_blocks") List<String> codeBlocks,
      String source,
      String via) {
    public LastReply {
      codeBlocks = List.copyOf(codeBlocks);
      if (!source.equals("copy") && !source.equals("dom")) {
        throw new IllegalArgumentException("source must be copy or dom, got: " + source);
      }
    }
  }

  /**
   * @param label what the effort pill reads (null: no pill)
   * @param effort the effort in force ({@code instant} ... {@code pro}): the one the pill's label
   *     means, else (no pill, or a label on no ladder) the one the open menu shows checked; null when neither names one
   * @param picker the picker's shape, {@code unknown} when the menu was not opened or matched no shape
   * @param options the picker's effort rows, as the open menu showed them
   * @param mode the Chat/Work switch: {@code chat}, {@code work} (another picker; the seat presses
   *     Chat before choosing an effort), null when the page shows no switch
   */
  @JsonPropertyOrder({"label", "effort", "picker", "options", "mode"})
  public record EffortReport(String label, String effort, String picker, List<EffortOption> options, String mode) {
    public EffortReport {
      options = List.copyOf(options);
      if (!PICKERS.contains(picker)) {
        throw new IllegalArgumentException("picker must be one of " + PICKERS + ", got: " + picker);
      }
    }
  }

  /**
   * One row of the effort picker: its text, the effort it means (or null), whether it is chosen,
   * and whether the page shows it disabled (a capped tier: REAL-PAGE row 21).
   */
  @JsonPropertyOrder({"label", "effort", "checked", "disabled"})
  public record EffortOption(String label, String effort, boolean checked, boolean disabled) {}

  /**
   * @param kind what the seat makes of it: a {@link dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict} in lower case
   *     ({@code cap}, {@code feature_cap}, {@code conversation_full}, ..., {@code other})
   * @param resumeAt for a cap, when it lifts (ISO-8601), if the text names a time
   */
  @JsonPropertyOrder({"text", "kind", "resume_at"})
  public record Banner(String text, String kind, @JsonProperty("resume_at") String resumeAt) {}

  @JsonPropertyOrder({"name", "ok", "detail"})
  public record Check(String name, boolean ok, String detail) {}

  /** True when every check passed. */
  @JsonProperty("ok")
  public boolean ok() {
    return checks.stream().allMatch(Check::ok);
  }

  public String toJson() {
    try {
      return Json.MAPPER.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("PageReport cannot be written as JSON", e);
    }
  }

  /** @throws IllegalArgumentException when {@code json} is not a PageReport */
  public static PageReport fromJson(String json) {
    try {
      return READER.readValue(json);
    } catch (JsonProcessingException | RuntimeException e) {
      throw new IllegalArgumentException("not a doctor report: " + e.getMessage(), e);
    }
  }
}
