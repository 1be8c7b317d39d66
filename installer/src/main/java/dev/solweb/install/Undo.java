package dev.solweb.install;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Takes back one manifest entry: removes what the installer put there if it is still what was
 * recorded, then puts the backup back byte for byte (a moved file or symlink is moved back; a
 * merged file gets its original bytes written back through the same path, keeping its mode).
 * Something the user changed since is left alone, with its backup, and said so.
 */
final class Undo {
  private final PrintWriter out;
  private final boolean dryRun;
  private int warnings;

  Undo(PrintWriter out, boolean dryRun) {
    this.out = out;
    this.dryRun = dryRun;
  }

  int warnings() {
    return warnings;
  }

  /** Returns true when the entry is fully undone (nothing of it is left to record). */
  boolean undo(Entry entry) throws IOException {
    Path path = entry.path();
    switch (entry.kind()) {
      case DIR -> {
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          return true;
        }
        try (var children = Files.list(path)) {
          if (children.findAny().isPresent() && !dryRun) {
            say("keep", path, "not empty");
            return true;
          }
        }
        say("rmdir", path, null);
        if (!dryRun) {
          try {
            Files.delete(path);
          } catch (DirectoryNotEmptyException e) {
            say("keep", path, "not empty");
          }
        }
        return true;
      }
      case TREE -> {
        say("remove", path, "generated tree");
        if (!dryRun && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          deleteTree(path);
        }
        return true;
      }
      case MERGED -> {
        if (!Files2.stillOurs(entry)) {
          return changedSince(entry);
        }
        if (entry.backup() == null || !Files.isRegularFile(entry.backup(), LinkOption.NOFOLLOW_LINKS)) {
          warn(path + ": the backup " + entry.backup() + " is missing; left as it is");
          return false;
        }
        say("restore", path, "from " + entry.backup());
        if (!dryRun) {
          Files.write(path, Files.readAllBytes(entry.backup()));
          // A verb may have replaced the file atomically (new inode, its own mode): the mode comes back too.
          Files.setPosixFilePermissions(path, Files.getPosixFilePermissions(entry.backup()));
          Files.delete(entry.backup());
        }
        return true;
      }
      case SETTINGS -> {
        return takeBackKeys(entry);
      }
      default -> {
        if (Files2.exists(path)) {
          if (!Files2.stillOurs(entry)) {
            return changedSince(entry);
          }
          say("remove", path, entry.kind() == Entry.Kind.LINK ? "-> " + entry.target() : null);
          if (!dryRun) {
            Files.delete(path);
          }
        }
        if (entry.backup() != null) {
          if (!Files2.exists(entry.backup())) {
            warn(path + ": the backup " + entry.backup() + " is missing; nothing to restore");
          } else {
            say("restore", path, "from " + entry.backup());
            if (!dryRun) {
              Files.move(entry.backup(), path, LinkOption.NOFOLLOW_LINKS);
            }
          }
        }
        return true;
      }
    }
  }

  /** Puts back, key by key, what the merged keys held; a key changed since is the user's and stays. */
  private boolean takeBackKeys(Entry entry) throws IOException {
    Path path = entry.path();
    if (Files2.exists(path)) {
      PiSettings.TakeBack back;
      try {
        back = PiSettings.takeBack(path, entry);
      } catch (StepFailed e) {
        warn(e.getMessage() + "; left as it is");
        return false;
      }
      for (String key : back.leftAsChanged()) {
        say("keep", path, key + " was changed since the install; yours now");
      }
      if (back.delete()) {
        say("remove", path, "created by the installer; nothing else in it");
      } else {
        say("restore", path, "the merged keys put back as they were, everything else kept");
      }
      if (!dryRun) {
        if (back.delete()) {
          Files.delete(path);
        } else {
          Files.write(path, back.bytes());
        }
      }
    }
    if (entry.backup() != null && Files2.exists(entry.backup()) && !dryRun) {
      Files.delete(entry.backup());
    }
    return true;
  }

  private boolean changedSince(Entry entry) {
    warn(entry.path() + " changed since it was installed; left as it is"
        + (entry.backup() == null ? "" : " (the original is kept at " + entry.backup() + ")"));
    return false;
  }

  private void say(String verb, Path path, String detail) {
    out.println("install: " + (dryRun ? "would " : "") + verb + " " + path
        + (detail == null ? "" : " (" + detail + ")"));
    out.flush();
  }

  private void warn(String line) {
    warnings++;
    out.println("install: WARNING " + line);
    out.flush();
  }

  static void deleteTree(Path root) throws IOException {
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null) {
          throw e;
        }
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
