package dev.solweb.provider.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** This machine's host name, as the kernel has it ({@code /proc/sys/kernel/hostname}; no DNS lookup). */
public final class HostName {
  private static final Path KERNEL = Path.of("/proc/sys/kernel/hostname");

  private HostName() {}

  /** The host name, or empty when the kernel's file cannot be read or is blank. */
  public static Optional<String> get() {
    try {
      return Optional.of(Files.readString(KERNEL).strip()).filter(name -> !name.isEmpty());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
