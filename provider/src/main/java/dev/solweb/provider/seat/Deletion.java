package dev.solweb.provider.seat;

/** How {@link BrowserSeat#delete} ended when it did not fail: either way the conversation is gone. */
public enum Deletion {
  /** The page deleted it through its own menu and confirmation, and its URL now shows not-found. */
  DELETED,
  /** Its URL already showed not-found: deleted before (a repeat is a no-op, counted as done). */
  NOT_FOUND
}
