package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.Scenario;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * REAL-PAGE row 35 in fakesol, with Playwright's trusted input and no seat: the answer's action
 * bar, inside the exchange, offers "Regenerate response" (in the page's language); its click posts
 * the turn again as a regeneration ({@code action: "variant"}, {@code parent_message_id} the
 * prompt's id, the same conversation, no new user message) and a new answer streams into the
 * exchange; {@code /control} counts one regeneration and still one send.
 */
@Timeout(120)
class FakeSolRegenerateTest {

  private static final String TURN_PATH = "/backend-api/f/conversation";
  @RegisterExtension
  static final FakeSolPages PAGES = new FakeSolPages();
  private FakeSol sol;
  private BrowserContext context;


  @ParameterizedTest
  @CsvSource({"2026-09-en, en, Regenerate response", "2026-10, ru, Повторить ответ"})
  void regenerateResponsePostsTheTurnAgainAsAVariantOfTheSamePromptAndANewAnswerStreams(String dom, String locale,
      String label) throws Exception {
    sol = PAGES.closeAfter(FakeSol.start(Vertx.vertx(), true, Scenario.parse("{\"dom\": \"" + dom + "\", \"locale\": \"" + locale + "\","
        + " \"default\": [{\"prose\": \"The first answer.\"}, {\"prose\": \"The regenerated answer.\"}]}"), 0,
        Clock.systemUTC()));
    context = PAGES.newContext();
    Page page = context.newPage();
    List<JsonNode> turns = new CopyOnWriteArrayList<>();
    page.onRequest(r -> {
      if ("POST".equals(r.method()) && r.url().endsWith(TURN_PATH)) {
        try {
          turns.add(Json.MAPPER.readTree(r.postData()));
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    });
    page.navigate(sol.url().toString());
    Locator composer = page.locator("form[data-chatgpt-composer] div.ProseMirror[contenteditable=\"true\"]");
    composer.waitFor(new Locator.WaitForOptions().setTimeout(20_000));
    composer.click();
    page.keyboard().insertText("hello");
    page.locator("form[data-chatgpt-composer] button[type=\"submit\"]").click();
    page.getByText("The first answer.").waitFor(new Locator.WaitForOptions().setTimeout(30_000));

    Locator regenerate = page.locator("[data-turn-key] button[aria-label=\"" + label + "\"]");
    page.waitForCondition(() -> regenerate.count() == 1 && regenerate.isVisible(),
        new Page.WaitForConditionOptions().setTimeout(30_000));
    assertThat(regenerate.getAttribute("data-testid")).as("row 35: no test ids").isNull();
    page.locator("[data-turn-key]").last().hover(); // the bar takes the pointer on hover
    regenerate.click();
    page.getByText("The regenerated answer.").waitFor(new Locator.WaitForOptions().setTimeout(30_000));

    assertThat(turns).hasSize(2);
    JsonNode first = turns.get(0);
    JsonNode variant = turns.get(1);
    assertThat(variant.path("action").asText()).isEqualTo("variant");
    assertThat(variant.path("parent_message_id").asText()).isEqualTo(first.path("messages").path(0).path("id").asText());
    assertThat(variant.path("messages").isMissingNode() || variant.path("messages").isEmpty())
        .as("no new user message").isTrue();
    assertThat(variant.path("conversation_id").asText()).isEqualTo(sol.sends().get(0).conversationId());
    assertThat(page.getByText("The first answer.").count()).as("the old answer left the exchange").isZero();
    assertThat(sol.regenerations()).isEqualTo(1);
    assertThat(sol.sends()).as("nothing typed again").hasSize(1);
  }
}
