package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.HistoryPage;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import dev.solweb.provider.seat.playwright.page.PageWait;
import dev.solweb.provider.seat.playwright.traffic.StreamTap;
import dev.solweb.provider.translate.ConversationPlace;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Which conversation the seat's tab holds and where it lives: opening new ones in the owner's
 * history, a project or as temporary chats (each proved before anything is typed), resuming one,
 * deleting one through the page's own menu, and the durable URL a reply has in its place.
 * Confined to the seat's thread; the seat guards every call (Playwright errors, the Send flag).
 */
final class SeatNavigation {

  static final Duration PAGE_READY = Duration.ofSeconds(20);
  private static final Duration DURABLE_URL = Duration.ofSeconds(20);
  /** How long a menu item or confirmation may take to appear after its click. */
  private static final Duration MENU_WAIT = Duration.ofSeconds(5);
  /** How long the sidebar may take to list the owner's projects. */
  private static final Duration PROJECT_LIST = Duration.ofSeconds(3);

  /** Where the seat's conversations live: the history, one project (its slug), or temporary chats. */
  private record Place(String projectSlug, boolean temporary) {
    static final Place HISTORY = new Place(null, false);
  }

  /** Waits for the page to settle into a known state and reports it (the seat's observe). */
  @FunctionalInterface
  interface Observe {
    SeatProbe within(Duration d);
  }

  private final URI chatUrl;
  private final ChatGptPage chat;
  private final HistoryPage history;
  private final PageWait wait;
  private final SeatFaults faults;
  private final Observe observe;
  private final Function<String, StreamTap.Deleted> pageDelete;
  /** Where the conversation this tab holds lives: set by openNew and resume, used by every send into it. */
  private Place place = Place.HISTORY;
  /** The temporary chat this tab still shows (its reply URL), or null: nothing else can reopen it. */
  private String temporaryHeld;

  SeatNavigation(URI chatUrl, ChatGptPage chat, HistoryPage history, PageWait wait, SeatFaults faults, Observe observe,
      Function<String, StreamTap.Deleted> pageDelete) {
    this.pageDelete = pageDelete;
    this.chatUrl = chatUrl;
    this.chat = chat;
    this.history = history;
    this.wait = wait;
    this.faults = faults;
    this.observe = observe;
  }

  // ---- Opening ---------------------------------------------------------------------------

  void openHome() throws SeatException {
    leave(Place.HISTORY);
    chat.openHome();
    faults.requireReady(observe.within(PAGE_READY));
  }

  /**
   * A project's home ({@code /g/g-p-<slug>/project}), found by its URL or as the ONE sidebar
   * project with that name, proved to be where the page is before anything is typed.
   */
  void openInProject(ConversationPlace.Project p) throws SeatException {
    leave(Place.HISTORY);
    String home = projectHome(p.nameOrUrl());
    String slug = history.projectSlug(home).orElseThrow();
    chat.open(home);
    faults.requireReady(observe.within(PAGE_READY));
    // The page settled (observe): a project that does not exist has sent it elsewhere by now.
    wait.until(PROJECT_LIST, () -> history.isProjectHome(chat.url(), slug) && chat.state(Set.of()).composer() ? Boolean.TRUE : null,
        () -> failed(Kind.UNAVAILABLE, "project " + home + " did not open: the page shows " + chat.url()
            + "; nothing was typed", false));
    place = new Place(slug, false);
  }

  /** A temporary chat whose banner shows. */
  void openTemporary() throws SeatException {
    leave(Place.HISTORY);
    chat.open(history.temporaryHome());
    faults.requireReady(observe.within(PAGE_READY));
    wait.until(PAGE_READY, () -> history.temporaryShown() ? Boolean.TRUE : null,
        () -> failed(Kind.UNAVAILABLE, "the page did not confirm a temporary chat at " + history.temporaryHome()
            + " (no \"Temporary Chat\" banner or \"Turn off temporary chat\" control; the account may have them off)"
            + "; nothing was typed", false));
    place = new Place(null, true);
  }

