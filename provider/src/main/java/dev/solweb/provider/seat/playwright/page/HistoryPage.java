package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The page knowledge of the owner's history, beside {@link ChatGptPage}: the conversation menu
 * and its delete confirmation, Projects (their home and chat URLs, the sidebar's project links)
 * and temporary chats (../shared/CHATGPT-DOM.md rows "URLs", "Temporary chat", "Delete /
 * archive"). Every click is a real (trusted) Playwright click on the one control it names.
 */
public final class HistoryPage {

  /** The open conversation's own menu, in the page header: the only menu the seat deletes through. */
  static final String HEADER_OPTIONS = "button[data-testid=\"conversation-options-button\"]";
  /** A sidebar row's menu (each names ANOTHER conversation): known, never clicked by the seat. */
  static final String SIDEBAR_OPTIONS = "nav button[data-testid*=\"-options\"]";
  static final String DELETE_ITEM = "[role=\"menu\"] [data-testid=\"delete-chat-menu-item\"]";
  static final String DELETE_CONFIRM = "button[data-testid=\"delete-conversation-confirm-button\"]";
  /** The sidebar's links to project homes. */
  static final String PROJECT_LINK = "a[href*=\"/g/g-p-\"][href$=\"/project\"]";
  /** What proves a temporary chat (oracle: the "Turn off temporary chat" button or the "Temporary Chat" title); ru as read here. */
  static final String TEMPORARY_SIGN = "^(?:turn off temporary chat|temporary chat|отключить временный чат|временный чат)$";
  public static final String TEMPORARY_QUERY = "temporary-chat=true";

  private static final Pattern PROJECT_HOME = Pattern.compile("^/g/(g-p-[A-Za-z0-9_-]+)/project/?$");
  private static final Pattern PROJECT_CHAT = Pattern.compile("^/g/(g-p-[A-Za-z0-9_-]+)/c/([0-9A-Za-z][0-9A-Za-z-]{7,})$");
  private static final Pattern ANY_CHAT = Pattern.compile("^(?:/g/[A-Za-z0-9_-]+)?/c/([0-9A-Za-z][0-9A-Za-z-]{7,})$");

  private static final String PROJECTS = """
      (sel) => Array.from(document.querySelectorAll(sel)).map(a => ({
        name: (a.innerText || a.textContent || '').replace(/\\s+/g, ' ').trim(), href: a.href }))
      """;
  private static final String TEMPORARY_SHOWN = """
      (sign) => {
        const re = new RegExp(sign, 'i');
        const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
        return Array.from(document.querySelectorAll('button, [role="button"], h1, h2, [data-testid*="temporary"]')).some(el =>
          visible(el) && (re.test((el.getAttribute('aria-label') || '').trim())
            || re.test((el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim())));
      }
      """;

  /** A project link as the sidebar shows it. */
  public record ProjectLink(String name, String url) {}

  private final Page page;
  private final ChatGptPage chat;
  private final URI chatUrl;

  public HistoryPage(Page page, ChatGptPage chat, URI chatUrl) {
    this.page = page;
    this.chat = chat;
    this.chatUrl = chatUrl;
  }

  // ---- URLs ------------------------------------------------------------------------------

  private String origin() {
    return chatUrl.getScheme() + "://" + chatUrl.getRawAuthority();
  }

  /** Where a new temporary chat opens. */
  public String temporaryHome() {
    return origin() + "/?" + TEMPORARY_QUERY;
  }

  /**
   * A temporary chat's conversation URL as the seat reports it: {@code <origin>/c/<id>?temporary-chat=true}.
   * The page never shows it (the stream is the only place the id appears) and never reopens it.
   */
  public String temporaryConversationUrl(String id) {
    return origin() + "/c/" + id + "?" + TEMPORARY_QUERY;
  }

  public static boolean isTemporary(String conversationUrl) {
    try {
      String query = URI.create(conversationUrl).getRawQuery();
      return query != null && List.of(query.split("&")).contains(TEMPORARY_QUERY);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The project slug of a project home or project chat URL on this site, if it is one. */
  public Optional<String> projectSlug(String url) {
    String path = sitePath(url);
    if (path == null) {
      return Optional.empty();
    }
    Matcher home = PROJECT_HOME.matcher(path);
    if (home.matches()) {
      return Optional.of(home.group(1));
    }
    Matcher chatPath = PROJECT_CHAT.matcher(path);
    return chatPath.matches() ? Optional.of(chatPath.group(1)) : Optional.empty();
  }

  /** Whether {@code url} is the home of project {@code slug} (where its composer creates its chats), bare or slugged. */
  public boolean isProjectHome(String url, String slug) {
    String path = sitePath(url);
    Matcher m = path == null ? null : PROJECT_HOME.matcher(path);
    return m != null && m.matches() && sameProject(m.group(1), slug);
  }

  private static final Pattern PROJECT_ID = Pattern.compile("^(g-p-[0-9a-f]{32})(?:-.*)?$");

  /**
   * Whether two project slugs name one project: a project is its id {@code g-p-<32 hex>}, and links
   * add an optional {@code -<name>} (REAL-PAGE row 23: the bare and the slugged routes are the same project).
   */
  public static boolean sameProject(String a, String b) {
    return a != null && b != null && projectId(a).equals(projectId(b));
  }

  /** The {@code g-p-<32 hex>} id of a project slug, or the slug itself when it carries no such id. */
  static String projectId(String slug) {
    Matcher m = PROJECT_ID.matcher(slug);
    return m.matches() ? m.group(1) : slug;
  }

  /** The normalized project home URL for a given project URL on this site, or empty when it is not one. */
  public Optional<String> projectHome(String url) {
    String path = sitePath(url);
    Matcher m = path == null ? null : PROJECT_HOME.matcher(path);
    return m != null && m.matches() ? Optional.of(origin() + "/g/" + m.group(1) + "/project") : Optional.empty();
  }

  /** {@code /g/<slug>/c/<id>}: a chat of project {@code slug}. */
  public String projectConversationUrl(String slug, String id) {
    return origin() + "/g/" + slug + "/c/" + id;
  }

  /** The conversation id of a durable conversation URL (plain, project or custom GPT). */
  public Optional<String> conversationId(String url) {
    String path = sitePath(url);
    Matcher m = path == null ? null : ANY_CHAT.matcher(path);
    return m != null && m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private String sitePath(String url) {
    try {
      URI u = chatUrl.resolve(url);
      return ChatGptPage.sameOrigin(u, chatUrl) ? u.getRawPath() : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  // ---- Reading ---------------------------------------------------------------------------

  /** The projects the sidebar lists, by name, in page order. */
  @SuppressWarnings("unchecked")
  public List<ProjectLink> projects() {
    List<ProjectLink> out = new ArrayList<>();
    for (Map<String, Object> m : (List<Map<String, Object>>) chat.evaluate(PROJECTS, PROJECT_LINK)) {
      projectHome((String) m.get("href")).ifPresent(home -> out.add(new ProjectLink((String) m.get("name"), home)));
    }
    return out;
  }

  public boolean temporaryShown() {
    return Boolean.TRUE.equals(chat.evaluate(TEMPORARY_SHOWN, TEMPORARY_SIGN));
  }

  public boolean headerOptionsShown() {
    return visible(HEADER_OPTIONS);
  }

  public boolean deleteItemShown() {
    return visible(DELETE_ITEM);
  }

  public boolean confirmShown() {
    return visible(DELETE_CONFIRM);
  }

  private boolean visible(String selector) {
    Locator l = page.locator(selector);
    return l.count() == 1 && l.first().isVisible();
  }

  // ---- Acting: one trusted click on one named control ------------------------------------

  public void openHeaderMenu() {
    page.locator(HEADER_OPTIONS).click(new Locator.ClickOptions().setTimeout(5_000));
  }

  public void clickDelete() {
    page.locator(DELETE_ITEM).click(new Locator.ClickOptions().setTimeout(5_000));
  }

  public void clickConfirm() {
    page.locator(DELETE_CONFIRM).click(new Locator.ClickOptions().setTimeout(5_000));
  }

  /** Closes whatever menu or dialog is open, as a person would. */
  public void escape() {
    page.keyboard().press("Escape");
  }
}
