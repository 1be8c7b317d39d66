package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.BrowserMixin;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Save the live ChatGPT page as sanitized HTML for a bug report.",
    name = "capture",
    description = {
      "Save the page the seat would drive as HTML to attach to a bug report:",
      "structure and attributes are kept (the selectors the seat relies on),",
      "conversation text becomes placeholders of the same length (x per",
      "character), UI labels stay (buttons, menu items, aria-labels, the effort",
      "pill, banners), the account e-mail and anything token-like are scrubbed,",
      "in attributes too. Scripts, frames and event handlers are dropped; cookies",
      "and storage are never read. Read the file before you share it.",
      "Reaches the page like doctor: through the solwebd of this home when it",
      "holds the profile (GET /v1/capture, between turns), else by opening the",
      "profile here. Never types or sends.",
      "`fakesol --page FILE` serves a capture again for reading tests.",
      "",
      "Exit: 0 saved, 2 bad arguments, 3 the page could not be opened or the",
      "file not written.",
    })
final class CaptureCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the HTML (mode 0600).")
  Path out;

  @Option(names = "--open-effort-menu", description = "Capture with the effort menu open (closed with Escape after).")
  boolean openEffortMenu;

  /** --chat-url is the page to capture: default the real home page, or the daemon's current page. */
  @Mixin BrowserMixin browser;

  @Override
  public Integer call() {
    try {
      String html = PageAccess.of(parent.env, browser).read(new PageAccess.Read<>() {
        @Override
        public String onSeat(PlaywrightSeat seat, URI url) throws SeatException {
          return seat.capture(url, openEffortMenu);
        }

        @Override
        public String throughDaemon(DaemonClient daemon, String query) throws CtlException, DaemonClient.Unreachable {
          return daemon.pageRead("/v1/capture?" + query + "effort_menu=" + openEffortMenu, PageAccess.DAEMON_WAIT);
        }
      });
      write(html);
      spec.commandLine().getOut().println("saved " + html.length() + " characters of sanitized HTML to " + out.toAbsolutePath()
          + "; read it before you share it");
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    } catch (CtlException e) {
      spec.commandLine().getErr().println("solwebctl capture: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return e.exitCode();
    }
  }

  /** Atomically, mode 0600: a capture is scrubbed, but it is still the owner's page. */
  private void write(String html) throws CtlException {
    Path target = out.toAbsolutePath();
    try {
      Path dir = target.getParent();
      Path temp = Files.createTempFile(dir, ".capture-", ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(temp, html, StandardCharsets.UTF_8);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "cannot write " + target + ": " + e.getMessage(), e);
    }
  }
}
