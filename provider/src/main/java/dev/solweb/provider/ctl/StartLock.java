package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.Poll;
import dev.solweb.provider.platform.SecureFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/** The start lock: this JVM's lock, then an exclusive lock on {@code <home>/solwebctl.lock}. */
final class StartLock implements AutoCloseable {

  // One JVM may run several ensures (tests, a long-lived caller); FileLock alone is per process.
  private static final ReentrantLock IN_PROCESS = new ReentrantLock();

  private final FileChannel channel;
  private final FileLock lock;

  private StartLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static StartLock acquire(Path file, Duration timeout) throws CtlException {
    try {
      if (!IN_PROCESS.tryLock(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        throw new CtlException(ExitCodes.START_FAILED, "another ensure in this process holds the start lock");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CtlException(ExitCodes.INTERNAL, "interrupted waiting for the start lock", e);
    }
    FileChannel channel = null;
    try {
      SecureFile.createPrivateDirectories(file.getParent());
      if (!Files.exists(file)) {
        try {
          Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (java.nio.file.FileAlreadyExistsException raced) {
          // Another ensure created it first; it is the same lock.
        }
      }
      FileChannel open = FileChannel.open(file, StandardOpenOption.WRITE);
      channel = open;
      FileLock lock = Poll.until(timeout, ServiceControl.POLL, () -> Optional.ofNullable(open.tryLock()))
          .orElseThrow(() -> new CtlException(ExitCodes.START_FAILED, "timed out waiting for the start lock " + file));
      return new StartLock(open, lock);
    } catch (IOException | CtlException | RuntimeException e) {
      closeQuietly(channel);
      IN_PROCESS.unlock();
      if (e instanceof CtlException ctl) {
        throw ctl;
      }
      throw new CtlException(ExitCodes.INTERNAL, "cannot take the start lock " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // Closing the channel releases it too.
    }
    closeQuietly(channel);
    IN_PROCESS.unlock();
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // Nothing left to release.
      }
    }
  }
}
