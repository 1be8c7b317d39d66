package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Generated images are files the site serves under the message: the real page loads them from
 * its own file service with the session cookie, {@code /backend-api/estuary/content?id=file_...}
 * (oracle), signed. Each scripted name is a small PNG here.
 */
final class GeneratedImages {

  /** A valid 2x2 RGB PNG: what every generated image of fakesol is. */
  private static final byte[] PNG = Base64.getDecoder().decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4oaEBRAwQCgAhLgRhHuBtwgAAAABJRU5ErkJggg==");

  private final Clock clock;
  private final Map<String, String> files = new HashMap<>();

  GeneratedImages(Clock clock) {
    this.clock = clock;
  }

  void mount(Router router) {
    router.get("/backend-api/estuary/content").handler(this::file);
  }

  /** Hands out a file id for each scripted image name: the {@code images} of a turn. */
  synchronized ArrayNode generate(List<String> names) {
    ArrayNode images = FakeSol.JSON.createArrayNode();
    for (String name : names) {
      String fileId = "file_" + UUID.randomUUID().toString().replace("-", "");
      files.put(fileId, Path.of(name).getFileName().toString());
      images.addObject().put("file_id", fileId).put("url", "/backend-api/estuary/content?id=" + fileId
          + "&ts=" + clock.instant().getEpochSecond() + "&p=fs&cid=1&sig=" + Integer.toHexString(fileId.hashCode()));
    }
    return images;
  }

  /** A generated image: a PNG for any file id this fakesol handed out, else 404. */
  private synchronized void file(RoutingContext ctx) {
    String id = ctx.queryParams().get("id");
    if (id == null || !files.containsKey(id)) {
      ctx.response().setStatusCode(404).end();
      return;
    }
    ctx.response().putHeader("content-type", "image/png").putHeader("cache-control", "no-store")
        .end(Buffer.buffer(PNG));
  }
}
