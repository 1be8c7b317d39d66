package dev.solweb.factory.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Which seat the demo's solwebd runs, and why, said out loud (there is no silent fake). The
 * choice is made once, before anything starts, and the same seat serves enroll and the daemon.
 *
 * @param name what the demo prints ({@code scripted})
 * @param seatArgs solwebctl's seat options for enroll and ensure
 * @param why the reason for this choice, printed
 */
record DemoSeat(String name, List<String> seatArgs, String why) {

  /** The bundled scenario that scripts Pi's tool call and final answer. */
  static final String SCENARIO = "pi-demo";

  static DemoSeat choose(Path solwebRoot, Path chromium) {
    // fakesol, the imitation ChatGPT page the Playwright seat can drive, arrives with issue 3;
    // until this checkout has it, the scripted seat plays the page.
    String why = "fakesol (the imitation ChatGPT page the Playwright seat drives) is not part of this checkout"
        + (Files.isExecutable(chromium) ? "" : ", and there is no Chromium at " + chromium);
    return scripted(why);
  }

  static DemoSeat scripted(String why) {
    return new DemoSeat("scripted", List.of("--seat", "scripted:" + SCENARIO), why);
  }
}
