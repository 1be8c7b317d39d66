package dev.solweb.factory.preflight;

/**
 * A typed preflight refusal: why no Factory session (and no Pi, no receipt, no file) was created.
 * {@link #getMessage()} is the plain sentence printed to the user.
 */
public final class Refusal extends Exception {

  /** The refusal kinds, each with a stable wire name for scripts and receipts. */
  public enum Kind {
    UNSUPPORTED_EFFORT("unsupported_effort"),
    REMOTE_TOPOLOGY("remote_topology"),
    NON_LOOPBACK_ENDPOINT("non_loopback_endpoint"),
    PROVIDER_CONFIG("provider_config"),
    MISSING_PROFILE("missing_profile"),
    SOLWEBCTL_MISSING("solwebctl_missing"),
    PROVIDER_NOT_READY("provider_not_ready"),
    PROVIDER_CAPPED("provider_capped"),
    PROVIDER_LOGGED_OUT("provider_logged_out"),
    TOO_FEW_SEATS("too_few_seats"),
    MISSING_MODELS("missing_models"),
    MALFORMED_HEALTH("malformed_health"),
    MISSING_PRESET("missing_preset");

    private final String wireName;

    Kind(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }

  private final Kind kind;

  public Refusal(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
