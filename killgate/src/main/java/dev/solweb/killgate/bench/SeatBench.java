package dev.solweb.killgate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.fakesol.ChatHistory;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The seat's figures against fakesol with zero scripted delay (loopback only, headless Chromium):
 * daemon cold start (process start to /healthz ready), seat cold start in-process, 145 KB prompt
 * cost, seat overhead per turn (probe, resume, effort, send, as the dispatcher calls them), the
 * same per turn over HTTP through solwebd, and the daemon JVM's RSS (Chromium excluded).
 */
@Command(name = "bench-seat", mixinStandardHelpOptions = true,
    description = "Benchmark the Playwright seat and solwebd --seat playwright against fakesol.")
public final class SeatBench implements Callable<Integer> {

  private static final ObjectMapper JSON = dev.solweb.provider.platform.Json.MAPPER;
  private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");

  @Spec CommandSpec spec;

  @Option(names = "--turns", description = "turns per measurement (default ${DEFAULT-VALUE})")
  int turns = 30;

  @Option(names = "--cold", description = "cold starts to measure (default ${DEFAULT-VALUE})")
  int cold = 4;

  @Option(names = "--dom", description = "fakesol page shape: 2026-03, 2026-07, 2026-08, 2026-09, 2026-09-turnkey, 2026-09-en, 2026-10, 2026-11"
      + " (default ${DEFAULT-VALUE})")
  String dom = Scenario.NEWEST_DOM;

  @Option(names = "--fault-turns", description = "turns with the real page's DOM faults (flashing bar, Pro preamble, no "
      + "/c/<id>, windowed thread), each kind of stream fault and late-2026 page fault (stuck turn state, safety review, "
      + "connection interrupted) in turn (default ${DEFAULT-VALUE})")
  int faultTurns = 100;

  @Option(names = "--deletes", paramLabel = "N",
      description = "instead of the turn figures: seconds per verified delete (menu, confirmation, reopen shows not-found)"
          + " over N conversations beside 3 personal ones, and per repeat (NOT_FOUND)")
  int deletes;

  @Option(names = "--seat-only", description = "skip the solwebd figures")
  boolean seatOnly;

  @Option(names = "--prepare", paramLabel = "on|off",
      description = "whether fakesol's page posts /prepare while typing (default: the shape's; the late-2026 shapes do)")
  String prepare;

  @Option(names = "--prepare-debounce-ms", paramLabel = "MS",
      description = "fakesol's /prepare debounce (no source gives the real page's; default ${DEFAULT-VALUE})")
  long prepareDebounceMs = dev.solweb.killgate.fakesol.PageWire.DEFAULT_DEBOUNCE.toMillis();

