package dev.solweb.provider.dispatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** The last {@value #SIZE} finished turns, newest first: a bounded ring, never the whole history. Not thread-safe. */
final class FinishedTurns {
  static final int SIZE = 50;

  private final Deque<FinishedTurn> turns = new ArrayDeque<>();

  void add(FinishedTurn turn) {
    turns.addFirst(turn);
    while (turns.size() > SIZE) {
      turns.removeLast();
    }
  }

  List<FinishedTurn> newestFirst() {
    return new ArrayList<>(turns);
  }
}
