package dev.solweb.factory.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A stand-in {@code solwebctl} script: {@code ensure}/{@code health} print the given
 * ProviderHealth text and exit with the given code, {@code token} prints the fixture token; every
 * invocation's argv is appended to {@code calls.log} next to it.
 */
public final class FakeSolwebctl {

  public final Path script;
  public final Path calls;

  public FakeSolwebctl(Path dir, String healthJson, int rc) throws IOException {
    Files.createDirectories(dir);
    script = dir.resolve("solwebctl");
    calls = dir.resolve("calls.log");
    Path health = dir.resolve("health.json");
    Files.writeString(health, healthJson);
    PiFixture.writeScript(script, "#!/bin/sh\n"
        + "echo \"$*\" >> '" + calls + "'\n"
        + "case \"$1\" in\n"
        + "  token) cat \"$SOLWEBD_HOME/solwebd.token\" ;;\n"
        + "  ensure|health) cat '" + health + "'; exit " + rc + " ;;\n"
        + "  *) exit 2 ;;\n"
        + "esac\n");
  }

  public List<String> calls() throws IOException {
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  public static String health(boolean ok, String state, int seats, String extra) {
    return "{\"ok\":" + ok + ",\"state\":\"" + state + "\",\"endpoint\":\"http://127.0.0.1:8791\","
        + "\"host\":\"workstation\",\"account\":\"owner@example.invalid\",\"seats\":" + seats
        + ",\"queue\":0,\"active\":0,"
        + "\"models\":[\"sol-web-instant\",\"sol-web-medium\",\"sol-web-high\",\"sol-web-xhigh\",\"sol-web-pro\"],"
        + "\"authenticated\":" + !state.equals("logged_out") + ",\"pid\":4242,\"process_start_ticks\":99,"
        + "\"instance_generation\":\"0b7c6a3e-1111-4222-8333-944455556666\",\"version\":\"test\"" + extra + "}";
  }

  public static String healthy() {
    return health(true, "ready", 1, "");
  }
}
