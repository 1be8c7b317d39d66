package dev.solweb.provider.seat.playwright.inspect;

import com.microsoft.playwright.Page;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the live page into HTML a user can attach to a bug report ({@code solwebctl capture}).
 * Two stages, so the part that matters most is tested on strings:
 *
 * <ol>
 *   <li>{@link #WALK}, in the page: a copy of the DOM with its structure and attributes, every
 *       script, frame and event handler removed, and every text node replaced by a placeholder
 *       of the same length ({@code x} for each non-space character) unless it is a UI label: a
 *       button, menu item, tab, option or label outside the conversation and the sidebar, a
 *       banner, or a message's error line. Text-bearing attributes ({@code title},
 *       {@code alt}, {@code value}, {@code placeholder}, {@code aria-label} off buttons) inside
 *       the conversation, the sidebar and the composer are replaced the same way.</li>
 *   <li>{@link #scrub}, in Java, over the whole document: the account e-mail (also URL-encoded,
 *       and its name part alone), any e-mail address, and anything shaped like a credential
 *       (JWTs, {@code sk-}/{@code sess-} keys, bearer values, secret-named URL parameters, long
 *       random runs) become fixed markers, in attributes and text alike.</li>
 * </ol>
 *
 * Cookies and storage are never read; the capture holds what the DOM holds, minus the above.
 */
public final class CaptureSanitizer {

  static final String EMAIL_MARK = "scrubbed-email";
  static final String TOKEN_MARK = "scrubbed-token";

  /** The sanitized page and what was done to it. */
  public record Capture(String html, int textsReplaced, int emails, int tokens) {}

  /** The in-page walk: argument {@code {banners, errorLine, composer}} selectors; returns {@code {html, replaced}}. */
  static final String WALK = """
      (sel) => {
        // The conversation in every shape (REAL-PAGE rows 6, 13, 14): messages, turn-key exchanges,
        // the talvt wrapper; every editor (the composer, a Canvas with the user's code: row 15).
        const PRIVATE = '[data-message-author-role], [data-turn-key], [data-talvt-turn-state], [data-chatgpt-search-unit-key], '
          + '[data-dil-message-id], [data-user-message-bubble], nav, aside, textarea, .cm-editor, ' + sel.composer + ', '
          + '[data-testid*="profile"], [data-testid*="account"], [data-testid*="history"]';
        const LABEL = 'button, [role="button"], [role^="menuitem"], [role="tab"], [role="option"], '
          + '[role="slider"], [role="switch"], label, .__menu-label';
        // Banners are UI, not conversation; inside a message only its error line is (REAL-PAGE row 8).
        const KEEP_ANYWHERE = sel.errorLine;
        const KEEP_OUTSIDE = sel.banners;
        const TEXT_ATTRS = ['title', 'alt', 'value', 'placeholder', 'aria-label', 'aria-description', 'aria-valuetext', 'download'];
        const mask = (s) => s.replace(/\\S/g, 'x');
        let replaced = 0;
        const root = document.documentElement.cloneNode(true);
        root.querySelectorAll('script, noscript, iframe, object, embed, base, link[rel*="preload"], link[rel="manifest"]')
          .forEach((el) => el.remove());
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
        const texts = [];
        for (let n = walker.currentNode; n; n = walker.nextNode()) {
          if (n.nodeType === Node.TEXT_NODE) { texts.push(n); continue; }
          for (const a of Array.from(n.attributes)) {
            const v = a.value.trim().toLowerCase();
            if (a.name.startsWith('on') || ((a.name === 'href' || a.name === 'src' || a.name === 'action') && v.startsWith('javascript:'))) {
              n.removeAttribute(a.name);
            }
          }
          if (n.closest(PRIVATE)) {
            const onButton = n.matches('button, [role="button"]') && !n.closest('nav, aside');
            for (const name of TEXT_ATTRS) {
              if (!n.hasAttribute(name) || (name === 'aria-label' && onButton)) continue;
              n.setAttribute(name, mask(n.getAttribute(name)));
              replaced++;
            }
          }
        }
        for (const t of texts) {
          const parent = t.parentElement;
          if (!t.data.trim() || !parent) continue;
          if (parent.closest('style')) continue;
          const inPrivate = !!parent.closest(PRIVATE);
          const keep = inPrivate ? !!parent.closest(KEEP_ANYWHERE) && !parent.closest(sel.composer + ', textarea')
            : !!(parent.closest(KEEP_OUTSIDE) || parent.closest(LABEL));
          if (keep) continue;
          t.data = mask(t.data);
          replaced++;
        }
        const title = root.querySelector('title');
        if (title && title.textContent.trim() && title.textContent.trim() !== 'ChatGPT') {
          title.textContent = mask(title.textContent);
          replaced++;
        }
        return { html: '<!doctype html>\\n' + root.outerHTML, replaced };
      }
      """;

