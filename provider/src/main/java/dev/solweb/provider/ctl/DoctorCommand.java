package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.BrowserMixin;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.inspect.PageReport;
import java.io.PrintWriter;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Read the ChatGPT page the seat would drive and say what works (read-only).",
    name = "doctor",
    description = {
      "Open the chat page in the profile and check what the seat needs: signed in,",
      "no challenge, composer, Send, no turn running, banners, the effort pill and",
      "menu, the page shape (dom_variant), the last reply (complete, markdown from",
      "Copy, code blocks). One line per check and a summary, or --json.",
      "Read-only: it never types and never clicks Send, Stop or Retry; it may click",
      "a turn's Copy button (the copy is intercepted) and open the effort menu,",
      "which it closes with Escape.",
      "Needs no enrollment and no running daemon. When the solwebd of this home",
      "holds the profile, the daemon reads its page (GET /v1/doctor, on a seat",
      "between turns); a profile held by any other process is refused.",
      "--chat-url may be any page of the site, a conversation included; a page",
      "that is not ready is still read and reported.",
      "",
      "Exit: 0 every check passed, 1 a check failed, 2 bad arguments,",
      "3 the page could not be opened (Chromium, the URL, a profile in use,",
      "the daemon refused).",
    })
final class DoctorCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print the report as one JSON object (docs/solwebctl.md).")
  boolean json;

  /** --chat-url is the page to read: default the real home page, or the daemon's current page. */
  @Mixin BrowserMixin browser;

  @Option(names = "--effort-menu", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Open the effort menu to list its rows, then Escape (default); --no-effort-menu leaves it shut.")
  boolean effortMenu;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    PageReport report;
    try {
      PageAccess access = PageAccess.of(parent.env, browser);
      report = access.read(new PageAccess.Read<>() {
        @Override
        public PageReport onSeat(PlaywrightSeat seat, URI url) throws SeatException {
          return seat.inspect(url, effortMenu);
        }

        @Override
        public PageReport throughDaemon(DaemonClient daemon, String query) throws CtlException, DaemonClient.Unreachable {
          String body = daemon.pageRead("/v1/doctor?" + query + "effort_menu=" + effortMenu, PageAccess.DAEMON_WAIT);
          try {
            return PageReport.fromJson(body);
          } catch (IllegalArgumentException e) {
            throw new CtlException(ExitCodes.REFUSED, "solwebd answered /v1/doctor with " + e.getMessage(), e);
          }
        }
      });
    } catch (CtlException e) {
      err.println("solwebctl doctor: " + e.getMessage());
      err.flush();
      return e.exitCode();
    }
    if (json) {
      out.println(report.toJson());
    } else {
      for (PageReport.Check check : report.checks()) {
        out.println((check.ok() ? "ok      " : "FAILED  ") + check.name() + ": " + check.detail());
      }
      long failed = report.checks().stream().filter(c -> !c.ok()).count();
      out.println((failed == 0 ? "all " + report.checks().size() + " checks passed" : failed + " of "
          + report.checks().size() + " checks failed") + "; state " + report.state() + ", dom_variant "
          + report.domVariant() + ", " + report.turns() + " turn(s), " + report.url());
    }
    out.flush();
    return report.ok() ? ExitCodes.OK : ExitCodes.NOT_READY;
  }
}
