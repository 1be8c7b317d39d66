package dev.solweb.provider.seat.playwright.inspect;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.page.CapTimes;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.Controls;
import dev.solweb.provider.seat.playwright.page.EffortPicker;
import dev.solweb.provider.seat.playwright.page.EffortLabels;
import dev.solweb.provider.seat.playwright.page.MarkdownFences;
import dev.solweb.provider.seat.playwright.page.PageVerdicts;
import dev.solweb.provider.seat.playwright.page.PageWait;
import dev.solweb.provider.seat.playwright.inspect.PageReport.Banner;
import dev.solweb.provider.seat.playwright.inspect.PageReport.Check;
import dev.solweb.provider.seat.playwright.inspect.PageReport.EffortOption;
import dev.solweb.provider.seat.playwright.inspect.PageReport.EffortReport;
import dev.solweb.provider.seat.playwright.inspect.PageReport.LastReply;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a ChatGPT page into a {@link PageReport} for {@code solwebctl doctor}, through
 * {@link ChatGptPage}'s verbs and selectors. It never types, never clicks Send, Stop or Retry;
 * it may click the turn's Copy button (the copy is intercepted, the OS clipboard is untouched)
 * and open the effort menu, which it closes with Escape. A page that is not ready is still read:
 * what it shows is the report.
 *
 * <p>Confined to the seat's thread, like the {@link Page} it reads.
 */
public final class PageInspector {

  private static final Duration NAVIGATION = Duration.ofSeconds(30);
  private static final Duration SETTLE = Duration.ofSeconds(15);
  private static final Duration POLL = Duration.ofMillis(100);
  private static final int STABLE_POLLS = 5;

  private final Page page;
  private final ChatGptPage chat;

