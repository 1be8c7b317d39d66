package dev.solweb.factory.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;

/**
 * Runs a command in the foreground with this process's stdio and returns its exit code
 * unchanged (128+N when a signal N ended it). SIGINT and SIGTERM received by this JVM are
 * forwarded to the child instead of ending the JVM, so the child decides how to stop and its
 * code is what the caller sees. When both receive a terminal's Ctrl-C (same process group), the
 * child sees SIGINT twice; a child that needs exactly one should ignore the repeat.
 */
final class ForegroundChild {

  private ForegroundChild() {}

  static int run(List<String> command, Map<String, String> env) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
    pb.environment().clear();
    pb.environment().putAll(env);
    // The handlers go in before the child starts: a signal that came between the two would
    // otherwise end this JVM with the child still running. One that arrives before the child
    // exists is kept and forwarded as soon as it does.
    AtomicReference<Process> started = new AtomicReference<>();
    List<String> early = new ArrayList<>();
    for (String name : List.of("INT", "TERM")) {
      // sun.misc.Signal is the JDK's only way to catch a signal without starting shutdown.
      Signal.handle(new Signal(name), sig -> {
        synchronized (early) {
          if (started.get() == null) {
            early.add(name);
            return;
          }
        }
        forward(started.get(), name);
      });
    }
    Process child = pb.start();
    List<String> pending;
    synchronized (early) {
      started.set(child);
      pending = List.copyOf(early);
    }
    pending.forEach(name -> forward(child, name));
    while (true) {
      try {
        return child.waitFor();
      } catch (InterruptedException e) {
        forward(child, "TERM");
      }
    }
  }

  private static void forward(Process child, String signal) {
    if (!child.isAlive()) {
      return;
    }
    try {
      // bash's builtin kill: the kill(1) binary (procps) is not guaranteed on a minimal machine.
      new ProcessBuilder("bash", "-c", "kill -s \"$0\" \"$1\"", signal, Long.toString(child.pid()))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
          .start().waitFor();
    } catch (IOException e) {
      child.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
