package dev.solweb.provider.daemon;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The one-browser-per-profile lock, {@code <profile>.lock} beside the profile directory
 * ({@code <home>/profile.lock} by default): solwebd holds it for its lifetime, ask-gpt's direct
 * path for one ask. Never waited for: a held lock is reported at once with the holder's pid.
 */
public final class ProfileLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private ProfileLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  public static Path fileFor(Path profileDir) {
    Path absolute = profileDir.toAbsolutePath().normalize();
    return absolute.resolveSibling(absolute.getFileName() + ".lock");
  }

  /** Takes the lock, or returns empty when another process (or this one) holds it. */
  public static Optional<ProfileLock> tryAcquire(Path profileDir) throws IOException {
    Path file = fileFor(profileDir);
    Files.createDirectories(file.getParent());
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException heldHere) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      return Optional.empty();
    }
    channel.truncate(0);
    channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
    channel.force(false);
    return Optional.of(new ProfileLock(channel, lock));
  }

  /** The pid the current holder wrote, for messages; "unknown" when unreadable. */
  public static String holder(Path profileDir) {
    try {
      String text = Files.readString(fileFor(profileDir)).strip();
      return text.isEmpty() ? "unknown" : text;
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // Closing the channel releases it too.
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing left to release.
    }
  }
}
