package dev.solweb.killgate;

import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upload time per file on fakesol, from {@code setInputFiles} to ready (every file processed),
 * p50 of {@link #RUNS} turns per size. A benchmark that prints its figures, not a timed assertion;
 * run it by name ({@code -Dtest=SeatUploadBench}), it is not part of the suite.
 */
class SeatUploadBench extends SeatHarness {

  private static final int RUNS = 3;

  @Test
  void uploadTimePerFile() throws Exception {
    List<Attachment> sizes = List.of(UploadFiles.png("1kb.png", 1_000, 1), UploadFiles.png("1mb.png", 1_000_000, 2),
        UploadFiles.png("10mb.png", 10_000_000, 3), UploadFiles.log("200kb.log", 200_000));
    StringBuilder answers = new StringBuilder("{\"default\": [");
    for (int i = 0; i < sizes.size() * RUNS; i++) {
      answers.append(i == 0 ? "" : ",").append("{\"prose\": \"ok\"}");
    }
    PlaywrightSeat seat = seatOn(scenario(answers.append("]}").toString()));
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    for (Attachment file : sizes) {
      List<Duration> times = new ArrayList<>();
      for (int run = 0; run < RUNS; run++) {
        seat.send("run " + run, List.of(file));
        times.add(seat.lastTimings().get("upload: input to ready"));
      }
      times.sort(null);
      System.out.printf("upload %-10s %,11d bytes: p50 %5d ms (runs %s)%n", file.name(), file.bytes().length,
          times.get(times.size() / 2).toMillis(), times.stream().map(Duration::toMillis).toList());
    }
  }
}
