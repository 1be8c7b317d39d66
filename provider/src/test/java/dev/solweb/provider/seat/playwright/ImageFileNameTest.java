package dev.solweb.provider.seat.playwright;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a harvested image is named in the output directory: safe, from the URL, with an extension. */
class ImageFileNameTest {

  @Test
  void theUrlsLastSegmentDecodedIsTheName() {
    assertThat(PlaywrightSeat.imageFileName("http://127.0.0.1:1/files/m1/my%20cat.png", "image/png", 1)).isEqualTo("my_cat.png");
  }

  @Test
  void aNameWithoutExtensionTakesOneFromTheContentType() {
    assertThat(PlaywrightSeat.imageFileName("https://files.example/file-abc123", "image/jpeg", 1)).isEqualTo("file-abc123.jpg");
    assertThat(PlaywrightSeat.imageFileName("https://files.example/download?id=1", "image/webp", 1)).isEqualTo("download.webp");
  }

  @Test
  void pathTricksNeverLeaveTheOutputDirectory() {
    assertThat(PlaywrightSeat.imageFileName("https://files.example/", "", 2)).isEqualTo("image-2.png");
    // An encoded path is decoded before the last segment is taken: no directory ever leaks in.
    assertThat(PlaywrightSeat.imageFileName("https://files.example/..%2F..%2Fetc%2Fpasswd", "image/png", 3))
        .isEqualTo("passwd.png");
    assertThat(PlaywrightSeat.imageFileName("https://files.example/a/..", "image/png", 4)).isEqualTo("image-4.png");
  }
}
