package dev.solweb.provider.http;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;

/** A seat that forwards every verb to another; tests override the verb they need to watch or stall. */
class ForwardingSeat implements BrowserSeat {
  private final BrowserSeat inner;

  ForwardingSeat(BrowserSeat inner) {
    this.inner = inner;
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
  public void stop() {
    inner.stop();
  }

  @Override
  public void close() {
    inner.close();
  }
}
