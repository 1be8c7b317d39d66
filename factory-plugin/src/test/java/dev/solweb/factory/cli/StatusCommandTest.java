package dev.solweb.factory.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.factory.testing.FakeSolwebctl;
import dev.solweb.factory.testing.PiFixture;
import dev.solweb.factory.testing.WrapperFixture;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.translate.SessionKey;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code factory-gpt status}: solwebd's /healthz stubbed by WireMock, health from a fake solwebctl. */
class StatusCommandTest {

  @TempDir Path tmp;
  WireMockServer wiremock;

  @BeforeEach
  void start() {
    wiremock = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    wiremock.start();
    wiremock.stubFor(get(urlEqualTo("/healthz")).withHeader("Authorization", equalTo("Bearer " + PiFixture.TOKEN))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody("""
            {"ok":false,"state":"capped","conversations":1,"queue":2,"active":1,"seats":1,"turn_p50_s":14.5,
             "dispatch_wait_s":61.0,"models":["sol-web-pro"],"cap_resume_at":"2026-12-01T03:00:00Z",
             "occupancy":[{"session":"v1.x","estimated_input":5000,"estimated_output":300,"window":120000}]}""")));
  }

  @AfterEach
  void stop() {
    wiremock.stop();
  }

  @Test
  void jsonShowsTheObservabilityFields() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.health(false, "capped", 1,
        ",\"cap_resume_at\":\"2026-12-01T03:00:00Z\",\"queue\":2"), 1,
        "http://127.0.0.1:" + wiremock.port() + "/v1");
    Path receipts = Files.createDirectories(tmp.resolve("home/.overdeck/factory-gpt/receipts"));
    Files.writeString(receipts.resolve("attempt-20261130T180000Z-1.json"), """
        {"attempt":1,"model":"gpt/sol-web-xhigh","effort":"xhigh","client_session":"v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
         "pi_session_id":"019a-pi","ended_at":"2026-11-30T18:01:00Z","outcome":"failed",
         "provider_failure":{"kind":"capped","detail":"cap","retry_after_seconds":60,"resume_at":"2026-12-01T03:00:00Z"},
         "tool_events":[{"tool_call_id":"c1","tool":"bash","args":"{}","result":"ok","status":"ok","duration_ms":12}],
         "context_occupancy":{"estimated":true,"input":5000,"output":300,"window":120000},"stderr_log":"/x.log"}""");

    int rc = fx.run("status", "--json");

    JsonNode s = Json.MAPPER.readTree(fx.out.toString());
    assertThat(rc).isEqualTo(FactoryGptExit.ATTEMPT_FAILED); // the daemon is not ok
    assertThat(s.path("coding_agent").asText()).isEqualTo("pi");
    assertThat(s.path("provider").asText()).isEqualTo("gpt");
    assertThat(s.path("model").asText()).isEqualTo("gpt/sol-web-xhigh");
    assertThat(s.path("effort").asText()).isEqualTo("xhigh");
    assertThat(s.path("host").asText()).isEqualTo("workstation");
    assertThat(s.path("account").asText()).isEqualTo("owner@example.invalid");
    assertThat(s.path("client_session").asText()).startsWith("v1.");
    assertThat(s.path("pi_session_id").asText()).isEqualTo("019a-pi");
    JsonNode d = s.path("daemon");
    assertThat(d.path("state").asText()).isEqualTo("capped");
    assertThat(d.path("ok").asBoolean()).isFalse();
    assertThat(d.path("seats").asInt()).isEqualTo(1);
    assertThat(d.path("queue").asInt()).isEqualTo(2);
    assertThat(d.path("active").asInt()).isZero();
    assertThat(d.path("dispatch_wait_s").asDouble()).isEqualTo(61.0);
    assertThat(d.path("cap_resume_at").asText()).isEqualTo("2026-12-01T03:00:00Z");
    assertThat(s.path("recent_tool_events").get(0).path("tool").asText()).isEqualTo("bash");
    assertThat(s.path("failures").get(0).path("provider_failure").path("kind").asText()).isEqualTo("capped");
    assertThat(s.path("context_occupancy").path("estimated").asBoolean()).isTrue();
    assertThat(s.path("context_occupancy").path("daemon").get(0).path("estimated_input").asInt()).isEqualTo(5000);
    assertThat(s.path("billing").asText()).isEqualTo("unavailable");
    assertThat(fx.out.toString()).doesNotContain(PiFixture.TOKEN);
    wiremock.verify(1, getRequestedFor(urlEqualTo("/healthz")));
  }

  @Test
  void turnIsThisFactorySessionsRunningTurnAsAProgressLineAndTurnsListsEveryOne() throws Exception {
    String mine = ClientSession.derive("factory-session-7").value();
    String other = ClientSession.derive("someone-else").value();
    wiremock.stubFor(get(urlEqualTo("/healthz")).withHeader("Authorization", equalTo("Bearer " + PiFixture.TOKEN))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody("""
            {"ok":true,"state":"ready","queue":1,"active":1,"seats":1,"turns":[
             {"session":"1111111111111111","client":"%s","effort":"high","state":"writing","elapsed_s":61.4,
              "thinking_s":42.0,"chars_received":1204},
             {"session":"2222222222222222","client":"%s","effort":"pro","state":"queued","elapsed_s":3.0,
              "thinking_s":0.0,"chars_received":0}]}""".formatted(SessionKey.clientTag(other), SessionKey.clientTag(mine)))));
    WrapperFixture fx = new WrapperFixture(tmp, FakeSolwebctl.healthy(), 1, "http://127.0.0.1:" + wiremock.port() + "/v1");

    int rc = fx.run("status", "--session-id", "factory-session-7");

    String text = fx.out.toString();
    assertThat(rc).as(text).isEqualTo(FactoryGptExit.OK);
    assertThat(text).contains("turn: gpt: queued (elapsed 3 s)").doesNotContain("turn: gpt: thinking");
    assertThat(text).contains("daemon.turns:", "\"state\":\"writing\"").doesNotContain(mine).doesNotContain(PiFixture.TOKEN);

    fx.out.getBuffer().setLength(0);
    fx.run("status", "--json", "--session-id", "someone-else");
    JsonNode s = Json.MAPPER.readTree(fx.out.toString());
    assertThat(s.path("turn").asText()).isEqualTo("gpt: thinking 42 s, writing 1,204 chars (elapsed 61 s)");
    assertThat(s.path("daemon").path("turns")).hasSize(2);
  }

  @Test
  void textFormListsTheSameFieldsAndSaysWhenTheDaemonIsUnreachable() throws Exception {
    WrapperFixture fx = new WrapperFixture(tmp, "garbage", 5, "http://127.0.0.1:" + wiremock.port() + "/v1");
    int rc = fx.run("status");
    String text = fx.out.toString();
    assertThat(rc).isEqualTo(FactoryGptExit.ATTEMPT_FAILED);
    assertThat(text).contains("coding_agent: pi", "provider: gpt", "daemon.state: unreachable", "billing: unavailable",
        "daemon.dispatch_wait_s: 61.0", "failures: none");
  }
}
