package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.ElementHandle;
import com.microsoft.playwright.FileChooser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.FilePayload;
import java.util.ArrayList;
import java.util.List;

/**
 * The page's upload controls (../shared/REAL-PAGE.md rows 44, 46, 47): which file input takes a
 * file, the file chooser behind "Add files and more", the chips, and what the chips show. Each
 * control is found by an ordered list of strategies, by structure (ids, {@code accept}, the composer
 * form, roles), never by a {@code [data-testid*=composer]} match (the plus button's test id contains
 * "composer"). Whether an input really started an upload is the traffic's to say, not this class's.
 */
public final class Uploads {

  /** Inputs that take images, in order (row 44). */
  static final List<String> IMAGE_INPUTS = List.of(
      "#upload-photos", "input[data-testid=\"upload-photos-input\"]", "#upload-camera",
      "form input[type=\"file\"][accept^=\"image\"]");
  /** Inputs that take any file (no {@code accept}), in order: documents and logs go only here. */
  static final List<String> GENERIC_INPUTS = List.of(
      "#upload-files", "form[data-chatgpt-composer] input[type=\"file\"][multiple]:not([accept])",
      "form input[type=\"file\"]:not([accept])");
  /** "Add files and more": its id, else the composer form's first menu opener (the leading slot). */
  static final List<String> PLUS = List.of("#composer-plus-btn", "form:has([contenteditable=\"true\"]) button[aria-haspopup=\"menu\"]");

  /**
   * The composer form: the one that holds the editor; where there is no form (row 55, a temporary
   * chat), the editor's nearest container that holds a file input.
   */
  private static final String FORM = "(() => { const e = document.querySelector('#prompt-textarea, .ProseMirror,"
      + " [contenteditable=\"true\"]'); if (!e) return null; if (e.closest('form')) return e.closest('form');"
      + " for (let b = e.parentElement; b; b = b.parentElement) if (b.querySelector('input[type=\"file\"]')) return b;"
      + " return null; })()";

  /**
   * How long handing files to an input may take: the bytes travel through Playwright's pipe (about
   * 10 s for 10 MB on a loaded two-core machine), never through a file on disk.
   */
  private static final java.time.Duration HANDOVER = java.time.Duration.ofSeconds(90);
  /** The first chip's remove button (the chip's last button; its label is localized), or null. */
  private static final String FIRST_CHIPS_REMOVE = "() => { const f = " + FORM + "; const chip = f && f.querySelector('[role=\"group\"]');"
      + " return chip ? Array.from(chip.querySelectorAll('button')).pop() || null : null; }";

  private final Page page;

  public Uploads(Page page) {
    this.page = page;
  }

  /**
   * The file inputs to try for a kind of file, best first, each once, as indexes into
   * {@code input[type=file]}: images try the image inputs and then the generic ones; anything
   * else only the generic ones (never a non-image into an image-only input).
   */
  @SuppressWarnings("unchecked")
  public List<Integer> inputs(boolean image) {
    List<String> order = new ArrayList<>(image ? IMAGE_INPUTS : List.of());
    order.addAll(GENERIC_INPUTS);
    Object out = page.evaluate("""
        (order) => {
          const all = Array.from(document.querySelectorAll('input[type="file"]'));
          const seen = [];
          for (const selector of order) {
            let found = [];
            try { found = Array.from(document.querySelectorAll(selector)); } catch (e) { found = []; }
            for (const input of found) {
              const i = all.indexOf(input);
              if (i >= 0 && !seen.includes(i)) seen.push(i);
            }
          }
          return seen;
        }""", order);
    List<Integer> indexes = new ArrayList<>();
    for (Object o : (List<Object>) out) {
      indexes.add(((Number) o).intValue());
    }
    return indexes;
  }

