package dev.solweb.factory.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One run of the installed {@code bin/solwebctl} as a child, exactly as a user types it: the demo
 * uses the product's own service control, not a private shortcut into the daemon.
 *
 * @param exit solwebctl's exit code
 * @param stdout what it printed (ProviderHealth or ProviderIdentity JSON with {@code --json})
 * @param stderr its reason line when the exit is not 0
 */
record CtlCall(int exit, String stdout, String stderr) {

  static CtlCall run(Path solwebctl, Map<String, String> env, long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(solwebctl.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      return new CtlCall(-1, out.getNow(""), "solwebctl " + args[0] + " did not finish within " + timeoutSeconds + " s");
    }
    return new CtlCall(process.exitValue(), out.join().strip(), err.join().strip());
  }

  /** stdout as JSON; an exit without it is an IllegalStateException naming what was printed. */
  JsonNode json() {
    try {
      JsonNode node = Json.MAPPER.readTree(stdout);
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (IOException e) {
      // reported below with what solwebctl said instead
    }
    throw new IllegalStateException("solwebctl printed no JSON (exit " + exit + "): " + stdout + " " + stderr);
  }

  private static CompletableFuture<String> drain(java.io.InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    });
  }
}
