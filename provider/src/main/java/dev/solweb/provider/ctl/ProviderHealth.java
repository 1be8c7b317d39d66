package dev.solweb.provider.ctl;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * What ensure, health and stop report (seed 001, "Canonical solwebctl"). {@code ok} is true iff
 * the daemon is ready, owned, enrolled-identity-matching, authenticated, advertising the required
 * models and running at least the asked-for seats. {@code cap_resume_at} and {@code detail} are
 * omitted when absent; every other field is always present (null when unknown).
 */
@JsonPropertyOrder({"ok", "state", "endpoint", "host", "account", "seats", "queue", "active", "models",
    "authenticated", "pid", "process_start_ticks", "instance_generation", "version", "cap_resume_at", "detail"})
public record ProviderHealth(
    @JsonProperty("ok") boolean ok,
    @JsonProperty("state") String state,
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("host") String host,
    @JsonProperty("account") String account,
    @JsonProperty("seats") int seats,
    @JsonProperty("queue") int queue,
    @JsonProperty("active") int active,
    @JsonProperty("models") List<String> models,
    @JsonProperty("authenticated") boolean authenticated,
    @JsonProperty("pid") Long pid,
    @JsonProperty("process_start_ticks") Long processStartTicks,
    @JsonProperty("instance_generation") String instanceGeneration,
    @JsonProperty("version") String version,
    @JsonProperty("cap_resume_at") @JsonInclude(JsonInclude.Include.NON_NULL) String capResumeAt,
    @JsonProperty("detail") @JsonInclude(JsonInclude.Include.NON_NULL) String detail) {

  /** The Factory models; sol-web-instant stays a legacy, non-Factory model. */
  public static final List<String> REQUIRED_MODELS =
      List.of("sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");
  public static final List<String> STATES = List.of("ready", "starting", "logged_out", "capped", "degraded");

  private static final ObjectMapper JSON = Json.MAPPER;

  public ProviderHealth {
    Objects.requireNonNull(state, "state");
    if (!STATES.contains(state)) {
      throw new IllegalArgumentException("state must be one of " + STATES + ", got: " + state);
    }
    if (ok && !state.equals("ready")) {
      throw new IllegalArgumentException("ok requires state ready, got: " + state);
    }
    models = models == null ? List.of() : List.copyOf(models);
    version = version == null ? "unknown" : version;
  }

  /** A report with no live daemon behind it (not running, stopped, refused before asking). */
  public static ProviderHealth without(String endpoint, String host, String detail) {
    return new ProviderHealth(false, "degraded", endpoint, host, null, 0, 0, 0, List.of(), false,
        null, null, null, null, null, detail);
  }

  /** The same report, not ok, with {@code detail}; the daemon's own state is kept. */
  public ProviderHealth refused(String why) {
    return new ProviderHealth(false, state, endpoint, host, account, seats, queue, active, models,
        authenticated, pid, processStartTicks, instanceGeneration, version, capResumeAt, why);
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (IOException e) {
      throw new IllegalStateException("ProviderHealth is always serializable", e);
    }
  }

  public static ProviderHealth fromJson(String json) throws IOException {
    return JSON.readValue(json, ProviderHealth.class);
  }
}
