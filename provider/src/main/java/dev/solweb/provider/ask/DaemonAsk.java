package dev.solweb.provider.ask;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.ctl.ClientToken;
import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.CtlException;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The daemon path: probe {@code /healthz} (state file port, bearer token), then {@code POST
 * /v1/ask}. Empty means "no daemon is up" (no state file, or nothing listens on its port), which
 * is the only case the caller takes the direct path; a daemon that answers but refuses is a
 * result, never a reason to open a second browser on the same profile.
 */
final class DaemonAsk {
  private static final ObjectMapper JSON = Json.MAPPER;

  private final CtlEnv env;
  private final Duration askTimeout;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).proxy(HttpClient.Builder.NO_PROXY).build();

  DaemonAsk(CtlEnv env, Duration askTimeout) {
    this.env = env;
    this.askTimeout = askTimeout;
  }

  Optional<AskResult> ask(TurnRequest.Ask ask) {
    Optional<StateFile> state;
    try {
      state = env.daemonState();
    } catch (CtlException unreadable) {
      return Optional.of(new AskResult.Refused("the daemon state file is unreadable: " + unreadable.getMessage()));
    }
    if (state.isEmpty()) {
      return Optional.empty();
    }
    String token;
    try {
      token = ClientToken.read(env);
    } catch (CtlException e) {
      return Optional.of(new AskResult.Refused(e.getMessage()));
    }
    String base = "http://127.0.0.1:" + state.get().port();
    try {
      HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/healthz"))
          .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(5)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (health.statusCode() != 200) {
        return Optional.of(new AskResult.Refused("solwebd on port " + state.get().port() + " answered /healthz with HTTP "
            + health.statusCode()));
      }
    } catch (ConnectException e) {
      return Optional.empty();
    } catch (IOException e) {
      if (e.getCause() instanceof ConnectException) {
        return Optional.empty();
      }
      return Optional.of(new AskResult.Refused("solwebd on port " + state.get().port() + ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of(new AskResult.Refused("interrupted"));
    }
    return Optional.of(post(base, token, ask));
  }

  private AskResult post(String base, String token, TurnRequest.Ask ask) {
    ObjectNode body = JSON.createObjectNode();
    body.put("prompt", ask.prompt());
    body.put("effort", ask.effort().suffix());
    ask.attachments().forEach(path -> body.withArray("attachments").add(path.toString()));
    body.put("output_dir", ask.outputDir().toString());
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/ask"))
          .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
          .timeout(askTimeout).POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode root = JSON.readTree(response.body());
      if (response.statusCode() == 200) {
        List<String> images = new ArrayList<>();
        root.path("images").forEach(image -> images.add(image.asText()));
        return new AskResult.Answered(root.path("answer").asText(), images);
      }
      String raw = root.path("error").path("metadata").path("raw").asText(null);
      if (raw != null) {
        return new AskResult.Failed(ProviderFailure.fromJson(raw));
      }
      return new AskResult.Refused("solwebd refused the ask (HTTP " + response.statusCode() + "): "
          + root.path("error").path("message").asText(response.body()));
    } catch (IOException e) {
      return new AskResult.Refused("solwebd did not answer the ask: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new AskResult.Refused("interrupted");
    }
  }

}
