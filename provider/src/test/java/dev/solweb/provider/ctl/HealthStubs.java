package dev.solweb.provider.ctl;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;

/** /healthz answers as solwebd would give them, behind the bearer token (401 without it). */
final class HealthStubs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HealthStubs() {}

  static ObjectNode ready(long pid, String generation, String account) {
    ObjectNode node = JSON.createObjectNode();
    node.put("ok", true).put("state", "ready").put("conversations", 0).put("queue", 2).put("active", 1)
        .put("seats", 1).put("turn_p50_s", 12.5).put("dispatch_wait_s", 0).put("pid", pid)
        .put("version", "0.1.0-test").put("instance_generation", generation).put("account", account)
        .put("authenticated", true).put("detail", "ready");
    node.putArray("models").add("sol-web-instant").add("sol-web-medium").add("sol-web-high")
        .add("sol-web-xhigh").add("sol-web-pro");
    node.putArray("occupancy");
    return node;
  }

  static void serve(WireMockServer server, ObjectNode health) {
    server.resetAll();
    server.stubFor(get(urlEqualTo("/healthz")).atPriority(9)
        .willReturn(aResponse().withStatus(401).withBody("{\"error\":{\"type\":\"unauthorized\"}}")));
    server.stubFor(get(urlEqualTo("/healthz")).atPriority(1)
        .withHeader("Authorization", equalTo("Bearer " + CtlFixture.TOKEN))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
            .withBody(health.toString())));
  }

  static void serveRaw(WireMockServer server, int status, String body) {
    server.resetAll();
    server.stubFor(get(urlEqualTo("/healthz"))
        .withHeader("Authorization", equalTo("Bearer " + CtlFixture.TOKEN))
        .willReturn(aResponse().withStatus(status).withBody(body)));
  }

  static void acceptShutdown(WireMockServer server) {
    server.stubFor(post(urlEqualTo("/shutdown"))
        .withHeader("Authorization", equalTo("Bearer " + CtlFixture.TOKEN))
        .willReturn(aResponse().withStatus(200).withBody("{\"ok\":true}")));
  }
}
