package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;

/**
 * One wire format for a turn's answer (chat completions, Responses): what a stream says at
 * commit, between, and at the end, the whole non-stream body, and a refusal before commit.
 * Everything behind it (parse, translate, dispatch) is shared; a wire only renders.
 *
 * <p>Frames are whole SSE frames, each ending in a blank line.
 */
interface TurnWire {

  /** Sent once, when the stream commits, before anything is known. */
  List<String> opening();

  /** Sent every keep-alive interval while the turn runs. */
  String keepAlive();

  /** The answer and the frames that end a successful stream. */
  List<String> answer(Answer answer);

  /** The frames that end a stream with a failure (no success marker may follow). */
  List<String> failure(ProviderFailure failure);

  /** The whole body of a non-stream answer. */
  ObjectNode whole(Answer answer);

  /** Ends {@code response} with a failure's status, headers and body, before any stream committed. */
  void refuse(HttpServerResponse response, ProviderFailure failure);
}
