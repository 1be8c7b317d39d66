package dev.solweb.provider.http;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Which model answered (REAL-PAGE rows 61, 62: one menu holds several families and versions): the
 * page's slug of each answer goes out as {@value #HEADER} on every wire (a header on a whole body, a
 * comment line in a stream, whose headers left before the model was known), while each wire's
 * {@code model} field keeps the id the client asked for; {@code /healthz} shows the last one.
 */
final class ModelInUse {

  static final String HEADER = "x-solweb-model";

  private final AtomicReference<String> last = new AtomicReference<>();

  /** An answer went out; a null model (unknown) leaves the last known one. */
  void answered(String model) {
    if (model != null && !model.isBlank()) {
      last.set(model);
    }
  }

  /** The model slug of the last answer that named one, or null. */
  String last() {
    return last.get();
  }
}
