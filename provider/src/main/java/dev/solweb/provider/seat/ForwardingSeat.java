package dev.solweb.provider.seat;

import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.translate.ConversationPlace;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A seat that passes every verb to another: the base of decorators (the daemon's diagnostics)
 * and of test seats that override the one verb they watch or stall. A verb added to
 * {@link BrowserSeat} is added here once.
 */
public class ForwardingSeat implements BrowserSeat {
  private final BrowserSeat inner;

  public ForwardingSeat(BrowserSeat inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
  }

  @Override
  public SeatProbe probe() throws SeatException {
    return inner.probe();
  }

  @Override
  public void openNew() throws SeatException {
    inner.openNew();
  }

  @Override
  public void openNew(ConversationPlace place) throws SeatException {
    inner.openNew(place);
  }

  @Override
  public void resume(String conversationUrl) throws SeatException {
    inner.resume(conversationUrl);
  }

  @Override
  public Effort setEffort(Effort effort) throws SeatException {
    return inner.setEffort(effort);
  }

  @Override
  public SeatReply send(String text) throws SeatException {
    return inner.send(text);
  }

  @Override
  public SeatReply send(String text, List<Attachment> attachments) throws SeatException {
    return inner.send(text, attachments);
  }

  @Override
  public void onSent(Consumer<SentMessage> listener) {
    inner.onSent(listener);
  }

  @Override
  public Optional<SeatReply> recover(String conversationUrl, String userMessageId) throws SeatException {
    return inner.recover(conversationUrl, userMessageId);
  }

  @Override
  public Optional<SeatReply> regenerate() throws SeatException {
    return inner.regenerate();
  }

  @Override
  public SeatReply ask(String text, List<Path> attachments, Path outputDir) throws SeatException {
    return inner.ask(text, attachments, outputDir);
  }

  @Override
  public Deletion delete(String conversationUrl) throws SeatException {
    return inner.delete(conversationUrl);
  }

  @Override
  public Optional<PageCounters> counters() {
    return inner.counters();
  }

  @Override
  public void progress(TurnProgress listener) {
    inner.progress(listener);
  }

  @Override
  public ModelOffer models() throws SeatException {
    return inner.models();
  }

  @Override
  public String doctor(URI url, boolean openEffortMenu) throws SeatException {
    return inner.doctor(url, openEffortMenu);
  }

  @Override
  public String capture(URI url, boolean openEffortMenu) throws SeatException {
    return inner.capture(url, openEffortMenu);
  }

  @Override
  public Optional<SeatScreen> screen() {
    return inner.screen();
  }

  @Override
  public void stop() {
    inner.stop();
  }

  @Override
  public void close() {
    inner.close();
  }
}
