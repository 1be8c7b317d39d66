package dev.solweb.provider.platform;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/**
 * Private files of the daemon home (token, identity): read only when they are regular files
 * owned by the current user with mode 0600, written only atomically with mode 0600.
 *
 * <p>The refusal texts are a contract: bin/solwebctl's token fast path prints the same ones, and
 * TokenParityTest compares them byte for byte.
 */
public final class SecureFile {

  private SecureFile() {}

  /**
   * Checks {@code file} without following symlinks (a symlink is not a regular file).
   *
   * @param what how refusals name the file ("token file")
   * @throws Refused naming the file and what is wrong
   */
  public static void checkPrivate(Path file, String what, int euid) throws Refused {
    PosixFileAttributes attributes;
    int uid;
    int mode;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      uid = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
    } catch (NoSuchFileException e) {
      throw new Refused(what + " " + file + " does not exist");
    } catch (IOException e) {
      // Same text as bin/solwebctl's failed stat (the cause stays attached for the Java side).
      throw new Refused(what + " " + file + " cannot be read", e);
    }
    if (!attributes.isRegularFile()) {
      throw new Refused(what + " " + file + " is not a regular file");
    }
    if (uid != euid) {
      throw new Refused(
          what + " " + file + " is owned by uid " + uid + ", not the current user (uid " + euid + ")");
    }
    if (mode != 0600) {
      throw new Refused(
          what + " " + file + " has mode " + String.format("%04o", mode) + ", must be 0600");
    }
    if (attributes.size() == 0) {
      throw new Refused(what + " " + file + " is empty");
    }
  }

  /** Reads a file that passed {@link #checkPrivate}. */
  public static String readPrivate(Path file, String what, int euid) throws Refused {
    checkPrivate(file, what, euid);
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Refused(what + " " + file + " cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Replaces {@code file} with {@code content} atomically: a mode-0600 temp file in the same
   * directory, fsynced, then renamed over the target. A reader sees the old or the new file, never
   * a partial one, and never a moment with wider permissions.
   */
  public static void writeAtomic(Path file, String content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    createPrivateDirectories(dir);
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp-" + UUID.randomUUID());
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        channel.write(StandardCharsets.UTF_8.encode(content));
        channel.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("cannot replace " + file + " atomically", e);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Creates {@code dir} and missing parents with mode 0700 (an existing directory is left as is). */
  public static void createPrivateDirectories(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
  }
}