  @Option(names = "--chromium", description = "Chromium executable (default ${DEFAULT-VALUE})")
  Path chromium = PlaywrightOptions.DEFAULT_CHROMIUM;

  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    ObjectNode scenario = JSON.createObjectNode();
    ArrayNode replies = scenario.putArray("default");
    for (int i = 0; i < 10 * turns + 50; i++) {
      replies.addObject().put("prose", "ok");
    }
    Path work = Files.createTempDirectory("bench-seat");
    if (deletes > 0) {
      try (FakeSol sol = FakeSol.start(Scenario.parse(scenario.toString()).withDom(dom), 0)) {
        deleteFigures(sol, work.resolve("deletes"));
      }
      out.flush();
      return 0;
    }
    try (FakeSol sol = FakeSol.start(Scenario.parse(scenario.toString()).withDom(dom), 0)) {
      sol.wire().prepare(prepare == null ? null : "on".equalsIgnoreCase(prepare))
          .debounce(Duration.ofMillis(prepareDebounceMs));
      out.println("fakesol " + sol.url() + " dom " + dom + ", " + turns + " turns, " + cold + " cold starts, zero scripted delay");
      out.println("fakesol's page " + (sol.wire().prepares(dom) ? "posts /prepare while typing,"
          + " debounced " + prepareDebounceMs + " ms (fakesol's choice: no source gives the real page's interval)"
          : "posts no /prepare while typing (an older shape): the pill is read back"));
      seatFigures(sol, work.resolve("seat"));
      if (!seatOnly) {
        daemonFigures(sol, work.resolve("daemon"));
      }
    }
    new FaultTurnFigures(dom, faultTurns, chromium, out).report(work.resolve("faults"));
    out.flush();
    return 0;
  }

  private void seatFigures(FakeSol sol, Path home) throws Exception {
    PlaywrightOptions options = new PlaywrightOptions(sol.url(), true, chromium, null, home);
    List<Long> starts = new ArrayList<>();
    try (PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(options)) {
      PlaywrightSeat seat = null;
      for (int i = 0; i < cold; i++) {
        long t0 = System.nanoTime();
        seat = factory.create(0); // closes the previous one
        SeatProbe probe = seat.probe();
        starts.add(System.nanoTime() - t0);
        check(probe.state() == SeatProbe.State.READY, "seat not ready: " + probe);
      }
      out.printf("seat cold start on a fresh profile, in-process: %d ms%n", starts.get(0) / 1_000_000);
      if (starts.size() > 1) {
        report("seat cold start (Playwright + Chromium + first probe READY), existing profile, in-process",
            starts.subList(1, starts.size()));
      }

      seat.openNew();
      seat.setEffort(Effort.HIGH);
      String url = seat.send("warm up").conversationUrl();
      List<Long> streamLags = new ArrayList<>();
      java.util.Map<String, List<Long>> phases = new java.util.LinkedHashMap<>();
      List<Long> short1 = shortTurns(seat, url, SeatReply.Source.STREAM, streamLags, new ArrayList<>(), phases);
      report("seat overhead per turn with the stream (probe+resume+setEffort+send, short prompt)", short1);
      out.println("  where it went (p50 / p99 per phase):");
      phases.forEach((name, nanos) -> out.printf("    %-45s p50 %4d ms, p99 %4d ms%n", name, p50(nanos) / 1_000_000,
          p99(nanos) / 1_000_000));
      if (phases.containsKey("send: prepare wait")) {
        report("the page's /prepare wait per turn (typing done -> /prepare seen)", phases.get("send: prepare wait"));
      }
      report("stream's completing chunk in the page -> seat reply returned", streamLags);
      out.printf("  p99 %d ms%n", p99(streamLags) / 1_000_000);
      for (int kb : new int[] {1, 60, 145}) {
        String text = prompt(kb * 1024);
        seat.probe();
        seat.resume(url);
        seat.setEffort(Effort.HIGH);
        seat.send(text);
        String got = sol.sends().get(sol.sends().size() - 1).text();
        out.printf("characters typed vs read back by the page, %d KB: %d typed, %d arrived, %s%n", kb, text.length(),
            got.length(), got.equals(text) ? "identical" : "DIFFERENT");
      }

      String big = bigPrompt();
      List<Long> bigTurns = new ArrayList<>();
      for (int i = 0; i < Math.max(5, turns / 3); i++) {
        long t0 = System.nanoTime();
        seat.probe();
        seat.resume(url);
        seat.setEffort(Effort.HIGH);
        seat.send(big);
        bigTurns.add(System.nanoTime() - t0);
      }
      check(sol.sends().get(sol.sends().size() - 1).text().equals(big), "the 145 KB prompt did not arrive exactly");
      report("seat turn with a 145 KB, " + big.lines().count() + "-line prompt", bigTurns);
      out.printf("  => 145 KB insert cost (p50 big turn - p50 short turn): %d ms%n",
          (p50(bigTurns) - p50(short1)) / 1_000_000);
      seat.close();
    }
    domOnlyFigures(sol, home.resolveSibling("seat-dom"));
  }

  /** {@code deletes} managed conversations, each deleted and verified; the personal ones must survive. */
  private void deleteFigures(FakeSol sol, Path home) throws Exception {
    List<String> personal = List.of(sol.history().personal("Mine 1"), sol.history().personal("Mine 2"),
        sol.history().personal("Mine 3"));
    out.println("fakesol " + sol.url() + " dom " + dom + ", " + deletes + " deletes, zero scripted delay");
    try (PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(new PlaywrightOptions(sol.url(), true, chromium, null, home))) {
      PlaywrightSeat seat = factory.create(0);
      seat.probe();
      List<String> urls = new ArrayList<>();
      for (int i = 0; i < deletes; i++) {
        seat.openNew();
        seat.setEffort(Effort.HIGH);
        urls.add(seat.send("managed " + i).conversationUrl());
      }
      List<Long> took = new ArrayList<>();
      List<Long> repeats = new ArrayList<>();
      for (String url : urls) {
        long t0 = System.nanoTime();
        check(seat.delete(url) == Deletion.DELETED, "not deleted: " + url);
        took.add(System.nanoTime() - t0);
      }
      for (String url : urls) {
        long t0 = System.nanoTime();
        check(seat.delete(url) == Deletion.NOT_FOUND, "a repeat was not NOT_FOUND: " + url);
        repeats.add(System.nanoTime() - t0);
      }
      List<String> deleted = sol.history().deletes().stream().map(ChatHistory.Delete::conversationId).toList();
      check(deleted.size() == deletes && deleted.stream().noneMatch(personal::contains), "fakesol's delete log: " + deleted);
      report("verified delete (open URL, header menu, Delete, confirm, reopen shows not-found)", took);
      report("repeat delete (the URL already shows not-found: NOT_FOUND, nothing clicked)", repeats);
      seat.close();
    }
  }

  /** The same short turns with the stream tap off: the DOM rule decides alone. */
  private void domOnlyFigures(FakeSol sol, Path home) throws Exception {
    System.setProperty("solweb.streamTap", "off");
    try (PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(new PlaywrightOptions(sol.url(), true, chromium, null, home))) {
      PlaywrightSeat seat = factory.create(0);
      seat.probe();
      seat.openNew();
      seat.setEffort(Effort.HIGH);
      String url = seat.send("warm up").conversationUrl();
      List<Long> domLags = new ArrayList<>();
      List<Long> turnsDom = shortTurns(seat, url, SeatReply.Source.DOM, new ArrayList<>(), domLags, new java.util.LinkedHashMap<>());
      report("seat overhead per turn without the stream (tap off, DOM rule alone)", turnsDom);
      // The DOM rule's settle window: a stream-decided turn has no such wait.
      report("time from the page's last change to completion (DOM rule)", domLags);
      seat.close();
    } finally {
      System.clearProperty("solweb.streamTap");
    }
  }

  private void daemonFigures(FakeSol sol, Path home) throws Exception {
    List<Long> starts = new ArrayList<>();
    HttpClient http = HttpClient.newHttpClient();
    Process daemon = null;
    URI base = null;
    String token = null;
    for (int i = 0; i < cold; i++) {
      if (daemon != null) {
        daemon.destroy();
        daemon.waitFor(20, TimeUnit.SECONDS);
      }
      long t0 = System.nanoTime();
      daemon = launch(sol, home);
      base = awaitListening(daemon);
      token = dev.solweb.provider.platform.TokenFile.read(home.resolve(dev.solweb.provider.platform.TokenFile.NAME));
      while (!"ready".equals(health(http, base, token).path("state").asText())) {
        check(System.nanoTime() - t0 < Duration.ofSeconds(60).toNanos(), "daemon never ready");
        Thread.sleep(20);
      }
      starts.add(System.nanoTime() - t0);
    }
    out.printf("daemon cold start on a fresh profile (Chromium creates it): %d ms%n", starts.get(0) / 1_000_000);
    if (starts.size() > 1) {
      report("daemon cold start (process start to /healthz ready), existing profile, solwebd --seat playwright",
          starts.subList(1, starts.size()));
    }

    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", "You are terse.");
    List<Long> turnTimes = new ArrayList<>();
    List<Long> terminalToAnswer = new ArrayList<>();
    for (int i = 0; i <= turns; i++) {
      messages.addObject().put("role", "user").put("content", "turn " + i);
      long t0 = System.nanoTime();
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/v1/chat/completions"))
          .header("Authorization", "Bearer " + token).header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - t0;
      long answeredAt = System.currentTimeMillis();
      check(r.statusCode() == 200, "turn failed: " + r.body());
      if (i > 0) {
        turnTimes.add(took); // the first turn opens the conversation
        terminalToAnswer.add(Duration.ofMillis(answeredAt - sol.lastTerminalAtMillis()).toNanos());
      }
      messages.addObject().put("role", "assistant").put("content", JSON.readTree(r.body())
          .path("choices").get(0).path("message").path("content").asText());
    }
    report("HTTP turn through solwebd, non-streaming, zero scripted delay", turnTimes);
    report("stream's terminal frame written by fakesol -> HTTP answer received from solwebd", terminalToAnswer);
    out.printf("daemon JVM RSS after %d turns (Chromium excluded): %d MB%n", turns, rssKb(daemon.pid()) / 1024);
    daemon.destroy();
    daemon.waitFor(20, TimeUnit.SECONDS);
    OrphanReaper.reap(home.resolve("profile"));
  }

  private Process launch(FakeSol sol, Path home) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        "dev.solweb.provider.daemon.Solwebd", "--seat", "playwright", "--headless", "--chat-url", sol.url().toString(),
        "--chromium", chromium.toString(), "--port", "0", "--home", home.toString()).redirectErrorStream(true);
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    return pb.start();
  }

  private static URI awaitListening(Process daemon) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
    String line;
    List<String> seen = new ArrayList<>();
    while ((line = in.readLine()) != null) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread drain = new Thread(() -> {
          try {
            while (in.readLine() != null) {
              // keep the pipe from filling
            }
          } catch (IOException ignored) {
            // the process ended
          }
        });
        drain.setDaemon(true);
        drain.start();
        return URI.create(m.group(1));
      }
      seen.add(line);
    }
    throw new IllegalStateException("solwebd exited before listening: " + seen);
  }

  private static JsonNode health(HttpClient http, URI base, String token) throws Exception {
    return JSON.readTree(http.send(HttpRequest.newBuilder(base.resolve("/healthz")).header("Authorization", "Bearer " + token)
        .GET().build(), HttpResponse.BodyHandlers.ofString()).body());
  }

  private static long rssKb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return -1;
  }

  private static String prompt(int chars) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (b.length() < chars) {
      b.append("line ").append(i++).append(": {\"k\": [1, 2]} `code` ünïcødé ✓\n");
    }
    return b.substring(0, chars);
  }

  private static String bigPrompt() {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (b.length() < 145 * 1024) {
      b.append("line ").append(i++).append(": {\"k\": [1, 2, 3]} `code` ünïcødé ✓ padding padding padding\n");
    }
    return b.toString();
  }

  private void report(String what, List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted, Comparator.naturalOrder());
    out.printf("%s: p50 %d ms, p99 %d ms, min %d ms, max %d ms (n=%d)%n", what, p50(nanos) / 1_000_000,
        sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)) / 1_000_000,
        sorted.get(0) / 1_000_000, sorted.get(sorted.size() - 1) / 1_000_000, sorted.size());
    out.flush();
  }

  /** {@code turns} short turns as the dispatcher runs them; each must be decided by {@code source}. */
  private List<Long> shortTurns(PlaywrightSeat seat, String url, SeatReply.Source source, List<Long> streamLags,
      List<Long> completionLags, java.util.Map<String, List<Long>> phases) throws Exception {
    List<Long> out = new ArrayList<>();
    ProcessCpu cpuBefore = ProcessCpu.now();
    for (int i = 0; i < turns; i++) {
      long t0 = System.nanoTime();
      seat.probe();
      long t1 = System.nanoTime();
      seat.resume(url);
      long t2 = System.nanoTime();
      seat.setEffort(Effort.HIGH);
      long t3 = System.nanoTime();
      SeatReply reply = seat.send("turn " + i);
      long t4 = System.nanoTime();
      out.add(t4 - t0);
      phases.computeIfAbsent("probe (runs the deferred DOM cross-check)", k -> new ArrayList<>()).add(t1 - t0);
      phases.computeIfAbsent("resume", k -> new ArrayList<>()).add(t2 - t1);
      phases.computeIfAbsent("setEffort (choose + read back)", k -> new ArrayList<>()).add(t3 - t2);
      seat.lastTimings().forEach((name, d) -> phases.computeIfAbsent("send: " + name, k -> new ArrayList<>()).add(d.toNanos()));
      check(reply.source() == source, "turn " + i + " was decided by " + reply.source() + ", not " + source);
      if (seat.lastStreamLag() != null) {
        streamLags.add(seat.lastStreamLag().toNanos());
      }
      completionLags.add(seat.lastCompletionLag().toNanos());
    }
    // The tree's CPU, not wall time: robust to other builds sharing the machine (fakesol's server is in this JVM too).
    this.out.println("  " + ProcessCpu.now().since(cpuBefore).perTurn(turns) + ", " + source.name().toLowerCase(java.util.Locale.ROOT)
        + " decided");
    return out;
  }

  private static long p99(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    java.util.Collections.sort(sorted);
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
  }

  private static long p50(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new SeatBench(), "bench-seat", 1), args);
  }
}
