package dev.solweb.provider.http.operator;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * What the operator page needs besides the dispatcher: its clock (codes and sessions expire by
 * it; tests give their own), the daemon's log file and the lifetimes of codes and sessions.
 *
 * @param logFile {@code <home>/solwebd.log}, or null when the daemon has no home (its log tail is then empty)
 * @param codeLifetime how long a one-time code can be spent
 * @param sessionIdle a session unused this long ends
 * @param sessionMax a session ends this long after sign-in, used or not
 */
public record OperatorSettings(Clock clock, Path logFile, Duration codeLifetime, Duration sessionIdle,
    Duration sessionMax) {

  public static final Duration CODE_LIFETIME = Duration.ofSeconds(60);
  public static final Duration SESSION_IDLE = Duration.ofMinutes(30);
  public static final Duration SESSION_MAX = Duration.ofHours(12);

  public static OperatorSettings of(Clock clock, Path logFile) {
    return new OperatorSettings(clock, logFile, CODE_LIFETIME, SESSION_IDLE, SESSION_MAX);
  }
}
