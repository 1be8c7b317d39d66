package dev.solweb.provider.seat.playwright;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** The page rules that need no browser: banners, URLs, tiers. */
class ChatGptPageRulesTest {

  private final ChatGptPage page = new ChatGptPage(null, URI.create("https://chat.invalid/"));

  @Test
  void transientWebUrlsAreNeverDurable() {
    assertThat(page.durableUrl("https://chat.invalid/c/WEB:0b6f7d1e-1111-4222-8333-944455556666")).isEmpty();
    assertThat(page.durableUrl("https://chat.invalid/c/WEB%3A0b6f7d1e-1111-4222-8333-944455556666")).isEmpty();
    assertThat(page.durableUrl("https://chat.invalid/")).isEmpty();
    assertThat(page.durableUrl("https://chat.invalid/c/6929a1b2-0c3d-8000-a1b2-c3d4e5f60718?model=x#y"))
        .contains("https://chat.invalid/c/6929a1b2-0c3d-8000-a1b2-c3d4e5f60718");
    assertThat(page.durableUrl("https://chat.invalid/g/g-p-abc/c/6929a1b2-0c3d-8000")).contains("https://chat.invalid/g/g-p-abc/c/6929a1b2-0c3d-8000");
  }

  @Test
  void otherOriginsAreNeverManaged() {
    assertThat(page.durableUrl("https://evil.example/c/6929a1b2-0c3d-8000-a1b2")).isEmpty();
    assertThat(page.durableUrl("http://chat.invalid/c/6929a1b2-0c3d-8000-a1b2")).isEmpty();
  }

  @Test
  void bannersAreClassified() {
    assertThat(ChatGptPage.classify("You've reached our limit of messages per 3 hours.")).isEqualTo(ChatGptPage.Banner.CAP);
    assertThat(ChatGptPage.classify("You've hit the Free plan limit for GPT-5. Responses will use another model until your limit resets after 4:04 PM."))
        .isEqualTo(ChatGptPage.Banner.CAP_DOWNGRADE);
    assertThat(ChatGptPage.classify("The message you submitted was too long, please reload the conversation and submit something shorter."))
        .isEqualTo(ChatGptPage.Banner.TOO_LONG);
    assertThat(ChatGptPage.classify("Something went wrong. If this issue persists please contact us.")).isEqualTo(ChatGptPage.Banner.ERROR);
    assertThat(ChatGptPage.classify("Unable to load conversation 1234")).isEqualTo(ChatGptPage.Banner.MISSING);
    assertThat(ChatGptPage.classify("Copied!")).isEqualTo(ChatGptPage.Banner.OTHER);
  }

  @Test
  void statusLinesAreNotAnswerText() {
    assertThat(ChatGptPage.withoutStatusLines("Thinking\nThe answer")).isEqualTo("The answer");
    assertThat(ChatGptPage.withoutStatusLines("Думаю…\nОтвет")).isEqualTo("Ответ");
    assertThat(ChatGptPage.withoutStatusLines("Thinking about it, yes.")).isEqualTo("Thinking about it, yes.");
  }

  @Test
  void downgradesAreOnlyUnmistakableSigns() {
    assertThat(ChatGptPage.isDowngrade(Effort.HIGH, "gpt-5-mini")).isTrue();
    assertThat(ChatGptPage.isDowngrade(Effort.PRO, "gpt-5-thinking")).isTrue();
    assertThat(ChatGptPage.isDowngrade(Effort.HIGH, "gpt-5-instant")).isTrue();
    assertThat(ChatGptPage.isDowngrade(Effort.HIGH, "gpt-5-thinking")).isFalse();
    assertThat(ChatGptPage.isDowngrade(Effort.PRO, "gpt-5-pro")).isFalse();
    assertThat(ChatGptPage.isDowngrade(Effort.INSTANT, "gpt-5-instant")).isFalse();
    assertThat(ChatGptPage.isDowngrade(Effort.HIGH, null)).isFalse();
  }
}