  /** The project's home URL: given as one, or the one sidebar project of that name (none or several: unavailable). */
  private String projectHome(String nameOrUrl) throws SeatException {
    if (nameOrUrl.contains("://") || nameOrUrl.startsWith("/")) {
      return history.projectHome(nameOrUrl).orElseThrow(() -> failed(Kind.UNAVAILABLE, "\"" + nameOrUrl
          + "\" is not a project URL of " + chatUrl + " (/g/g-p-<slug>/project); nothing was typed", false));
    }
    chat.openHome();
    faults.requireReady(observe.within(PAGE_READY));
    String wanted = nameOrUrl.replaceAll("\\s+", " ").strip();
    List<HistoryPage.ProjectLink> named = wait.until(PROJECT_LIST, () -> {
      List<HistoryPage.ProjectLink> m = history.projects().stream().filter(l -> l.name().equals(wanted)).toList();
      return m.isEmpty() ? null : m;
    }, () -> null);
    if (named == null) {
      throw failed(Kind.UNAVAILABLE, "no project named \"" + wanted + "\" in the sidebar; nothing was typed", false);
    }
    if (named.size() > 1) {
      throw failed(Kind.UNAVAILABLE, named.size() + " projects are named \"" + wanted + "\" ("
          + named.stream().map(HistoryPage.ProjectLink::url).toList() + "); name one by its URL; nothing was typed", false);
    }
    return named.get(0).url();
  }

  /** Leaving the conversation this tab holds: a temporary chat cannot be reopened after this. */
  private void leave(Place next) {
    place = next;
    temporaryHeld = null;
  }

  // ---- Resuming --------------------------------------------------------------------------


  /** The conversation id of a durable URL of this site, if it is one. */
  Optional<String> conversationIdOf(String url) {
    return chat.durableUrl(url).flatMap(history::conversationId);
  }

  void resume(String conversationUrl) throws SeatException {
    if (HistoryPage.isTemporary(conversationUrl)) {
      resumeTemporary(conversationUrl);
      return;
    }
    Optional<String> wanted = chat.durableUrl(conversationUrl);
    Optional<String> project = wanted.flatMap(history::projectSlug);
    leave(new Place(project.orElse(null), false));
    if (wanted.isEmpty()) {
      // Not a conversation this seat could have created: never navigate to it.
      throw SeatException.conversationMissing(conversationUrl);
    }
    ChatGptPage.State now = chat.state(Set.of());
    // A tab already on the conversation keeps it, unless it belongs in a project: whether it still
    // does is the app's verdict on opening it (it moves a chat that left its project to /c/<id>),
    // which a tab opened before the move cannot show.
    boolean held = wanted.equals(chat.durableUrl(now.url())) && now.composer() && now.turns() > 0 && !now.faultShown();
    if (!held || project.isPresent()) {
      chat.open(wanted.get());
    }
    AtomicReference<ChatGptPage.State> last = new AtomicReference<>(now);
    wait.until(PAGE_READY, () -> {
      ChatGptPage.State s = chat.state(Set.of());
      last.set(s);
      if (s.banner(Verdict.MISSING).isPresent()) {
        throw SeatException.conversationMissing(conversationUrl);
      }
      if (s.loginWall() || s.challenge()) {
        faults.requireReady(faults.probe(s));
      }
      boolean onIt = wanted.equals(chat.durableUrl(s.url()));
      if (onIt && s.composer() && s.turns() > 0) {
        faults.requireReady(faults.probe(s));
        return Boolean.TRUE;
      }
      if (project.isPresent() && !onIt && history.conversationId(s.url()).equals(history.conversationId(wanted.get()))) {
        // The chat left its project (the app moved its URL): resuming it would keep a managed
        // chat outside the project. Nothing was typed, so a replay into a fresh one is safe.
        throw SeatException.conversationMissing(conversationUrl + " (no longer in project " + project.get()
            + ": the page shows " + s.url() + ")");
      }
      if (!onIt && chat.durableUrl(s.url()).isEmpty() && s.composer() && !s.url().contains("/c/")) {
        throw SeatException.conversationMissing(conversationUrl); // redirected home
      }
      return null;
    }, () -> failed(Kind.UNAVAILABLE, "conversation " + conversationUrl + " did not load within "
        + PAGE_READY.toSeconds() + " s (" + loaded(last.get()) + "); nothing was typed", false));
  }

  /**
   * A temporary chat lives only in the tab that holds it: the tab must still show it (the
   * temporary page, its turns); otherwise it is missing (nothing can reopen it) and the caller replays.
   */
  /** What a conversation's page showed of what the seat waits for: the controls by name, so a timeout says which. */
  private static String loaded(ChatGptPage.State s) {
    return "the page showed " + s.url() + ": composer " + (s.composer() ? "found" : "not found") + ", "
        + (s.turns() > 0 ? s.turns() + " turns" : "no turn found");
  }

