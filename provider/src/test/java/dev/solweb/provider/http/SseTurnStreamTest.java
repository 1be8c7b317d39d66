package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.dispatch.Dispatcher.TurnHandle;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerResponse;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The SSE writer against a response whose write queue the test fills and drains. */
class SseTurnStreamTest {
  private static final Answer ANSWER = new Answer(new Reply.Final("hello"), null, new Answer.Usage(3, 1), List.of());

  /** The parts of HttpServerResponse the stream uses, recorded. */
  private static final class Response {
    final List<String> written = new ArrayList<>();
    boolean full;
    boolean closed;
    int ends;
    Handler<Void> drain;
    Handler<Void> close;

    HttpServerResponse proxy() {
      return (HttpServerResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {HttpServerResponse.class}, (self, method, args) -> switch (method.getName()) {
            case "write" -> {
              written.add((String) args[0]);
              yield Future.succeededFuture();
            }
            case "writeQueueFull" -> full;
            case "closed" -> closed;
            case "ended" -> ends > 0;
            case "end" -> {
              ends++;
              yield Future.succeededFuture();
            }
            case "drainHandler" -> {
              drain = cast(args[0]);
              yield self;
            }
            case "closeHandler" -> {
              close = cast(args[0]);
              yield self;
            }
            case "setStatusCode", "setChunked", "putHeader" -> self;
            default -> throw new UnsupportedOperationException(method.getName());
          });
    }

    @SuppressWarnings("unchecked")
    private static Handler<Void> cast(Object handler) {
      return (Handler<Void>) handler;
    }
  }

  private static final class Handle implements TurnHandle {
    int releases;

    @Override
    public CompletableFuture<Answer> result() {
      return new CompletableFuture<>();
    }

    @Override
    public int queuePosition() {
      return 0;
    }

    @Override
    public boolean decidedAtSubmit() {
      return false;
    }

    @Override
    public void release() {
      releases++;
    }
  }

  private static SseTurnStream stream(Response response) {
    return new SseTurnStream(null, response.proxy(), new ChatWire(new Completions("chatcmpl-1", "sol-web-high", 0), false), 0);
  }

  @Test
  void framesWaitWhileTheQueueIsFullAndGoOutInOrderOnDrainThenTheStreamEndsOnce() {
    Response response = new Response();
    response.full = true;
    SseTurnStream stream = stream(response);
    stream.start(new Handle());

    stream.answer(ANSWER);

    assertThat(response.written).isEmpty();
    assertThat(response.ends).as("the end waits for the last frame").isZero();
    response.full = false;
    response.drain.handle(null);

    assertThat(response.written).hasSize(4);
    assertThat(response.written.get(0)).contains("\"role\":\"assistant\"");
    assertThat(response.written.get(1)).contains("hello");
    assertThat(response.written.get(2)).contains("\"finish_reason\":\"stop\"");
    assertThat(response.written.get(3)).isEqualTo("data: [DONE]\n\n");
    assertThat(response.ends).isEqualTo(1);
  }

  @Test
  void aFailureAfterTheAnswerWritesNothingAndDoesNotEndAgain() {
    Response response = new Response();
    SseTurnStream stream = stream(response);
    stream.start(new Handle());
    stream.answer(ANSWER);

    stream.fail(ProviderFailure.of(ProviderFailure.Kind.TIMEOUT, "late"));
    response.drain.handle(null);

    assertThat(response.written).noneMatch(frame -> frame.contains("late"));
    assertThat(response.ends).isEqualTo(1);
  }

  @Test
  void aFailureWhileTheQueueIsFullEndsOnceAfterItsFrame() {
    Response response = new Response();
    SseTurnStream stream = stream(response);
    stream.start(new Handle());
    response.full = true;

    stream.fail(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "browser lost"));
    stream.answer(ANSWER);
    response.full = false;
    response.drain.handle(null);
    response.drain.handle(null);

    assertThat(response.written).hasSize(2);
    assertThat(response.written.get(1)).contains("browser lost").doesNotContain("[DONE]");
    assertThat(response.ends).isEqualTo(1);
  }

  @Test
  void aClientThatLeavesReleasesTheTurnOnceAndIsWrittenNothingMore() {
    Response response = new Response();
    response.full = true;
    Handle handle = new Handle();
    SseTurnStream stream = stream(response);
    stream.start(handle);

    response.closed = true;
    response.close.handle(null);
    stream.answer(ANSWER);
    response.full = false;
    response.drain.handle(null);

    assertThat(handle.releases).isEqualTo(1);
    assertThat(response.written).isEmpty();
    assertThat(response.ends).isZero();
  }
}
