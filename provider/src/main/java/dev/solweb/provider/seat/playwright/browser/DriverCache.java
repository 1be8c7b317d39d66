package dev.solweb.provider.seat.playwright.browser;

import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.impl.driver.jar.DriverJar;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Keeps Playwright's Node driver unpacked once per user and version, instead of once per JVM into
 * {@code /tmp/playwright-java-*} (134 MB, and left behind by kill -9). Measured on this machine
 * kind: Playwright.create drops from 1.0-1.1 s to about 0.4 s (../shared/PLAYWRIGHT.md).
 *
 * <p>Uses {@code DriverJar.installDriverTo}, the method behind Playwright's own
 * {@code CLI install-driver}; the version is pinned in the root pom.
 */
public final class DriverCache {

  private DriverCache() {}

  /**
   * Points Playwright at an unpacked driver: {@code PLAYWRIGHT_DRIVER_DIR} when set, else
   * {@code $XDG_CACHE_HOME|$HOME/.cache}/solweb/playwright-driver-<version>, unpacked on first use.
   * Any failure leaves Playwright's default (unpack per JVM) in place.
   */
  public static synchronized void use(Map<String, String> env) {
    if (env.get("PLAYWRIGHT_DRIVER_DIR") != null || System.getProperty("playwright.cli.dir") != null) {
      return;
    }
    String cache = env.get("XDG_CACHE_HOME");
    if (cache == null || cache.isBlank()) {
      String home = env.get("HOME");
      if (home == null || home.isBlank()) {
        return;
      }
      cache = Path.of(home, ".cache").toString();
    }
    String version = Playwright.class.getPackage().getImplementationVersion();
    Path dir = Path.of(cache, "solweb", "playwright-driver-" + (version == null ? "unknown" : version));
    try {
      if (!Files.isDirectory(dir.resolve("package"))) {
        Files.createDirectories(dir.getParent());
        Path tmp = Files.createTempDirectory(dir.getParent(), ".driver-");
        try {
          DriverJar.installDriverTo(tmp);
          Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
          deleteTree(tmp); // another process unpacked it first
        } catch (Exception e) {
          deleteTree(tmp);
          if (!Files.isDirectory(dir.resolve("package"))) {
            return;
          }
        }
      }
      System.setProperty("playwright.cli.dir", dir.toString());
    } catch (Exception e) {
      // Keep Playwright's default: slower start, same behaviour.
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // A leftover temp dir in the cache is harmless.
    }
  }
}
