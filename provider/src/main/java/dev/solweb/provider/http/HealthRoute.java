package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.dispatch.HealthSnapshot;
import dev.solweb.provider.dispatch.LimitsReport;
import dev.solweb.provider.dispatch.LiveTurn;
import dev.solweb.provider.dispatch.SeatControl;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.translate.ContextBudget;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * {@code GET /healthz}: the daemon's state ({@link HealthSnapshot}), its identity (pid, version,
 * instance generation), the live turns and each conversation's estimated occupancy. Never any
 * text of a prompt or an answer. The fields are the README's /healthz row; solwebctl, factory-gpt
 * and sw read them.
 */
final class HealthRoute {
  private static final ObjectMapper JSON = Json.MAPPER;

  private final Dispatcher dispatcher;
  private final Conversations conversations;
  private final ServerSettings settings;

  private final ModelInUse model;

  HealthRoute(Dispatcher dispatcher, Conversations conversations, ServerSettings settings, ModelInUse model) {
    this.model = model;
    this.dispatcher = dispatcher;
    this.conversations = conversations;
    this.settings = settings;
  }

  void handle(RoutingContext ctx) {
    ErrorBodies.json(ctx.response(), body());
  }

  /** The whole body, as of now. */
  ObjectNode body() {
    HealthSnapshot snapshot = dispatcher.snapshot();
    ObjectNode root = JSON.createObjectNode();
    root.put("ok", snapshot.state().equals("ready"));
    root.put("state", snapshot.state());
    root.put("conversations", conversations.count());
    root.put("queue", snapshot.queue());
    root.put("active", snapshot.active());
    root.put("seats", snapshot.liveSeats());
    root.put("seats_configured", snapshot.seats());
    root.put("turn_p50_s", snapshot.turnP50Seconds());
    root.put("dispatch_wait_s", snapshot.dispatchWaitSeconds());
    ArrayNode models = root.putArray("models");
    Effort.modelIds().forEach(models::add);
    root.put("pid", settings.pid());
    root.put("version", settings.version());
    root.put("instance_generation", settings.instanceGeneration());
    root.put("account", snapshot.account());
    root.put("model", model.last()); // the model slug of the last answer, as the page named it (null before one)
    root.put("authenticated", snapshot.account() != null && !snapshot.state().equals("logged_out"));
    if (snapshot.capResumeAt() != null) {
      root.put("cap_resume_at", snapshot.capResumeAt().toString());
    }
    root.put("detail", snapshot.detail());
    root.put("cause", snapshot.cause());
    ArrayNode controlled = root.putArray("controlled");
    for (SeatControl.View control : snapshot.controls()) {
      ObjectNode seat = controlled.addObject().put("seat", control.seat())
          .put("state", control.state().name().toLowerCase(Locale.ROOT)).put("since", control.since().toString());
      if (control.idleReleaseAt() != null) {
        seat.put("idle_release_at", control.idleReleaseAt().toString());
      }
    }
    LimitsReport.toJson(dispatcher.pacing(), dispatcher.now(), root.putObject("limits"));
    dispatcher.pacing().pause().ifPresentOrElse(p -> p.toJson(dispatcher.now(), root.putObject("account_pause")),
        () -> root.putNull("account_pause"));
    AnswerStats answers = AnswerStats.GLOBAL;
    root.putObject("answers").put("stream", answers.stream()).put("dom", answers.dom())
        .put("disagreements", answers.disagreements()).put("recovered", answers.recoveredAnswers())
        .put("effort_mismatches_after_send", answers.effortMismatchesAfterSend());
    // Every turn typed whole into a fresh conversation since start, by cause (a session's first is none).
    ObjectNode replays = root.putObject("replays");
    conversations.replays().byCause().forEach(replays::put);
    ArrayNode turns = root.putArray("turns");
    for (LiveTurn.View turn : dispatcher.views().turns()) {
      turn.toJson(turns.addObject());
    }
    ArrayNode occupancy = root.putArray("occupancy");
    for (Conversation conversation : conversations.list()) {
      occupancy.addObject()
          .put("session", conversation.sessionKey())
          .put("effort", conversation.effort().suffix())
          .put("turns", conversation.turns())
          .put("status", conversation.status().name().toLowerCase(Locale.ROOT))
          .put("estimated_input", conversation.estimatedInput())
          .put("estimated_output", conversation.estimatedOutput())
          .put("window", ContextBudget.CONTEXT_WINDOW)
          .put("estimated", true);
    }
    return root;
  }
}
