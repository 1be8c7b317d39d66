package dev.solweb.killgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.pi.ChildEnvironment;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.killgate.UploadFiles;
import dev.solweb.killgate.fakesol.FakeSolUploads;
import dev.solweb.provider.model.Attachment;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 with the pinned real Pi: an image in its prompt ({@code pi -p @shot.png "..."}, Pi's own
 * file argument, which it sends as a chat-completions {@code image_url} data URL because the
 * shipped models.json lists {@code image} input) reaches fakesol through solwebd's Playwright seat
 * byte for byte: the page's upload holds the file's sha256 and the turn's Send named it.
 */
class PiImageTest {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path root;

  @Test
  void anImageInPisPromptReachesThePageWithTheSameBytes() throws Exception {
    Path pi = PiBinary.locate(Map.of(PiBinary.ROOT_ENV, REPO.toString())).orElseThrow();
    Gate gate = new Gate(REPO, root, pi, GateDaemon.SeatKind.FAKESOL, Path.of("/usr/bin/chromium"), Set.of());
    try (Rig rig = gate.rig("pi-image", Scenarios.defaults(Scenarios.fin("Coloured noise.")))) {
      Attachment shot = UploadFiles.png("shot.png", 3_000, 11);
      Files.write(rig.workspace.resolve("shot.png"), shot.bytes());
      ProcessBuilder builder = new ProcessBuilder(pi.toString(), "--offline", "--no-session", "--no-tools",
          "--model", Rig.MODEL, "--thinking", "off", "-p", "@shot.png", "What is in this image?")
          .directory(rig.workspace.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(rig.dir.resolve("pi.out").toFile()).redirectError(rig.dir.resolve("pi.err").toFile());
      builder.environment().clear();
      builder.environment().putAll(ChildEnvironment.build(rig.parentEnv(), rig.accountDir, ClientSession.derive("pi-image"),
          Set.of(rig.daemon.token())));
      Process run = builder.start();

      assertThat(run.waitFor(180, TimeUnit.SECONDS)).as("pi -p finished").isTrue();
      assertThat(run.exitValue()).as(Files.readString(rig.dir.resolve("pi.err"))).isZero();
      assertThat(Files.readString(rig.dir.resolve("pi.out"))).contains("Coloured noise.");
      List<FakeSolUploads.Turn> turns = rig.daemon.fakesol().uploads().turns();
      System.out.println("PiImageTest: Pi sent shot.png sha256 " + shot.sha256() + " (" + shot.bytes().length + " bytes); fakesol received "
          + turns.stream().flatMap(t -> t.files().stream()).map(f -> f.sha256() + " (" + f.bytes().length + " bytes)").toList());
      assertThat(turns).as("one Send, with its files").hasSize(1);
      assertThat(turns.get(0).files()).extracting(FakeSolUploads.Stored::sha256).containsExactly(shot.sha256());
      assertThat(rig.daemon.fakesol().uploads().createRequests()).as("uploaded once").isEqualTo(1);
      assertThat(rig.daemon.sends().get(0).text()).contains("What is in this image?");
    }
  }
}