  private void resumeTemporary(String conversationUrl) throws SeatException {
    ChatGptPage.State now = chat.state(Set.of());
    boolean held = conversationUrl.equals(temporaryHeld) && now.url().contains(HistoryPage.TEMPORARY_QUERY)
        && chat.durableUrl(now.url()).isEmpty() && now.composer() && now.turns() > 0;
    if (!held) {
      leave(Place.HISTORY);
      throw SeatException.conversationMissing(conversationUrl + " (a temporary chat is not kept once its page is left)");
    }
    place = new Place(null, true);
  }

  // ---- Deleting --------------------------------------------------------------------------

  /**
   * Deletes the conversation at {@code url} (already a durable URL of this site) through its own
   * header menu and the page's confirmation, then reloads the exact URL and requires the page's
   * not-found state. Only the open conversation's header control is clicked, after checking the
   * page shows exactly that conversation: a sidebar row names another one and is never touched.
   * A page that shows no menu for it (REAL-PAGE row 38) deletes by its own request instead
   * ({@code DELETE /backend-api/conversation/id/{id}}, row 31), verified the same way.
   */
  Deletion delete(String url) throws SeatException {
    leave(Place.HISTORY);
    if (!opensAsConversation(url)) {
      return Deletion.NOT_FOUND;
    }
    // The header may draw its menu button after the thread; it must be this conversation's page.
    boolean menu = wait.until(MENU_WAIT, () -> url.equals(chat.durableUrl(chat.url()).orElse(null)) && history.headerOptionsShown()
        ? Boolean.TRUE : null, () -> null) != null;
    if (!menu) {
      return deleteByRequest(url);
    }
    history.openHeaderMenu();
    wait.until(MENU_WAIT, () -> history.deleteItemShown() ? Boolean.TRUE : null, () -> {
      history.escape();
      return failed(Kind.UNAVAILABLE, "the conversation menu of " + url + " showed no Delete item; nothing was deleted", false);
    });
    history.clickDelete();
    wait.until(MENU_WAIT, () -> history.confirmShown() ? Boolean.TRUE : null, () -> {
      history.escape();
      return failed(Kind.UNAVAILABLE, "the delete confirmation for " + url + " never appeared; nothing was deleted", false);
    });
    history.clickConfirm();
    // The page answers the confirmation by leaving the chat (home) or by showing it gone.
    wait.until(MENU_WAIT, () -> !history.confirmShown() && (!url.equals(chat.durableUrl(chat.url()).orElse(null))
        || chat.state(Set.of()).banner(Verdict.MISSING).isPresent()) ? Boolean.TRUE : null, () -> null);
    if (opensAsConversation(url)) {
      throw failed(Kind.UNAVAILABLE, "ChatGPT took the delete of " + url + " but the conversation still opens; it was"
          + " not deleted (record no tombstone)", false);
    }
    return Deletion.DELETED;
  }

  /** The page's own delete request for the conversation at {@code url}, then the same proof as the menu's: it no longer opens. */
  private Deletion deleteByRequest(String url) throws SeatException {
    String id = history.conversationId(url).orElseThrow(() -> failed(Kind.UNAVAILABLE, url
        + " names no conversation id; nothing was deleted", false));
    StreamTap.Deleted answer = pageDelete.apply(id);
    if (!answer.ok()) {
      throw failed(Kind.UNAVAILABLE, "the page shows no conversation menu for " + url + ", and its own DELETE"
          + " /backend-api/conversation/id/" + id + " answered " + (answer.status() == 0 ? "nothing" : "HTTP " + answer.status())
          + "; nothing was deleted", false);
    }
    if (opensAsConversation(url)) {
      throw failed(Kind.UNAVAILABLE, "the page's DELETE of " + url + " answered HTTP " + answer.status() + " but the"
          + " conversation still opens; it was not deleted (record no tombstone)", false);
    }
    return Deletion.DELETED;
  }

  /**
   * Opens the exact URL and tells whether the conversation shows (true) or the page says it is
   * gone (false: its not-found message, or the app sent the browser home).
   */
  private boolean opensAsConversation(String url) throws SeatException {
    chat.open(url);
    return wait.until(PAGE_READY, () -> {
      ChatGptPage.State s = chat.state(Set.of());
      if (s.banner(Verdict.MISSING).isPresent()) {
        return Boolean.FALSE;
      }
      if (s.loginWall() || s.challenge()) {
        faults.requireReady(faults.probe(s));
      }
      boolean onIt = url.equals(chat.durableUrl(s.url()).orElse(null));
      if (onIt && s.composer() && s.turns() > 0) {
        return Boolean.TRUE;
      }
      if (!onIt && chat.durableUrl(s.url()).isEmpty() && s.composer() && !s.url().contains("/c/")) {
        return Boolean.FALSE; // redirected home
      }
      return null;
    }, () -> failed(Kind.UNAVAILABLE, "conversation " + url + " neither loaded nor showed not-found within "
        + PAGE_READY.toSeconds() + " s; nothing was deleted", false));
  }

