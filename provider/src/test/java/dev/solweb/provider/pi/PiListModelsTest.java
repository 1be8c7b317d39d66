package dev.solweb.provider.pi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repo's models.json registers the four gpt models with the real Pi, in a temp
 * PI_CODING_AGENT_DIR and in the default agent dir (~/.pi/agent, symlinked as the installer does).
 * With stdin not a TTY, Pi writes the table to stderr (PI-FACTS.md section 2). The last column is
 * images: the models take them (the seat uploads them through the page, docs/attachments.md).
 */
class PiListModelsTest {

  static final List<String> ROWS = List.of(
      "gpt       sol-web-high    120K     16K      no        yes",
      "gpt       sol-web-medium  120K     16K      no        yes",
      "gpt       sol-web-pro     120K     16K      no        yes",
      "gpt       sol-web-xhigh   120K     16K      no        yes");

  @TempDir Path dir;

  @Test
  void pinnedPiIsVersion0731() throws Exception {
    Pi.Result result = new Pi(dir).run("--version");
    assertThat(result.exitCode()).isZero();
    assertThat((result.out() + result.err()).strip()).isEqualTo(Pi.VERSION);
  }

  @Test
  void listsTheFourGptModelsFromATempAgentDir() throws Exception {
    Pi pi = new Pi(dir);
    Files.createSymbolicLink(pi.agentDir.resolve("models.json"), Pi.ROOT.resolve("models.json"));
    assertFourRows(pi.run("--list-models"));
  }

  @Test
  void listsTheFourGptModelsFromTheDefaultAgentDir() throws Exception {
    Pi pi = new Pi(dir);
    pi.env.remove("PI_CODING_AGENT_DIR");
    Path defaultDir = Files.createDirectories(pi.home.resolve(".pi/agent"));
    Files.createSymbolicLink(defaultDir.resolve("models.json"), Pi.ROOT.resolve("models.json"));
    assertFourRows(pi.run("--list-models"));
    assertThat(defaultDir.resolve("auth.json")).as("Pi used the default dir").exists();
  }

  @Test
  void withoutTheProviderFileThereAreNoGptRows() throws Exception {
    Pi.Result result = new Pi(dir).run("--list-models");
    assertThat(result.err()).doesNotContain("sol-web-");
  }

  private static void assertFourRows(Pi.Result result) {
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).as("stdin is not a TTY, so the table goes to stderr").isEmpty();
    List<String> rows = result.err().lines().map(String::stripTrailing).filter(l -> l.startsWith("gpt ")).toList();
    assertThat(rows).containsExactlyElementsOf(ROWS);
    assertThat(result.err()).doesNotContain("sol-web-instant");
  }
}
