package dev.solweb.killgate.gate;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A loopback HTTP/1.1 forwarder in front of solwebd that records every request it passes: method,
 * path, which headers were present, the client-session header, the request body, the response
 * status and each SSE frame with its arrival time. The Authorization header is recorded only as
 * present or absent: its value never leaves the forwarding path.
 *
 * <p>Requests are parsed (Content-Length or chunked bodies) so that one keep-alive connection
 * carrying several requests still counts each; responses are forwarded byte for byte and read on
 * the side. {@link #dropHeader} removes one request header before it reaches solwebd (check 5's
 * control).
 */
final class RecordingProxy implements AutoCloseable {

  /** One SSE frame of a response, with when the proxy saw it. */
  record Frame(long atMillis, String data) {}

  /** One request and what came back. */
  static final class Exchange {
    final int index;
    final int connection;
    final long startedAtMillis;
    final String method;
    final String path;
    final Map<String, String> headers;
    final boolean authorizationPresent;
    final String body;
    volatile int status;
    final List<Frame> frames = new CopyOnWriteArrayList<>();
    final StringBuilder raw = new StringBuilder();
    volatile long endedAtMillis;
    int lastFrameEnd;

    Exchange(int index, int connection, String method, String path, Map<String, String> headers,
        boolean authorizationPresent, String body) {
      this.index = index;
      this.connection = connection;
      this.startedAtMillis = System.currentTimeMillis();
      this.method = method;
      this.path = path;
      this.headers = headers;
      this.authorizationPresent = authorizationPresent;
      this.body = body;
    }

    boolean isCompletion() {
      return "POST".equals(method) && path.startsWith("/v1/chat/completions");
    }

    String clientSession() {
      return headers.get("x-overdeck-client-session");
    }

    /** Keep-alive frames: an empty delta with no finish reason (solwebd's Completions.keepAliveChunk). */
    List<Frame> keepAlives() {
      return frames.stream().filter(f -> f.data().contains("\"finish_reason\":null,\"delta\":{}}")).toList();
    }

    /** The longest silence between consecutive frames (and from the request to the first frame). */
    long maxGapMillis() {
      long previous = startedAtMillis;
      long max = 0;
      for (Frame frame : frames) {
        max = Math.max(max, frame.atMillis() - previous);
        previous = frame.atMillis();
      }
      return max;
    }

    synchronized String responseText() {
      return raw.toString();
    }
  }

  private static final int RAW_LIMIT = 4 << 20;

  private final ServerSocket server;
  private final int targetPort;
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private volatile String dropHeader;
  /** Every client socket with its upstream while the pair is open: {@link #dropOpenConnections} closes them. */
  private final Map<Socket, Socket> open = new java.util.concurrent.ConcurrentHashMap<>();

  RecordingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread accept = new Thread(this::acceptLoop, "killgate-proxy");
    accept.setDaemon(true);
    accept.start();
  }

  int port() {
    return server.getLocalPort();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + port() + "/v1";
  }

  /** Removes this request header (case-insensitive) from every request from now on. */
  void dropHeader(String name) {
    dropHeader = name == null ? null : name.toLowerCase(Locale.ROOT);
  }

  /**
   * Drops every connection open now, both ways, as a network fault would: the client sees its
   * connection reset mid-response and solwebd sees its client gone. Later connections pass.
   *
   * @return how many connections were dropped
   */
  int dropOpenConnections() {
    int dropped = 0;
    for (Socket client : List.copyOf(open.keySet())) {
      Socket upstream = open.remove(client); // the pair's own threads remove it too once a side closes
      if (upstream != null) {
        closeQuietly(client);
        closeQuietly(upstream);
        dropped++;
      }
    }
    return dropped;
  }

  List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  List<Exchange> completions() {
    return exchanges.stream().filter(Exchange::isCompletion).toList();
  }

  List<Exchange> completions(Predicate<Exchange> filter) {
    return completions().stream().filter(filter).toList();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        open.put(client, upstream);
        int id = connections.incrementAndGet();
        List<Exchange> onThisConnection = new CopyOnWriteArrayList<>();
        start(() -> requests(client, upstream, id, onThisConnection), "killgate-proxy-req-" + id);
        start(() -> responses(upstream, client, onThisConnection), "killgate-proxy-resp-" + id);
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void start(Runnable body, String name) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  private void requests(Socket client, Socket upstream, int connection, List<Exchange> onThisConnection) {
    try (InputStream in = new BufferedInputStream(client.getInputStream());
        OutputStream out = upstream.getOutputStream()) {
      while (true) {
        byte[] head = readHead(in);
        if (head == null) {
          return;
        }
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        boolean auth = false;
        StringBuilder forwarded = new StringBuilder(lines[0]).append("\r\n");
        for (int i = 1; i < lines.length; i++) {
          int colon = lines[i].indexOf(':');
          if (colon <= 0) {
            continue;
          }
          String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
          String value = lines[i].substring(colon + 1).trim();
          if (name.equals(dropHeader)) {
            continue;
          }
          forwarded.append(lines[i]).append("\r\n");
          if (name.equals("authorization") || name.equals("x-api-key")) {
            // Claude Code presents the token as both; neither value is ever recorded.
            auth = auth || !value.isEmpty();
            headers.put(name, value.startsWith("Bearer ") ? "Bearer <present>" : "<present>");
          } else {
            headers.put(name, value);
          }
        }
        forwarded.append("\r\n");
        ByteArrayOutputStream rawBody = new ByteArrayOutputStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(headers.getOrDefault("transfer-encoding", ""))) {
          readChunked(in, rawBody, body);
        } else {
          int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
          byte[] bytes = in.readNBytes(length);
          rawBody.write(bytes);
          body.write(bytes);
        }
        Exchange exchange = new Exchange(exchanges.size(), connection, requestLine[0],
            requestLine.length > 1 ? requestLine[1] : "", headers, auth, body.toString(StandardCharsets.UTF_8));
        exchanges.add(exchange);
        onThisConnection.add(exchange);
        out.write(forwarded.toString().getBytes(StandardCharsets.ISO_8859_1));
        rawBody.writeTo(out);
        out.flush();
      }
    } catch (IOException | RuntimeException e) {
      // Either side closed.
    } finally {
      closeQuietly(client);
      closeQuietly(upstream);
      open.remove(client);
    }
  }

  private void responses(Socket upstream, Socket client, List<Exchange> onThisConnection) {
    byte[] buf = new byte[16384];
    try (InputStream in = upstream.getInputStream(); OutputStream out = client.getOutputStream()) {
      int n;
      while ((n = in.read(buf)) > 0) {
        long now = System.currentTimeMillis();
        if (!onThisConnection.isEmpty()) {
          Exchange current = onThisConnection.get(onThisConnection.size() - 1);
          observe(current, new String(buf, 0, n, StandardCharsets.UTF_8), now);
        }
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // Either side closed.
    } finally {
      long now = System.currentTimeMillis();
      onThisConnection.forEach(x -> {
        if (x.endedAtMillis == 0) {
          x.endedAtMillis = now;
        }
      });
      closeQuietly(client);
      closeQuietly(upstream);
      open.remove(client);
    }
  }

  /** Appends response bytes; parses the status line and every complete {@code data:} frame. */
  private static void observe(Exchange x, String text, long now) {
    synchronized (x) {
      int before = x.raw.length();
      if (before < RAW_LIMIT) {
        x.raw.append(text);
      }
      if (x.status == 0 && x.raw.indexOf("\r\n") > 0) {
        String[] statusLine = x.raw.substring(0, x.raw.indexOf("\r\n")).split(" ");
        if (statusLine.length > 1) {
          x.status = Integer.parseInt(statusLine[1]);
        }
      }
      int scanFrom = x.lastFrameEnd;
      while (true) {
        int start = x.raw.indexOf("data: ", scanFrom);
        if (start < 0) {
          break;
        }
        int end = x.raw.indexOf("\n\n", start);
        if (end < 0) {
          break;
        }
        x.frames.add(new Frame(now, x.raw.substring(start + 6, end)));
        scanFrom = end + 2;
        x.lastFrameEnd = scanFrom;
      }
      x.endedAtMillis = now;
    }
  }

  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        byte[] bytes = head.toByteArray();
        return java.util.Arrays.copyOf(bytes, bytes.length - 4);
      }
    }
    return null;
  }

  private static void readChunked(InputStream in, ByteArrayOutputStream raw, ByteArrayOutputStream body)
      throws IOException {
    while (true) {
      String sizeLine = readLine(in);
      raw.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
      if (size == 0) {
        String trailer;
        do {
          trailer = readLine(in);
          raw.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        } while (!trailer.isEmpty());
        return;
      }
      byte[] chunk = in.readNBytes(size);
      raw.write(chunk);
      body.write(chunk);
      raw.write(in.readNBytes(2));
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        sb.append((char) b);
      }
    }
    return sb.toString();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing.
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
