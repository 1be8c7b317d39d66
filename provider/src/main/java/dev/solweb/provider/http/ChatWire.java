package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * The chat-completions wire: a first chunk carrying the role, well-formed empty-delta keep-alives
 * (never {@code : ping} comments: ccr drops those), the answer (its text as one chunk, or one
 * chunk per tool call), the finish chunk,
 * an optional usage chunk and {@code [DONE]}. A failure after commit is one
 * {@code {"error":...}} data event with no finish reason and no {@code [DONE]}.
 */
final class ChatWire implements TurnWire {
  private final Completions completions;
  private final boolean includeUsage;

  ChatWire(Completions completions, boolean includeUsage) {
    this.completions = completions;
    this.includeUsage = includeUsage;
  }

  @Override
  public List<String> opening() {
    return List.of(data(completions.roleChunk()));
  }

  @Override
  public String keepAlive() {
    return data(completions.keepAliveChunk());
  }

  @Override
  public List<String> answer(Answer answer) {
    List<String> frames = new ArrayList<>();
    completions.answerChunks(answer).forEach(chunk -> frames.add(data(chunk)));
    frames.add(data(completions.finishChunk(answer, !includeUsage)));
    if (includeUsage) {
      frames.add(data(completions.usageChunk(answer)));
    }
    frames.add("data: [DONE]\n\n");
    return frames;
  }

  @Override
  public List<String> failure(ProviderFailure failure) {
    return List.of(data(ErrorBodies.failure(failure)));
  }

  @Override
  public ObjectNode whole(Answer answer) {
    return completions.completion(answer);
  }

  @Override
  public void refuse(HttpServerResponse response, ProviderFailure failure) {
    ErrorBodies.send(response, failure);
  }

  private static String data(ObjectNode chunk) {
    return "data: " + chunk + "\n\n";
  }
}
