package dev.solweb.provider.daemon;

import dev.solweb.provider.ctl.CtlException;
import dev.solweb.provider.ctl.ProcessInfo;
import dev.solweb.provider.ctl.TokenFile;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.http.ServerSettings;
import dev.solweb.provider.seat.SeatFactory;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code solwebd}: serves ChatGPT browser conversations as an OpenAI chat-completions provider. */
@Command(
    name = "solwebd",
    mixinStandardHelpOptions = true,
    versionProvider = Solwebd.VersionProvider.class,
    description = {
        "Serves a logged-in ChatGPT web session on 127.0.0.1 as an OpenAI chat-completions provider",
        "with emulated tool calls. Every route needs `Authorization: Bearer <token>`; the token is in",
        "<home>/solwebd.token (mode 0600, created on first start).",
        "",
        "Exit codes: 0 clean shutdown, 2 bad usage, 3 cannot start (token file, port, seat), 1 internal error."},
    footer = {
        "",
        "Environment: SOLWEBD_HOME, SOLWEBD_PORT, SOLWEBD_SEATS, SOLWEBD_KEEPALIVE_S (5, 0 = off),",
        "SOLWEBD_TURN_TIMEOUT (300 s), SOLWEBD_DISPATCH_SPACING (e.g. 60-75s; off), SOLWEBD_MAX_BODY (8388608),",
        "SOLWEBD_PROFILE (<home>/profile)."})
public final class Solwebd implements Callable<Integer> {
  static final int EXIT_CANNOT_START = 3;

  @Spec CommandSpec spec;

  @Mixin SeatMixin seatOptions;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Loopback address to bind (default ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "${env:SOLWEBD_PORT:-8791}", description = "Port (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(names = "--home", defaultValue = "${env:SOLWEBD_HOME}", paramLabel = "DIR",
      description = "Daemon home (default ~/.overdeck/gptbridge).")
  Path home;

  @Option(names = "--seats", defaultValue = "${env:SOLWEBD_SEATS:-1}", description = "Browser seats (default ${DEFAULT-VALUE}).")
  int seats;


  public static void main(String[] args) {
    System.exit(new CommandLine(new Solwebd()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    String seat = seatOptions.seat();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path daemonHome = home != null ? home : Path.of(System.getProperty("user.home"), ".overdeck", "gptbridge");
    if (!isLoopback(host)) {
      err.println("solwebd: refusing to bind " + host + ": only a loopback address (127.0.0.1) may serve the owner's ChatGPT account");
      return EXIT_CANNOT_START;
    }
    Duration keepAlive;
    Duration turnTimeout;
    DispatchSpacing spacing;
    long maxBody;
    try {
      keepAlive = Duration.ofMillis(Math.round(1000 * Double.parseDouble(env("SOLWEBD_KEEPALIVE_S", "5"))));
      turnTimeout = Duration.ofMillis(Math.round(1000 * Double.parseDouble(env("SOLWEBD_TURN_TIMEOUT", "300"))));
      spacing = DispatchSpacing.parse(env("SOLWEBD_DISPATCH_SPACING", "off"));
      maxBody = Long.parseLong(env("SOLWEBD_MAX_BODY", Long.toString(8L << 20)));
    } catch (IllegalArgumentException e) {
      err.println("solwebd: bad setting: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    String token;
    SeatFactory factory;
    ProfileLock profileLock;
    try {
      Files.createDirectories(daemonHome, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      token = TokenFile.loadOrCreate(daemonHome);
      Path profile = seatOptions.profileOr(Path.of(env("SOLWEBD_PROFILE", daemonHome.resolve("profile").toString())));
      // One browser per profile, taken before any seat exists: ask-gpt's direct path takes the same lock.
      profileLock = ProfileLock.tryAcquire(profile).orElse(null);
      if (profileLock == null) {
        err.println("solwebd: cannot start: the profile " + profile + " is in use (" + ProfileLock.fileFor(profile)
            + " is held by pid " + ProfileLock.holder(profile) + ": another solwebd or an ask-gpt)");
        return EXIT_CANNOT_START;
      }
      factory = SeatSelection.factory(seat, seatOptions.options(daemonHome, profile));
    } catch (IOException | CtlException | IllegalArgumentException | IllegalStateException e) {
      err.println("solwebd: cannot start: " + e.getMessage());
      return EXIT_CANNOT_START;
    }

    long pid = ProcessHandle.current().pid();
    String generation = UUID.randomUUID().toString();
    String version = Version.current();
    Vertx vertx = Vertx.vertx();
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable release = () -> {
      profileLock.close();
      try {
        Files.deleteIfExists(daemonHome.resolve(StateFile.NAME));
      } catch (IOException ignored) {
        // A stale state file fails closed in solwebctl: the pid no longer matches.
      }
      vertx.close().onComplete(done -> stopped.countDown());
    };
    ServerSettings settings = new ServerSettings(token, keepAlive, maxBody, version, generation, pid);
    Daemon.Config config = new Daemon.Config(daemonHome, factory, seats, turnTimeout, spacing, settings,
        Clock.systemUTC(), release);
    Daemon daemon;
    try {
      daemon = Daemon.listen(vertx, config, host, port).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      err.println("solwebd: cannot listen on " + host + ":" + port + ": " + e.getCause().getMessage());
      profileLock.close();
      vertx.close();
      return EXIT_CANNOT_START;
    }
    new StateFile(pid, ProcessInfo.of(Path.of("/proc"), pid).map(ProcessInfo::startTicks).orElse(-1L), generation, daemon.port(), version, seat).write(daemonHome);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> daemon.stop().join(), "solwebd-shutdown-hook"));
    out.println("solwebd " + version + " listening on http://" + host + ":" + daemon.port() + " (seat " + seat
        + ", seats " + seats + ", home " + daemonHome + ")");
    out.flush();
    daemon.startSeats().whenComplete((ok, error) -> {
      out.println("solwebd: seats started, state " + daemon.dispatcher().snapshot().state());
      out.flush();
    });
    stopped.await();
    return CommandLine.ExitCode.OK;
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** Reports the stamped build version. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"solwebd " + Version.current()};
    }
  }
}
