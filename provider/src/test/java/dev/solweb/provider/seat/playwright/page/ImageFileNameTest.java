package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How a harvested image is named in the output directory: safe, from the file id or the URL, with an extension. */
class ImageFileNameTest {

  @Test
  void theUrlsLastSegmentDecodedIsTheName() {
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef("http://127.0.0.1:1/files/m1/my%20cat.png", null), "image/png", 1)).isEqualTo("my_cat.png");
  }

  @Test
  void anEstuaryImageIsNamedAfterItsFileIdNotTheEndpoint() {
    ChatGptPage.ImageRef ref = new ChatGptPage.ImageRef(
        "https://chat.invalid/backend-api/estuary/content?id=file_00000000a1b2c3&ts=1&p=fs&sig=x", "file_00000000a1b2c3");
    assertThat(ImageHarvest.fileName(ref, "image/png", 1)).isEqualTo("file_00000000a1b2c3.png");
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef(ref.url(), "file/../x"), "image/png", 1)).isEqualTo("file_.._x");
  }

  @Test
  void aNameWithoutExtensionTakesOneFromTheContentType() {
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef("https://files.example/file-abc123", null), "image/jpeg", 1)).isEqualTo("file-abc123.jpg");
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef("https://files.example/download?id=1", null), "image/webp", 1)).isEqualTo("download.webp");
  }

  @Test
  void pathTricksNeverLeaveTheOutputDirectory() {
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef("https://files.example/", null), "", 2)).isEqualTo("image-2.png");
    // An encoded path is decoded before the last segment is taken: no directory ever leaks in.
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef("https://files.example/..%2F..%2Fetc%2Fpasswd", null), "image/png", 3))
        .isEqualTo("passwd.png");
    assertThat(ImageHarvest.fileName(new ChatGptPage.ImageRef("https://files.example/a/..", null), "image/png", 4)).isEqualTo("image-4.png");
  }
}
