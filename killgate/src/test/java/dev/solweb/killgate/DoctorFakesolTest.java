package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.PageFileServer;
import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.Solwebctl;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code solwebctl doctor} and {@code capture} in headless Chromium, on a fakesol conversation and
 * on the real captures of ../shared/realdom/ served by {@code fakesol --page}. The doctor runs on
 * a profile of its own beside the seat that made the conversation.
 */
class DoctorFakesolTest extends SeatHarness {

  static final Path REALDOM = realdom();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "owner.doctor@example.invalid";
  private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvd25lci0xMjM0NSJ9.dGVzdC1zaWduYXR1cmUtMTIzNDU";
  private static final String CODE = "{\"tool\": \"write\", \"arguments\": {\"path\": \"doctor-secret.txt\"}}";

  private final List<PageFileServer> pages = new ArrayList<>();

  record Run(int exitCode, String out, String err) {
    JsonNode json() throws Exception {
      return JSON.readTree(out);
    }
  }

  /** ../shared/realdom/ from the repository root's parent (CI), else the shared absolute path. */
  static Path realdom() {
    Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    Path beside = root.getParent().resolve("shared").resolve("realdom");
    return Files.isDirectory(beside) ? beside : Path.of("/work/shared/realdom");
  }

  @AfterEach
  void closePages() {
    pages.forEach(PageFileServer::close);
    OrphanReaper.reap(home.resolve("doctor-profile"));
  }

