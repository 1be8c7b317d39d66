package dev.solweb.provider.seat.playwright;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The daemon's exclusive claim on its browser profiles: {@code <home>/profile.lock}, held with
 * an OS file lock for the life of the process and holding the holder's pid. The OS drops the
 * lock when the holder dies, so a killed daemon never leaves a stale claim; Chromium's own
 * SingletonLock error ("Failed to create a ProcessSingleton") is never what a user sees.
 */
public final class ProfileLock implements AutoCloseable {

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private ProfileLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock or fails at once.
   *
   * @throws ProfileLockedException naming the lock file and the holder's pid when another
   *     process (or this one) holds it
   */
  public static ProfileLock acquire(Path home, Path profileDir) {
    Path file = home.resolve("profile.lock");
    FileChannel channel = null;
    try {
      Files.createDirectories(home);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        String holder = readHolder(file);
        channel.close();
        throw new ProfileLockedException(
            "profile lock " + file + " is held by pid " + holder
                + ": another solwebd is using profile " + profileDir + "; stop it first");
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
      channel.force(false);
      return new ProfileLock(file, channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("cannot open profile lock " + file + ": " + e.getMessage(), e);
    }
  }

  private static String readHolder(Path file) {
    try {
      String pid = Files.readString(file, StandardCharsets.US_ASCII).strip();
      return pid.isEmpty() ? "unknown" : pid;
    } catch (IOException e) {
      return "unknown";
    }
  }

  public Path file() {
    return file;
  }

  @Override
  public void close() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } catch (IOException ignored) {
      // Closing the channel below releases it anyway.
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Nothing left to release.
      }
    }
  }

  /** Another daemon holds the profile. */
  public static final class ProfileLockedException extends IllegalStateException {
    public ProfileLockedException(String message) {
      super(message);
    }
  }
}
