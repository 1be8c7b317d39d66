package dev.solweb.provider.failure;


/** A turn that ended in a typed {@link ProviderFailure}. */
public final class TurnFailed extends RuntimeException {
  private final transient ProviderFailure failure;

  public TurnFailed(ProviderFailure failure) {
    super(failure.message(), null, false, false);
    this.failure = failure;
  }

  public ProviderFailure failure() {
    return failure;
  }
}
