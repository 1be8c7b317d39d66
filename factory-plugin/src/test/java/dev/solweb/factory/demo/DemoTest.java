package dev.solweb.factory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.testing.PiFixture;
import dev.solweb.factory.testing.Procs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main job ({@code bin/demo}) end to end, as its main runs it: the real solwebctl and
 * solwebd (scripted seat), the real pinned Pi through {@code factory-gpt run}; hello.txt created,
 * the receipt printed, everything stopped, the user's homes untouched, port 8791 never needed.
 */
class DemoTest {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();
  @TempDir Path tmp;

  @Test
  void theMainJobMakesTheRealPiCreateHelloTxtThroughSolThenStopsEverythingAndLeavesTheHomesAlone() throws Exception {
    PiFixture.locatePi(); // a missing pinned Pi fails here with how to install it
    Path userHome = Files.createDirectories(tmp.resolve("user-home"));
    Path tmpdir = Files.createDirectories(tmp.resolve("tmpdir"));
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("SOLWEB_ROOT", REPO.toString());
    env.put("HOME", userHome.toString());
    env.put("TMPDIR", tmpdir.toString());
    // The user's own settings, which the demo must neither use nor write to.
    env.put("SOLWEBD_HOME", userHome.resolve(".overdeck/gptbridge").toString());
    env.put("PI_CODING_AGENT_DIR", userHome.resolve(".pi/agent").toString());
    env.put("SOLWEBD_PORT", "8791");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int rc;
    // Port 8791 is held (by the user's daemon, or here by this socket) for the whole run.
    try (ServerSocket users8791 = holdIfFree(8791)) {
      var cl = Demo.commandLine(env);
      cl.setOut(new PrintWriter(out, true));
      cl.setErr(new PrintWriter(err, true));
      rc = cl.execute();
    }

    String printed = out.toString();
    assertThat(rc).as(printed + "\n" + err).isZero();
    // auto: fakesol in headless Chromium where both exist, else the scripted seat, said out loud.
    boolean fakesol = Files.isExecutable(REPO.resolve("bin/fakesol")) && Files.isExecutable(Path.of("/usr/bin/chromium"));
    String seatArgs = fakesol ? "--seat playwright --chat-url http://127.0.0.1:" : "--seat scripted:pi-demo";
    assertThat(printed).containsSubsequence(
        fakesol ? "demo: seat: playwright on fakesol (headless Chromium), scenario pi-demo: Chromium is at"
            : "demo: seat: scripted, scenario pi-demo: fakesol (the imitation ChatGPT page the Playwright seat drives)"
                + " is not part of this checkout; the scripted seat plays the page",
        "$ solwebctl enroll --current-profile --json " + seatArgs,
        "demo: enrolled demo@solweb.invalid",
        "$ solwebctl ensure --json --seats 1 " + seatArgs,
        "$ factory-gpt run --effort high --workspace ",
        "--task \"create hello.txt containing hi\"",
        "factory-gpt: running Pi on gpt/sol-web-high",
        "Created hello.txt containing hi.",
        "\"outcome\" : \"completed\"",
        "\"tool\" : \"write\"",
        "\"report\" : {",
        "\"files_changed\" : [ \"hello.txt\" ]",
        "demo: check: hello.txt holds \"hi\", written by Pi's write tool",
        "$ solwebctl stop --json",
        "demo: solwebctl stop: stopped solwebd pid ",
        "demo: nothing the demo started is still running",
        "demo: removed the sandbox ",
        "demo: done in ");
    Matcher ready = Pattern.compile("solwebd pid (\\d+) is ready on http://127\\.0\\.0\\.1:(\\d+)/v1").matcher(printed);
    assertThat(ready.find()).as(printed).isTrue();
    assertThat(Integer.parseInt(ready.group(2))).isNotEqualTo(8791);
    long daemonPid = Long.parseLong(ready.group(1));
    assertThat(Procs.isDead(daemonPid)).as("solwebd pid %d stopped", daemonPid).isTrue();
    assertThat(printed).contains("solwebd pid " + daemonPid + " is gone");

    assertThat(listAll(userHome)).as("nothing written in the user's home").isEmpty();
    assertThat(listAll(tmpdir)).as("the sandbox is removed").isEmpty();
    assertThat(processesMentioning(tmpdir.toString())).as("no process of the demo is left").isEmpty();
    assertThat(err.toString()).isEmpty();
  }

  private static ServerSocket holdIfFree(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    try {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException taken) {
      // Already held by someone else: taken either way, which is the case under test.
    }
    return socket;
  }

  private static List<Path> listAll(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths.filter(p -> !p.equals(dir)).toList();
    }
  }

  /** Live processes whose command line mentions {@code text} (the sandbox lives under it). */
  private static List<String> processesMentioning(String text) throws IOException {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs.filter(p -> p.getFileName().toString().matches("\\d+"))
          .filter(p -> !Procs.isDead(Long.parseLong(p.getFileName().toString())))
          .map(p -> {
            try {
              return Files.readString(p.resolve("cmdline")).replace('\0', ' ');
            } catch (IOException gone) {
              return "";
            }
          })
          .filter(cmdline -> cmdline.contains(text))
          .toList();
    }
  }
}
