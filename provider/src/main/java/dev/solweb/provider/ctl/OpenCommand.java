package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.ExecutablePath;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.ProcessInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Open solwebd's operator page in a browser, signed in by a one-time code.",
    name = "open",
    description = {
      "Ask the running solwebd of this home for a one-time sign-in code",
      "(POST /ui/api/codes, with the token from the token file) and open",
      "http://127.0.0.1:<port>/ui/login?code=... with xdg-open. With --print,",
      "or when there is no xdg-open or no display, print the URL instead.",
      "The code signs one browser in, once, within 60 s; the page then keeps an",
      "HttpOnly, SameSite=Strict session cookie that ends after 30 min idle,",
      "12 h at most, or with the daemon. The token never reaches the browser.",
      "Over ssh: forward the port (ssh -L <port>:127.0.0.1:<port> host) and",
      "open the printed URL on your side. See docs/operator-page.md.",
      "",
      "Exit: 0 opened or printed, 1 solwebd is not running or does not answer,",
      "3 refused (token file, topology, the daemon refused the token).",
    })
final class OpenCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--print", description = "Print the sign-in URL (one line) instead of opening a browser.")
  boolean print;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String url;
    try {
      url = mint();
    } catch (CtlException e) {
      err.println("solwebctl open: " + e.getMessage());
      err.flush();
      return e.exitCode();
    }
    if (!print) {
      Optional<String> notOpened = openInBrowser(url);
      if (notOpened.isEmpty()) {
        out.println("opened the operator page in your browser (the code is good once, for 60 s)");
        out.flush();
        return ExitCodes.OK;
      }
      err.println("solwebctl open: " + notOpened.get() + "; open this URL in a browser on this machine (good once, for 60 s):");
      err.flush();
    }
    out.println(url);
    out.flush();
    return ExitCodes.OK;
  }

  private String mint() throws CtlException {
    Topology.requireLocal(parent.env);
    Optional<StateFile> state = parent.env.daemonState();
    if (state.isEmpty()) {
      throw new CtlException(ExitCodes.NOT_READY, "solwebd is not running (no " + parent.env.stateFile()
          + "); start it with solwebctl ensure");
    }
    StateFile daemon = state.get();
    Optional<ProcessInfo> process = ProcessInfo.of(parent.env.proc(), daemon.pid());
    if (process.isEmpty() || process.get().startTicks() != daemon.processStartTicks()) {
      throw new CtlException(ExitCodes.NOT_READY, "solwebd is not running (the state file names pid " + daemon.pid()
          + ", which is gone); start it with solwebctl ensure");
    }
    String token = ClientToken.read(parent.env);
    try {
      String body = new DaemonClient(daemon.port(), token).postJson("/ui/api/codes", "{}", Duration.ofSeconds(10));
      JsonNode url = Json.MAPPER.readTree(body).path("url");
      if (!url.isTextual()) {
        throw new CtlException(ExitCodes.REFUSED, "solwebd answered /ui/api/codes without a url: is it older than"
            + " the operator page?");
      }
      return url.asText();
    } catch (DaemonClient.Unreachable e) {
      throw new CtlException(ExitCodes.NOT_READY, e.getMessage());
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "solwebd answered /ui/api/codes with a body that is not JSON", e);
    }
  }

  /** Opens {@code url} with xdg-open; empty when it did, else why not. */
  private Optional<String> openInBrowser(String url) {
    Map<String, String> env = parent.env.env();
    if (isEmpty(env.get("DISPLAY")) && isEmpty(env.get("WAYLAND_DISPLAY"))) {
      return Optional.of("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)");
    }
    Optional<Path> opener = ExecutablePath.find("xdg-open", env.get("PATH"));
    if (opener.isEmpty()) {
      return Optional.of("no xdg-open on PATH");
    }
    try {
      // The code rides in xdg-open's argv for a moment: it is single-use and dies in 60 s, unlike the token.
      ProcessBuilder pb = new ProcessBuilder(opener.get().toString(), url).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().clear();
      pb.environment().putAll(env);
      Process process = pb.start();
      if (process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() != 0) {
        return Optional.of("xdg-open failed (exit " + process.exitValue() + ")");
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("xdg-open could not run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while xdg-open ran");
    }
  }

  private static boolean isEmpty(String value) {
    return value == null || value.isEmpty();
  }
}