  private static final Pattern EMAIL = Pattern.compile(
      "[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}");
  private static final List<Pattern> TOKENS = List.of(
      // JSON Web Tokens: three base64url parts, the first a JSON header.
      Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
      // API and session keys by their prefixes.
      Pattern.compile("(?<![A-Za-z0-9])(?:sk|sess|rk|pk)-[A-Za-z0-9_-]{16,}"),
      // Bearer values wherever they were written down.
      Pattern.compile("(?i)(?<=bearer[ +]|bearer%20)[A-Za-z0-9._~+/=-]{8,}"),
      // URL parameters whose name says secret (signed file URLs carry sig=, token=, ...).
      Pattern.compile("(?i)(?<=[?&;](?:amp;)?[A-Za-z0-9_-]{0,24}(?:token|sig|signature|secret|key|auth|session|code|password|credential)[A-Za-z0-9_-]{0,24}=)[^&#\"'\\s<>]+"));
  /** A long unbroken run of key material: 40+ characters mixing letters and digits. */
  private static final Pattern RANDOM_RUN = Pattern.compile("(?<![A-Za-z0-9_+/=-])[A-Za-z0-9_+/=-]{40,}(?![A-Za-z0-9_+/=-])");

  private CaptureSanitizer() {}

  /** Runs the walk on {@code page} and scrubs its result; {@code account} is the signed-in e-mail, if known. */
  @SuppressWarnings("unchecked")
  public static Capture capture(Page page, String account) {
    Map<String, Object> walked = (Map<String, Object>) page.evaluate(WALK, Map.of(
        "banners", ChatGptPage.BANNER, "errorLine", ChatGptPage.ERROR_LINE, "composer", ChatGptPage.EDITORS));
    Capture scrubbed = scrub((String) walked.get("html"), account);
    int replaced = ((Number) walked.get("replaced")).intValue();
    return new Capture(scrubbed.html(), replaced, scrubbed.emails(), scrubbed.tokens());
  }

  /**
   * Replaces the account e-mail, every e-mail address and every token-shaped string in
   * {@code html}, and the account's local part on its own when it is 5 characters or more. The
   * markers hold no markup characters, so the document's structure survives.
   */
  static Capture scrub(String html, String account) {
    int[] emails = {0};
    int[] tokens = {0};
    String out = html;
    if (account != null && !account.isBlank()) {
      List<String> forms = new ArrayList<>(List.of(account, account.replace("@", "%40"), account.replace("@", "&#64;")));
      String local = account.contains("@") ? account.substring(0, account.indexOf('@')) : account;
      if (local.length() >= 5) {
        forms.add(local); // "Signed in as owner.name": the name alone is as private as the address
      }
      for (String form : forms) {
        Matcher m = Pattern.compile("(?<![A-Za-z0-9])" + Pattern.quote(form) + "(?![A-Za-z0-9])", Pattern.CASE_INSENSITIVE)
            .matcher(out);
        out = m.replaceAll(r -> {
          emails[0]++;
          return EMAIL_MARK;
        });
      }
    }
    out = EMAIL.matcher(out).replaceAll(r -> {
      emails[0]++;
      return EMAIL_MARK;
    });
    for (Pattern token : TOKENS) {
      out = token.matcher(out).replaceAll(r -> {
        tokens[0]++;
        return TOKEN_MARK;
      });
    }
    out = RANDOM_RUN.matcher(out).replaceAll(r -> {
      if (!looksRandom(r.group())) {
        return Matcher.quoteReplacement(r.group());
      }
      tokens[0]++;
      return TOKEN_MARK;
    });
    return new Capture(out, 0, emails[0], tokens[0]);
  }

  /** Key material mixes digits with letters; a long CSS class or a word with dashes does not. */
  private static boolean looksRandom(String run) {
    boolean digit = run.chars().anyMatch(Character::isDigit);
    boolean upper = run.chars().anyMatch(Character::isUpperCase);
    boolean lower = run.chars().anyMatch(Character::isLowerCase);
    long dashes = run.chars().filter(c -> c == '-').count();
    return digit && (upper || lower) && dashes * 6 < run.length();
  }
}
