package dev.solweb.provider.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * The bearer token file {@code <home>/solwebd.token}: 32 random bytes, base64url, created mode
 * 0600 on first start. An existing file is trusted only if it is a regular file (not a symlink)
 * owned by this user with mode 0600 and a non-empty value.
 */
public final class TokenFile {
  public static final String NAME = "solwebd.token";
  private static final Set<PosixFilePermission> OWNER_RW =
      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

  private TokenFile() {}

  /** Reads the token, creating it first if absent. */
  public static String loadOrCreate(Path home) throws IOException {
    Path file = home.resolve(NAME);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_RW));
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
      } catch (FileAlreadyExistsException raced) {
        // Another process created it first; read and check theirs below.
      }
    }
    return read(file);
  }

  /**
   * Reads and checks an existing token file.
   *
   * @throws IOException naming the file and what is wrong with it
   */
  public static String read(Path file) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new IOException("token file " + file + " cannot be read: " + e.getMessage(), e);
    }
    if (!attributes.isRegularFile()) {
      throw new IOException("token file " + file + " is not a regular file (a symlink or directory is refused)");
    }
    String owner = attributes.owner().getName();
    String me = System.getProperty("user.name");
    if (!owner.equals(me)) {
      throw new IOException("token file " + file + " is owned by " + owner + ", not by " + me);
    }
    if (!attributes.permissions().equals(OWNER_RW)) {
      throw new IOException("token file " + file + " has mode " + PosixFilePermissions.toString(attributes.permissions())
          + "; it must be rw------- (chmod 600)");
    }
    String token = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (token.isEmpty()) {
      throw new IOException("token file " + file + " is empty");
    }
    return token;
  }
}
