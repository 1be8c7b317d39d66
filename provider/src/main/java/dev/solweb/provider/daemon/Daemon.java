package dev.solweb.provider.daemon;

import dev.solweb.provider.dispatch.AccountPacing;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.DispatchTime;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.dispatch.SeatTurn;
import dev.solweb.provider.dispatch.SendGate;
import dev.solweb.provider.dispatch.SendLedger;
import dev.solweb.provider.http.ServerSettings;
import dev.solweb.provider.http.SolwebServer;
import dev.solweb.provider.hygiene.Retention;
import dev.solweb.provider.protocol.ReplyRules;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.RunawayGuard;
import dev.solweb.provider.http.operator.OperatorSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * The one composition root: the daemon's parts ({@link Conversations} over the registry under
 * the home, {@link SeatTurn}, {@link Dispatcher}, {@link SolwebServer}) wired in one
 * place, used alike by {@code solwebd}, the kill gate and the tests. What differs between them
 * (the seat factory, the settings, what else to release on stop) is {@link Config}.
 */
public final class Daemon {
  private static final Logger LOG = Logger.getLogger(Daemon.class.getName());

  /**
   * @param home the daemon home: {@code registry.json} lives there; null keeps the registry in memory
   * @param afterStop runs once the seats are closed (release the profile lock, remove the state
   *     file, close Vert.x); never on the event loop
   * @param history where new conversations are opened, and retention ({@link HistorySettings})
   * @param maxCallsPerReply how many tool calls one reply may make ({@code SOLWEBD_MAX_CALLS},
   *     default {@link ReplyRules#DEFAULT_MAX_CALLS})
   * @param loopLimit how many requests in a row a session may repeat one tool call before it is
   *     stopped as a runaway ({@code SOLWEBD_LOOP_LIMIT}, default {@link RunawayGuard#DEFAULT_LIMIT})
   */
  public record Config(
      Path home, SeatFactory seats, int seatCount, Duration turnTimeout, DispatchSpacing spacing,
      ServerSettings server, Clock clock, Runnable afterStop, HistorySettings history, int maxCallsPerReply,
      AccountPacing.Settings pacing, int loopLimit) {

    /** The default loop limit. */
    public Config(Path home, SeatFactory seats, int seatCount, Duration turnTimeout, DispatchSpacing spacing,
        ServerSettings server, Clock clock, Runnable afterStop, HistorySettings history, int maxCallsPerReply,
        AccountPacing.Settings pacing) {
      this(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, history, maxCallsPerReply, pacing,
          RunawayGuard.DEFAULT_LIMIT);
    }

    /** Unpaced (no Send gap, no budget): what the tests that assemble a daemon by hand want. */
    public Config(Path home, SeatFactory seats, int seatCount, Duration turnTimeout, DispatchSpacing spacing,
        ServerSettings server, Clock clock, Runnable afterStop, HistorySettings history, int maxCallsPerReply) {
      this(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, history, maxCallsPerReply,
          AccountPacing.Settings.UNPACED);
    }

    /** Conversations in the owner's history, kept until deleted. */
    public Config(Path home, SeatFactory seats, int seatCount, Duration turnTimeout, DispatchSpacing spacing,
        ServerSettings server, Clock clock, Runnable afterStop) {
      this(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, HistorySettings.DEFAULT);
    }

    /** The default cap on calls per reply. */
    public Config(Path home, SeatFactory seats, int seatCount, Duration turnTimeout, DispatchSpacing spacing,
        ServerSettings server, Clock clock, Runnable afterStop, HistorySettings history) {
      this(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, history,
          ReplyRules.DEFAULT_MAX_CALLS);
    }

    public Config withHistory(HistorySettings settings) {
      return new Config(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, settings,
          maxCallsPerReply, pacing, loopLimit);
    }

    public Config withMaxCallsPerReply(int max) {
      return new Config(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, history, max, pacing,
          loopLimit);
    }

    public Config withPacing(AccountPacing.Settings settings) {
      return new Config(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, history,
          maxCallsPerReply, settings, loopLimit);
    }

    public Config withLoopLimit(int limit) {
      return new Config(home, seats, seatCount, turnTimeout, spacing, server, clock, afterStop, history,
          maxCallsPerReply, pacing, limit);
    }
  }

