package dev.solweb.provider.dispatch;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Account-wide spacing between sends, jittered between {@code min} and {@code max}
 * ({@code SOLWEBD_DISPATCH_SPACING}, e.g. {@code 60-75s}); {@link #OFF} by default.
 */
public record DispatchSpacing(Duration min, Duration max) {
  public static final DispatchSpacing OFF = new DispatchSpacing(Duration.ZERO, Duration.ZERO);
  private static final Pattern SPEC = Pattern.compile("(\\d+(?:\\.\\d+)?)(?:-(\\d+(?:\\.\\d+)?))?(ms|s)?");

  public DispatchSpacing {
    if (max.compareTo(min) < 0) {
      throw new IllegalArgumentException("dispatch spacing max " + max + " is below min " + min);
    }
  }

  /** Parses {@code off}, {@code 0}, {@code 60s}, {@code 60-75s}, {@code 500-900ms}. */
  public static DispatchSpacing parse(String spec) {
    if (spec == null || spec.isBlank() || spec.strip().equalsIgnoreCase("off")) {
      return OFF;
    }
    Matcher m = SPEC.matcher(spec.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "SOLWEBD_DISPATCH_SPACING must look like 60-75s, 90s, 500-900ms or off; got: " + spec);
    }
    double low = Double.parseDouble(m.group(1));
    double high = m.group(2) == null ? low : Double.parseDouble(m.group(2));
    boolean millis = "ms".equals(m.group(3));
    return new DispatchSpacing(duration(low, millis), duration(high, millis));
  }

  private static Duration duration(double value, boolean millis) {
    return Duration.ofMillis(Math.round(millis ? value : value * 1000));
  }

  public boolean isOff() {
    return max.isZero();
  }

  /** The gap before the next send may start. */
  public Duration nextGap() {
    if (min.equals(max)) {
      return min;
    }
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(min.toMillis(), max.toMillis() + 1));
  }
}
