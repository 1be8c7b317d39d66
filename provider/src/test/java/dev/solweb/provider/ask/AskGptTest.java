package dev.solweb.provider.ask;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.Solwebctl;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/ask-gpt with the real solwebd (started by solwebctl ensure on a ScriptedSeat whose reply
 * carries an image) and without it (its own ScriptedSeat under the profile lock): the same
 * output, the attachment reached "the browser", the image was saved; a busy profile is a message
 * at once.
 */
class AskGptTest {

  static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  static final String ACCOUNT = "owner@solweb.invalid";
  static final String SCENARIO = """
      {"account": "owner@solweb.invalid",
       "default": [{"prose": "Here is a cat.", "blocks": ["print('meow')"], "images": ["cat.png"], "delay_ms": 100}]}""";

  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private Path home;
  private Path profile;
  private Path scenario;
  private Path attachment;

  record Run(int exitCode, String out, String err) {}

  @BeforeEach
  void setUp() throws Exception {
    home = dir.resolve("home");
    profile = dir.resolve("profile");
    Files.createDirectories(home);
    Files.createDirectories(profile);
    env.put("HOME", dir.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.toString());
    env.put("SOLWEBD_PROFILE", profile.toString());
    env.put("SOLWEBD_PORT", "0");
    env.put("SOLWEBCTL_START_TIMEOUT_S", "90");
    scenario = dir.resolve("scenario.json");
    Files.writeString(scenario, SCENARIO);
    attachment = dir.resolve("whiskers.txt");
    Files.writeString(attachment, "long whiskers");
  }

  @AfterEach
  void tearDown() throws Exception {
    Optional<StateFile> state = StateFile.read(home.resolve("solwebd.state.json"));
    ctl("stop", "--json");
    state.flatMap(s -> ProcessHandle.of(s.pid())).ifPresent(ProcessHandle::destroyForcibly);
  }

  private int ctl(String... args) {
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(CtlEnv.of(env, ROOT), new PrintWriter(new StringWriter()), new PrintWriter(err), args);
    assertThat(code).as(String.join(" ", args) + ": " + err).isZero();
    return code;
  }

  private Run askGpt(Path cwd, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/ask-gpt").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve("ask.out").toFile()).redirectError(dir.resolve("ask.err").toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("ask-gpt finished").isTrue();
    return new Run(process.exitValue(), Files.readString(dir.resolve("ask.out")), Files.readString(dir.resolve("ask.err")));
  }

  private void enrollAndStartDaemon() throws Exception {
    Path enrollScenario = dir.resolve("enroll.json");
    Files.writeString(enrollScenario, "{\"account\": \"" + ACCOUNT + "\"}");
    ctl("enroll", "--current-profile", "--json", "--seat", "scripted:" + enrollScenario);
    ctl("ensure", "--json", "--seat", "scripted:" + scenario);
  }

  @Test
  void throughTheDaemonAndDirectlyTheOutputIsTheSame() throws Exception {
    enrollAndStartDaemon();
    Path cwd = dir.resolve("cwd");
    Files.createDirectories(cwd);
    Files.copy(attachment, cwd.resolve("whiskers.txt"));

    // Daemon up: the relative --attach and --out are resolved against ask-gpt's cwd, not the daemon's.
    Run viaDaemon = askGpt(cwd, "draw me a cat", "--attach", "whiskers.txt", "--out", "pics", "--effort", "high");
    assertThat(viaDaemon.exitCode()).as(viaDaemon.err()).isZero();
    Path daemonImage = cwd.resolve("pics/cat.png");
    assertThat(viaDaemon.out()).isEqualTo("Here is a cat.\n\n```\nprint('meow')\n```\nimage: " + daemonImage + "\n");
    assertThat(daemonImage).isRegularFile();
    // The daemon holds the profile lock while it runs: a direct ask could not open a second browser.
    assertThat(ProfileLock.tryAcquire(profile)).isEmpty();
    int daemonPid = (int) StateFile.read(home.resolve("solwebd.state.json")).orElseThrow().pid();
    assertThat(ProfileLock.holder(profile)).isEqualTo(Integer.toString(daemonPid));

    ctl("stop", "--json");
    assertThat(home.resolve("solwebd.state.json")).doesNotExist();

    // Daemon down: ask-gpt's own seat, under the (now free) profile lock.
    Run direct = askGpt(cwd, "draw me a cat", "--attach", "whiskers.txt", "--out", "pics2", "--effort", "high",
        "--seat", "scripted:" + scenario);
    assertThat(direct.exitCode()).as(direct.err()).isZero();
    Path directImage = cwd.resolve("pics2/cat.png");
    assertThat(direct.out()).isEqualTo(viaDaemon.out().replace(daemonImage.toString(), directImage.toString()));
    assertThat(Files.readAllBytes(directImage)).isEqualTo(Files.readAllBytes(daemonImage));
    try (ProfileLock free = ProfileLock.tryAcquire(profile).orElseThrow()) {
      assertThat(free).isNotNull(); // released at exit
    }
  }

  @Test
  void aBusyProfileIsAClearMessageAtOnceNotAWait() throws Exception {
    try (ProfileLock held = ProfileLock.tryAcquire(profile).orElseThrow()) {
      Run run = askGpt(dir, "draw me a cat", "--out", dir.resolve("out").toString(), "--seat", "scripted:" + scenario);
      // It ended while the lock is still held here: it did not wait for it (no timing needed).
      assertThat(run.exitCode()).isEqualTo(AskResult.UNAVAILABLE);
      assertThat(run.err()).contains("is busy", ProfileLock.fileFor(profile).toString(),
          "held by pid " + ProcessHandle.current().pid());
      assertThat(run.out()).isEmpty();
    }
  }

  @Test
  void theDirectPathRefusesAnAttachmentThatIsNotThere() throws Exception {
    Run run = askGpt(dir, "draw", "--attach", "nope.txt", "--seat", "scripted:" + scenario);
    assertThat(run.exitCode()).isEqualTo(AskResult.USAGE);
    assertThat(run.err()).contains("--attach nope.txt is not a readable file");
  }
}
