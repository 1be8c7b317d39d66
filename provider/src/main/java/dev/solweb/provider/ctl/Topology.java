package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.MachineId;
import dev.solweb.provider.platform.Refused;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Workstation-only topology (seed 001, "Topology and installation"): the token, the daemon and
 * the browser profile are used only on the enrolled workstation, never from a pod or another host.
 *
 * <p>The check is cheap on purpose: {@code solwebctl token} runs it before every Pi request, and
 * bin/solwebctl repeats it in bash with the same refusal texts.
 */
final class Topology {

  private static final Pattern PINNED_HASH =
      Pattern.compile("\"machine_id_sha256\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"([0-9a-f]{64})\"");

  private Topology() {}

  /**
   * Refuses a non-local topology: a Kubernetes pod ({@code KUBERNETES_SERVICE_HOST} set), or,
   * once enrolled, a machine whose /etc/machine-id hash differs from the one identity.json pins
   * (a daemon home shared from another host).
   *
   * @throws CtlException {@link ExitCodes#REFUSED}
   */
  public static void requireLocal(CtlEnv env) throws CtlException {
    String k8s = env.env().get("KUBERNETES_SERVICE_HOST");
    if (k8s != null && !k8s.isEmpty()) {
      throw new CtlException(ExitCodes.REFUSED,
          "non-local topology: KUBERNETES_SERVICE_HOST is set (solweb runs only on the workstation)");
    }
    Path identity = env.identityFile();
    if (!Files.exists(identity, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    String text;
    try {
      text = Files.readString(identity, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "identity file " + identity + " cannot be read", e);
    }
    Matcher pinned = PINNED_HASH.matcher(text);
    if (!pinned.find()) {
      throw new CtlException(ExitCodes.REFUSED, "identity file " + identity + " is malformed");
    }
    String here;
    try {
      here = MachineId.sha256Of(env.machineIdFile());
    } catch (Refused e) {
      throw CtlException.refused(e);
    }
    if (!pinned.group(1).equals(here)) {
      throw new CtlException(ExitCodes.REFUSED,
          "non-local topology: this machine is not the enrolled workstation (machine id hash differs from "
              + identity + ")");
    }
  }
}
