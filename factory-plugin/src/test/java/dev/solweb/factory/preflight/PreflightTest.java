package dev.solweb.factory.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.cli.FactoryGptExit;
import dev.solweb.factory.testing.FakeSolwebctl;
import dev.solweb.factory.testing.WrapperFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal is typed, printed plainly, exits 3 and creates nothing: Factory (a fake that
 * records its argv) never starts, no file appears.
 */
class PreflightTest {

  @TempDir Path tmp;

  private void assertRefused(WrapperFixture fx, String kind, String mentions, String... args) throws Exception {
    List<String> before = fx.tree();
    int rc = fx.run(args);
    assertThat(rc).as(fx.err.toString()).isEqualTo(FactoryGptExit.REFUSED);
    assertThat(fx.err.toString()).startsWith("factory-gpt: refused (" + kind + "): ").contains(mentions);
    assertThat(Files.exists(fx.factoryArgs)).as("Factory was started").isFalse();
    assertThat(fx.tree()).as("preflight created files").isEqualTo(before);
  }

  @Test
  void healthyProviderPassesAndStartsFactoryWithThePreset() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    assertThat(fx.run("--effort", "high")).as(fx.err.toString()).isZero();
    assertThat(Files.readAllLines(fx.factoryArgs)).containsExactly("--preset", "gpt-sol-high");
    assertThat(fx.solwebctl.calls()).containsExactly("ensure --seats 1 --json");
  }

  @Test
  void instantAndUnknownEffortsAreRefusedBeforeSolwebctlRuns() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    assertRefused(fx, "unsupported_effort", "instant is not offered", "--effort", "instant");
    assertRefused(fx, "unsupported_effort", "medium, high, xhigh, pro", "--effort", "low");
    assertThat(fx.solwebctl.calls()).isEmpty();
  }

  @Test
  void remoteExecutorIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    fx.env.put("FACTORY_EXECUTOR", "k3s");
    assertRefused(fx, "remote_topology", "FACTORY_EXECUTOR=k3s");
    fx.env.remove("FACTORY_EXECUTOR");
    fx.env.put("KUBERNETES_SERVICE_HOST", "10.0.0.1");
    assertRefused(fx, "remote_topology", "KUBERNETES_SERVICE_HOST");
    assertThat(fx.solwebctl.calls()).isEmpty();
  }

  @Test
  void nonLoopbackBaseUrlIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0, "http://buildbox.lan:8791/v1");
    assertRefused(fx, "non_loopback_endpoint", "buildbox.lan");
  }

  @Test
  void missingLocalProfileIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    Files.delete(fx.solwebdHome.resolve("profile"));
    assertRefused(fx, "missing_profile", "no local browser profile");
  }

  @Test
  void unhealthyProviderIsRefused() throws Exception {
    assertRefused(new WrapperFixture(tmp.resolve("a"),
        FakeSolwebctl.health(false, "degraded", 1, ",\"detail\":\"seat crashed\""), 1),
        "provider_not_ready", "degraded (seat crashed)");
    assertRefused(new WrapperFixture(tmp.resolve("b"), FakeSolwebctl.health(false, "starting", 1, ""), 5),
        "provider_not_ready", "starting");
  }

  @Test
  void cappedProviderIsRefusedWithResumeAt() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp,
        FakeSolwebctl.health(false, "capped", 1, ",\"cap_resume_at\":\"2026-11-30T23:00:00Z\""), 1);
    assertRefused(fx, "provider_capped", "resumes at 2026-11-30T23:00:00Z");
  }

  @Test
  void loggedOutProviderIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.health(false, "logged_out", 1, ""), 1);
    assertRefused(fx, "provider_logged_out", "logged out");
  }

  @Test
  void tooFewSeatsIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.health(false, "ready", 0, ""), 1);
    assertRefused(fx, "too_few_seats", "0 browser seats");
  }

  @Test
  void malformedHealthIsRefused() throws Exception {
    assertRefused(new WrapperFixture(tmp.resolve("a"), "not json at all", 0), "malformed_health", "no valid ProviderHealth");
    assertRefused(new WrapperFixture(tmp.resolve("b"), "{\"ok\":true,\"state\":\"ready\",\"surprise\":1}", 0),
        "malformed_health", "ProviderHealth");
    assertRefused(new WrapperFixture(tmp.resolve("c"), FakeSolwebctl.healthy().replace("\"ready\"", "\"great\""), 0),
        "malformed_health", "ProviderHealth");
  }

  @Test
  void okWithoutTheFactoryModelsIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy().replace("\"sol-web-pro\"", "\"sol-web-max\""), 0);
    assertRefused(fx, "missing_models", "sol-web-pro");
  }

  @Test
  void missingSolwebctlIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    fx.env.put("SOLWEBCTL_BIN", tmp.resolve("nope").toString());
    assertRefused(fx, "solwebctl_missing", "solwebctl not found");
  }

  @Test
  void missingPresetIsRefused() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 0);
    fx.env.put("SOLWEB_PRESETS_DIR", Files.createDirectories(tmp.resolve("empty-presets")).toString());
    assertRefused(fx, "missing_preset", "gpt-sol-pro");
  }
}
