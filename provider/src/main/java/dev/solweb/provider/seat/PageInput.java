package dev.solweb.provider.seat;

import java.util.Set;

/**
 * One input event a person sends to a seat's page: coordinates are the page's viewport in CSS
 * pixels (what {@link ScreenFrame#width()} and {@link ScreenFrame#height()} measure).
 */
public sealed interface PageInput {

  /** Mouse buttons as the page names them. */
  Set<String> BUTTONS = Set.of("left", "middle", "right");

  /** {@code move}, {@code down}, {@code up} or {@code click} (down and up) at {@code x,y}. */
  record Mouse(Action action, double x, double y, String button, int clickCount) implements PageInput {
    public enum Action { MOVE, DOWN, UP, CLICK }

    public Mouse {
      if (!BUTTONS.contains(button)) {
        throw new IllegalArgumentException("button must be one of " + BUTTONS + ", got: " + button);
      }
      if (clickCount < 1 || clickCount > 3) {
        throw new IllegalArgumentException("click_count must be 1 to 3, got: " + clickCount);
      }
    }
  }

  /** A wheel turn at {@code x,y} by {@code dx,dy} CSS pixels. */
  record Wheel(double x, double y, double dx, double dy) implements PageInput {}

  /** A key pressed ({@code down}) or released, by its name as a browser's {@code KeyboardEvent.key} gives it. */
  record Key(boolean down, String key) implements PageInput {
    public Key {
      if (key == null || key.isEmpty() || key.length() > 32) {
        throw new IllegalArgumentException("key must be a key name of 1 to 32 characters");
      }
    }
  }

  /** Text inserted where the page's focus is, as a paste or an input method would. */
  record Text(String text) implements PageInput {
    public static final int MAX = 10_000;

    public Text {
      if (text == null || text.isEmpty() || text.length() > MAX) {
        throw new IllegalArgumentException("text must be 1 to " + MAX + " characters");
      }
    }
  }

  /** The point an event lands on, or null for a keyboard event. */
  default double[] point() {
    if (this instanceof Mouse m) {
      return new double[] {m.x(), m.y()};
    }
    if (this instanceof Wheel w) {
      return new double[] {w.x(), w.y()};
    }
    return null;
  }
}
