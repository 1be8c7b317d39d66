package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The catalogue of page mutations: named perturbations of a page shape, one resource file per
 * family ({@code resources/fakesol/mutations/<family>.json}), each citing the REAL-PAGE row that
 * motivated it or marked {@code synthetic}. A mutation is data: fields it sets over the resolved
 * page config (layout, attrs, labels) and DOM operations ({@code ops}) that mutate.js applies to
 * every node the page draws. Members of one family exclude each other (one language at a time).
 */
public final class PageMutations {

  /** The families, in the order their files are read. */
  static final List<String> FAMILIES = List.of("rows", "language", "structure", "picker", "controls", "menus");

  /** One mutation: its name, family, the row that motivated it (or "synthetic") and what it sets. */
  public record Mutation(String name, String family, String row, ObjectNode set) {}

  /**
   * The mutations one page is rendered through and the seed that chose them (and that seeds
   * every random choice inside them: wrapper depths, class hashes). {@link #NONE} changes nothing.
   */
  public record Plan(List<Mutation> mutations, long seed) {
    public static final Plan NONE = new Plan(List.of(), 0);

    public List<String> names() {
      return mutations.stream().map(Mutation::name).toList();
    }

    /** Sets each mutation's fields over the page config, in order, and lists them there. */
    void applyTo(ObjectNode config) {
      ArrayNode applied = config.putArray("mutations");
      config.put("seed", seed);
      for (Mutation m : mutations) {
        merge(config, m.set());
        applied.addObject().put("name", m.name()).put("family", m.family()).put("row", m.row());
      }
    }
  }

  private static final Map<String, Mutation> CATALOGUE = load();

  private PageMutations() {}

  /** Every mutation by name, in catalogue order. */
  public static Map<String, Mutation> catalogue() {
    return CATALOGUE;
  }

  /** The named mutations, in the order given; an unknown name is an IllegalArgumentException. */
  public static Plan named(List<String> names, long seed) {
    List<Mutation> out = new ArrayList<>();
    for (String name : names) {
      Mutation m = CATALOGUE.get(name.strip());
      if (m == null) {
        throw new IllegalArgumentException("no page mutation named '" + name.strip() + "'; known: " + CATALOGUE.keySet());
      }
      if (out.stream().anyMatch(o -> o.family().equals(m.family()) && exclusive(m.family()))) {
        throw new IllegalArgumentException("page mutations '" + m.name() + "' and another of family " + m.family()
            + " exclude each other");
      }
      out.add(m);
    }
    return new Plan(List.copyOf(out), seed);
  }

  /**
   * What the seed alone decides: one to three mutations, at most one per exclusive family. The same
   * seed always gives the same plan.
   */
  public static Plan seeded(long seed) {
    SplittableRandom random = new SplittableRandom(seed); // mixes neighbouring seeds (java.util.Random does not)
    List<Mutation> all = new ArrayList<>(CATALOGUE.values());
    int count = 1 + random.nextInt(3);
    List<Mutation> out = new ArrayList<>();
    while (out.size() < count && !all.isEmpty()) {
      Mutation m = all.remove(random.nextInt(all.size()));
      boolean clash = out.stream().anyMatch(o -> o.family().equals(m.family()) && exclusive(m.family()));
      if (!clash) {
        out.add(m);
      }
    }
    return new Plan(List.copyOf(out), seed);
  }

  /** Families whose members cannot combine (two languages or two picker shapes on one page). */
  private static boolean exclusive(String family) {
    return family.equals("language") || family.equals("picker");
  }

  private static Map<String, Mutation> load() {
    Map<String, Mutation> out = new LinkedHashMap<>();
    for (String family : FAMILIES) {
      for (JsonNode m : PageRender.readJson("mutations/" + family + ".json").path("mutations")) {
        String name = m.path("name").asText();
        if (out.containsKey(name)) {
          throw new IllegalStateException("fakesol: two page mutations named " + name);
        }
        out.put(name, new Mutation(name, family, m.path("row").asText("synthetic"), (ObjectNode) m.path("set")));
      }
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /** Sets {@code over}'s fields into {@code into}: objects merge field by field, anything else replaces. */
  static void merge(ObjectNode into, JsonNode over) {
    Iterator<Map.Entry<String, JsonNode>> fields = over.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      JsonNode mine = into.get(f.getKey());
      if (mine instanceof ObjectNode obj && f.getValue().isObject()) {
        merge(obj, f.getValue());
      } else {
        into.set(f.getKey(), f.getValue().deepCopy());
      }
    }
  }
}
