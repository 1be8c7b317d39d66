package dev.solweb.provider.http;

import java.time.Duration;

/**
 * What the HTTP surface needs to know besides the dispatcher.
 *
 * @param keepAlive interval between keep-alive chunks; zero turns them off
 * @param maxBodyBytes requests over this are refused with 413
 * @param version the build identity {@code /healthz} reports
 * @param instanceGeneration a random id per daemon start
 */
public record ServerSettings(
    String token, Duration keepAlive, long maxBodyBytes, String version, String instanceGeneration, long pid) {

  @Override
  public String toString() {
    // The token never reaches a log line, even through a record's toString.
    return "ServerSettings[keepAlive=" + keepAlive + ", maxBodyBytes=" + maxBodyBytes + ", version=" + version
        + ", instanceGeneration=" + instanceGeneration + ", pid=" + pid + "]";
  }
}
