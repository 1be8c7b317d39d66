package dev.solweb.factory.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Which seat the demo's solwebd runs, and why, said out loud (there is no silent fake). The same
 * seat serves {@code solwebctl enroll} and the daemon.
 *
 * @param name what the demo prints
 * @param seatArgs solwebctl's seat options for enroll and ensure
 * @param why the reason for this choice, printed
 */
record DemoSeat(String name, List<String> seatArgs, String why) {

  /** The bundled scenario that scripts Pi's tool call and final answer, for either seat. */
  static final String SCENARIO = "pi-demo";

  enum Kind { SCRIPTED, FAKESOL }

  /** The decision, made before anything starts; fakesol's URL is known only once it runs. */
  record Choice(Kind kind, String why) {
    String name() {
      return kind == Kind.FAKESOL ? FAKESOL_NAME : SCRIPTED_NAME;
    }
  }

  static final String SCRIPTED_NAME = "scripted";
  static final String FAKESOL_NAME = "playwright on fakesol (headless Chromium)";

  /**
   * {@code auto}: fakesol in headless Chromium when this checkout has fakesol and Chromium is
   * installed, else the scripted seat. {@code scripted} or {@code fakesol} when asked; asking for
   * fakesol where it cannot run is an IllegalArgumentException, never a quiet switch.
   */
  static Choice choose(String wanted, Path solwebRoot, Path chromium) {
    boolean hasFakesol = Files.isExecutable(solwebRoot.resolve("bin/fakesol"));
    boolean hasChromium = Files.isExecutable(chromium) && !Files.isDirectory(chromium);
    String missing = !hasFakesol
        ? "fakesol (the imitation ChatGPT page the Playwright seat drives) is not part of this checkout"
        : "there is no Chromium at " + chromium + " for the Playwright seat (Debian: apt-get install chromium)";
    return switch (wanted) {
      case "scripted" -> new Choice(Kind.SCRIPTED, "asked for with --seat scripted");
      case "fakesol" -> {
        if (!hasFakesol || !hasChromium) {
          throw new IllegalArgumentException("--seat fakesol cannot run: " + missing);
        }
        yield new Choice(Kind.FAKESOL, "asked for with --seat fakesol");
      }
      case "auto" -> hasFakesol && hasChromium
          ? new Choice(Kind.FAKESOL, "Chromium is at " + chromium + ": the real Playwright seat drives fakesol,"
              + " the imitation ChatGPT page, headless")
          : new Choice(Kind.SCRIPTED, missing + "; the scripted seat plays the page");
      default -> throw new IllegalArgumentException("--seat must be auto, scripted or fakesol, got: " + wanted);
    };
  }

  static DemoSeat scripted(String why) {
    return new DemoSeat(SCRIPTED_NAME, List.of("--seat", "scripted:" + SCENARIO), why);
  }

  static DemoSeat fakesol(String url, Path chromium, String why) {
    return new DemoSeat(FAKESOL_NAME, List.of("--seat", "playwright", "--chat-url", url,
        "--headless", "--chromium", chromium.toString()), why);
  }
}