  // ---- A turn in its place ---------------------------------------------------------------

  /** Before typing: the page still is where openNew proved it (a project's page, the temporary banner). */
  void requirePlace() throws SeatException {
    if (place.temporary() && temporaryHeld == null && !history.temporaryShown()) {
      throw failed(Kind.UNAVAILABLE, "the page no longer shows the temporary chat (" + chat.url() + "); nothing was sent", false);
    }
    if (place.projectSlug() != null && !HistoryPage.sameProject(place.projectSlug(), history.projectSlug(chat.url()).orElse(null))) {
      throw failed(Kind.UNAVAILABLE, "the page left project " + place.projectSlug() + " (" + chat.url() + "); nothing was sent", false);
    }
  }

  /**
   * The reply's conversation URL for the place it was sent in: a temporary chat's is
   * {@code <origin>/c/<id>?temporary-chat=true} from the stream's id (the page never shows it);
   * a project's must be {@code /g/<slug>/c/<id>} of that project (else the chat went elsewhere:
   * unavailable, after Send, not resent).
   */
  String placedUrl(String streamConversationId, Set<String> linksBefore) throws SeatException {
    if (place.temporary()) {
      String id = streamConversationId != null ? streamConversationId
          : chat.durableUrl(chat.url()).flatMap(history::conversationId).orElse(null);
      if (id == null || chat.conversationUrl(id).isEmpty()) {
        throw failed(Kind.UNAVAILABLE, "the temporary chat answered but its stream named no conversation id; not resent", true);
      }
      temporaryHeld = history.temporaryConversationUrl(id);
      return temporaryHeld;
    }
    if (place.projectSlug() == null) {
      return conversationUrl(streamConversationId, linksBefore);
    }
    String slug = place.projectSlug();
    Optional<String> shown = chat.durableUrl(chat.url());
    String url = shown.isPresent() ? shown.get()
        : streamConversationId != null && chat.conversationUrl(streamConversationId).isPresent()
            ? history.projectConversationUrl(slug, streamConversationId) : waitConversationUrl(linksBefore);
    if (!HistoryPage.sameProject(slug, history.projectSlug(url).orElse(null))) {
      throw failed(Kind.UNAVAILABLE, "the conversation was created outside project " + slug + " (" + url + "); not resent", true);
    }
    // The page may show the bare route of a slugged project (REAL-PAGE row 23): kept in the form the place was given.
    return history.projectConversationUrl(slug, history.conversationId(url).orElseThrow());
  }

  /** The durable URL conversation {@code id} has in the place this tab sends to; null for an id that is none. */
  String urlOf(String id) {
    if (chat.conversationUrl(id).isEmpty()) {
      return null;
    }
    if (place.temporary()) {
      return history.temporaryConversationUrl(id);
    }
    return place.projectSlug() != null ? history.projectConversationUrl(place.projectSlug(), id) : chat.conversationUrl(id).get();
  }

  /**
   * The conversation's durable URL: the address bar's /c/&lt;id&gt; when it shows one, else the
   * one the stream's conversation id names (the address bar may never leave /c/WEB:), else the
   * page's own ways ({@link #waitConversationUrl}).
   */
  private String conversationUrl(String streamConversationId, Set<String> linksBefore) throws SeatException {
    Optional<String> now = chat.durableUrl(chat.url());
    if (now.isPresent()) {
      return now.get();
    }
    Optional<String> named = chat.conversationUrl(streamConversationId);
    return named.isPresent() ? named.get() : waitConversationUrl(linksBefore);
  }

  /**
   * The durable conversation URL: the address bar's /c/&lt;id&gt; (a transient /c/WEB:&lt;id&gt;
   * is never returned), else the history link that appeared with this turn (when the address bar
   * never shows the id: onflip, 7 of 25 new chats).
   */
  private String waitConversationUrl(Set<String> linksBefore) throws SeatException {
    return wait.until(DURABLE_URL, () -> {
      Optional<String> url = chat.durableUrl(chat.url());
      if (url.isPresent()) {
        return url.get();
      }
      Set<String> links = chat.conversationLinks();
      links.removeAll(linksBefore);
      return links.size() == 1 ? links.iterator().next() : null;
    }, () -> failed(Kind.UNAVAILABLE, "the answer completed but neither the address bar nor the history showed a durable"
        + " conversation URL (still " + chat.url() + ")", true));
  }
}
