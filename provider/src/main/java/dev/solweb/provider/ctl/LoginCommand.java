package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.BrowserMixin;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Log the seat's profile into ChatGPT in a visible window, then enroll the account.",
    name = "login",
    description = {
      "Opens the seat's profile in a visible Chromium at the chat page and waits while you log in",
      "(the same session check the seat uses; a line every 10 s with the time left). Then it closes",
      "the window and enrolls the account exactly as `enroll --current-profile` does, unless",
      "--no-enroll. Ctrl-C closes the window, releases the profile and enrolls nothing.",
      "",
      "No desktop (a server, an ssh session): use --web. The window then opens on a virtual display",
      "solwebctl starts itself when DISPLAY and WAYLAND_DISPLAY are unset (Xvfb), and a one-time URL",
      "on 127.0.0.1 is printed; that page shows the window live and relays your clicks and keys to it",
      "(docs/seat-control.md). The rest is as without --web.",
      "",
      "Refused before anything opens: no display without --web (DISPLAY and WAYLAND_DISPLAY unset: a",
      "person must see the window), Chromium missing, the profile held by solwebd (stop it: solwebctl",
      "stop) or another process, an identity enrolled for another profile. Refused once the page shows",
      "it: a logged-in account other than the enrolled one (nothing is changed).",
      "",
      "Exit codes: 0 logged in (and enrolled); 1 timed out, window closed or interrupted; 3 refused;",
      "5 the window could not open (no display, Chromium missing or failing: one line says why).",
    })
final class LoginCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  /** --profile is the profile to log in (the daemon's by default); --headless is refused: a person logs in. */
  @Mixin BrowserMixin browser;

  @Option(names = "--timeout", paramLabel = "S", defaultValue = "600",
      description = "Seconds to wait for the login. Default: ${DEFAULT-VALUE}.")
  long timeoutSeconds;

  @Option(names = "--no-enroll", description = "Log in only; do not write identity.json.")
  boolean noEnroll;

  @Option(names = "--web", description = "Use the window from a browser: a one-time URL on 127.0.0.1, a virtual"
      + " display when there is none.")
  boolean web;

  @Option(names = "--web-port", paramLabel = "PORT", defaultValue = "0",
      description = "The --web view's port on 127.0.0.1 (0, the default: a free one).")
  int webPort;

  @Override
  public Integer call() {
    if (timeoutSeconds < 1) {
      spec.commandLine().getErr().println("solwebctl login: --timeout must be at least 1 second");
      return ExitCodes.USAGE;
    }
    if (webPort < 0 || webPort > 65535) {
      spec.commandLine().getErr().println("solwebctl login: --web-port must be 0 to 65535");
      return ExitCodes.USAGE;
    }
    if (browser.headless()) {
      spec.commandLine().getErr().println("solwebctl login: --headless cannot log in: a person must see the window");
      return ExitCodes.USAGE;
    }
    CtlEnv env = parent.env.withProfile(browser.profileOr(parent.env.profileDir()));
    String chatUrl = browser.chatUrl() == null ? PlaywrightOptions.REAL_CHAT_URL : browser.chatUrl();
    try {
      return new Login(env, spec.commandLine().getOut(), Clock.systemUTC()).run(new Login.Request(
          browser.chromiumOrDefault(), URI.create(chatUrl), Duration.ofSeconds(timeoutSeconds), !noEnroll, web, webPort));
    } catch (CtlException e) {
      spec.commandLine().getErr().println("solwebctl login: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return e.exitCode();
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("solwebctl login: " + e.getMessage());
      return ExitCodes.USAGE;
    }
  }
}
