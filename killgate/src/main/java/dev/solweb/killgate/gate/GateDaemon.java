package dev.solweb.killgate.gate;

import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.FakeSolUploads;
import dev.solweb.provider.daemon.Daemon;
import dev.solweb.provider.dispatch.AccountPacing;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.http.ServerSettings;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.platform.TokenFile;
import dev.solweb.provider.protocol.ReplyRules;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.UploadReadiness;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * One solwebd for one check, in this JVM: assembled by the daemon's own composition root
 * ({@link Daemon}, as {@code Solwebd.call()} assembles it, with the persistent registry under
 * the home and {@link TokenFile}), on 127.0.0.1 and a port the kernel picks, its home in the
 * gate's temp dir. In-process so the gate holds the seat's {@link ScenarioPlayer} and reads
 * exactly what "the browser" was sent: the scripted seat's player, or fakesol's (its
 * {@code /control} view) behind the real Playwright seat in headless Chromium.
 *
 * <p>The daemon's log records (java.util.logging under {@code dev.solweb.provider}) go to
 * {@code <home>/solwebd.log}, which check 2 searches for the token.
 */
final class GateDaemon implements AutoCloseable {

  /** Which seat the daemon drives. */
  enum SeatKind { SCRIPTED, FAKESOL }

  /**
   * Daemon settings a check may change; the rest are solwebd's defaults.
   *
   * @param maxCalls tool calls one reply may make (SOLWEBD_MAX_CALLS)
   * @param uploads when the seat counts a turn's files as uploaded (only check 13's control changes it)
   */
  record Settings(Duration keepAlive, Duration turnTimeout, int maxCalls, UploadReadiness uploads,
      AccountPacing.Settings pacing) {
    /** solwebd's defaults, unpaced: the checks count requests and Sends, and a Send gap would only slow them. */
    static Settings shipped() {
      return new Settings(Duration.ofSeconds(5), Duration.ofSeconds(300), ReplyRules.DEFAULT_MAX_CALLS,
          UploadReadiness.PROCESSED, AccountPacing.Settings.UNPACED);
    }

    Settings keepAlive(Duration value) {
      return new Settings(value, turnTimeout, maxCalls, uploads, pacing);
    }

    Settings turnTimeout(Duration value) {
      return new Settings(keepAlive, value, maxCalls, uploads, pacing);
    }

    Settings maxCalls(int value) {
      return new Settings(keepAlive, turnTimeout, value, uploads, pacing);
    }

    Settings uploads(UploadReadiness value) {
      return new Settings(keepAlive, turnTimeout, maxCalls, value, pacing);
    }

    Settings pacing(AccountPacing.Settings value) {
      return new Settings(keepAlive, turnTimeout, maxCalls, uploads, value);
    }
  }

  final Path home;
  final Path log;
  final int port;
  final ScenarioPlayer player;
  private final String token;
  private final Vertx vertx;
  private final Daemon daemon;
  private final FakeSol fakesol;
  private final PlaywrightSeatFactory playwright;
  private final Handler logHandler;
  /** The scripted seats the daemon made, in order (a rebuilt seat is another one). */
  private final List<ScriptedSeat> scripted;

  private GateDaemon(Path home, Path log, int port, ScenarioPlayer player, String token, Vertx vertx,
      Daemon daemon, FakeSol fakesol, PlaywrightSeatFactory playwright, Handler logHandler, List<ScriptedSeat> scripted) {
    this.home = home;
    this.log = log;
    this.port = port;
    this.player = player;
    this.token = token;
    this.vertx = vertx;
    this.daemon = daemon;
    this.fakesol = fakesol;
    this.playwright = playwright;
    this.logHandler = logHandler;
    this.scripted = scripted;
  }

  static GateDaemon start(SeatKind kind, Scenario scenario, Path home, Settings settings, Path chromium)
      throws Exception {
    Files.createDirectories(home, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path log = home.resolve("solwebd.log");
    FileHandler handler = new FileHandler(log.toString(), true);
    handler.setFormatter(new SimpleFormatter());
    Logger.getLogger("dev.solweb.provider").addHandler(handler);
    String token = TokenFile.loadOrCreate(home);
    Vertx vertx = Vertx.vertx();
    FakeSol fakesol = null;
    PlaywrightSeatFactory playwright = null;
    ScenarioPlayer player;
    SeatFactory factory;
    List<ScriptedSeat> scripted = new CopyOnWriteArrayList<>();
    if (kind == SeatKind.SCRIPTED) {
      ScenarioPlayer scriptedPlayer = new ScenarioPlayer(scenario);
      player = scriptedPlayer;
      factory = index -> {
        ScriptedSeat seat = new ScriptedSeat(scriptedPlayer, Clock.systemUTC(), settings.uploads());
        scripted.add(seat);
        return seat;
      };
    } else {
      fakesol = FakeSol.start(vertx, false, scenario, 0, Clock.systemUTC());
      Path profile = home.resolve("profile");
      fakesol.onCrash(() -> OrphanReaper.reap(profile));
      player = fakesol.player();
      playwright = PlaywrightSeatFactory.create(
          new PlaywrightOptions(fakesol.url(), true, chromium, profile, home), Clock.systemUTC(),
          CompletionTracker.Rule.DEFAULT, settings.uploads());
      factory = playwright;
    }
    ServerSettings server = new ServerSettings(token, settings.keepAlive(), 8L << 20, "killgate",
        UUID.randomUUID().toString(), ProcessHandle.current().pid());
    Daemon daemon = Daemon.listen(vertx, new Daemon.Config(home, factory, 1, settings.turnTimeout(), DispatchSpacing.OFF,
            server, Clock.systemUTC(), () -> { }).withMaxCallsPerReply(settings.maxCalls()).withPacing(settings.pacing()), "127.0.0.1", 0)
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    daemon.startSeats().get(120, TimeUnit.SECONDS);
    return new GateDaemon(home, log, daemon.port(), player, token, vertx, daemon, fakesol, playwright, handler, scripted);
  }

  /** The fakesol page behind a {@link SeatKind#FAKESOL} daemon (what reached it: sends, uploads); null on the scripted seat. */
  FakeSol fakesol() {
    return fakesol;
  }

  /**
   * The sha256 of each file the page took with each turn's Send, in order: fakesol's record of its
   * uploads, or what the scripted seats received.
   */
  List<List<String>> filesSent() {
    if (fakesol != null) {
      return fakesol.uploads().turns().stream()
          .map(t -> t.files().stream().map(FakeSolUploads.Stored::sha256).toList()).toList();
    }
    return scripted.stream().flatMap(s -> s.received().stream())
        .map(files -> files.stream().map(Attachment::sha256).toList()).toList();
  }

  /** What the seat typed, in order (ScenarioPlayer.sends(): the scripted seat's, or fakesol's /control). */
  List<ScenarioPlayer.Send> sends() {
    return player.sends();
  }

  int conversationsOpened() {
    return player.conversationsOpened();
  }

  /** The bearer token, for the gate's own direct requests and searches; never printed. */
  String token() {
    return token;
  }

  @Override
  public void close() {
    daemon.stop().join();
    if (playwright != null) {
      playwright.close();
    }
    if (fakesol != null) {
      fakesol.close();
    }
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (Exception e) {
      // Closing anyway.
    }
    Logger.getLogger("dev.solweb.provider").removeHandler(logHandler);
    logHandler.close();
  }

  static String readLog(Path log) {
    try {
      return Files.isRegularFile(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
