package dev.solweb.install;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Codex CLI's {@code $CODEX_HOME/config.toml}: the {@code [model_providers.solweb]} table
 * merged into the user's file as text (their comments, order and every other table kept), and
 * the profile file {@code solweb.config.toml} that {@code codex -p solweb} reads (Codex 0.169
 * refuses {@code [profiles.*]} tables inside config.toml).
 *
 * <p>The token never enters either file: Codex runs {@code solwebctl token} ({@code auth.command})
 * whenever it needs it. With {@code env_key} instead, Codex 0.169 passes the variable on to every
 * command its tools run (measured), which would put the token in a tool's environment.
 */
final class CodexConfig {
  static final String TABLE = "model_providers.solweb";
  static final String PROFILE_FILE = "solweb.config.toml";
  static final String PORT = "8791";

  // A table or array-of-tables header, with an optional trailing comment.
  private static final Pattern HEADER = Pattern.compile("^\\s*\\[\\[?\\s*([^\\[\\]]+?)\\s*\\]\\]?\\s*(#.*)?$");
  // solweb defined another way: a dotted key, or a key of [model_providers].
  private static final Pattern DOTTED = Pattern.compile("^\\s*model_providers\\s*\\.\\s*\"?solweb\"?\\s*[.=]");
  private static final Pattern PROVIDER_KEY = Pattern.compile("^\\s*\"?solweb\"?\\s*[.=]");

  sealed interface Plan {}

  /** No config.toml yet: create it holding only the table. */
  record Create(byte[] bytes) implements Plan {}

  /** The user's file already carries the table exactly. */
  record AlreadyMerged() implements Plan {}

  /** The user's file with the table added, or with their different solweb table replaced. */
  record Merge(byte[] bytes, boolean replacesTheirs) implements Plan {}

  private CodexConfig() {}

  /** The provider table, its auth running the installed {@code solwebctl token}. */
  static String table(Path solwebctl) {
    return "[" + TABLE + "]\n"
        + "# Managed by solweb's bin/install (removed by bin/install --uninstall). Retries stay 0: every\n"
        + "# solwebd failure is typed and final, and a retry would type the turn into ChatGPT again.\n"
        + "name = \"solweb\"\n"
        + "base_url = \"http://127.0.0.1:" + PORT + "/v1\"\n"
        + "wire_api = \"responses\"\n"
        + "auth = { command = " + quote(solwebctl.toString()) + ", args = [\"token\"] }\n"
        + "request_max_retries = 0\n"
        + "stream_max_retries = 0\n";
  }

  /** {@code codex -p solweb}: the model and provider. */
  static String profile() {
    return "# Managed by solweb's bin/install: `codex -p solweb` uses ChatGPT web through solwebd.\n"
        + "model = \"sol-web-high\"\n"
        + "model_provider = \"solweb\"\n";
  }

  /**
   * @throws StepFailed when the file defines {@code solweb} in a way a text merge cannot replace
   *     (a dotted key, an inline table under {@code [model_providers]}, the table twice)
   */
  static Plan plan(Path file, String table) throws IOException, StepFailed {
    if (!Files2.exists(file)) {
      return new Create(table.getBytes(StandardCharsets.UTF_8));
    }
    if (!Files.isRegularFile(file)) {
      throw new StepFailed(file + " is neither a file nor a link to one; move it away, then install again");
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(text.lines().toList());
    int start = -1;
    int end = lines.size();
    String current = "";
    for (int i = 0; i < lines.size(); i++) {
      Matcher header = HEADER.matcher(lines.get(i));
      if (header.matches()) {
        current = header.group(1).replace("\"", "").replaceAll("\\s*\\.\\s*", ".");
        if (start >= 0 && end == lines.size() && !current.startsWith(TABLE + ".")) {
          end = i;
        }
        if (current.equals(TABLE)) {
          if (start >= 0) {
            throw new StepFailed(file + " has [" + TABLE + "] twice; keep one, then install again");
          }
          start = i;
        }
        continue;
      }
      boolean inOurs = start >= 0 && end == lines.size();
      if (!inOurs && (DOTTED.matcher(lines.get(i)).find()
          || current.equals("model_providers") && PROVIDER_KEY.matcher(lines.get(i)).find())) {
        throw new StepFailed(file + " line " + (i + 1) + " defines the solweb provider outside a [" + TABLE
            + "] table; remove it, then install again");
      }
    }
    if (start < 0) {
      String separator = text.isEmpty() || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
      return new Merge((text + separator + table).getBytes(StandardCharsets.UTF_8), false);
    }
    // The table runs to the next table header; blank lines before that header stay with it.
    int tableEnd = end;
    while (tableEnd > start + 1 && lines.get(tableEnd - 1).isBlank()) {
      tableEnd--;
    }
    String theirs = String.join("\n", lines.subList(start, tableEnd)) + "\n";
    if (theirs.equals(table)) {
      return new AlreadyMerged();
    }
    List<String> merged = new ArrayList<>(lines.subList(0, start));
    merged.addAll(table.lines().toList());
    merged.addAll(lines.subList(tableEnd, lines.size()));
    return new Merge((String.join("\n", merged) + "\n").getBytes(StandardCharsets.UTF_8), true);
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
