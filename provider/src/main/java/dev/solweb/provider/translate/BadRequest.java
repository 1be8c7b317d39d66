package dev.solweb.provider.translate;

/**
 * A request the daemon refuses before it reaches a seat: a typed 4xx, never a crash. The
 * {@code type} is the OpenAI-style error type the client sees.
 */
public final class BadRequest extends Exception {
  private final int status;
  private final String type;

  public BadRequest(int status, String type, String message) {
    super(message);
    this.status = status;
    this.type = type;
  }

  public static BadRequest invalid(String message) {
    return new BadRequest(400, "invalid_request_error", message);
  }

  public int status() {
    return status;
  }

  public String type() {
    return type;
  }
}
