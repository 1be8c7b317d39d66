package dev.solweb.factory.testing;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import dev.solweb.factory.cli.FactoryGpt;
import picocli.CommandLine;

/**
 * A workstation in a temp dir for factory-gpt: HOME with a managed Pi dir (loopback models.json),
 * SOLWEBD_HOME with a browser profile and token, a fake solwebctl, the shipped presets, and a fake
 * {@code factory} that records its argv in {@code factory.args} and exits with {@code $FAKE_RC}.
 */
public final class WrapperFixture {

  public final Path root;
  public final Path home;
  public final Path solwebdHome;
  public final Path factoryArgs;
  public final Path factory;
  public final FakeSolwebctl solwebctl;
  public final Map<String, String> env = new HashMap<>();
  public final StringWriter out = new StringWriter();
  public final StringWriter err = new StringWriter();

  public WrapperFixture(Path root, String healthJson, int healthRc) throws IOException {
    this(root, healthJson, healthRc, "http://127.0.0.1:8791/v1");
  }

  public WrapperFixture(Path root, String healthJson, int healthRc, String baseUrl) throws IOException {
    this.root = root;
    home = Files.createDirectories(root.resolve("home"));
    Path managed = Files.createDirectories(home.resolve(".pi/agent"));
    Files.writeString(managed.resolve("models.json"), PiFixture.modelsJson(baseUrl));
    solwebdHome = Files.createDirectories(home.resolve(".overdeck/gptbridge"));
    Files.createDirectories(solwebdHome.resolve("profile"));
    Path token = Files.writeString(solwebdHome.resolve("solwebd.token"), PiFixture.TOKEN);
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    solwebctl = new FakeSolwebctl(root.resolve("ctl"), healthJson, healthRc);
    factoryArgs = root.resolve("factory.args");
    factory = root.resolve("fakebin/factory");
    Files.createDirectories(factory.getParent());
    PiFixture.writeScript(factory, "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + factoryArgs + "'\n"
        + "trap 'echo got-TERM >> " + root.resolve("factory.signals") + "; exit 42' TERM\n"
        + "trap 'echo got-INT >> " + root.resolve("factory.signals") + "; exit 43' INT\n"
        + "if [ -n \"$FAKE_SLEEP\" ]; then echo started > '" + root.resolve("factory.started") + "'; "
        + "sleep \"$FAKE_SLEEP\" & wait; fi\n"
        + "exit ${FAKE_RC:-0}\n");
    env.put("HOME", home.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", solwebdHome.toString());
    env.put("SOLWEBCTL_BIN", solwebctl.script.toString());
    env.put("FACTORY_BIN", factory.toString());
    env.put("SOLWEB_PRESETS_DIR", Path.of("..", "presets").toAbsolutePath().normalize().toString());
  }

  /** Runs factory-gpt in this JVM with the fixture's env; returns the exit code. */
  public int run(String... args) {
    CommandLine cl = FactoryGpt.commandLine(env);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  /** Every file and dir under root except the fake solwebctl's own call log. */
  public List<String> tree() throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.map(p -> root.relativize(p).toString()).filter(p -> !p.endsWith("calls.log")).sorted().toList();
    }
  }
}
