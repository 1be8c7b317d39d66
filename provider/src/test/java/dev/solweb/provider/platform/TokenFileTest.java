package dev.solweb.provider.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileTest {
  @TempDir Path home;

  private Path tokenFile(String content, String mode) throws IOException {
    Path file = home.resolve(TokenFile.NAME);
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  @Test
  void firstStartCreatesA0600FileHolding32RandomBytesAsBase64Url() throws Exception {
    String token = TokenFile.loadOrCreate(home);

    Path file = home.resolve(TokenFile.NAME);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(token).matches("[A-Za-z0-9_-]{43}");
    assertThat(Base64.getUrlDecoder().decode(token)).hasSize(32);
    assertThat(Files.readString(file).strip()).isEqualTo(token);
  }

  @Test
  void laterStartsReadTheSameToken() throws Exception {
    String first = TokenFile.loadOrCreate(home);

    assertThat(TokenFile.loadOrCreate(home)).isEqualTo(first);
  }

  @Test
  void twoHomesGetDifferentTokens(@TempDir Path other) throws Exception {
    assertThat(TokenFile.loadOrCreate(home)).isNotEqualTo(TokenFile.loadOrCreate(other));
  }

  @Test
  void worldReadableFileIsRefusedNamingTheFileAndTheMode() throws Exception {
    Path file = tokenFile("x".repeat(43) + "\n", "rw-r--r--");

    assertThatThrownBy(() -> TokenFile.loadOrCreate(home))
        .isInstanceOf(Refused.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("has mode 0644, must be 0600");
  }

  @Test
  void symlinkIsRefusedEvenToA0600File() throws Exception {
    Path target = home.resolve("elsewhere.token");
    Files.writeString(target, "x".repeat(43) + "\n");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
    Path link = Files.createSymbolicLink(home.resolve(TokenFile.NAME), target);

    assertThatThrownBy(() -> TokenFile.loadOrCreate(home))
        .isInstanceOf(Refused.class)
        .hasMessageContaining(link.toString())
        .hasMessageContaining("not a regular file");
  }

  @Test
  void danglingSymlinkIsRefusedNotReplaced() throws Exception {
    Path link = Files.createSymbolicLink(home.resolve(TokenFile.NAME), home.resolve("missing"));

    assertThatThrownBy(() -> TokenFile.loadOrCreate(home))
        .isInstanceOf(Refused.class)
        .hasMessageContaining(link.toString());
    assertThat(home.resolve("missing")).doesNotExist();
  }

  @Test
  void aFileWithoutATokenIsRefusedNamingTheFile() throws Exception {
    Path file = tokenFile("\n", "rw-------");

    assertThatThrownBy(() -> TokenFile.loadOrCreate(home))
        .isInstanceOf(Refused.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("malformed");
  }

  @Test
  void directoryIsRefused() throws Exception {
    Path dir = Files.createDirectory(home.resolve(TokenFile.NAME));

    assertThatThrownBy(() -> TokenFile.read(dir))
        .isInstanceOf(Refused.class)
        .hasMessageContaining(dir.toString())
        .hasMessageContaining("not a regular file");
  }
}
