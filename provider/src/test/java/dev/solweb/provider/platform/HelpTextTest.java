package dev.solweb.provider.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Help shaped once for every command ({@link HelpText}) and a bad argument in one line ({@link Cli}). */
class HelpTextTest {

  @Command(name = "tool", subcommands = Verb.class,
      description = {"A paragraph written as", "three short", "source lines.", "", "  an example line", "Next paragraph."})
  static final class Tool implements Callable<Integer> {
    @Override
    public Integer call() {
      return 0;
    }
  }

  /** A verb written without picocli's standard help options. */
  @Command(name = "verb", description = "Does the verb.")
  static final class Verb implements Callable<Integer> {
    @Override
    public Integer call() {
      return 0;
    }
  }

  record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Cli.execute(Cli.of(new Tool(), "tool", 6), new PrintWriter(out), new PrintWriter(err), args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void linesOfAParagraphAreJoinedAndBlankOrIndentedLinesKeptApart() {
    assertThat(HelpText.paragraphs(new String[] {"A paragraph written as", "three short", "source lines.", "",
        "  an example line", "Next paragraph."}))
        .containsExactly("A paragraph written as three short source lines.", "", "  an example line", "Next paragraph.");
  }

  @Test
  void everyVerbAnswersHelpWithItsParagraphsWrappedOnce() {
    Result top = run("--help");
    assertThat(top.code()).isZero();
    assertThat(top.out()).contains("A paragraph written as three short source lines.\n\n  an example line\nNext paragraph.");
    Result verb = run("verb", "--help");
    assertThat(verb.code()).isZero();
    assertThat(verb.out()).startsWith("Usage: tool verb [-h]").contains("-h, --help");
  }

  @Test
  void aBadOptionIsOneLineNamingTheHelpAndExit2() {
    assertThat(run("verb", "--nope")).isEqualTo(new Result(2, "",
        "tool verb: Unknown option: '--nope' (try `tool verb --help`)\n"));
  }
}
