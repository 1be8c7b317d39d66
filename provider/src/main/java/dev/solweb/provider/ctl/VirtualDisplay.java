package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.ExecutablePath;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An X display of our own for {@code solwebctl login --web} on a machine without a desktop: Xvfb
 * on the first free display number (it picks and tells it: {@code -displayfd}), no TCP listener,
 * ended with the login, or with this process however it ends (even kill -9).
 */
final class VirtualDisplay implements AutoCloseable {
  private final Process xvfb;
  private final String display;

  private VirtualDisplay(Process xvfb, String display) {
    this.xvfb = xvfb;
    this.display = display;
  }

  /** @throws CtlException START_FAILED when Xvfb is missing or does not start */
  static VirtualDisplay start(Map<String, String> env) throws CtlException {
    Path xvfb = ExecutablePath.find("Xvfb", env.get("PATH")).orElseThrow(() -> new CtlException(ExitCodes.START_FAILED,
        "no display (DISPLAY and WAYLAND_DISPLAY are unset) and no Xvfb on PATH to start one: install it"
            + " (apt-get install xvfb), or run solwebctl login --web in a desktop session"));
    Process process;
    try {
      // A small shell keeps Xvfb on a leash: it ends Xvfb as soon as its stdin, our pipe, closes, which
      // happens when we close it and also when this JVM dies without running anything (kill -9).
      process = new ProcessBuilder("/bin/sh", "-c", "\"$0\" -displayfd 1 -screen 0 " + PlaywrightOptions.PAGE_WIDTH + "x"
          + PlaywrightOptions.PAGE_HEIGHT + "x24 -nolisten tcp & x=$!;"
          + " read ignored; kill $x; wait $x", xvfb.toString())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      throw new CtlException(ExitCodes.START_FAILED, "could not start " + xvfb + ": " + e.getMessage(), e);
    }
    CompletableFuture<String> number = CompletableFuture.supplyAsync(() -> {
      try {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII)).readLine();
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String line = number.get(15, TimeUnit.SECONDS);
      if (line == null || !line.strip().matches("\\d+")) {
        throw new IllegalStateException("it printed no display number");
      }
      return new VirtualDisplay(process, ":" + line.strip());
    } catch (Exception e) {
      end(process);
      throw new CtlException(ExitCodes.START_FAILED, "Xvfb (" + xvfb + ") did not start a display: " + e.getMessage(), e);
    }
  }

  /** {@code :N}, for DISPLAY. */
  String display() {
    return display;
  }

  @Override
  public void close() {
    end(xvfb);
  }

  private static void end(Process leash) {
    try {
      leash.getOutputStream().close(); // the shell ends Xvfb
    } catch (IOException e) {
      leash.destroy();
    }
    try {
      if (!leash.waitFor(5, TimeUnit.SECONDS)) {
        leash.destroyForcibly();
      }
    } catch (InterruptedException e) {
      leash.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

}