  /** Hands the files to input {@code index} of {@link #inputs}, as a person's file picker would. */
  public void choose(int index, List<FilePayload> files) {
    page.locator("input[type=\"file\"]").nth(index).setInputFiles(files.toArray(FilePayload[]::new),
        new Locator.SetInputFilesOptions().setTimeout(HANDOVER.toMillis()));
  }

  /** Empties input {@code index} again (one that started no upload keeps nothing of ours). */
  public void empty(int index) {
    try {
      page.locator("input[type=\"file\"]").nth(index).setInputFiles(new FilePayload[0],
          new Locator.SetInputFilesOptions().setTimeout(2_000));
    } catch (PlaywrightException e) {
      // gone with a re-render: it holds nothing then either
    }
  }

  /**
   * Where no input serves: a trusted click on "Add files and more", then on its menu's first item
   * ("Add photos & files", whatever the language), and the files into the chooser the page opens.
   *
   * @return false when there is no such button or no chooser opened
   */
  public boolean chooseThroughMenu(List<FilePayload> files) {
    Locator plus = null;
    for (String selector : PLUS) {
      Locator l = page.locator(selector).first();
      if (l.count() > 0 && l.isVisible()) {
        plus = l;
        break;
      }
    }
    if (plus == null) {
      return false;
    }
    Locator opener = plus;
    try {
      FileChooser chooser = page.waitForFileChooser(new Page.WaitForFileChooserOptions().setTimeout(5_000), () -> {
        opener.click(new Locator.ClickOptions().setTimeout(3_000));
        Locator item = page.locator("[role=\"menu\"] [role=\"menuitem\"]").first();
        item.waitFor(new Locator.WaitForOptions().setTimeout(2_000));
        item.click(new Locator.ClickOptions().setTimeout(2_000));
      });
      chooser.setFiles(files.toArray(FilePayload[]::new), new FileChooser.SetFilesOptions().setTimeout(HANDOVER.toMillis()));
      return true;
    } catch (PlaywrightException e) {
      page.keyboard().press("Escape"); // a menu left open would take the next click
      return false;
    }
  }

  /** The chips in the composer form (row 47): a {@code [role=group]} each, by the name it shows. */
  @SuppressWarnings("unchecked")
  public List<String> chips() {
    Object out = page.evaluate("() => { const f = " + FORM + "; return f ? Array.from(f.querySelectorAll('[role=\"group\"]'),"
        + " (g) => g.getAttribute('aria-label') || g.textContent.trim()) : []; }");
    return out instanceof List<?> l ? (List<String>) l : List.of();
  }

  /**
   * Row 46's fallback for an image without a processing stream: every chip's preview image has
   * loaded and no chip shows a progress bar.
   */
  public boolean previewsLoaded() {
    Object out = page.evaluate("() => { const f = " + FORM + "; if (!f) return false;"
        + " const chips = Array.from(f.querySelectorAll('[role=\"group\"]')); if (!chips.length) return false;"
        + " if (chips.some((c) => c.querySelector('[role=\"progressbar\"], [aria-busy=\"true\"]'))) return false;"
        + " const imgs = chips.flatMap((c) => Array.from(c.querySelectorAll('img')));"
        + " return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0); }");
    return Boolean.TRUE.equals(out);
  }

  /**
   * Removes every chip in the composer with its own remove button (the last button in the chip;
   * its "Remove file 1: name" label is localized), so nothing of a failed turn rides along with
   * the next. Returns how many were removed.
   */
  public int removeAll() {
    int removed = 0;
    while (removed < 32) {
      // Found in the composer's own container, a form or not (row 55): a form-only rule left a
      // formless page's chips in place, to ride along with the next Send.
      ElementHandle remove = page.evaluateHandle(FIRST_CHIPS_REMOVE).asElement();
      if (remove == null) {
        return removed;
      }
      try {
        remove.click(new ElementHandle.ClickOptions().setTimeout(3_000).setForce(true));
      } finally {
        remove.dispose();
      }
      removed++;
    }
    return removed;
  }
}
