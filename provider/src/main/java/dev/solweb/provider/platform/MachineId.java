package dev.solweb.provider.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** This machine's identity: SHA-256 over the exact bytes of /etc/machine-id. */
public final class MachineId {

  private static final Pattern MACHINE_ID = Pattern.compile("[0-9a-f]{32}\n?");

  private MachineId() {}

  /** The hash of the exact file bytes, with no validation (the token fast path's check). */
  public static String sha256Of(Path machineIdFile) throws Refused {
    try {
      return sha256(Files.readAllBytes(machineIdFile));
    } catch (IOException e) {
      throw new Refused("non-local topology: cannot read " + machineIdFile, e);
    }
  }

  /**
   * The hash, after proving the identity is unambiguous: the file exists, holds one 32-hex-digit
   * id, and the D-Bus copy, when present, names the same id.
   *
   * @throws Refused "ambiguous machine identity: ..."
   */
  public static String unambiguousSha256(Path machineIdFile, Path dbusMachineIdFile) throws Refused {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(machineIdFile);
    } catch (NoSuchFileException e) {
      throw ambiguous(machineIdFile + " does not exist");
    } catch (IOException e) {
      throw ambiguous(machineIdFile + " cannot be read: " + e.getMessage());
    }
    String id = new String(bytes, StandardCharsets.UTF_8);
    if (!MACHINE_ID.matcher(id).matches()) {
      throw ambiguous(machineIdFile + " does not hold exactly one 32-hex-digit machine id");
    }
    if (Files.exists(dbusMachineIdFile)) {
      try {
        String dbus = Files.readString(dbusMachineIdFile, StandardCharsets.UTF_8).strip();
        if (!dbus.equals(id.strip())) {
          throw ambiguous(dbusMachineIdFile + " names a different machine id than " + machineIdFile);
        }
      } catch (IOException e) {
        throw ambiguous(dbusMachineIdFile + " cannot be read: " + e.getMessage());
      }
    }
    return sha256(bytes);
  }

  private static Refused ambiguous(String why) {
    return new Refused("ambiguous machine identity: " + why);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
