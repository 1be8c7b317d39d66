package dev.solweb.factory.preflight;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.factory.preflight.Refusal.Kind;
import dev.solweb.provider.ctl.ProviderHealth;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.SolwebHome;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Everything checked before a Factory session exists (seed 001, "User-facing wrapper" 3-7,
 * "Topology and installation"). Each check refuses with a typed {@link Refusal}; none writes a
 * file, starts Pi or sends a prompt. Order: cheapest and most local first, the daemon last.
 *
 * <ol>
 *   <li>effort is {@code medium|high|xhigh|pro} ({@code instant} is not a Factory model);
 *   <li>topology is local: {@code FACTORY_EXECUTOR} unset or {@code local} (any other value, e.g.
 *       {@code buildbox}/{@code k3s}/{@code remote}, is a remote executor), no
 *       {@code KUBERNETES_SERVICE_HOST}, and provider {@code gpt}'s {@code baseUrl} in the managed
 *       models.json is a loopback http URL;
 *   <li>the browser profile exists locally ({@code SOLWEBD_PROFILE}, else
 *       {@code <SOLWEBD_HOME>/profile}, else {@code ~/.overdeck/gptbridge/profile});
 *   <li>{@code solwebctl ensure --seats 1 --json} ({@code SOLWEBCTL_BIN}, else {@code solwebctl}
 *       on PATH) reports ok: ready, authenticated, at least one seat, the four Factory models.
 * </ol>
 */
public final class Preflight {

  public static final Set<String> FACTORY_EFFORTS = Set.of("medium", "high", "xhigh", "pro");
  private static final ObjectMapper STRICT = Json.MAPPER.copy()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
  /** Fields a ProviderHealth must carry; an absent one is malformed, never a default. */
  private static final List<String> REQUIRED_HEALTH_FIELDS =
      List.of("ok", "state", "host", "account", "seats", "queue", "active", "models", "authenticated", "version");

  private final Map<String, String> env;
  private final Duration ensureTimeout;

  /** What a passed preflight knows, for the run and the receipt. */
  public record Passed(Effort effort, ProviderHealth health, String baseUrl, Path managedAgentDir) {}

  public Preflight(Map<String, String> env, Duration ensureTimeout) {
    this.env = env;
    this.ensureTimeout = ensureTimeout;
  }

  public Passed check(String effortArg) throws Refusal {
    Effort effort = effort(effortArg);
    topology();
    Path managed = managedAgentDir(env);
    String baseUrl = loopbackBaseUrl(managed);
    profile();
    ProviderHealth health = ensure();
    return new Passed(effort, health, baseUrl, managed);
  }

  static Effort effort(String arg) throws Refusal {
    if (arg == null || !FACTORY_EFFORTS.contains(arg)) {
      throw new Refusal(Kind.UNSUPPORTED_EFFORT, "effort '" + arg + "' is not a Factory effort; use one of "
          + "medium, high, xhigh, pro" + ("instant".equals(arg) ? " (instant is not offered to Factory)" : ""));
    }
    return Effort.fromSuffix(arg).orElseThrow();
  }

  private void topology() throws Refusal {
    String executor = env.get("FACTORY_EXECUTOR");
    if (executor != null && !executor.isBlank() && !executor.equals("local")) {
      throw new Refusal(Kind.REMOTE_TOPOLOGY, "FACTORY_EXECUTOR=" + executor
          + " is a remote executor; the GPT provider runs only on this workstation (Pi, solwebd, browser "
          + "profile and token on one host)");
    }
    if (env.get("KUBERNETES_SERVICE_HOST") != null) {
      throw new Refusal(Kind.REMOTE_TOPOLOGY,
          "KUBERNETES_SERVICE_HOST is set: this is a cluster, not the workstation; the GPT provider runs only locally");
    }
  }

