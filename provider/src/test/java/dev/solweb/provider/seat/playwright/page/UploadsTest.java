package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chips a failed turn left are removed before the next turn's files, in the composer's own
 * container whether it is a form or not (REAL-PAGE row 55), and nothing outside it is touched:
 * hand-written pages in Chromium.
 */
class UploadsTest {

  @RegisterExtension static final CapturedPages pages = new CapturedPages();

  private static final String CHIP = "<div role=\"group\" aria-label=\"%1$s\"><span>%1$s</span>"
      + "<button type=\"button\" aria-label=\"Datei %2$d entfernen: %1$s\" onclick=\"this.parentElement.remove()\">\u00D7</button></div>";

  /** A composer (a form, or a div as in a temporary chat) with two chips, and a group with a button outside it. */
  private static Page page(String box) {
    Page page = pages.open("late/hidden-2026-10-08.html");
    page.setContent("<main><div role=\"group\" aria-label=\"Antwortaktionen\"><button type=\"button\" id=\"outside\""
        + " onclick=\"window.__outside = true\">Kopieren</button></div>"
        + "<" + box + " class=\"composer\"><div>" + CHIP.formatted("build.log", 1) + CHIP.formatted("shot.png", 2) + "</div>"
        + "<input type=\"file\" multiple><div contenteditable=\"true\" class=\"ProseMirror\" role=\"textbox\"></div>"
        + "<button type=\"button\" aria-label=\"Senden\">\u2191</button></" + box + "></main>");
    return page;
  }

  @ParameterizedTest
  @ValueSource(strings = {"form", "div"})
  void everyChipInTheComposerGoesAndNothingOutsideIsClicked(String box) {
    Page page = page(box);
    Uploads uploads = new Uploads(page);
    assertThat(uploads.chips()).containsExactly("build.log", "shot.png");

    assertThat(uploads.removeAll()).isEqualTo(2);

    assertThat(uploads.chips()).isEmpty();
    assertThat(page.evaluate("() => document.querySelectorAll('[role=group]').length")).as("the group outside stays").isEqualTo(1);
    assertThat(page.evaluate("() => window.__outside === true")).isEqualTo(false);
    assertThat(uploads.removeAll()).as("none left").isZero();
  }
}
