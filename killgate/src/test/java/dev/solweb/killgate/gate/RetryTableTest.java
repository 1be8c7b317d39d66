package dev.solweb.killgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, item 4: no client retry spends a message. Each real client, with the retry settings
 * solweb ships for it (Pi's materialized settings.json, Codex's provider table, {@code bin/sw}'s
 * Claude Code environment, opencode's config from docs/account-safety.md, and the OpenAI Node SDK
 * with its own defaults), against solwebd on the scripted seat whose first answer fails: the turn
 * times out (504), the page fails after Send (503), the connection drops after Send, the account
 * is capped (429). Each cell counts the page's Sends: always 1. Where a client retries, solwebd
 * answers the retry from memory (a failure held by {@code RecentFailures}, a cap known at submit)
 * or the retry rejoins the turn still running (a dropped connection, within the rejoin grace).
 */
class RetryTableTest {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();
  private static final String MODEL = Rig.EFFORT.modelId();

  enum Fault {
    TIMEOUT("timeout (504)"), SERVER_ERROR("5xx after Send (503)"), DROPPED("connection dropped after Send"),
    CAPPED("capped (429)");

    final String title;

    Fault(String title) {
      this.title = title;
    }
  }

  enum Client { PI, CODEX, CLAUDE_CODE, OPENCODE, OPENAI_SDK }

  /** One cell: the page's Sends, the requests solwebd got, and what the client said last. */
  record Cell(int sends, int requests, String clientSaw, List<String> exchanges, int dropped) { }

  @TempDir Path root;

