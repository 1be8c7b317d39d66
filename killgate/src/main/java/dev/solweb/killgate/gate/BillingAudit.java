package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Finds a measured zero cost (seed 001: "Numeric zero cost is Pi schema metadata only. Factory
 * MUST mark billing unavailable; never present zero as measured cost"). In a receipt: billing
 * must be the string {@code unavailable}, and no cost-like field may hold 0. In a text (status
 * line, report): no "$0" and no "cost: 0".
 */
final class BillingAudit {

  private static final Pattern COST_NAME = Pattern.compile("(?i).*(cost|price|usd|spend|amount|billing).*");
  private static final Pattern ZERO = Pattern.compile("^\\$?0+(\\.0+)?$");
  private static final Pattern TEXT_ZERO =
      Pattern.compile("(?i)(\\$0(\\.0+)?\\b)|((cost|billing|price|spend)\\W{0,3}\\$?0(\\.0+)?\\b)");

  private BillingAudit() {}

  static List<String> receipt(JsonNode receipt) {
    List<String> findings = new ArrayList<>();
    if (!"unavailable".equals(receipt.path("billing").asText(null))) {
      findings.add("billing is not the string unavailable");
    }
    walk("", receipt, findings);
    return findings;
  }

  private static void walk(String path, JsonNode node, List<String> findings) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String here = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        JsonNode v = e.getValue();
        if (COST_NAME.matcher(e.getKey()).matches() && isZero(v)) {
          findings.add("field '" + here + "' holds numeric zero: it would read as a measured zero cost");
        }
        walk(here, v, findings);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(path + "[" + i + "]", node.get(i), findings);
      }
    }
  }

  private static boolean isZero(JsonNode v) {
    return (v.isNumber() && v.asDouble() == 0) || (v.isTextual() && ZERO.matcher(v.asText().strip()).matches());
  }

  static List<String> text(String what, String text) {
    List<String> findings = new ArrayList<>();
    var m = TEXT_ZERO.matcher(text);
    while (m.find()) {
      findings.add(what + ": \"" + m.group() + "\"");
    }
    return findings;
  }
}
