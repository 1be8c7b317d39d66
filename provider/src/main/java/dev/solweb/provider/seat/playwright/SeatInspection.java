package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.Page;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.inspect.CaptureSanitizer;
import dev.solweb.provider.seat.playwright.inspect.PageInspector;
import dev.solweb.provider.seat.playwright.inspect.PageReport;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import java.net.URI;

/**
 * Reading the seat's page for solwebctl (doctor, capture): never types, never clicks Send, Stop
 * or Retry; may open the effort menu and Escape it. Only the seat's own site is read. The seat
 * runs these on its thread, through its guard.
 */
final class SeatInspection {

  private final Page page;
  private final ChatGptPage chat;
  private final URI chatUrl;

  SeatInspection(Page page, ChatGptPage chat, URI chatUrl) {
    this.page = page;
    this.chat = chat;
    this.chatUrl = chatUrl;
  }

  /**
   * Reads the page into a {@link PageReport}: {@code url} is opened first (same site as the
   * seat's chat URL), null reads the page as it is (the home page if the tab is blank).
   */
  PageReport inspect(URI url, boolean openEffortMenu) throws SeatException {
    return new PageInspector(page, chat).inspect(target(url), openEffortMenu);
  }

  /**
   * The page as sanitized HTML for a bug report (see {@link CaptureSanitizer}); with
   * {@code openEffortMenu} the effort menu is open in the capture and closed with Escape after.
   */
  String capture(URI url, boolean openEffortMenu) throws SeatException {
    PageInspector inspector = new PageInspector(page, chat);
    URI to = target(url);
    if (to != null) {
      inspector.open(to);
    }
    inspector.settle();
    ChatGptPage.Session session = chat.onSite() ? chat.session() : new ChatGptPage.Session(false, null);
    boolean opened = openEffortMenu && inspector.openEffortMenu();
    try {
      return CaptureSanitizer.capture(page, session.email()).html();
    } finally {
      if (opened) {
        inspector.closeEffortMenu();
      }
    }
  }

  /** Where a doctor read goes: the given URL if on the seat's site, the home page for a blank tab. */
  private URI target(URI url) throws SeatException {
    if (url != null) {
      if (!url.getScheme().equalsIgnoreCase(chatUrl.getScheme())
          || !url.getRawAuthority().equalsIgnoreCase(chatUrl.getRawAuthority())) {
        throw failed(Kind.UNAVAILABLE, "the seat reads only its own site " + chatUrl + ", not " + url, false);
      }
      return url;
    }
    return page.url().startsWith("http") ? null : chatUrl;
  }
}