  /** How often retention looks for idle conversations. */
  static final Duration RETENTION_SWEEP = Duration.ofHours(1);

  private final Config config;
  private final Conversations conversations;
  private final Dispatcher dispatcher;
  private final SolwebServer server;
  private final Retention retention;
  private final DispatchTime pacingTime;
  private final AtomicReference<CompletableFuture<Void>> stopping = new AtomicReference<>();
  private HttpServer http;
  private int port = -1;

  private Daemon(Vertx vertx, Config config) {
    this.config = config;
    this.conversations = (config.home() == null ? Conversations.inMemory(config.clock(), config.history().place())
        : Conversations.persistent(config.home().resolve("registry.json"), config.clock(), config.history().place()))
        .withMaxCallsPerReply(config.maxCallsPerReply());
    this.pacingTime = DispatchTime.system(config.clock());
    AccountPacing pacing = new AccountPacing(new SendGate(config.pacing().sendGap(), pacingTime),
        ledger(config), config.pacing().budget(), config.clock());
    this.dispatcher = new Dispatcher(config.seats(), new SeatTurn(conversations, config.clock(), pacing,
        new RunawayGuard(config.loopLimit())),
        new Dispatcher.Settings(config.seatCount(), config.turnTimeout(), config.spacing(), pacing), config.clock());
    this.server = new SolwebServer(vertx, dispatcher, conversations, config.server(),
        OperatorSettings.of(config.clock(), config.home() == null ? null : config.home().resolve(DaemonLog.NAME)),
        this::stop);
    this.retention = config.history().retention() == null ? null : new Retention(dispatcher, conversations,
        DispatchTime.system(config.clock()), config.history().retention(), RETENTION_SWEEP);
  }

  /**
   * The account's record of Sends: {@code sends.log} under the home (a budget's window outlives a
   * restart); in memory for a daemon without a home, or when the file cannot be read (logged).
   */
  private static SendLedger ledger(Config config) {
    if (config.home() == null) {
      return SendLedger.inMemory();
    }
    Path file = config.home().resolve(SendLedger.FILE);
    try {
      return SendLedger.durable(file, config.pacing().budget().longestWindow(), config.clock().instant());
    } catch (IOException e) {
      LOG.warning("cannot read " + file + " (" + e.getMessage() + "); Sends are counted in memory until a restart");
      return SendLedger.inMemory();
    }
  }

  /** Assembles the daemon and listens on {@code host:port} (a loopback host; port 0 picks a free one). */
  public static Future<Daemon> listen(Vertx vertx, Config config, String host, int port) {
    Daemon daemon = new Daemon(vertx, config);
    return daemon.server.listen(host, port).map(http -> {
      daemon.http = http;
      daemon.port = http.actualPort();
      return daemon;
    });
  }

  /** Creates and probes the seats; completes when all are up (or dead). */
  public CompletableFuture<Void> startSeats() {
    if (retention != null) {
      retention.start();
    }
    return dispatcher.start();
  }

  /**
   * Stops accepting requests, before a {@link #stop}: a daemon that is about to exit because it
   * cannot serve must not first answer /healthz as merely degraded.
   */
  public CompletableFuture<Void> stopListening() {
    return http.close().toCompletionStage().toCompletableFuture();
  }

  public int port() {
    return port;
  }

  public Dispatcher dispatcher() {
    return dispatcher;
  }

  /** The daemon's managed conversations (its registry, behind translate). */
  public Conversations conversations() {
    return conversations;
  }

  /**
   * Stops once, on a thread of its own (closing a seat may take seconds; the event loop keeps
   * answering meanwhile): queued turns fail, seats close, then {@link Config#afterStop} runs.
   * Every call returns the same future.
   */
  public CompletableFuture<Void> stop() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (!stopping.compareAndSet(null, done)) {
      return stopping.get();
    }
    Thread thread = new Thread(() -> {
      try {
        if (retention != null) {
          retention.close();
        }
        dispatcher.close();
        pacingTime.close();
        config.afterStop().run();
        done.complete(null);
      } catch (RuntimeException e) {
        done.completeExceptionally(e);
      }
    }, "solwebd-shutdown");
    thread.start();
    return done;
  }
}
