package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What survives a daemon restart on the same home: the answer to a conversation's last turn,
 * and the mark of a Send in flight. The player is the account: its conversations outlive the
 * daemon, as chatgpt.com's (and fakesol's) do.
 */
class RestartTest {
  @TempDir Path home;

  @Test
  void anIdenticalReSendAfterACleanRestartIsAnsweredFromTheRegistryWithoutTyping() throws Exception {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{\"default\": [{\"prose\": \"first answer\"}, {\"prose\": \"typed twice\"}]}"));
    TestDaemon.Options options = TestDaemon.Options.defaults().home(home);
    String body = Requests.chat("sol-web-high").system("rules").user("hello").json();
    String first;
    try (TestDaemon daemon = new TestDaemon(player, options)) {
      first = content(daemon.post(body));
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("registry.json"))))
        .isEqualTo("rw-------");

    try (TestDaemon restarted = new TestDaemon(player, options)) {
      HttpResponse<String> again = restarted.post(body);

      assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
      assertThat(content(again)).isEqualTo(first).isEqualTo("first answer");
      assertThat(player.sends()).hasSize(1);
    }
  }

  @Test
  void aToolCallAnswerSurvivesARestartWithItsId() throws Exception {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse(
        "{\"default\": [{\"blocks\": [\"{\\\"tool\\\": \\\"read\\\", \\\"arguments\\\": {\\\"path\\\": \\\"a.txt\\\"}}\"]}]}"));
    TestDaemon.Options options = TestDaemon.Options.defaults().home(home);
    String body = Requests.chat("sol-web-high").user("read a.txt").tool("read").json();
    JsonNode first;
    try (TestDaemon daemon = new TestDaemon(player, options)) {
      first = TestDaemon.json(daemon.post(body).body()).path("choices").get(0).path("message");
    }
    try (TestDaemon restarted = new TestDaemon(player, options)) {
      JsonNode again = TestDaemon.json(restarted.post(body).body()).path("choices").get(0).path("message");

      assertThat(again.path("tool_calls")).isEqualTo(first.path("tool_calls"));
      assertThat(first.path("tool_calls").get(0).path("id").asText()).startsWith("call_1_");
      assertThat(player.sends()).hasSize(1);
    }
  }

  @Test
  void afterAKillPastSendTheReSendGoesToAFreshConversationAndIsNeverTypedTwiceIntoOne() throws Exception {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{\"conversations\": [{\"match\": \"USER\\nfirst\","
        + " \"replies\": [{\"prose\": \"one\"}, {\"fault\": \"hang\"}, {\"prose\": \"meant for the next turn\"}]}],"
        + " \"default\": [{\"prose\": \"replayed answer\"}]}"));
    CountDownLatch secondSendStarted = new CountDownLatch(2);
    TestDaemon.Options watched = TestDaemon.Options.defaults().home(home).seatWrapper(seat -> new ForwardingSeat(seat) {
      @Override
      public SeatReply send(String text) throws SeatException {
        secondSendStarted.countDown();
        return super.send(text);
      }
    });
    String turn1 = Requests.chat("sol-web-high").user("first").json();
    String turn2 = Requests.chat("sol-web-high").user("first").assistantText("one").user("second").json();
    Path crashed = Files.createDirectories(home.resolve("after-kill"));
    try (TestDaemon daemon = new TestDaemon(player, watched)) {
      daemon.post(turn1);
      CompletableFuture<HttpResponse<String>> hanging = daemon.http.sendAsync(
          daemon.request("/v1/chat/completions").POST(java.net.http.HttpRequest.BodyPublishers.ofString(turn2)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(secondSendStarted.await(10, TimeUnit.SECONDS)).isTrue();
      // What a kill -9 leaves on disk: the registry and its in-flight marks as they stood during the Send.
      copyTree(home, crashed);
      hanging.cancel(true);
    }
    try (Stream<Path> marks = Files.list(crashed.resolve("registry.in-flight"))) {
      assertThat(marks).hasSize(1);
    }

    try (TestDaemon restarted = new TestDaemon(player, TestDaemon.Options.defaults().home(crashed))) {
      HttpResponse<String> resent = restarted.post(turn2);

      assertThat(resent.statusCode()).as(resent.body()).isEqualTo(200);
      assertThat(content(resent)).isEqualTo("replayed answer");
      List<ScenarioPlayer.Send> sends = player.sends();
      assertThat(sends).hasSize(3);
      String firstConversation = sends.get(0).conversationId();
      assertThat(sends.get(1).conversationId()).isEqualTo(firstConversation);
      assertThat(sends.get(2).conversationId()).isNotEqualTo(firstConversation);
      assertThat(sends.get(2).text()).contains("PROTOCOL", "USER\nfirst", "ASSISTANT\none", "USER\nsecond");
      assertThat(sends.stream().filter(s -> s.conversationId().equals(firstConversation) && s.text().contains("USER\nsecond")))
          .hasSize(1);
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : files.filter(p -> !p.startsWith(to)).toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static String content(HttpResponse<String> response) throws Exception {
    return TestDaemon.json(response.body()).path("choices").get(0).path("message").path("content").asText();
  }
}
