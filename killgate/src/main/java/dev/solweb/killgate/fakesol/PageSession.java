package dev.solweb.killgate.fakesol;

import static dev.solweb.killgate.fakesol.FakeSol.JSON;
import static dev.solweb.killgate.fakesol.FakeSol.body;
import static dev.solweb.killgate.fakesol.FakeSol.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.scenario.ScriptedReply;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.Optional;

/**
 * The browser's session with the site and the page's state around the composer: who is signed in,
 * the login or Cloudflare wall, the banner a capped account loads with, the effort pill, the
 * Chat/Work switch (REAL-PAGE rows 21, 27) and Canvas edits (row 15). What a fresh page load reads
 * ({@code /api/state}) before it draws anything.
 */
final class PageSession {

  private final ScenarioPlayer player;
  private final ConversationAliases aliases;
  private final FakeSolLogin login;
  private final PageFaults faults;
  private String wall;
  private final String loadBanner;
  private String effortLabel = Effort.MEDIUM.label();
  /** The Chat/Work switch as the browser left it: a fresh tab shows it. */
  private String mode;
  /** Edits typed into a Canvas editor: the seat must never type there. */
  private int canvasEdits;

  PageSession(ScenarioPlayer player, ConversationAliases aliases, FakeSolLogin login, PageFaults faults, CapBanners banners,
      java.time.Clock clock) {
    this.player = player;
    this.aliases = aliases;
    this.login = login;
    this.faults = faults;
    var scenario = player.scenario();
    this.mode = scenario.mode();
    this.wall = switch (scenario.state()) {
      case "logged_out" -> "login";
      case "challenged" -> "cloudflare";
      default -> null;
    };
    this.loadBanner = !"capped".equals(scenario.state()) ? null : banners.capText(
        scenario.capResumeAt() == null ? clock.instant().plusSeconds(3600) : Instant.parse(scenario.capResumeAt()), null);
  }

  void mount(Router router) {
    login.routes(router);
    String challenge = PageRender.resource("challenge.html");
    router.get("/cdn-cgi/challenge").handler(ctx -> ctx.response().putHeader("content-type", "text/html; charset=utf-8").end(challenge));
    router.get("/api/auth/session").handler(this::session);
    router.get("/api/state").handler(this::state);
    router.post("/api/effort").handler(this::effort);
    router.post("/api/mode").handler(this::mode);
    router.post("/api/canvas").handler(this::canvasEdit);
  }

  /** The site ends the account's sessions: the wall goes up for every browser. */
  synchronized void logOut() {
    wall = "login";
    login.endAll();
  }

  /** Cloudflare challenges the browser: the wall goes up. */
  synchronized void challenge() {
    wall = "cloudflare";
  }

  /** The wall as the site has it (before any browser signed in again): null, login or cloudflare. */
  synchronized String wall() {
    return wall;
  }

  /** The effort the user last chose in the pill (what Retry resubmits with). */
  synchronized String effortLabel() {
    return effortLabel;
  }

  synchronized int canvasEdits() {
    return canvasEdits;
  }

  synchronized String mode() {
    return mode;
  }

  private synchronized void session(RoutingContext ctx) {
    ObjectNode out = JSON.createObjectNode();
    if (!"login".equals(wallFor(ctx))) {
      String signedIn = login.account(ctx);
      out.putObject("user").put("email", signedIn != null ? signedIn : player.scenario().account());
      out.putObject("account").put("planType", "plus"); // REAL-PAGE row 50
    }
    json(ctx, 200, out);
  }

  /** The login wall is down for a browser that signed in since it went up (FakeSolLogin). */
  private String wallFor(RoutingContext ctx) {
    return "login".equals(wall) && login.account(ctx) != null ? null : wall;
  }

  private synchronized void state(RoutingContext ctx) {
    ObjectNode out = JSON.createObjectNode();
    out.put("wall", wallFor(ctx));
    out.put("banner", loadBanner);
    out.put("copy_broken", faults.copyBroken());
    out.put("insert_text_ignored", faults.insertTextIgnored());
    out.put("dom", player.scenario().dom());
    out.put("locale", player.scenario().locale());
    out.put("windowed_turns", player.scenario().windowedTurns());
    out.put("mode", mode);
    ObjectNode capped = out.putObject("capped_efforts");
    player.scenario().cappedEfforts().forEach((label, at) ->
        capped.put(Effort.fromLabel(label).orElseThrow().label(), Instant.parse(at).toString()));
    out.put("slider_drops_first_key", player.scenario().sliderDropsFirstKey());
    String conversation = aliases.resolve(ctx.queryParams().get("conversation"));
    out.put("effort_label", scriptedLabel(conversation).orElse(effortLabel));
    json(ctx, 200, out);
  }

  /** The pill shows what the page decides: a scripted label for the next reply, else the choice. */
  private synchronized void effort(RoutingContext ctx) {
    JsonNode body = body(ctx);
    String wanted = body.path("wanted").asText();
    String conversation = aliases.resolve(body.path("conversation_id").asText(null));
    Optional<String> scripted = scriptedLabel(conversation);
    if (scripted.isEmpty()) {
      effortLabel = wanted;
    }
    json(ctx, 200, JSON.createObjectNode().put("label", scripted.orElse(wanted)));
  }

  /** The page's Chat/Work switch moved: the choice holds for every tab from now on. */
  private synchronized void mode(RoutingContext ctx) {
    String wanted = body(ctx).path("mode").asText("");
    if (!wanted.equals("chat") && !wanted.equals("work")) {
      json(ctx, 400, JSON.createObjectNode().put("detail", "mode must be chat or work"));
      return;
    }
    mode = wanted;
    json(ctx, 200, JSON.createObjectNode().put("mode", mode));
  }

  private synchronized void canvasEdit(RoutingContext ctx) {
    canvasEdits++;
    json(ctx, 200, JSON.createObjectNode().put("ok", true));
  }

  private Optional<String> scriptedLabel(String conversation) {
    if (conversation == null || conversation.isEmpty()) {
      return Optional.empty();
    }
    return player.peek(conversation).map(ScriptedReply::effortLabel);
  }
}
