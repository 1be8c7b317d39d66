package dev.solweb.provider.seat;

/**
 * Builds seats by index. The dispatcher calls it at start and once more to rebuild a seat whose
 * browser connection broke; a factory never falls back to another kind of seat.
 */
@FunctionalInterface
public interface SeatFactory {
  BrowserSeat create(int seatIndex) throws SeatException;
}
