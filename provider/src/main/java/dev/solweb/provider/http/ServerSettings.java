package dev.solweb.provider.http;

import dev.solweb.provider.translate.AttachmentDecoder;
import java.time.Duration;

/**
 * What the HTTP surface needs to know besides the dispatcher.
 *
 * @param keepAlive interval between keep-alive chunks; zero turns them off
 * @param maxBodyBytes requests over this are refused with 413 (the daemon sizes it to hold one
 *     file of {@code maxAttachmentBytes} in base64: {@link AttachmentDecoder#bodyLimit})
 * @param version the build identity {@code /healthz} reports
 * @param instanceGeneration a random id per daemon start
 * @param maxAttachmentBytes the largest file a client may send ({@code SOLWEBD_MAX_ATTACHMENT_MB})
 */
public record ServerSettings(
    String token, Duration keepAlive, long maxBodyBytes, String version, String instanceGeneration, long pid,
    long maxAttachmentBytes) {

  /** Settings with the default file limit ({@link AttachmentDecoder#DEFAULT_MAX_MB}). */
  public ServerSettings(String token, Duration keepAlive, long maxBodyBytes, String version, String instanceGeneration,
      long pid) {
    this(token, keepAlive, maxBodyBytes, version, instanceGeneration, pid, AttachmentDecoder.defaults().maxBytes());
  }

  /** The decoder of the files clients send, with this daemon's limit. */
  public AttachmentDecoder attachments() {
    return new AttachmentDecoder(maxAttachmentBytes);
  }

  @Override
  public String toString() {
    // The token never reaches a log line, even through a record's toString.
    return "ServerSettings[keepAlive=" + keepAlive + ", maxBodyBytes=" + maxBodyBytes + ", version=" + version
        + ", instanceGeneration=" + instanceGeneration + ", pid=" + pid + ", maxAttachmentBytes=" + maxAttachmentBytes
        + "]";
  }
}
