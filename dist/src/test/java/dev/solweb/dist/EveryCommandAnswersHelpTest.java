package dev.solweb.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code bin/} command, and every verb below it, run as a person would from a new account:
 * {@code --help} exits 0 with a usage line and help text wrapped once (no hard break inside a
 * paragraph), and a bad option gets one line that says what was wrong and where the help is, exit
 * 2, never a trace. The verbs are found from each command's own "Commands:" list, so a new verb is
 * walked without touching this test; a new launcher fails it until it is classified below.
 */
class EveryCommandAnswersHelpTest {
  /** Launchers with a Java main, run from the repo's bin/ (source layout). */
  private static final Set<String> JAVA = Set.of("solwebd", "solwebctl", "sw", "ask-gpt", "bench", "bench-seat",
      "bench-unseen", "bench-account", "bench-continuity", "fakesol", "killgate", "killgate-long", "factory-gpt", "demo");
  /** Launchers answered in bash alone; bin/test hands every other argument to Maven, so it has no bad option. */
  private static final Set<String> BASH = Set.of("bench-pi", "test");
  /**
   * Not ours to check: lib.sh is sourced, never run; bin/pi is the pinned Pi's own command line;
   * bin/install runs the install tree's copy (checked there: from the repo it may build the tree first).
   */
  private static final Set<String> ELSEWHERE = Set.of("lib.sh", "pi", "install");
  private static final String BAD = "--no-such-option";
  /** picocli's default usage width: the longest line a wrapped paragraph may have. */
  private static final int WIDTH = 79;

  @TempDir Path dir;

  @Test
  void everyLauncherIsClassified() throws Exception {
    Set<String> launchers = new TreeSet<>();
    try (Stream<Path> files = Files.list(Tree.REPO.resolve("bin"))) {
      files.forEach(f -> launchers.add(f.getFileName().toString()));
    }
    Set<String> known = new TreeSet<>(JAVA);
    known.addAll(BASH);
    known.addAll(ELSEWHERE);
    assertThat(launchers).as("a new bin/ launcher must be added to this test").isEqualTo(known);
  }

  @Test
  void everyJavaCommandAndVerbAnswersHelpAndABadOptionInOneLine() throws Exception {
    List<String> walked = new ArrayList<>();
    for (String launcher : new TreeSet<>(JAVA)) {
      walk(List.of(Tree.REPO.resolve("bin").resolve(launcher).toString()), walked);
    }
    walk(List.of(Tree.TREE.resolve("bin/install").toString()), walked);
    assertThat(walked).as("the verbs solwebctl documents").contains(
        "solwebctl login", "solwebctl ensure", "solwebctl doctor", "solwebctl token", "solwebctl health",
        "solwebctl stop", "solwebctl enroll", "solwebctl capture", "solwebctl conversations",
        "solwebctl conversations delete", "solwebctl open", "sw install-ccr", "factory-gpt run");
  }

  @Test
  void bashLaunchersAnswerHelpAndABadArgumentInOneLine() throws Exception {
    for (String launcher : BASH) {
      List<String> command = List.of(Tree.REPO.resolve("bin").resolve(launcher).toString());
      assertHelp(command);
    }
    assertBad(List.of(Tree.REPO.resolve("bin/bench-pi").toString()), BAD);
    assertBad(List.of(Tree.REPO.resolve("bin/bench-pi").toString()), "twenty");
  }

  @Test
  void solwebctlTokenKeepsItsBashFastPathAndStillAnswersHelp() throws Exception {
    Path solwebctl = Tree.REPO.resolve("bin/solwebctl");
    Tree.Run fast = run(List.of(solwebctl.toString(), "token"));
    assertThat(fast.err()).as("no token file in a new home: the bash path refuses, naming it")
        .isEqualTo("solwebctl token: token file " + dir.resolve("home/.overdeck/gptbridge/solwebd.token")
            + " does not exist\n");
    assertThat(fast.exitCode()).isEqualTo(3);
    assertThat(assertHelp(List.of(solwebctl.toString(), "token"))).contains("Usage: solwebctl token");
  }

  /** Checks {@code command --help} and a bad option, then the same for each verb its help lists. */
  private void walk(List<String> command, List<String> walked) throws Exception {
    String help = assertHelp(command);
    assertBad(command, BAD);
    List<String> name = new ArrayList<>(List.of(Path.of(command.get(0)).getFileName().toString()));
    name.addAll(command.subList(1, command.size()));
    walked.add(String.join(" ", name));
    for (String verb : verbs(help)) {
      List<String> sub = new ArrayList<>(command);
      sub.add(verb);
      walk(sub, walked);
    }
  }

  private String assertHelp(List<String> command) throws Exception {
    List<String> args = new ArrayList<>(command);
    args.add("--help");
    Tree.Run run = run(args);
    assertThat(run.exitCode()).as(args + ": " + run.all()).isZero();
    assertThat(run.out()).as(args + " prints a usage line").containsPattern("(?m)^Usage: ");
    assertThat(run.err()).as(args + " prints nothing on stderr").isEmpty();
    assertThat(hardBreaks(run.out())).as(args + ": help text broken inside a paragraph").isEmpty();
    return run.out();
  }

  private void assertBad(List<String> command, String bad) throws Exception {
    List<String> args = new ArrayList<>(command);
    args.add(bad);
    Tree.Run run = run(args);
    assertThat(run.exitCode()).as(args + ": " + run.all()).isEqualTo(2);
    assertThat(run.err().strip()).as(args + ": one line on stderr").doesNotContain("\n").contains("--help");
    assertThat(run.all()).as(args + ": no trace").doesNotContain("Exception").doesNotContain("\tat ");
  }

  private Tree.Run run(List<String> command) throws Exception {
    Map<String, String> env = new HashMap<>();
    Path home = Files.createDirectories(dir.resolve("home"));
    env.put("HOME", home.toString());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    return Tree.run(command, env, 120);
  }

  /** The verbs a help text lists under "Commands:" (picocli's list), without picocli's own {@code help}. */
  static List<String> verbs(String help) {
    List<String> verbs = new ArrayList<>();
    boolean inList = false;
    for (String line : help.split("\n")) {
      if (line.equals("Commands:")) {
        inList = true;
      } else if (inList && line.isBlank()) {
        inList = false;
      } else if (inList && line.matches("  \\S.*")) {
        String verb = line.strip().split("[\\s,]+")[0];
        if (!verb.equals("help")) {
          verbs.add(verb);
        }
      }
    }
    return verbs;
  }

  /**
   * Pairs of unindented lines (a description, header or footer paragraph) where the second line's
   * first word would have fit on the first: picocli fills each line, so only a line break in the
   * source text leaves one that short. (A line that ends at one of picocli's own break points
   * inside a long word is nearly full, hence the 70.)
   */
  static List<String> hardBreaks(String help) {
    List<String> found = new ArrayList<>();
    String[] lines = help.split("\n");
    for (int i = 0; i + 1 < lines.length; i++) {
      String line = lines[i];
      String next = lines[i + 1];
      if (line.isBlank() || next.isBlank() || Character.isWhitespace(line.charAt(0))
          || Character.isWhitespace(next.charAt(0)) || line.startsWith("Usage: ") || next.startsWith("Usage: ")) {
        continue;
      }
      String word = next.split(" ")[0];
      if (line.length() < 70 && line.length() + 1 + word.length() <= WIDTH) {
        found.add(line + "⏎" + next);
      }
    }
    return found;
  }
}
