package dev.solweb.provider.ask;

import dev.solweb.provider.failure.ProviderFailure;
import java.io.PrintWriter;
import java.util.List;

/**
 * What one ask produced, printed the same way whichever path answered: the answer text, then one
 * {@code image: <absolute path>} line per saved image. A failure prints its message on stderr
 * and maps to an exit code.
 */
sealed interface AskResult {
  int OK = 0;
  int FAILED = 1;
  int USAGE = 2;
  int UNAVAILABLE = 3;
  int CAPPED = 75;

  record Answered(String answer, List<String> images) implements AskResult {}

  record Failed(ProviderFailure failure) implements AskResult {}

  /** Could not ask at all (lock busy, daemon unusable, bad setup); never reached a page. */
  record Refused(String why) implements AskResult {}

  static int print(AskResult result, PrintWriter out, PrintWriter err) {
    if (result instanceof Answered answered) {
      out.println(answered.answer());
      answered.images().forEach(image -> out.println("image: " + image));
      return OK;
    }
    if (result instanceof Failed failed) {
      err.println("ask-gpt: " + failed.failure().message());
      return switch (failed.failure().kind()) {
        case CAPPED -> CAPPED;
        case UNAVAILABLE -> UNAVAILABLE;
        case PROTOCOL, CONTEXT_OVERFLOW, TIMEOUT, CANCELLED -> FAILED;
      };
    }
    if (result instanceof Refused refused) {
      err.println("ask-gpt: " + refused.why());
      return UNAVAILABLE;
    }
    throw new IllegalStateException("Unhandled ask result: " + result);
  }
}
