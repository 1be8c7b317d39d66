package dev.solweb.provider.model;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/** Reasoning effort; it lives in the model id {@code sol-web-<effort>}. */
public enum Effort {
  INSTANT("instant", "Instant"),
  MEDIUM("medium", "Medium"),
  HIGH("high", "High"),
  XHIGH("xhigh", "Extra High"),
  PRO("pro", "Pro");

  public static final String MODEL_PREFIX = "sol-web-";

  private final String suffix;
  private final String label;

  Effort(String suffix, String label) {
    this.suffix = suffix;
    this.label = label;
  }

  /** The model id suffix, e.g. {@code xhigh}. */
  public String suffix() {
    return suffix;
  }

  /** The label ChatGPT's effort menu shows, e.g. {@code Extra High}. */
  public String label() {
    return label;
  }

  public String modelId() {
    return MODEL_PREFIX + suffix;
  }

  public static List<String> modelIds() {
    return Stream.of(values()).map(Effort::modelId).toList();
  }

  /** Parses {@code sol-web-<effort>}; anything else is empty. */
  public static Optional<Effort> fromModelId(String modelId) {
    if (modelId == null || !modelId.startsWith(MODEL_PREFIX)) {
      return Optional.empty();
    }
    String suffix = modelId.substring(MODEL_PREFIX.length());
    return Stream.of(values()).filter(e -> e.suffix.equals(suffix)).findFirst();
  }

  public static Optional<Effort> fromSuffix(String suffix) {
    return Stream.of(values()).filter(e -> e.suffix.equals(suffix)).findFirst();
  }

  /**
   * Maps a label read back from the page to an effort: the menu label ("Extra High") or the
   * suffix ("xhigh"), case and surrounding space ignored. An unknown label is empty, never a guess.
   */
  public static Optional<Effort> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String wanted = label.strip().toLowerCase(Locale.ROOT);
    return Stream.of(values())
        .filter(e -> e.suffix.equals(wanted) || e.label.toLowerCase(Locale.ROOT).equals(wanted))
        .findFirst();
  }
}
