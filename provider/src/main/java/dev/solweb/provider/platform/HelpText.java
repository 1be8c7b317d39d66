package dev.solweb.provider.platform;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The help every command and verb prints, made uniform once for the whole command tree: each verb
 * answers {@code -h}/{@code --help} (a verb written without picocli's standard help options gets
 * them here), and descriptions, headers and footers are wrapped once, by picocli.
 *
 * <p>Why the joining: the sources keep help text as short lines, and picocli prints each array
 * element on a line of its own before wrapping it at the usage width, so a paragraph written as
 * several elements came out with a hard break inside every source line. Here a run of non-blank
 * elements is one paragraph, joined with spaces. A blank element still separates paragraphs, and
 * an element that starts with whitespace (an example, a list row) stays a line of its own.
 */
public final class HelpText {
  private HelpText() {}

  /** Applies both rules to {@code commandLine} and every subcommand below it. */
  public static void shape(CommandLine commandLine) {
    CommandSpec spec = commandLine.getCommandSpec();
    if (spec.options().stream().noneMatch(OptionSpec::usageHelp)) {
      List<String> names = new ArrayList<>(List.of("--help"));
      if (spec.findOption("-h") == null) {
        names.add(0, "-h");
      }
      spec.addOption(OptionSpec.builder(names.toArray(String[]::new)).usageHelp(true)
          .description("Show this help message and exit.").build());
    }
    UsageMessageSpec usage = spec.usageMessage();
    usage.header(paragraphs(usage.header()));
    usage.description(paragraphs(usage.description()));
    usage.footer(paragraphs(usage.footer()));
    commandLine.getSubcommands().values().stream().distinct().forEach(HelpText::shape);
  }

  /** {@code lines} with every run of non-blank, unindented lines joined into one paragraph. */
  static String[] paragraphs(String[] lines) {
    List<String> out = new ArrayList<>();
    boolean open = false;
    for (String line : lines) {
      boolean blank = line.isBlank();
      boolean ownLine = !blank && Character.isWhitespace(line.charAt(0));
      if (open && !blank && !ownLine) {
        out.set(out.size() - 1, out.get(out.size() - 1) + " " + line.strip());
      } else {
        out.add(line);
      }
      open = !blank && !ownLine;
    }
    return out.toArray(String[]::new);
  }
}
