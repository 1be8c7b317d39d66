package dev.solweb.killgate.fakesol;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code fakesol --port P --scenario FILE|NAME [--dom SHAPE] [--locale LANG] [--mutate SEED | --mutations
 * NAME,...]}: serves the imitation
 * page until killed; {@code fakesol --page FILE} serves one saved page instead ({@link PageFileServer}).
 */
@Command(name = "fakesol", mixinStandardHelpOptions = true,
    description = {"Serve an imitation ChatGPT page on 127.0.0.1, driven by a scenario (file or bundled name),",
        "or (--page) one saved page, static, for reading tests. Prints the page URL on one line."})
public final class FakeSolMain implements Callable<Integer> {

  static final int OK = 0;
  static final int USAGE = 2;

  @Spec CommandSpec spec;

  @Option(names = "--port", description = "port on 127.0.0.1 (0 = ephemeral; default ${DEFAULT-VALUE})")
  int port = 0;

  @Option(names = "--scenario", description = "scenario file, or a bundled name: demo, echo")
  String scenario;

  @Option(names = "--page", paramLabel = "FILE",
      description = "instead of a scenario: serve this saved page (a solwebctl capture, or a real capture) at / and"
          + " /c/*, with /api/auth/session; static, for reading tests (doctor)")
  Path page;

  @Option(names = "--account", paramLabel = "EMAIL", defaultValue = "owner@fakesol.invalid",
      description = "with --page: the signed-in e-mail /api/auth/session reports (default ${DEFAULT-VALUE})")
  String account;

  @Option(names = "--dom", paramLabel = "SHAPE",
      description = "the chatgpt.com shape to imitate: 2026-03, 2026-07, 2026-08, 2026-09, 2026-09-turnkey, 2026-09-en, 2026-10, 2026-11"
          + " (default: the scenario's, else the newest)")
  String dom;

  @Option(names = "--locale", paramLabel = "LANG", description = "the page's UI language: en or ru (default: the scenario's, else en)")
  String locale;

  @Option(names = "--mutate", paramLabel = "SEED",
      description = "render the page through one to three page mutations the seed chooses (the same seed, the same page)")
  Long mutateSeed;

  @Option(names = "--mutations", paramLabel = "NAME", split = ",",
      description = "render the page through these page mutations, in order (see resources/fakesol/mutations/)")
  List<String> mutations = new ArrayList<>();

  @Option(names = "--crash-profile", paramLabel = "DIR",
      description = "for crash faults: end the Chromium running on this profile (else the page just hangs)")
  Path crashProfile;

  @Option(names = "--stream-file", paramLabel = "FILE",
      description = "answer the next turn with this recorded raw SSE body (the bytes as the real endpoint sent them)")
  Path streamFile;

  @Option(names = "--personal", paramLabel = "TITLE",
      description = "seed one of the owner's own conversations in the sidebar (repeatable); solweb must never touch it")
  java.util.List<String> personal = new java.util.ArrayList<>();

  @Option(names = "--project", paramLabel = "NAME",
      description = "seed a ChatGPT Project with this name (repeatable; the same name twice makes it ambiguous)")
  java.util.List<String> projects = new java.util.ArrayList<>();

  @Option(names = "--delete-fault", paramLabel = "FAULT",
      description = "the page's delete misbehaves: silent (confirmed, nothing deleted) or no-confirmation")
  String deleteFault;

  @Option(names = "--no-temporary-chat", description = "the account has temporary chats off: ?temporary-chat=true is ignored")
  boolean noTemporaryChat;

  @Option(names = "--page-effort", paramLabel = "EFFORT",
      description = "the page's own requests (/prepare, the turn) carry this effort (instant, medium, high, xhigh, pro)"
          + " whatever its pill shows: a browser left in Work mode, a stale pill")
  String pageEffort;

  @Option(names = "--prepare", paramLabel = "on|off",
      description = "whether the page posts /prepare while typing (default: the late-2026 shapes do, older ones do not)")
  String prepare;

  @Option(names = "--prepare-debounce-ms", paramLabel = "MS",
      description = "how long typing rests before the page's /prepare (no source gives the real page's; default ${DEFAULT-VALUE})")
  long prepareDebounceMs = PageWire.DEFAULT_DEBOUNCE.toMillis();

