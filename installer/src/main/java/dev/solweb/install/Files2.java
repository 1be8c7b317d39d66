package dev.solweb.install;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Small file facts the installer compares by: content digests, symlink targets, equality. */
final class Files2 {
  private Files2() {}

  static String sha256(Path file) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static boolean exists(Path path) {
    return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
  }

  /** True when {@code path} is a symlink whose target text is exactly {@code target}. */
  static boolean linksTo(Path path, String target) {
    try {
      return Files.isSymbolicLink(path) && Files.readSymbolicLink(path).toString().equals(target);
    } catch (IOException e) {
      return false;
    }
  }

  /** True when {@code path} is a regular file (not a link) with this digest. */
  static boolean hasDigest(Path path, String sha256) throws IOException {
    return sha256 != null && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && sha256(path).equals(sha256);
  }

  /** True when both are regular files with the same bytes and permissions. */
  static boolean sameFile(Path a, Path b) throws IOException {
    return Files.isRegularFile(b, LinkOption.NOFOLLOW_LINKS)
        && Files.size(a) == Files.size(b)
        && Files.getPosixFilePermissions(a).equals(Files.getPosixFilePermissions(b, LinkOption.NOFOLLOW_LINKS))
        && Files.mismatch(a, b) == -1;
  }

  /** Whether the installer's record of {@code entry} still describes what is at its path. */
  static boolean stillOurs(Entry entry) throws IOException {
    return switch (entry.kind()) {
      case LINK -> linksTo(entry.path(), entry.target());
      case FILE, CREATED -> hasDigest(entry.path(), entry.sha256());
      // A merged file may be reached through the user's own symlink: compare what it holds.
      case MERGED, SETTINGS -> Files.isRegularFile(entry.path()) && sha256(entry.path()).equals(entry.sha256());
      case DIR, TREE -> Files.isDirectory(entry.path(), LinkOption.NOFOLLOW_LINKS);
    };
  }
}
