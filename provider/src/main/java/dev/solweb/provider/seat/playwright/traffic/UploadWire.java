package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The upload requests' JSON as the page sends and gets it (../shared/REAL-PAGE.md rows 45, 48, 49),
 * decoded: pure, text in, facts out. Unreadable JSON reads as nothing, never as an exception.
 */
final class UploadWire {

  private UploadWire() {}

  /** {@code POST /backend-api/files}'s body: the name and size the page declares (-1: none). */
  record CreateRequest(String fileName, long fileSize) {}

  /** Its answer: the file id and the signed URL the bytes go to (null when absent). */
  record Created(String fileId, String uploadUrl) {}

  static CreateRequest createRequest(String body) {
    JsonNode n = tree(body);
    return new CreateRequest(n.path("file_name").asText(""), n.path("file_size").isNumber() ? n.path("file_size").asLong() : -1);
  }

  static Created created(String body) {
    JsonNode n = tree(body);
    return new Created(text(n.path("file_id")), text(n.path("upload_url")));
  }

  /** An error answer's words: {@code detail.message} (row 49's 429), a string {@code detail}, or {@code message}. */
  static Optional<String> errorMessage(String body) {
    JsonNode n = tree(body);
    JsonNode detail = n.path("detail");
    String message = detail.isTextual() ? detail.asText() : text(detail.path("message"));
    return Optional.ofNullable(message != null ? message : text(n.path("message")));
  }

  static String fileIdOf(String body) {
    return text(tree(body).path("file_id"));
  }

  /**
   * The file ids a turn request names (row 48): each {@code image_asset_pointer} part of
   * {@code messages[0].content} ({@code sediment://file_...}, or an older {@code file-service://})
   * and each {@code messages[0].metadata.attachments[].id}; in body order, each once.
   */
  static List<String> sentFileIds(String body) {
    JsonNode message = tree(body).path("messages").path(0);
    List<String> ids = new ArrayList<>();
    for (JsonNode part : message.path("content").path("parts")) {
      String pointer = text(part.path("asset_pointer"));
      if (pointer != null) {
        String id = pointer.contains("://") ? pointer.substring(pointer.indexOf("://") + 3) : pointer;
        if (!ids.contains(id)) {
          ids.add(id);
        }
      }
    }
    for (JsonNode a : message.path("metadata").path("attachments")) {
      String id = text(a.path("id"));
      if (id != null && !ids.contains(id)) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static JsonNode tree(String text) {
    if (text == null || text.isBlank()) {
      return Json.MAPPER.missingNode();
    }
    try {
      JsonNode n = Json.MAPPER.readTree(text);
      return n == null ? Json.MAPPER.missingNode() : n;
    } catch (IOException | RuntimeException e) {
      return Json.MAPPER.missingNode();
    }
  }

  private static String text(JsonNode n) {
    return n.isTextual() && !n.asText().isBlank() ? n.asText() : null;
  }
}
