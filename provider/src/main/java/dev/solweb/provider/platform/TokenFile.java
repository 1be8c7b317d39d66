package dev.solweb.provider.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The daemon's bearer token file {@code <home>/solwebd.token}, the one reader and creator for
 * the daemon, its clients and the demos: 32 random bytes, base64url, created mode 0600 on first
 * start, and read only when it is a regular file (not a symlink) owned by this user, mode 0600,
 * holding one token line. The checks and texts are those of the bash fast path in bin/solwebctl
 * (TokenParityTest proves it); a client checks the topology first ({@code ctl.ClientToken}).
 */
public final class TokenFile {
  public static final String NAME = "solwebd.token";
  private static final Pattern TOKEN_LINE = Pattern.compile("[A-Za-z0-9_-]+\n?");

  private TokenFile() {}

  /** The token in {@code file}, without its newline, checked for this process's user. */
  public static String read(Path file) throws Refused {
    int euid = ProcessInfo.of(ProcessHandle.current().pid()).map(ProcessInfo::uid)
        .orElseThrow(() -> new IllegalStateException("cannot read this process's uid from /proc"));
    return read(file, euid);
  }

  /** The token in {@code file}, checked for the user {@code euid}. */
  public static String read(Path file, int euid) throws Refused {
    String text = SecureFile.readPrivate(file, "token file", euid);
    if (!TOKEN_LINE.matcher(text).matches()) {
      throw new Refused("token file " + file + " is malformed");
    }
    return text.strip();
  }

  /**
   * The daemon's token, creating {@code <home>/solwebd.token} first if it is absent.
   *
   * @throws IOException when the file cannot be created
   * @throws Refused when an existing file fails the checks
   */
  public static String loadOrCreate(Path home) throws IOException, Refused {
    Path file = home.resolve(NAME);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
      } catch (FileAlreadyExistsException raced) {
        // Another process created it first; read and check theirs below.
      }
    }
    return read(file);
  }
}
