package dev.solweb.killgate.gate;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A short child process run to completion (stdin from /dev/null), its output captured. */
record Proc(int exit, String stdout, String stderr) {

  static Proc run(List<String> command, Map<String, String> env, Path cwd, long timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    if (cwd != null) {
      builder.directory(cwd.toFile());
    }
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      return new Proc(-1, out.getNow(""), "timed out after " + timeoutSeconds + " s");
    }
    return new Proc(process.exitValue(), out.join(), err.join());
  }

  private static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    });
  }
}