  private Run ctl(String... args) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.resolve("doctor-user").toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.resolve("doctor-home").toString());
    env.put("SOLWEBD_PROFILE", home.resolve("doctor-profile").toString());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(CtlEnv.of(env, null), new PrintWriter(out), new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  private Run doctor(String url) {
    return ctl("doctor", "--json", "--headless", "--chat-url", url);
  }

  private String served(Path page) {
    PageFileServer server = PageFileServer.start(vertx, false, page, ACCOUNT, 0);
    pages.add(server);
    return server.url().toString();
  }

  /** A finished turn on fakesol whose prompt and answer carry the account, a token and a code block. */
  private SeatReply conversation(String dom, String locale) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"account\": \"" + ACCOUNT + "\", \"dom\": \"" + dom + "\", \"locale\": \""
        + locale + "\", \"default\": [{\"prose\": " + JSON.writeValueAsString("Answer prose for " + ACCOUNT + " with " + JWT)
        + ", \"blocks\": [" + JSON.writeValueAsString(CODE) + "]}]}"));
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    return seat.send("Prompt from " + ACCOUNT + " holding " + JWT);
  }

  @ParameterizedTest(name = "{0} {1}")
  // Every shape once; Russian labels on two of them (the doctor reads labels as the seat does: Labels).
  @CsvSource({"2026-03, en, menu, id, testid, author-role", "2026-07, ru, menu, id, testid, author-role",
      "2026-08, en, advanced-submenu, id, testid, author-role", "2026-09, en, slider, id, testid, author-role",
      "2026-09-turnkey, en, slider, id, testid, markdown-text-style", "2026-10, ru, power, label, , dil"})
  void doctorPassesOnEveryFakesolShapeWithoutTypingOrSending(String dom, String locale, String picker, String composerVia,
      String sendVia, String replyVia) throws Exception {
    SeatReply reply = conversation(dom, locale);
    int sends = sol.sends().size();

    Run run = doctor(reply.conversationUrl());

    JsonNode report = run.json();
    assertThat(report.path("checks").toString()).as("every check").doesNotContain("\"ok\":false");
    assertThat(run.exitCode()).isZero();
    assertThat(report.path("dom_variant").asText()).isEqualTo(dom);
    assertThat(report.path("url").asText()).isEqualTo(reply.conversationUrl());
    assertThat(report.path("state").asText()).isEqualTo("ready");
    assertThat(report.path("signed_in").asBoolean()).isTrue();
    assertThat(report.path("composer").toString()).isEqualTo("{\"found\":true,\"editable\":true,\"via\":\"" + composerVia + "\"}");
    // October shows no Send while the composer is empty (REAL-PAGE row 16): nothing for a strategy to find.
    assertThat(report.path("send").path("via").isNull()).isEqualTo(sendVia == null);
    assertThat(report.path("send").path("via").asText(null)).isEqualTo(sendVia);
    assertThat(report.path("stop").toString()).isEqualTo("{\"found\":false,\"via\":null}");
    assertThat(report.path("turns").asInt()).isEqualTo(2);
    JsonNode last = report.path("last_reply");
    assertThat(last.path("complete").asBoolean()).isTrue();
    assertThat(last.path("source").asText()).isEqualTo("copy");
    assertThat(last.path("code_blocks").toString()).isEqualTo(JSON.writeValueAsString(List.of(CODE)));
    assertThat(last.path("markdown").asText()).contains(CODE);
    assertThat(last.path("via").asText()).isEqualTo(replyVia);
    JsonNode effort = report.path("effort");
    assertThat(effort.path("effort").asText()).isEqualTo("medium");
    assertThat(effort.path("label").asText()).isEqualTo(locale.equals("ru") ? "Средний" : "Medium");
    assertThat(effort.path("picker").asText()).isEqualTo(picker);
    if (picker.equals("slider") || picker.equals("power")) {
      assertThat(effort.path("options").toString()).isEqualTo("[{\"label\":\"" + effort.path("label").asText()
          + "\",\"effort\":\"medium\",\"checked\":true,\"disabled\":false}]");
    } else {
      assertThat(effort.path("options").findValuesAsText("effort")).containsExactly("instant", "medium", "high", "xhigh", "pro");
      assertThat(effort.path("options").findValuesAsText("checked")).containsExactly("false", "true", "false", "false", "false");
    }
    // Read-only: nothing typed or sent, no Stop or Retry.
    assertThat(sol.sends()).hasSize(sends);
    assertThat(sol.retryClicks()).isZero();
    assertThat(sol.stopClicks()).isZero();
  }

  @Test
  void aLoggedOutPageIsStillReadAndReportedAsSuch() throws Exception {
    fakesol(scenario("{\"state\": \"logged_out\"}"));

    Run run = doctor(sol.url().toString());

    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode report = run.json();
    assertThat(report.path("state").asText()).isEqualTo("logged_out");
    assertThat(report.path("signed_in").asBoolean(true)).isFalse();
    assertThat(report.path("composer").path("found").asBoolean()).isFalse();
    assertThat(checks(report)).containsEntry("signed_in", false).containsEntry("page", true).containsEntry("challenge", true);
  }

  @Test
  void aPageThatCannotBeOpenedIsExitThree() {
    Run run = ctl("doctor", "--headless", "--chat-url", "http://127.0.0.1:9/");

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err()).startsWith("solwebctl doctor: cannot open http://127.0.0.1:9/");
  }

  @Test
  void doctorOnTheMarch2026CaptureFindsItsTurnsAndCodeBlock() throws Exception {
    Run run = doctor(served(REALDOM.resolve("aice/chatgpt-dom-1question-ans-pair--with-python-code-response.html")));

    JsonNode report = run.json();
    assertThat(report.path("dom_variant").asText()).isEqualTo("2026-03");
    assertThat(report.path("turns").asInt()).isEqualTo(2);
    assertThat(report.path("composer").path("found").asBoolean()).isTrue();
    JsonNode last = report.path("last_reply");
    assertThat(last.path("message_id").asText()).isEqualTo("7768f80d-704b-480d-b5a9-04b0bb268b2e");
    assertThat(last.path("model_slug").asText()).isEqualTo("gpt-5-3");
    assertThat(last.path("source").asText()).isEqualTo("dom");
    assertThat(last.path("code_blocks").toString()).isEqualTo("[\"print(\\\"Hello, World!\\\")\"]");
  }

  @Test
  void doctorOnTheTwoTurnCaptureCountsFourTurns() throws Exception {
    JsonNode report = doctor(served(REALDOM.resolve("aice/chatgpt-dom-2question-ans-pairs.html"))).json();

    assertThat(report.path("turns").asInt()).isEqualTo(4);
    assertThat(report.path("last_reply").path("complete").asBoolean()).isTrue();
    assertThat(report.path("signed_in").asBoolean()).isTrue();
  }

  @Test
  void doctorOnTheJulyRussianPickerCaptureReadsTheEffortRowsNotTheModels() throws Exception {
    JsonNode report = doctor(served(REALDOM.resolve("chatgpt-bridge/intelligence-picker-ru.html"))).json();

    assertThat(report.path("dom_variant").asText()).isEqualTo("2026-07");
    JsonNode effort = report.path("effort");
    assertThat(effort.path("picker").asText()).isEqualTo("menu");
    assertThat(effort.path("options").toString()).isEqualTo("[{\"label\":\"Instant\",\"effort\":\"instant\",\"checked\":false,"
        + "\"disabled\":false},{\"label\":\"Средний\",\"effort\":\"medium\",\"checked\":false,\"disabled\":false},"
        + "{\"label\":\"Высокий\",\"effort\":\"high\",\"checked\":true,\"disabled\":false}]");
    // No pill on this capture: the checked row gives the effort (issue 22), and the open menu was read as it is.
    assertThat(effort.path("effort").asText()).isEqualTo("high");
    assertThat(checks(report)).containsEntry("effort_pill", true);
    assertThat(checks(report)).containsEntry("effort_menu", true);
  }

  @Test
  void doctorOnTheJuly2026CodeCaptureReadsTheBlockOnce() throws Exception {
    JsonNode report = doctor(served(REALDOM.resolve("chatgpt-bridge/sample-code-01-final.html"))).json();
    JsonNode expected = JSON.readTree(Files.readString(REALDOM.resolve("chatgpt-bridge/sample-code-01-final.fixture.json")));

    assertThat(report.path("dom_variant").asText()).isEqualTo("2026-07");
    JsonNode last = report.path("last_reply");
    assertThat(last.path("message_id").asText()).isEqualTo("captured-message");
    assertThat(last.path("source").asText()).isEqualTo("dom");
    assertThat(last.path("code_blocks").toString())
        .isEqualTo(JSON.writeValueAsString(List.of(expected.path("expected").path("codeBlocks").get(0).path("code").asText())));
  }

  /** A finished turn on {@code dom}, captured with the effort menu open: the file, which holds none of the turn's text. */
  private Path captured(String dom, String locale, String name) throws Exception {
    SeatReply reply = conversation(dom, locale);
    Path out = home.resolve(name);

    Run run = ctl("capture", "--out", out.toString(), "--headless", "--open-effort-menu", "--chat-url", reply.conversationUrl());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.readString(out)).doesNotContain("Prompt from", "Answer prose", "doctor-secret", ACCOUNT, "owner.doctor",
        "eyJhbGci", "<script");
    return out;
  }

  @Test
  void captureLeavesNoConversationTextEmailOrTokenAndKeepsTheSelectors() throws Exception {
    Path out = captured("2026-09", "en", "capture.html");

    String html = Files.readString(out);
    assertThat(html).contains("id=\"prompt-textarea\"", "data-testid=\"send-button\"", "data-testid=\"conversation-turn-",
        "data-message-author-role=\"assistant\"", "data-testid=\"copy-turn-action-button\"", "data-composer-surface=\"true\"",
        "data-testid=\"composer-model-picker-slider-simple-view\"", "role=\"slider\"", "aria-label=\"Copy code\"",
        "data-message-model-slug", "<span class=\"truncate\">Thinking effort</span>");
    String prompt = "Prompt from " + ACCOUNT + " holding " + JWT;
    assertThat(html).contains(">" + prompt.replaceAll("\\S", "x") + "<");

    // The capture served again reads like the page it came from, placeholders for text.
    JsonNode report = doctor(served(out)).json();
    assertThat(report.path("turns").asInt()).isEqualTo(2);
    assertThat(report.path("last_reply").path("code_blocks").toString())
        .isEqualTo(JSON.writeValueAsString(List.of(CODE.replaceAll("\\S", "x"))));
    assertThat(report.path("dom_variant").asText()).isEqualTo("2026-09");
  }

  /** October's shape (REAL-PAGE rows 13-16): the turn-key exchange, the DIL answer and the id-less composer keep their markup, lose their text. */
  @Test
  void anOctoberCaptureKeepsTheLateShapesMarkupAndNoneOfItsText() throws Exception {
    Path out = captured("2026-10", "ru", "capture-october.html");

    assertThat(Files.readString(out)).contains("data-turn-key=", "data-talvt-turn-state=", "data-dil-message-id=", "data-markdown-copy=\"code-block\"",
        "data-composer-markdown", "aria-label=\"Выбрать модель ChatGPT\"", "role=\"slider\"", "turn-action-controls");
    JsonNode report = doctor(served(out)).json();
    assertThat(report.path("dom_variant").asText()).isEqualTo("2026-10");
    assertThat(report.path("last_reply").path("via").asText()).isEqualTo("dil");
    assertThat(report.path("last_reply").path("code_blocks").toString())
        .isEqualTo(JSON.writeValueAsString(List.of(CODE.replaceAll("\\S", "x"))));
  }

  @Test
  void captureScrubsTheAccountAndTokensInsideAttributes() throws Exception {
    Path page = home.resolve("attributes.html");
    Files.writeString(page, "<!doctype html><html><head><title>A private title</title></head><body>"
        + "<nav><a href=\"/c/1\" title=\"History item\">My secret chat</a></nav>"
        + "<div data-testid=\"profile-button\" data-user=\"" + ACCOUNT + "\" aria-label=\"Account " + ACCOUNT + "\">Owner</div>"
        + "<img alt=\"Generated image\" src=\"/backend-api/estuary/content?id=file_0001&amp;sig=" + JWT + "\">"
        + "<button aria-label=\"Open menu\" onclick=\"steal()\">Menu</button>"
        + "<div role=\"alert\">You've reached our limit of messages. Your limit resets after 3:42 PM.</div>"
        + "<div id=\"prompt-textarea\" contenteditable=\"true\"><p>a draft</p></div>"
        + "<script>window.__token = '" + JWT + "';</script></body></html>");

    Run run = ctl("capture", "--out", home.resolve("out.html").toString(), "--headless", "--chat-url", served(page));

    assertThat(run.exitCode()).as(run.err()).isZero();
    String html = Files.readString(home.resolve("out.html"));
    assertThat(html).doesNotContain(ACCOUNT, "owner.doctor", JWT, "eyJ", "My secret chat", "History item",
        "A private title", "a draft", "steal()", "<script");
    assertThat(html).contains("<title>x xxxxxxx xxxxx</title>", "sig=scrubbed-token", "aria-label=\"Open menu\">Menu</button>",
        "You've reached our limit of messages. Your limit resets after 3:42 PM.", "data-testid=\"profile-button\"");
  }

  private static Map<String, Boolean> checks(JsonNode report) {
    Map<String, Boolean> out = new HashMap<>();
    report.path("checks").forEach(c -> out.put(c.path("name").asText(), c.path("ok").asBoolean()));
    return out;
  }
}
