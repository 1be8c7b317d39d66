package dev.solweb.provider.seat.playwright.page;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Saves the images of an answer into a directory. The real page serves them from one endpoint,
 * {@code /backend-api/estuary/content?id=file_...} (oracle), so the file id, not the URL's last
 * segment (always "content"), names each file; the page lists an image once per file id.
 */
public final class ImageHarvest {

  private final ChatGptPage chat;

  public ImageHarvest(ChatGptPage chat) {
    this.chat = chat;
  }

  /** Downloads each image into {@code outputDir}; returns the absolute paths, in page order. */
  public List<String> save(List<ChatGptPage.ImageRef> images, Path outputDir) throws IOException {
    List<String> saved = new ArrayList<>();
    Files.createDirectories(outputDir);
    int index = 0;
    for (ChatGptPage.ImageRef ref : images) {
      index++;
      ChatGptPage.Image image = chat.download(ref.url());
      String file = fileName(ref, image.contentType(), index);
      int dot = file.lastIndexOf('.');
      Path target = outputDir.resolve(file);
      for (int n = 1; Files.exists(target); n++) {
        target = outputDir.resolve(file.substring(0, dot) + "-" + n + file.substring(dot));
      }
      Files.write(target, image.bytes(), StandardOpenOption.CREATE_NEW);
      saved.add(target.toAbsolutePath().toString());
    }
    return saved;
  }

  /**
   * A safe file name: the file id when the URL has one, else the URL's last segment (else
   * image-N), with an extension from the content type when it has none.
   */
  static String fileName(ChatGptPage.ImageRef ref, String contentType, int index) {
    String base = ref.fileId();
    if (base == null || base.isBlank()) {
      String path = URI.create(ref.url()).getPath();
      base = path == null ? "" : URLDecoder.decode(path.substring(path.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
    }
    String name = base.replaceAll("[^A-Za-z0-9._-]", "_");
    if (name.isEmpty() || name.startsWith(".")) {
      name = "image-" + index;
    }
    if (!name.contains(".")) {
      String type = contentType.toLowerCase(Locale.ROOT);
      name += type.contains("jpeg") ? ".jpg" : type.contains("webp") ? ".webp" : type.contains("gif") ? ".gif" : ".png";
    }
    return name;
  }
}
