package dev.solweb.factory.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP forwarder in front of solwebd that counts chat-completions requests (request
 * lines {@code POST /v1/chat/completions} in the client-to-daemon bytes), so a test can assert
 * "exactly one request reached solwebd" without any hook in the daemon.
 */
public final class CountingProxy implements AutoCloseable {

  private static final byte[] MARK = "POST /v1/chat/completions ".getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket server;
  private final int targetPort;
  private final AtomicInteger completions = new AtomicInteger();

  public CountingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread accept = new Thread(this::acceptLoop, "counting-proxy");
    accept.setDaemon(true);
    accept.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  public int completions() {
    return completions.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        pump(client, upstream, true);
        pump(upstream, client, false);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, boolean count) {
    Thread t = new Thread(() -> {
      int matched = 0;
      byte[] buf = new byte[8192];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buf)) > 0) {
          if (count) {
            for (int i = 0; i < n; i++) {
              matched = buf[i] == MARK[matched] ? matched + 1 : (buf[i] == MARK[0] ? 1 : 0);
              if (matched == MARK.length) {
                completions.incrementAndGet();
                matched = 0;
              }
            }
          }
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // Either side closed.
      } finally {
        try {
          from.close();
          to.close();
        } catch (IOException ignored) {
          // Closing.
        }
      }
    }, "counting-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