  public PageInspector(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /**
   * Opens {@code url} (or stays on the current page when null), waits for it to settle and reads it.
   *
   * @throws SeatException unavailable when the page cannot be loaded at all (a settle that runs
   *     out returns what it saw)
   */
  public PageReport inspect(URI url, boolean openEffortMenu) throws SeatException {
    if (url != null) {
      open(url);
    }
    ChatGptPage.State s = settle();
    return report(observe(s, openEffortMenu));
  }

  /**
   * Navigates to {@code url}; an HTTP error page still counts as opened (it is read like any page).
   *
   * @throws SeatException unavailable when the page cannot be loaded at all (DNS, refused, TLS):
   *     there is nothing to report on
   */
  public void open(URI url) throws SeatException {
    try {
      page.navigate(url.toString(), new Page.NavigateOptions().setTimeout(NAVIGATION.toMillis()));
    } catch (PlaywrightException e) {
      String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("").strip();
      throw new SeatException(SeatException.Reason.FAILED, ProviderFailure.of(Kind.UNAVAILABLE,
          "cannot open " + url + ": " + message), false, e);
    }
  }

  /** Polls until what the page shows held still for a moment, or the settle time ran out. */
  public ChatGptPage.State settle() throws SeatException {
    ChatGptPage.State[] last = {null};
    int[] same = {0};
    ChatGptPage.State stable = new PageWait(POLL, () -> { }).until(SETTLE, () -> {
      ChatGptPage.State s = chat.state(Set.of());
      same[0] = last[0] != null && signature(last[0]).equals(signature(s)) ? same[0] + 1 : 1;
      last[0] = s;
      return same[0] >= STABLE_POLLS ? s : null;
    }, () -> null);
    return stable != null ? stable : last[0];
  }

  private static List<Object> signature(ChatGptPage.State s) {
    return List.of(s.url(), s.composer(), s.loginWall(), s.challenge(), s.stopVisible(), s.turns(),
        Objects.toString(s.targetId()), Objects.toString(s.targetText()), s.actionBar(), s.banners());
  }

  /** Opens the effort control (through any submenu) and leaves it open; true when it opened. */
  public boolean openEffortMenu() {
    try {
      chat.openToEfforts();
      return true;
    } catch (SeatException | PlaywrightException e) {
      return false;
    }
  }

  /** Escape, as a user closes a menu; never a click elsewhere on the page. */
  public void closeEffortMenu() {
    chat.closeMenus();
  }

  @SuppressWarnings("unchecked")
  private Observed observe(ChatGptPage.State s, boolean openEffortMenu) {
    Map<String, Object> controls = chat.controlsFound();
    ChatGptPage.Session session = chat.onSite() ? chat.session() : new ChatGptPage.Session(false, null);

    LastReply reply = null;
    List<String> domBlocks = null;
    if (s.targetId() != null) {
      ChatGptPage.DomAnswer dom = chat.domAnswer(s.targetId());
      domBlocks = dom.blocks();
      boolean complete = !s.stopVisible() && !s.thinking() && s.actionBar();
      // The raw markdown through Copy, as the seat reads an answer; only on a finished turn
      // (mid-turn it would copy a part). Else the markdown the DOM's blocks make.
      String copied = complete ? chat.copyTurnMarkdown(s.targetId()) : null;
      reply = copied != null && !copied.isBlank()
          ? new LastReply(s.targetId(), s.targetSlug(), true, copied, MarkdownFences.split(copied).blocks(), "copy", s.via().reply())
          : new LastReply(s.targetId(), s.targetSlug(), complete, dom.markdown(), dom.blocks(), "dom", s.via().reply());
    }

    EffortPicker.Pill pill = chat.effort().pill();
    boolean menuOpen = chat.effort().menuOpen();
    boolean tried = menuOpen || (openEffortMenu && pill != null && !s.stopVisible());
    EffortPicker.EffortMenu menu = null;
    String menuProblem = null;
    if (tried) {
      try {
        menu = chat.effortPicker(); // a menu someone left open is read as it is, nothing clicked
      } catch (SeatException e) {
        menuProblem = e.failure().detail();
      } catch (PlaywrightException e) {
        menuProblem = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
      }
    }
    Map<String, Object> shapes = chat.shapeMarks();

    List<Banner> banners = new ArrayList<>();
    for (ChatGptPage.Banner banner : s.banners()) {
      PageVerdicts.Verdict verdict = banner.verdict();
      String resumeAt = verdict.cap() ? CapTimes.parse(banner.text(), Instant.now(), ZoneId.systemDefault())
          .map(Instant::toString).orElse(null) : null;
      banners.add(new Banner(banner.text(), verdict.name().toLowerCase(Locale.ROOT), resumeAt));
    }
    EffortPicker.PickerKind kind = menu == null ? EffortPicker.PickerKind.UNKNOWN : menu.kind();
    List<EffortOption> options = menu == null ? List.of() : menu.options().stream()
        .map(o -> new EffortOption(o.label(), o.effort() == null ? null : o.effort().suffix(), o.checked(), o.disabled())).toList();
    String checked = menu == null || menu.checked() == null || menu.checked().effort() == null ? null
        : menu.checked().effort().suffix();
    Shapes marks = new Shapes(bool(shapes.get("spans")), bool(shapes.get("preCode")), bool(shapes.get("toneOnlyPill")),
        bool(shapes.get("turnKey")), bool(shapes.get("dil")), bool(shapes.get("wrapper")), bool(shapes.get("bareComposer")));
    String mode = shapes.get("mode") instanceof String m ? m : null;
    return new Observed(s.url(), chat.onSite(), s.challenge(), s.loginWall(), session.known() ? session.email() != null : null,
        bool(controls.get("composerFound")), bool(controls.get("composerEditable")), bool(controls.get("composerEmpty")),
        bool(controls.get("sendFound")), s.sendEnabled(), s.stopVisible() || bool(controls.get("stopFound")), s.thinking(),
        new Vias((String) controls.get("composerVia"), (String) controls.get("sendVia"), (String) controls.get("stopVia")),
        s.turns(), reply, domBlocks, pill == null ? null : pill.label(), pill == null ? null : pill.attribute(), checked, tried,
        menu != null, menuProblem, kind.wire(), options, mode, variant(kind, marks),
        closest(new Vias((String) controls.get("composerVia"), (String) controls.get("sendVia"), (String) controls.get("stopVia")),
            s.via().reply()), banners);
  }

  private static boolean bool(Object o) {
    return Boolean.TRUE.equals(o);
  }

  /** The page's shape marks (see {@link #SHAPES}). */
  record Shapes(boolean spanCode, boolean preCode, boolean toneOnlyPill, boolean turnKey, boolean dil, boolean wrapper,
      boolean bareComposer) {}

  /** Which strategy found the composer, Send and Stop ({@link Controls}), null where none did. */
  record Vias(String composer, String send, String stop) {}

  /**
   * The closest known page shape: October's renderer, wrapper or id-less composer, then the
   * turn-key thread, then the effort picker (it changed most), the pill and the code blocks. The
   * July menu (a) was also the March one; span code blocks tell March.
   */
  static String variant(EffortPicker.PickerKind picker, Shapes m) {
    if (picker == EffortPicker.PickerKind.POWER || m.dil() || m.wrapper() || m.bareComposer()) {
      return "2026-10";
    }
    if (m.turnKey()) {
      return "2026-09-turnkey";
    }
    if (picker == EffortPicker.PickerKind.SLIDER || (picker == EffortPicker.PickerKind.UNKNOWN && m.toneOnlyPill())) {
      return "2026-09";
    }
    if (picker == EffortPicker.PickerKind.ADVANCED_SUBMENU) {
      return "2026-08";
    }
    if (m.spanCode()) {
      return "2026-03";
    }
    if (m.preCode() || picker == EffortPicker.PickerKind.MENU) {
      return "2026-07";
    }
    return "unknown";
  }

  /**
   * The shape a page that matches none comes closest to, by how its controls were found: an id
   * composer with a test-id Send is the classic composer (2026-07); an answer found in the
   * turn-key thread is September's; anything else found by label or place alone is October's or
   * later (the newest shape is the closest guess for a page nobody measured yet).
   */
  static String closest(Vias via, String replyVia) {
    if ("author-role".equals(replyVia) || ("id".equals(via.composer()) && "testid".equals(via.send()))) {
      return "2026-07";
    }
    if ("markdown-text-style".equals(replyVia) && "id".equals(via.composer())) {
      return "2026-09-turnkey";
    }
    return "2026-10";
  }

  /** Every raw fact a report is built from; {@link #report} is a pure function of it. */
  record Observed(
      String url, boolean onSite, boolean challenge, boolean loginWall, Boolean signedIn,
      boolean composerFound, boolean composerEditable, boolean composerEmpty,
      boolean sendFound, boolean sendEnabled, boolean stopFound, boolean working, Vias via, int turns,
      LastReply reply, List<String> domBlocks, String pillLabel, String pillAttribute, String checkedEffort, boolean menuTried,
      boolean menuOpened, String menuProblem, String picker, List<EffortOption> options, String mode, String domVariant,
      String domClosest, List<Banner> banners) {

    /** The effort the pill shows: its language-free attribute first, its label last (REAL-PAGE row 40). */
    Effort pillEffort() {
      return EffortLabels.fromAttribute(pillAttribute).or(() -> EffortLabels.effort(pillLabel)).orElse(null);
    }
  }

  /** The report and its checks, from what was observed. */
  static PageReport report(Observed o) {
    // The pill names the effort (its attribute, else its label); without a pill (or with one on no ladder), the menu's checked row does.
    String effort = o.pillEffort() != null ? o.pillEffort().suffix() : o.checkedEffort();
    EffortReport effortReport = new EffortReport(o.pillLabel(), effort, o.picker(), o.options(), o.mode());
    return new PageReport(o.url(), state(o), o.signedIn(), o.domVariant(), o.domVariant().equals("unknown") ? o.domClosest() : null,
        new PageReport.Composer(o.composerFound(), o.composerEditable(), o.via().composer()),
        new PageReport.Send(o.sendFound(), o.sendEnabled(), o.via().send()), new PageReport.Stop(o.stopFound(), o.via().stop()),
        o.turns(), o.reply(), effortReport, o.banners(), checks(o, effort));
  }

  private static String state(Observed o) {
    if (o.challenge()) {
      return "challenged";
    }
    if (o.loginWall() || Boolean.FALSE.equals(o.signedIn())) {
      return "logged_out";
    }
    if (o.banners().stream().anyMatch(b -> verdict(b).probe() == SeatProbe.State.CAPPED)) {
      return "capped";
    }
    if (o.banners().stream().anyMatch(PageInspector::fault)) {
      return "error";
    }
    if (!o.composerFound()) {
      return "no_composer";
    }
    return o.stopFound() || o.working() ? "busy" : "ready";
  }

  private static List<Check> checks(Observed o, String effort) {
    List<Check> checks = new ArrayList<>();
    checks.add(new Check("page", o.onSite(), o.onSite() ? "on " + o.url() : "the page left the chat site: " + o.url()));
    checks.add(new Check("challenge", !o.challenge(), o.challenge() ? "a Cloudflare challenge: pass it in a headed browser" : "none"));
    checks.add(new Check("signed_in", !o.loginWall() && Boolean.TRUE.equals(o.signedIn()),
        o.loginWall() ? "the login wall shows"
            : o.signedIn() == null ? "the session endpoint did not answer"
            : o.signedIn() ? "the session has a user" : "a guest session: log in"));
    checks.add(new Check("composer", o.composerFound() && o.composerEditable(),
        !o.composerFound() ? Controls.notFound("composer", Controls.COMPOSER)
            : (o.composerEditable() ? "found, editable" : "found, not editable") + ", by " + o.via().composer()));
    checks.add(new Check("send_button", o.sendFound() || o.composerEmpty(),
        o.sendFound() ? (o.sendEnabled() ? "found, enabled" : "found, disabled (normal while the composer is empty)")
            + ", by " + o.via().send()
            : o.composerEmpty() ? "not shown while the composer is empty (the voice button takes its slot)"
            : Controls.notFound("Send", Controls.SEND) + " although the composer holds text"));
    checks.add(new Check("idle", !o.stopFound() && !o.working(), o.stopFound() ? "Stop shows: a turn is running"
        : o.working() ? "the page shows live work (thinking, a shimmer, aria-busy): a turn is running" : "no turn running"));
    List<String> faults = o.banners().stream().filter(PageInspector::fault)
        .map(b -> b.kind() + ": " + clip(b.text())).toList();
    checks.add(new Check("banners", faults.isEmpty(), faults.isEmpty()
        ? o.banners().size() + " banner(s), none the seat treats as a fault"
            + (o.banners().stream().anyMatch(b -> b.kind().equals("feature_cap")) ? " (a feature cap: asks with files fail)" : "")
        : String.join("; ", faults)));
    checks.add(new Check("effort_pill", effort != null, o.pillLabel() == null
        ? (effort != null ? "no effort pill; the open menu's checked row is " + effort
            : Controls.notFound("effort pill", Controls.PILL))
        : o.pillEffort() != null ? "\"" + o.pillLabel() + "\" is " + effort
            + (EffortLabels.fromAttribute(o.pillAttribute()).isPresent() ? " (by its data-selected-reasoning-effort)" : "")
        : effort != null ? "\"" + o.pillLabel() + "\" maps to no effort; the open menu's checked row is " + effort
        : "\"" + o.pillLabel() + "\" maps to no effort"));
    if (o.menuTried() && !o.menuOpened()) {
      checks.add(new Check("effort_menu", false, "the effort control did not open: "
          + (o.menuProblem() == null ? "no menu (" + ChatGptPage.MENU_OPEN + ")" : o.menuProblem())));
    } else if (o.menuOpened()) {
      long mapped = o.options().stream().filter(op -> op.effort() != null).count();
      boolean ok = !o.picker().equals("unknown") && mapped > 0;
      checks.add(new Check("effort_menu", ok, "picker " + o.picker() + ", " + mapped + " of " + o.options().size()
          + " rows map to an effort" + (o.options().isEmpty() ? "" : ": " + o.options().stream()
              .map(op -> "\"" + op.label() + "\"" + (op.checked() ? " (checked)" : "")).toList())));
    }
    // A page no shape matches is news, not a fault: the seat's language-free strategies still drive it.
    checks.add(new Check("dom_variant", true, o.domVariant().equals("unknown")
        ? "unknown: the page matches none of " + PageReport.DOM_VARIANTS.subList(0, PageReport.DOM_VARIANTS.size() - 1)
            + "; closest " + o.domClosest()
        : "closest shape " + o.domVariant()));
    if (o.reply() == null && o.turns() > 0) {
      checks.add(new Check("last_reply", false, Controls.answerNotFound() + " in " + o.turns()
          + " visible turn(s)"));
    }
    if (o.reply() != null) {
      LastReply r = o.reply();
      boolean read = !r.markdown().isBlank() || !r.codeBlocks().isEmpty();
      checks.add(new Check("last_reply", r.complete() && read, (r.complete() ? "complete" : "not complete")
          + ", read from " + r.source() + (r.via() == null ? "" : " (" + r.via() + ")") + (read ? "" : ", but empty")));
      if (r.source().equals("copy") && o.domBlocks() != null) {
        boolean same = o.domBlocks().equals(r.codeBlocks());
        checks.add(new Check("code_blocks", same, same ? r.codeBlocks().size() + " block(s), the DOM agrees with Copy"
            : "Copy gives " + r.codeBlocks().size() + " block(s), the DOM " + o.domBlocks().size()));
      }
    }
    return checks;
  }

  /** Whether the seat fails a turn on this banner (one table: {@link PageVerdicts}). */
  private static boolean fault(Banner banner) {
    return verdict(banner).fault();
  }

  private static PageVerdicts.Verdict verdict(Banner banner) {
    return PageVerdicts.Verdict.valueOf(banner.kind().toUpperCase(Locale.ROOT));
  }

  private static String clip(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() > 160 ? one.substring(0, 160) + "…" : one;
  }
}
