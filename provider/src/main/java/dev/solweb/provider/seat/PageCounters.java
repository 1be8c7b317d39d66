package dev.solweb.provider.seat;

import java.time.Instant;
import java.util.List;

/**
 * What the page itself says the account has left (REAL-PAGE row 50), as read from a turn's
 * {@code conversation_detail_metadata} and the account's plan: never a guess of solweb's. The
 * page reports features (deep research, file uploads, image generation) and some models; it
 * reports no count of ordinary messages.
 *
 * @param plan {@code account.planType} ({@code plus}, {@code pro}, ...), or null when unknown
 * @param limitsProgress {@code limits_progress}: one counter per feature
 * @param modelLimits {@code model_limits}: one counter per model slug
 * @param blockedFeatures {@code blocked_features}
 * @param defaultModelSlug {@code default_model_slug}, or null
 * @param readAt when the seat read them (the end of the turn that carried them)
 */
public record PageCounters(String plan, List<Counter> limitsProgress, List<Counter> modelLimits,
    List<String> blockedFeatures, String defaultModelSlug, Instant readAt) {

  public PageCounters {
    limitsProgress = List.copyOf(limitsProgress);
    modelLimits = List.copyOf(modelLimits);
    blockedFeatures = List.copyOf(blockedFeatures);
  }

  /**
   * One counter as the page wrote it: a feature's or model's name, what is left (null when the
   * page gave no number) and when it resets (ISO time as written, or null).
   */
  public record Counter(String name, Integer remaining, String resetAfter) {}
}