  @Override
  public Integer call() throws InterruptedException {
    if ((scenario == null) == (page == null)) {
      spec.commandLine().getErr().println("fakesol: give exactly one of --scenario FILE|NAME or --page FILE");
      return USAGE;
    }
    if (page != null) {
      return servePage();
    }
    byte[] recorded = null;
    if (streamFile != null) {
      try {
        recorded = java.nio.file.Files.readAllBytes(streamFile);
      } catch (java.io.IOException e) {
        spec.commandLine().getErr().println("fakesol: cannot read --stream-file " + streamFile + ": " + e.getMessage());
        return USAGE;
      }
    }
    Scenario loaded;
    PageMutations.Plan plan;
    try {
      loaded = Scenario.load(scenario);
      if (dom != null) {
        loaded = loaded.withDom(dom);
      }
      if (locale != null) {
        loaded = loaded.withLocale(locale);
      }
      if (deleteFault != null) {
        ChatHistory.DeleteFault.parse(deleteFault);
      }
      wireOptions();
      plan = mutationPlan();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("fakesol: " + e.getMessage());
      return USAGE;
    }
    FakeSol sol = FakeSol.start(io.vertx.core.Vertx.vertx(), true, loaded, port, java.time.Clock.systemUTC(), plan);
    if (!plan.mutations().isEmpty()) {
      spec.commandLine().getErr().println("fakesol: page mutations " + plan.names() + " (seed " + plan.seed() + ")");
    }
    personal.forEach(sol.history()::personal);
    projects.forEach(sol.history()::project);
    if (deleteFault != null) {
      sol.history().deleteFault(ChatHistory.DeleteFault.parse(deleteFault));
    }
    if (noTemporaryChat) {
      sol.history().disableTemporaryChats();
    }
    if (recorded != null) {
      sol.answerNextWith(recorded);
    }
    PageWire wire = sol.wire().prepare(wireOptions().prepare()).debounce(java.time.Duration.ofMillis(prepareDebounceMs));
    wire.pageEffort(wireOptions().pageEffort());
    if (crashProfile != null) {
      Path profile = crashProfile.toAbsolutePath().normalize();
      sol.onCrash(() -> OrphanReaper.reap(profile));
    }
    return serveUntilKilled(sol.url(), sol::close);
  }

  /** --mutate and --mutations: one or the other; --mutations takes --mutate's seed for its random choices. */
  private PageMutations.Plan mutationPlan() {
    if (!mutations.isEmpty()) {
      return PageMutations.named(mutations, mutateSeed == null ? 0 : mutateSeed);
    }
    return mutateSeed == null ? PageMutations.Plan.NONE : PageMutations.seeded(mutateSeed);
  }

  /** The wire options, checked: an unknown effort or on/off word is a usage error. */
  private record WireOptions(Boolean prepare, Effort pageEffort) {}

  private WireOptions wireOptions() {
    if (prepareDebounceMs < 0) {
      throw new IllegalArgumentException("--prepare-debounce-ms must be 0 or more, got " + prepareDebounceMs);
    }
    Boolean on = prepare == null ? null : switch (prepare.toLowerCase(java.util.Locale.ROOT)) {
      case "on" -> Boolean.TRUE;
      case "off" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("--prepare takes on or off, got " + prepare);
    };
    Effort effort = pageEffort == null ? null
        : Effort.fromSuffix(pageEffort.toLowerCase(java.util.Locale.ROOT))
            .or(() -> Effort.fromLabel(pageEffort))
            .orElseThrow(() -> new IllegalArgumentException("--page-effort takes instant, medium, high, xhigh or pro, got "
                + pageEffort));
    return new WireOptions(on, effort);
  }

  /** Prints the URL, then waits for a signal, which closes the server. */
  private int serveUntilKilled(java.net.URI url, Runnable close) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      close.run();
      done.countDown();
    }));
    // One line, the URL: scripts read it to point a seat (--chat-url) at this page.
    spec.commandLine().getOut().println(url);
    spec.commandLine().getOut().flush();
    done.await();
    return OK;
  }

  private int servePage() throws InterruptedException {
    PageFileServer served;
    try {
      served = PageFileServer.start(page, account, port);
    } catch (java.io.UncheckedIOException e) {
      spec.commandLine().getErr().println("fakesol: " + e.getMessage());
      return USAGE;
    }
    return serveUntilKilled(served.url(), served::close);
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new FakeSolMain(), "fakesol", 1), args);
  }
}
