package dev.solweb.provider.seat.playwright.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileLockTest {

  @TempDir Path home;

  @Test
  void aSecondHolderFailsFastNamingTheLockAndThePid() throws Exception {
    Path profile = home.resolve("profile");
    try (ProfileLock first = ProfileLock.acquireUnlessOwned(profile).orElseThrow()) {
      assertThat(Files.readString(ProfileLock.fileFor(profile)).strip()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
      assertThatThrownBy(() -> ProfileLock.acquireUnlessOwned(profile).orElseThrow())
          .isInstanceOf(ProfileLock.ProfileLockedException.class)
          .hasMessageContaining(home.resolve("profile.lock").toString())
          .hasMessageContaining("pid " + ProcessHandle.current().pid())
          .hasMessageContaining(profile.toString());
    }
    try (ProfileLock again = ProfileLock.acquireUnlessOwned(profile).orElseThrow()) {
      assertThat(ProfileLock.fileFor(profile)).exists();
    }
  }

  @Test
  void aLockHeldByAnotherProcessIsReportedWithItsPid() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Holder.class.getName(), home.toString())
        .redirectErrorStream(true).start();
    try {
      String line = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream())).readLine();
      assertThat(line).isEqualTo("locked");
      assertThatThrownBy(() -> ProfileLock.acquireUnlessOwned(home.resolve("profile")).orElseThrow())
          .isInstanceOf(ProfileLock.ProfileLockedException.class)
          .hasMessageContaining("held by pid " + holder.pid());
    } finally {
      holder.destroyForcibly().waitFor();
    }
    // The OS dropped the dead holder's lock: no stale claim survives a kill.
    try (ProfileLock after = ProfileLock.acquireUnlessOwned(home.resolve("profile")).orElseThrow()) {
      assertThat(ProfileLock.fileFor(home.resolve("profile"))).exists();
    }
  }

  @Test
  void aSeatFactoryInsideTheOwnerUsesTheOwnersClaimButNobodyElseGetsIt() throws Exception {
    Path profile = home.resolve("profile");
    try (ProfileLock owner = ProfileLock.tryAcquire(profile).orElseThrow()) {
      assertThat(ProfileLock.acquireUnlessOwned(profile)).isEmpty();
      assertThat(ProfileLock.tryAcquire(profile)).isEmpty();
    }
    try (ProfileLock factoryOwn = ProfileLock.acquireUnlessOwned(profile).orElseThrow()) {
      assertThat(ProfileLock.tryAcquire(profile)).isEmpty();
      assertThatThrownBy(() -> ProfileLock.acquireUnlessOwned(profile))
          .isInstanceOf(ProfileLock.ProfileLockedException.class);
    }
  }

  /** Another process holding the lock. */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      ProfileLock lock = ProfileLock.acquireUnlessOwned(Path.of(args[0], "profile")).orElseThrow();
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(60_000);
      lock.close();
    }
  }
}