  /** The managed Pi agent dir: {@code PI_CODING_AGENT_DIR}, else {@code ~/.pi/agent}. */
  public static Path managedAgentDir(Map<String, String> env) {
    String dir = env.get("PI_CODING_AGENT_DIR");
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir.startsWith("~/") ? env.getOrDefault("HOME", "") + dir.substring(1) : dir);
    }
    return SolwebHome.userHome(env).resolve(".pi").resolve("agent");
  }

  private static String loopbackBaseUrl(Path managed) throws Refusal {
    Path models = managed.resolve("models.json");
    JsonNode provider;
    try {
      provider = STRICT.readTree(models.toFile()).path("providers").path("gpt");
    } catch (IOException e) {
      throw new Refusal(Kind.PROVIDER_CONFIG, "cannot read the Pi provider config " + models + ": " + e.getMessage());
    }
    String baseUrl = provider.path("baseUrl").asText("");
    if (baseUrl.isEmpty()) {
      throw new Refusal(Kind.PROVIDER_CONFIG, models + " has no provider gpt with a baseUrl");
    }
    URI uri;
    try {
      uri = URI.create(baseUrl);
    } catch (IllegalArgumentException e) {
      throw new Refusal(Kind.NON_LOOPBACK_ENDPOINT, "provider gpt baseUrl " + baseUrl + " is not a URL");
    }
    String host = uri.getHost() == null ? "" : uri.getHost();
    if (!"http".equals(uri.getScheme()) || !List.of("127.0.0.1", "localhost", "[::1]", "::1").contains(host)) {
      throw new Refusal(Kind.NON_LOOPBACK_ENDPOINT, "provider gpt baseUrl " + baseUrl
          + " is not a loopback http address; solwebd serves only 127.0.0.1 on this workstation");
    }
    return baseUrl;
  }

  /** The solwebd home, by the rule every command shares ({@link SolwebHome}). */
  public static Path solwebdHome(Map<String, String> env) {
    return SolwebHome.daemonHome(env);
  }

  private void profile() throws Refusal {
    String explicit = env.get("SOLWEBD_PROFILE");
    Path profile = explicit != null && !explicit.isBlank() ? Path.of(explicit) : solwebdHome(env).resolve("profile");
    if (!Files.isDirectory(profile)) {
      throw new Refusal(Kind.MISSING_PROFILE, "no local browser profile at " + profile
          + "; the logged-in profile must be on this workstation (enroll it with `solwebctl enroll --current-profile`)");
    }
  }

  /** {@code SOLWEBCTL_BIN}, else the first {@code solwebctl} on PATH. */
  public static Optional<Path> solwebctl(Map<String, String> env) {
    String explicit = env.get("SOLWEBCTL_BIN");
    if (explicit != null && !explicit.isBlank()) {
      Path bin = Path.of(explicit);
      return Files.isExecutable(bin) ? Optional.of(bin) : Optional.empty();
    }
    for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        Path bin = Path.of(dir, "solwebctl");
        if (Files.isExecutable(bin)) {
          return Optional.of(bin);
        }
      }
    }
    return Optional.empty();
  }

  private ProviderHealth ensure() throws Refusal {
    Path bin = solwebctl(env).orElseThrow(() -> new Refusal(Kind.SOLWEBCTL_MISSING,
        "solwebctl not found (set SOLWEBCTL_BIN or put it on PATH); it is installed with solweb's bin/"));
    String stdout;
    int rc;
    try {
      ProcessBuilder pb = new ProcessBuilder(bin.toString(), "ensure", "--seats", "1", "--json")
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectError(ProcessBuilder.Redirect.INHERIT);
      pb.environment().clear();
      pb.environment().putAll(env);
      Process p = pb.start();
      // Read stdout while waiting, so a chatty child never blocks on a full pipe; no temp file.
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
        try {
          return p.getInputStream().readAllBytes();
        } catch (IOException e) {
          return new byte[0];
        }
      });
      if (!p.waitFor(ensureTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new Refusal(Kind.PROVIDER_NOT_READY, "solwebctl ensure did not answer within "
            + ensureTimeout.toSeconds() + " s");
      }
      rc = p.exitValue();
      stdout = new String(out.get(5, TimeUnit.SECONDS), StandardCharsets.UTF_8).strip();
    } catch (ExecutionException | TimeoutException e) {
      throw new Refusal(Kind.MALFORMED_HEALTH, "could not read solwebctl ensure's output");
    } catch (IOException e) {
      throw new Refusal(Kind.SOLWEBCTL_MISSING, "cannot run " + bin + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refusal(Kind.PROVIDER_NOT_READY, "interrupted while waiting for solwebctl ensure");
    }
    ProviderHealth health;
    try {
      JsonNode tree = STRICT.readTree(stdout);
      if (tree == null || !tree.isObject() || !REQUIRED_HEALTH_FIELDS.stream().allMatch(tree::has)) {
        throw new IllegalArgumentException("missing fields");
      }
      health = STRICT.treeToValue(tree, ProviderHealth.class);
    } catch (IOException | IllegalArgumentException e) {
      throw new Refusal(Kind.MALFORMED_HEALTH, "solwebctl ensure (exit " + rc + ") printed no valid ProviderHealth JSON");
    }
    return judge(health, rc);
  }

  /** Whether a ProviderHealth lets a Factory session start; the daemon's own ok is required too. */
  static ProviderHealth judge(ProviderHealth health, int rc) throws Refusal {
    String detail = health.detail() == null ? "" : " (" + health.detail() + ")";
    switch (health.state()) {
      case "capped" -> throw new Refusal(Kind.PROVIDER_CAPPED, "the ChatGPT account is at its usage cap; it resumes at "
          + health.capResumeAt() + detail);
      case "logged_out" -> throw new Refusal(Kind.PROVIDER_LOGGED_OUT,
          "the browser profile is logged out of ChatGPT; log in, then retry" + detail);
      case "ready" -> { }
      default -> throw new Refusal(Kind.PROVIDER_NOT_READY, "solwebd is " + health.state() + detail);
    }
    if (health.seats() < 1) {
      throw new Refusal(Kind.TOO_FEW_SEATS, "solwebd runs " + health.seats() + " browser seats; at least 1 is needed"
          + detail);
    }
    if (!health.models().containsAll(ProviderHealth.REQUIRED_MODELS)) {
      throw new Refusal(Kind.MISSING_MODELS, "solwebd advertises " + health.models() + ", not all of "
          + ProviderHealth.REQUIRED_MODELS);
    }
    if (!health.ok() || !health.authenticated() || rc != 0) {
      throw new Refusal(Kind.PROVIDER_NOT_READY, "solwebctl ensure reports the provider not ok (exit " + rc + ")"
          + detail);
    }
    return health;
  }
}
