package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import javax.imageio.ImageIO;

/**
 * What the live-view tests share: where an element of the seat's page is (read on a twin page of
 * the seat's size, since a test cannot read the seat's own DOM), a click on the operator's picture
 * at that place, and how two pictures of the page differ.
 */
final class SeatPictures {
  static final int SEAT_WIDTH = PlaywrightOptions.PAGE_WIDTH;
  static final int SEAT_HEIGHT = PlaywrightOptions.PAGE_HEIGHT;

  private SeatPictures() {}

  static BoundingBox box(Page page, String selector) {
    Locator element = page.locator(selector).first();
    element.waitFor();
    return element.boundingBox();
  }

  /** Clicks the operator's picture where {@code target} is on the seat's page (scaled to the picture's size). */
  static void clickOnPicture(Page page, Locator canvas, BoundingBox target) {
    BoundingBox picture = canvas.boundingBox();
    double x = picture.x + (target.x + target.width / 2) * picture.width / SEAT_WIDTH;
    double y = picture.y + (target.y + target.height / 2) * picture.height / SEAT_HEIGHT;
    page.mouse().click(x, y);
  }

  static BufferedImage png(byte[] bytes) throws Exception {
    assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    return ImageIO.read(new ByteArrayInputStream(bytes));
  }

  /** The share of pixels that differ clearly (the caret and font smoothing aside); 1 for another size. */
  static double difference(BufferedImage a, BufferedImage b) {
    if (a.getWidth() != b.getWidth() || a.getHeight() != b.getHeight()) {
      return 1;
    }
    long differ = 0;
    for (int y = 0; y < a.getHeight(); y += 2) {
      for (int x = 0; x < a.getWidth(); x += 2) {
        if (far(a.getRGB(x, y), b.getRGB(x, y))) {
          differ++;
        }
      }
    }
    return differ / ((a.getWidth() / 2.0) * (a.getHeight() / 2.0));
  }

  /** Pixels inside {@code box} that differ clearly between two frames. */
  static int changed(BufferedImage before, BufferedImage after, BoundingBox box) {
    int count = 0;
    for (int y = (int) box.y; y < Math.min(before.getHeight(), after.getHeight()) && y < box.y + box.height; y++) {
      for (int x = (int) box.x; x < Math.min(before.getWidth(), after.getWidth()) && x < box.x + box.width; x++) {
        if (far(before.getRGB(x, y), after.getRGB(x, y))) {
          count++;
        }
      }
    }
    return count;
  }

  private static boolean far(int p, int q) {
    int dr = Math.abs(((p >> 16) & 0xff) - ((q >> 16) & 0xff));
    int dg = Math.abs(((p >> 8) & 0xff) - ((q >> 8) & 0xff));
    int db = Math.abs((p & 0xff) - (q & 0xff));
    return Math.max(dr, Math.max(dg, db)) > 80;
  }
}
