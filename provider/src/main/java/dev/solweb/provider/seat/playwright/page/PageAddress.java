package dev.solweb.provider.seat.playwright.page;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The site's URL rules: which address is a durable conversation, and the conversations the sidebar lists. */
final class PageAddress {

  /** A durable conversation path: /c/<id>, also inside a custom GPT or project (/g/<slug>/c/<id>). */
  private static final Pattern DURABLE_PATH = Pattern.compile("^(/g/[A-Za-z0-9_-]+)?/c/([0-9A-Za-z][0-9A-Za-z-]{7,})$");

  private final URI chatUrl;
  private final ChatGptPage chat;

  PageAddress(URI chatUrl, ChatGptPage chat) {
    this.chatUrl = chatUrl;
    this.chat = chat;
  }

  /**
   * The durable conversation URL the page is on (scheme, host, path; no query or hash), or empty
   * while it shows a home page or a transient {@code /c/WEB:<id>} creation URL.
   */
  Optional<String> durableUrl(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!sameOrigin(uri, chatUrl) || uri.getRawPath() == null) {
      return Optional.empty();
    }
    Matcher m = DURABLE_PATH.matcher(uri.getRawPath());
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath());
  }

  /**
   * The durable URL of conversation {@code id} as the stream named it: the site's {@code /c/<id>}
   * (the address bar may never show it: REAL-PAGE.md row 9), or empty for an id that is not one.
   */
  Optional<String> conversationUrl(String id) {
    if (id == null || !id.matches("[0-9A-Za-z][0-9A-Za-z-]{7,}")) {
      return Optional.empty();
    }
    return Optional.of(chatUrl.getScheme() + "://" + chatUrl.getRawAuthority() + "/c/" + id);
  }

  /**
   * The durable conversation URLs the page lists in its history (sidebar), in page order: its
   * links, and row 38's link-less rows by their {@code chatgpt:conversation:<uuid>} key. When the
   * address bar never shows /c/&lt;id&gt; (onflip: 7 of 25 new chats), the row that appeared with
   * the turn is the conversation.
   */
  @SuppressWarnings("unchecked")
  Set<String> conversationLinks() {
    Map<String, List<String>> found = (Map<String, List<String>>) chat.evaluate(PageScripts.CONVERSATION_LINKS,
        List.of(ThreadControls.CONVERSATION_LINK, ThreadControls.CONVERSATION_ROW, ThreadControls.CONVERSATION_ROW_KEY));
    Set<String> out = new LinkedHashSet<>();
    for (String href : found.get("hrefs")) {
      durableUrl(href).ifPresent(out::add);
    }
    for (String key : found.get("keys")) {
      conversationUrl(key.substring(key.lastIndexOf(':') + 1)).ifPresent(out::add);
    }
    return out;
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && effectivePort(a) == effectivePort(b);
  }

  private static int effectivePort(URI u) {
    return u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }
}
