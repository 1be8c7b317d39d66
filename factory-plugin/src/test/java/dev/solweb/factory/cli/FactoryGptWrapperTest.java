package dev.solweb.factory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.testing.FakeSolwebctl;
import dev.solweb.factory.testing.WrapperFixture;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FactoryGptWrapperTest {

  @TempDir Path tmp;

  @Test
  void defaultEffortIsProAndArgumentsAfterDoubleDashReachFactory() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    assertThat(fx.run("--", "run", "--phase", "build")).as(fx.err.toString()).isZero();
    assertThat(Files.readAllLines(fx.factoryArgs)).containsExactly("--preset", "gpt-sol-pro", "run", "--phase", "build");
  }

  @Test
  void factoryExitCodeIsPreserved() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    fx.env.put("FAKE_RC", "7");
    assertThat(fx.run("--effort", "medium")).isEqualTo(7);
    assertThat(Files.readAllLines(fx.factoryArgs)).containsExactly("--preset", "gpt-sol-medium");
  }

  @Test
  void missingFactoryIsAClearError() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    fx.env.remove("FACTORY_BIN");
    fx.env.put("PATH", "/usr/bin:/bin");
    assertThat(fx.run()).isEqualTo(FactoryGptExit.NOT_INSTALLED);
    assertThat(fx.err.toString()).contains("Factory is not installed");
  }

  @Test
  void sigtermAndSigintAreForwardedToFactoryAndItsCodeReturned() throws Exception {
    for (String signal : List.of("TERM", "INT")) {
      Path dir = tmp.resolve(signal);
      WrapperFixture fx = new WrapperFixture(dir, FakeSolwebctl.healthy(), 0);
      fx.env.put("FAKE_SLEEP", "60");
      Process jvm = startFactoryGptJvm(fx);
      awaitFile(dir.resolve("factory.started"));
      new ProcessBuilder("kill", "-s", signal, Long.toString(jvm.pid())).start().waitFor();
      assertThat(jvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(jvm.exitValue()).isEqualTo(signal.equals("TERM") ? 42 : 43);
      assertThat(Files.readString(dir.resolve("factory.signals"))).isEqualTo("got-" + signal + "\n");
    }
  }

  /** factory-gpt as its own JVM, so a real signal reaches it. */
  static Process startFactoryGptJvm(WrapperFixture fx) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FactoryGpt.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(fx.root.resolve("jvm.out").toFile())
        .redirectError(fx.root.resolve("jvm.err").toFile());
    pb.environment().clear();
    pb.environment().putAll(fx.env);
    return pb.start();
  }

  static void awaitFile(Path file) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(file)) {
      assertThat(System.nanoTime()).as("waiting for " + file).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