  @Test
  void everyClientsRetryOfAFailedFirstAnswerCostsNoSecondSend() throws Exception {
    Path pi = PiBinary.locate(Map.of(PiBinary.ROOT_ENV, REPO.toString())).orElseThrow();
    Gate gate = new Gate(REPO, root, pi, GateDaemon.SeatKind.SCRIPTED, Path.of("/usr/bin/chromium"), Set.of());
    Map<Client, Map<Fault, Future<Cell>>> running = new EnumMap<>(Client.class);
    // Cells wait on client back-offs far more than they compute: six at a time.
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      for (Client client : Client.values()) {
        Map<Fault, Future<Cell>> row = new EnumMap<>(Fault.class);
        for (Fault fault : Fault.values()) {
          row.put(fault, pool.submit(() -> cell(gate, client, fault)));
        }
        running.put(client, row);
      }
      Map<Client, Map<Fault, Cell>> table = new EnumMap<>(Client.class);
      for (Map.Entry<Client, Map<Fault, Future<Cell>>> row : running.entrySet()) {
        Map<Fault, Cell> cells = new EnumMap<>(Fault.class);
        for (Map.Entry<Fault, Future<Cell>> cell : row.getValue().entrySet()) {
          cells.put(cell.getKey(), cell.getValue().get());
        }
        table.put(row.getKey(), cells);
      }
      System.out.println(render(table));
      for (Map.Entry<Client, Map<Fault, Cell>> row : table.entrySet()) {
        for (Map.Entry<Fault, Cell> cell : row.getValue().entrySet()) {
          assertThat(cell.getValue().sends()).as("%s, %s: page Sends (%s)", row.getKey(), cell.getKey().title, cell.getValue())
              .isEqualTo(1);
          if (cell.getKey() == Fault.DROPPED) {
            assertThat(cell.getValue().dropped()).as("%s: a connection was open to drop after the Send", row.getKey())
                .isPositive();
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static String render(Map<Client, Map<Fault, Cell>> table) {
    StringBuilder out = new StringBuilder("retry table (page Sends / requests at solwebd; what the client saw):\n");
    out.append(String.format("%-12s", "client"));
    for (Fault fault : Fault.values()) {
      out.append(String.format(" | %-32s", fault.title));
    }
    out.append('\n');
    for (Map.Entry<Client, Map<Fault, Cell>> row : table.entrySet()) {
      out.append(String.format("%-12s", row.getKey().name().toLowerCase(Locale.ROOT)));
      for (Fault fault : Fault.values()) {
        Cell c = row.getValue().get(fault);
        out.append(String.format(" | %d / %-2d %-25s", c.sends(), c.requests(), abbreviate(c.clientSaw(), 25)));
      }
      out.append('\n');
    }
    out.append("each cell: the requests solwebd got, and the client's last line:\n");
    for (Map.Entry<Client, Map<Fault, Cell>> row : table.entrySet()) {
      for (Fault fault : Fault.values()) {
        Cell c = row.getValue().get(fault);
        out.append("  ").append(row.getKey()).append(", ").append(fault.title).append(": ").append(c.exchanges())
            .append("; ").append(plain(c.clientSaw())).append('\n');
      }
    }
    return out.toString();
  }

  /** The text without terminal colour codes (opencode prints them). */
  private static String plain(String text) {
    return text == null ? "" : text.replaceAll("\u001b\\[[0-9;]*m", "");
  }

  private static String abbreviate(String text, int max) {
    String line = plain(text).replaceAll("\\s+", " ").strip();
    return line.length() <= max ? line : line.substring(0, max - 1) + "…";
  }

  // ---- One cell ------------------------------------------------------------------------------

  private static Cell cell(Gate gate, Client client, Fault fault) throws Exception {
    String name = "retry-" + client.name().toLowerCase(Locale.ROOT) + "-" + fault.name().toLowerCase(Locale.ROOT);
    GateDaemon.Settings settings = GateDaemon.Settings.shipped();
    ObjectNode first = switch (fault) {
      case TIMEOUT -> Scenarios.fault("hang");
      case SERVER_ERROR -> Scenarios.fault("something_went_wrong");
      case DROPPED -> Scenarios.fin("the answer, after the drop").put("delay_ms", 3_000);
      case CAPPED -> Scenarios.fault("cap").put("resume_in_s", 7200);
    };
    if (fault == Fault.TIMEOUT) {
      settings = settings.turnTimeout(Duration.ofSeconds(4));
    }
    // Every new conversation gets the same first answer: a retry typed again would meet it again, and count.
    String scenario = Scenarios.defaults(first, Scenarios.fin("a second answer"));
    try (Rig rig = gate.rig(name, scenario, settings)) {
      AtomicInteger dropped = new AtomicInteger();
      Thread dropper = null;
      if (fault == Fault.DROPPED) {
        dropper = new Thread(() -> dropped.set(dropAfterTheSend(rig)), name + "-dropper");
        dropper.setDaemon(true);
        dropper.start();
      }
      String saw = run(client, rig, "RT " + fault.name() + ": say hello");
      if (dropper != null) {
        dropper.join(60_000);
      }
      // Counted once solwebd runs and queues nothing: a dropped turn nobody rejoined is stopped after
      // the grace, and no turn is left that could still type.
      awaitIdle(rig);
      return new Cell(rig.sends().size(), rig.proxy.exchanges().size(), saw,
          rig.proxy.exchanges().stream().map(x -> x.method + " " + x.path + " " + x.status).toList(), dropped.get());
    }
  }

  private static void awaitIdle(Rig rig) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rig.daemon.port + "/healthz"))
        .header("Authorization", "Bearer " + rig.daemon.token()).build();
    Optional<Boolean> idle = Poll.until(Duration.ofSeconds(30), Duration.ofMillis(100), () -> {
      JsonNode h = Json.MAPPER.readTree(http.send(health, HttpResponse.BodyHandlers.ofString()).body());
      return h.path("active").asInt(-1) == 0 && h.path("queue").asInt(-1) == 0 ? Optional.of(true) : Optional.empty();
    });
    assertThat(idle).as("solwebd idle after the client ended").isPresent();
  }

  /** Drops every connection to solwebd once the page took the Send (the answer is 3 s away); how many it dropped. */
  private static int dropAfterTheSend(Rig rig) {
    try {
      Poll.until(Duration.ofSeconds(90), Duration.ofMillis(20),
          () -> rig.sends().isEmpty() ? Optional.<Boolean>empty() : Optional.of(true));
      Thread.sleep(300); // into the answer's 3 s: the client is waiting on it
      return rig.proxy.dropOpenConnections();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String run(Client client, Rig rig, String prompt) throws Exception {
    return switch (client) {
      case PI -> {
        Rig.Run run = rig.run(ClientSession.derive("retry-" + rig.dir.getFileName()), prompt, Duration.ofSeconds(150));
        yield run.result().outcome().wireName() + " " + run.receipt().path("provider_failure").path("kind").asText("");
      }
      case CODEX -> last(RealClients.codex(rig, prompt, 180));
      case CLAUDE_CODE -> last(RealClients.claudeCode(rig, prompt, 180));
      case OPENCODE -> last(RealClients.opencode(rig, prompt, 240));
      case OPENAI_SDK -> last(RealClients.openaiSdk(rig, prompt, 180));
    };
  }

  /** The client's exit and its last line: of what it printed as its answer, else of its errors. */
  private static String last(Proc run) {
    List<String> out = plain(run.stdout()).lines().filter(l -> !l.isBlank()).toList();
    List<String> err = plain(run.stderr()).lines().filter(l -> !l.isBlank()).toList();
    List<String> lines = out.isEmpty() ? err : out;
    return "exit " + run.exit() + ": " + (lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip());
  }
}
