package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.FilePayload;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.FakeSolUploads.Fault;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.testkit.Programs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The negative control of the seat's upload tests: a driver that sends as soon as the chip shows
 * (what row 46's user did) loses the file on fakesol's early-chip page, so SeatUploadTest's early-chip
 * test proves the seat waited, not that the page was lenient.
 */
@Timeout(120)
class FakeSolUploadsPageTest {

  @Test
  void aSendOnTheChipAloneDropsTheFileWithoutAWord() throws Exception {
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    try (FakeSol sol = FakeSol.start(Scenario.parse("{\"default\": [{\"prose\": \"ok\"}]}"), 0);
         Playwright pw = Playwright.create()) {
      sol.uploads().fault(Fault.EARLY_CHIP);
      Browser browser = pw.chromium().launch(new BrowserType.LaunchOptions()
          .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setHeadless(true));
      Page page = browser.newPage();
      page.navigate(sol.url().toString());
      page.locator("#upload-files").setInputFiles(new FilePayload("notes.txt", "text/plain", "hello".getBytes()));
      page.locator("form [role=group][aria-label=\"notes.txt\"]").waitFor();
      page.locator("form [contenteditable=\"true\"]").first().click();
      page.keyboard().insertText("read the notes");
      page.locator("#composer-submit-button, form button[type=\"submit\"]").first().click();
      page.waitForCondition(() -> !sol.sends().isEmpty());

      assertThat(sol.sends().get(0).text()).isEqualTo("read the notes");
      assertThat(sol.uploads().turns().get(0).files()).isEmpty(); // the page sent the turn without the file
      assertThat(sol.uploads().createRequests()).isEqualTo(1);
      browser.close();
    }
  }
}
