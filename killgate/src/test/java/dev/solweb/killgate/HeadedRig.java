package dev.solweb.killgate;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.testkit.Programs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a headed login test needs: a virtual X display (Xvfb picks a free one and says which on
 * stdout), solweb's commands as child processes with a private HOME, and a stand-in for the person
 * at the window. The person works through a second DevTools connection to the very Chromium the
 * command opened: a wrapper executable adds {@code --remote-debugging-port=0}, and Chromium writes
 * the port into the profile's {@code DevToolsActivePort}. Nothing in solweb knows about it.
 */
final class HeadedRig implements AutoCloseable {

  private final Process xvfb;
  final String display;

  private HeadedRig(Process xvfb, String display) {
    this.xvfb = xvfb;
    this.display = display;
  }

  static HeadedRig start() throws IOException {
    Process xvfb = new ProcessBuilder(Programs.require("Xvfb").toString(), "-displayfd", "1", "-screen", "0", "1280x1024x24",
        "-nolisten", "tcp").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(xvfb.getInputStream(), StandardCharsets.UTF_8));
    String number = out.readLine(); // blocks until Xvfb is ready to accept clients
    if (number == null || !number.strip().matches("\\d+")) {
      xvfb.destroyForcibly();
      throw new IOException("Xvfb did not report a display: " + number);
    }
    return new HeadedRig(xvfb, ":" + number.strip());
  }

  /** A Chromium that also listens for DevTools on a port the test can find. */
  static Path debuggableChromium(Path dir) throws IOException {
    Programs.require("/usr/bin/chromium");
    Path wrapper = dir.resolve("chromium-debuggable");
    Files.writeString(wrapper, "#!/bin/sh\nexec /usr/bin/chromium \"$@\" --remote-debugging-port=0\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
    return wrapper;
  }

  /** A child JVM running {@code main} with this classpath; output merged, environment from scratch. */
  static ProcessBuilder java(Map<String, String> env, String main, List<String> args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().put("PATH", System.getenv("PATH"));
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    pb.environment().putAll(env);
    return pb;
  }

  /** Reads a child's output lines on a thread of their own, so the test can wait for one. */
  static final class Output {
    private final List<String> lines = new ArrayList<>();

    Output(Process process) {
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            synchronized (lines) {
              lines.add(line);
              lines.notifyAll();
            }
          }
        } catch (IOException ignored) {
          // The process ended.
        }
      }, "child-output");
      reader.setDaemon(true);
      reader.start();
    }

    List<String> lines() {
      synchronized (lines) {
        return List.copyOf(lines);
      }
    }

    String text() {
      return String.join("\n", lines());
    }

    /** Waits (bounded, for a hung child) until a line contains {@code part}. */
    String await(String part, Duration within) throws InterruptedException {
      long deadline = System.nanoTime() + within.toNanos();
      synchronized (lines) {
        while (true) {
          for (String line : lines) {
            if (line.contains(part)) {
              return line;
            }
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new AssertionError("no line containing \"" + part + "\" within " + within + ":\n" + String.join("\n", lines));
          }
          lines.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
        }
      }
    }
  }

  /**
   * The person: at the window the command opened, clicks "Log in", signs in as {@code account}
   * on the sign-in page, and lets the site bring the window back to the chat.
   */
  static void logInAsAPerson(Path profile, String account) throws Exception {
    Path portFile = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!Files.isRegularFile(portFile) || Files.readAllLines(portFile).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Chromium wrote no " + portFile);
      }
      Thread.sleep(100);
    }
    String port = Files.readAllLines(portFile).get(0).strip();
    try (Playwright pw = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")))) {
      Browser browser = pw.chromium().connectOverCDP("http://127.0.0.1:" + port);
      Page page = browser.contexts().get(0).pages().get(0);
      page.click("[data-testid=\"login-button\"]", new Page.ClickOptions().setTimeout(30_000));
      page.waitForURL("**/auth/login");
      page.fill("#email-input", account);
      page.fill("#password-input", "not a real password");
      try {
        // As a person would: submit, then watch the site take the window back to the chat.
        java.util.function.Predicate<String> backAtTheChat = url -> url.startsWith("http://127.0.0.1:");
        page.waitForNavigation(new Page.WaitForNavigationOptions().setUrl(backAtTheChat).setTimeout(20_000),
            () -> page.click("#continue-button"));
      } catch (com.microsoft.playwright.TimeoutError stuck) {
        throw new AssertionError("after Continue the page is still " + page.url() + ": " + page.content(), stuck);
      } catch (com.microsoft.playwright.PlaywrightException closedMeanwhile) {
        // The command closes the window as soon as the session shows: that is the point.
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    xvfb.destroy();
    if (!xvfb.waitFor(5, TimeUnit.SECONDS)) {
      xvfb.destroyForcibly();
    }
  }
}
