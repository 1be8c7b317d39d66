package dev.solweb.provider.hygiene;

import dev.solweb.provider.dispatch.DispatchTime;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.hygiene.ConversationDeletion;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Logger;

/**
 * {@code SOLWEBD_RETENTION_DAYS}: every {@code every}, the managed conversations idle at least
 * {@code idle} are deleted from the page (tombstones recorded), each as low-priority work
 * ({@link Dispatcher#runWhenIdle}) that starts only when no turn waits. A conversation with a
 * turn in flight or queued is skipped, and one that fails is tried again at the next sweep.
 * Which are due is {@link Conversations#retentionDue}; the sweeps run on the {@link DispatchTime}
 * it is given, so tests move it by hand.
 */
public final class Retention implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Retention.class.getName());

  private final Dispatcher dispatcher;
  private final Conversations conversations;
  private final DispatchTime time;
  private final Duration idle;
  private final Duration every;
  private final Set<String> pending = new HashSet<>();
  private DispatchTime.Cancellable next = () -> { };
  private boolean closed;

  public Retention(Dispatcher dispatcher, Conversations conversations, DispatchTime time, Duration idle, Duration every) {
    this.dispatcher = dispatcher;
    this.conversations = conversations;
    this.time = time;
    this.idle = idle;
    this.every = every;
  }

  /** Schedules the first sweep {@code every} from now, and each next one after it. */
  public synchronized void start() {
    next = time.schedule(every, this::sweepAndReschedule);
  }

  private void sweepAndReschedule() {
    sweep();
    synchronized (this) {
      if (!closed) {
        next = time.schedule(every, this::sweepAndReschedule);
      }
    }
  }

  /** Queues the delete of every conversation idle long enough that is not queued already. */
  public synchronized void sweep() {
    for (Conversation c : conversations.retentionDue(idle)) {
      if (!pending.add(c.sessionKey())) {
        continue;
      }
      ConversationDeletion.one(dispatcher, conversations, c, false, true).whenComplete((outcome, error) -> {
        synchronized (this) {
          pending.remove(c.sessionKey());
        }
        if (outcome != null) {
          LOG.info("retention (" + idle.toDays() + " days idle): conversation " + c.sessionKey() + " "
              + outcome.result().wire() + ": " + outcome.detail());
        }
      });
    }
  }

  /** Stops sweeping and closes the time it was given (deletes already queued still run or fail with the dispatcher). */
  @Override
  public synchronized void close() {
    closed = true;
    next.cancel();
    time.close();
  }
}
