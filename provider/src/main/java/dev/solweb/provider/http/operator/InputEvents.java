package dev.solweb.provider.http.operator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.seat.PageInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The body of {@code POST /ui/api/seats/{n}/input}: one event object, or {@code {"events": [...]}}
 * (at most {@link #MAX_EVENTS}), each one of
 * <pre>
 *   {"type": "mouse", "action": "move|down|up|click", "x": 10, "y": 20, "button": "left", "click_count": 1}
 *   {"type": "wheel", "x": 10, "y": 20, "dx": 0, "dy": 120}
 *   {"type": "key", "action": "down|up", "key": "Enter"}
 *   {"type": "text", "text": "owner@example.com"}
 * </pre>
 * Coordinates are the page's viewport in CSS pixels. Anything else is an IllegalArgumentException
 * that names what is wrong.
 */
final class InputEvents {
  static final int MAX_EVENTS = 64;

  private InputEvents() {
  }

  static List<PageInput> parse(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new IllegalArgumentException("the body must be a JSON object: one event or {\"events\": [...]}");
    }
    List<PageInput> events = new ArrayList<>();
    if (body.has("events")) {
      JsonNode list = body.get("events");
      if (!list.isArray() || list.isEmpty() || list.size() > MAX_EVENTS) {
        throw new IllegalArgumentException("events must be an array of 1 to " + MAX_EVENTS + " events");
      }
      list.forEach(event -> events.add(one(event)));
    } else {
      events.add(one(body));
    }
    return events;
  }

  private static PageInput one(JsonNode event) {
    String type = text(event, "type");
    return switch (type) {
      case "mouse" -> new PageInput.Mouse(mouseAction(text(event, "action")), number(event, "x"), number(event, "y"),
          event.path("button").asText("left"), event.path("click_count").asInt(1));
      case "wheel" -> new PageInput.Wheel(number(event, "x"), number(event, "y"), event.path("dx").asDouble(0),
          event.path("dy").asDouble(0));
      case "key" -> {
        String action = text(event, "action");
        if (!action.equals("down") && !action.equals("up")) {
          throw new IllegalArgumentException("a key event's action is down or up, not \"" + action + "\"");
        }
        yield new PageInput.Key(action.equals("down"), text(event, "key"));
      }
      case "text" -> new PageInput.Text(text(event, "text"));
      default -> throw new IllegalArgumentException("an event's type is mouse, wheel, key or text, not \"" + type + "\"");
    };
  }

  private static PageInput.Mouse.Action mouseAction(String action) {
    try {
      return PageInput.Mouse.Action.valueOf(action.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a mouse event's action is move, down, up or click, not \"" + action + "\"");
    }
  }

  private static String text(JsonNode event, String field) {
    JsonNode value = event.get(field);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException("an event needs \"" + field + "\" as a string");
    }
    return value.asText();
  }

  private static double number(JsonNode event, String field) {
    JsonNode value = event.get(field);
    if (value == null || !value.isNumber() || !Double.isFinite(value.asDouble())) {
      throw new IllegalArgumentException("a " + event.path("type").asText() + " event needs \"" + field + "\" as a number");
    }
    return value.asDouble();
  }
}
