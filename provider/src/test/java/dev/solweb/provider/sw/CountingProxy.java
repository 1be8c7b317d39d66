package dev.solweb.provider.sw;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A byte-level loopback TCP proxy that records what clients send. It parses nothing, so streaming
 * and disconnects pass through as they are: when either side closes, both sockets close.
 */
public final class CountingProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
  private final List<Socket> sockets = new ArrayList<>();

  public CountingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "counting-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Everything clients sent so far, as ISO-8859-1 text. */
  public String sent() {
    synchronized (sent) {
      return sent.toString(StandardCharsets.ISO_8859_1);
    }
  }

  public int count(String needle) {
    String text = sent();
    int count = 0;
    for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
      count++;
    }
    return count;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(upstream);
        }
        pump(client, upstream, true);
        pump(upstream, client, false);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, boolean record) {
    Thread thread = new Thread(() -> {
      byte[] buffer = new byte[16384];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          if (record) {
            synchronized (sent) {
              sent.write(buffer, 0, n);
            }
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // One side went away; close both below.
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "counting-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Already closed.
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (sockets) {
      sockets.forEach(CountingProxy::closeQuietly);
    }
  }
}
