package dev.solweb.provider.seat.playwright;

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
    try (ProfileLock first = ProfileLock.acquire(home, profile)) {
      assertThat(Files.readString(first.file()).strip()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
      assertThatThrownBy(() -> ProfileLock.acquire(home, profile))
          .isInstanceOf(ProfileLock.ProfileLockedException.class)
          .hasMessageContaining(home.resolve("profile.lock").toString())
          .hasMessageContaining("pid " + ProcessHandle.current().pid())
          .hasMessageContaining(profile.toString());
    }
    try (ProfileLock again = ProfileLock.acquire(home, profile)) {
      assertThat(again.file()).exists();
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
      assertThatThrownBy(() -> ProfileLock.acquire(home, home.resolve("profile")))
          .isInstanceOf(ProfileLock.ProfileLockedException.class)
          .hasMessageContaining("held by pid " + holder.pid());
    } finally {
      holder.destroyForcibly().waitFor();
    }
    // The OS dropped the dead holder's lock: no stale claim survives a kill.
    try (ProfileLock after = ProfileLock.acquire(home, home.resolve("profile"))) {
      assertThat(after.file()).exists();
    }
  }

  /** Another process holding the lock. */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      ProfileLock lock = ProfileLock.acquire(Path.of(args[0]), Path.of(args[0], "profile"));
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(60_000);
      lock.close();
    }
  }
}
