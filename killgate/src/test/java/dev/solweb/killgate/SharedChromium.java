package dev.solweb.killgate;

import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One headless Chromium that a class of seat tests shares: each seat opens its own context in it
 * ({@link PlaywrightOptions#sharedBrowser()}) instead of launching Chromium on a fresh profile,
 * about 2.7 CPU-s a launch (SeatBasicsTest: 80 -> 65 CPU-s; SeatVariantsTest, whose turns are
 * longer: 209 -> 202). Started
 * with the seat's own arguments; its DevTools port is whatever Chromium picked, as it prints it.
 */
final class SharedChromium implements AutoCloseable {

  /** What Chromium prints once its DevTools socket is up (the port is the one it picked). */
  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

  private final Path profile;
  private final Process process;
  private final URI endpoint;

  private SharedChromium(Path profile, Process process, URI endpoint) {
    this.profile = profile;
    this.process = process;
    this.endpoint = endpoint;
  }

  static SharedChromium start() throws IOException {
    Path profile = Files.createTempDirectory("solweb-shared-chromium");
    List<String> command = new ArrayList<>(List.of(PlaywrightOptions.DEFAULT_CHROMIUM.toString(), "--headless"));
    command.addAll(Chromium.ARGS);
    // What Playwright passes to every Chromium it launches, so a page here runs as in a launched one.
    command.addAll(List.of("--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding", "--no-default-browser-check", "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0", "--user-data-dir=" + profile, "about:blank"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    List<String> said = new ArrayList<>();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      Matcher listening = LISTENING.matcher(line);
      if (listening.find()) {
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "shared-chromium-output");
        drain.setDaemon(true); // Chromium blocks on a full pipe; nobody reads what it says after this
        drain.start();
        return new SharedChromium(profile, process, URI.create(listening.group(1)));
      }
      said.add(line);
    }
    OrphanReaper.reap(profile);
    throw new IOException("the shared Chromium ended before it listened: " + String.join("\n", said));
  }

  URI endpoint() {
    return endpoint;
  }

  @Override
  public void close() {
    process.destroy();
    OrphanReaper.reap(profile);
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // a profile left in /tmp is litter, not a failure
    }
  }
}
