package dev.solweb.provider.ctl;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Refused;
import dev.solweb.provider.platform.SecureFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The enrolled workstation identity (seed 001): which account the browser profile must be logged
 * into, which profile, on which machine. Stored in {@code <home>/identity.json}, mode 0600, written
 * only by {@code solwebctl enroll}.
 */
@JsonPropertyOrder({"expected_account", "profile_dir", "machine_id_sha256"})
record ProviderIdentity(
    @JsonProperty("expected_account") String expectedAccount,
    @JsonProperty("profile_dir") String profileDir,
    @JsonProperty("machine_id_sha256") String machineIdSha256) {

  static final ObjectMapper JSON =
      Json.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public ProviderIdentity {
    Objects.requireNonNull(expectedAccount, "expected_account");
    Objects.requireNonNull(profileDir, "profile_dir");
    Objects.requireNonNull(machineIdSha256, "machine_id_sha256");
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (IOException e) {
      throw new IllegalStateException("ProviderIdentity is always serializable", e);
    }
  }

  /**
   * Loads identity.json after the private-file checks.
   *
   * @throws CtlException {@link ExitCodes#REFUSED} when missing ("not enrolled"), not private, or malformed
   */
  public static ProviderIdentity load(CtlEnv env) throws CtlException {
    Path file = env.identityFile();
    String text;
    try {
      text = SecureFile.readPrivate(file, "identity file", env.euid());
    } catch (Refused e) {
      if (e.getMessage().endsWith("does not exist")) {
        throw new CtlException(ExitCodes.REFUSED,
            "not enrolled: " + file + " does not exist (run: solwebctl login, or solwebctl enroll --current-profile"
                + " on a profile that is logged in)");
      }
      throw CtlException.refused(e);
    }
    try {
      ProviderIdentity identity = JSON.readValue(text, ProviderIdentity.class);
      if (identity.expectedAccount().isEmpty() || !identity.machineIdSha256().matches("[0-9a-f]{64}")) {
        throw new IOException("empty account or bad machine_id_sha256");
      }
      return identity;
    } catch (IOException | RuntimeException e) {
      throw new CtlException(ExitCodes.REFUSED, "identity file " + file + " is malformed: " + e.getMessage(), e);
    }
  }
}
