package dev.solweb.provider.seat.playwright.browser;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one-browser-per-profile lock, {@code <profile>.lock} beside the profile directory
 * ({@code <home>/profile.lock} by default), an OS file lock holding the holder's pid (the OS drops
 * it when the holder dies, so a killed daemon leaves no stale claim). Never waited for: a held
 * lock is reported at once with the holder's pid.
 *
 * <p>The owner of a profile (solwebd for its lifetime, ask-gpt's direct path for one ask) takes it
 * with {@link #tryAcquire}; a seat factory inside that owner then uses the owner's claim
 * ({@link #acquireUnlessOwned}), and one used on its own (tests, enrollment) takes its own.
 */
public final class ProfileLock implements AutoCloseable {
  private static final Set<Path> OWNED_HERE = ConcurrentHashMap.newKeySet();

  private final FileChannel channel;
  private final FileLock lock;
  private final Path owned;

  private ProfileLock(FileChannel channel, FileLock lock, Path owned) {
    this.channel = channel;
    this.lock = lock;
    this.owned = owned;
  }

  /** Another process, or another user of the profile in this one, holds the lock. */
  public static final class ProfileLockedException extends IllegalStateException {
    public ProfileLockedException(String message) {
      super(message);
    }
  }

  /**
   * For a seat factory: nothing when this process's owner already holds the profile, else the
   * lock taken for the factory itself.
   *
   * @throws ProfileLockedException naming the lock file and its holder's pid when it is held
   */
  public static Optional<ProfileLock> acquireUnlessOwned(Path profileDir) {
    Path file = fileFor(profileDir);
    if (OWNED_HERE.contains(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(take(profileDir, null).orElseThrow(() -> new ProfileLockedException(
          "profile lock " + file + " is held by pid " + holder(profileDir)
              + ": another solwebd (or ask-gpt) is using profile " + profileDir + "; stop it first")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open profile lock " + file + ": " + e.getMessage(), e);
    }
  }

  public static Path fileFor(Path profileDir) {
    Path absolute = profileDir.toAbsolutePath().normalize();
    return absolute.resolveSibling(absolute.getFileName() + ".lock");
  }

  /** Takes the lock as the profile's owner, or returns empty when another process (or this one) holds it. */
  public static Optional<ProfileLock> tryAcquire(Path profileDir) throws IOException {
    Optional<ProfileLock> taken = take(profileDir, fileFor(profileDir));
    taken.ifPresent(lock -> OWNED_HERE.add(lock.owned));
    return taken;
  }

  private static Optional<ProfileLock> take(Path profileDir, Path owned) throws IOException {
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
    return Optional.of(new ProfileLock(channel, lock, owned));
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
    if (owned != null) {
      OWNED_HERE.remove(owned);
    }
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
