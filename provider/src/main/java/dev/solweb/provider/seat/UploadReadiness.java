package dev.solweb.provider.seat;

/**
 * When a seat counts a turn's files as uploaded and clicks Send (../shared/REAL-PAGE.md row 46).
 * The page shows a file's chip, and enables Send, before the file is processed; a Send then
 * drops the file without a word. Only the page's own traffic proves a file is ready.
 */
public enum UploadReadiness {
  /** The shipped rule: each file's processing stream completed (or row 46's image fallback). */
  PROCESSED,
  /**
   * The chip alone, as the peers' seats decide. Never shipped: it exists so the kill gate's
   * attachments check can prove that it fails a seat which trusts the chip.
   */
  CHIP
}
