package dev.solweb.provider.seat.playwright.page;

import java.util.List;

/**
 * The accessible names the seat knows the page's controls by, in the two languages it has tables
 * for. They only rank candidates already in the right place (each control's last strategy is
 * language-free: {@link ComposerControls}, {@link ThreadControls}).
 * Where a name comes from: en "Send prompt", "Stop answering" (July 2026, REAL-PAGE row 16),
 * "Stop streaming"/"Stop generating" (CHATGPT-DOM.md, peers), "Copy response" (the aice capture);
 * ru "Отправить", "Остановить" (row 16), "Спросить ChatGPT", "Работайте с ChatGPT", "Чат",
 * "Работа" (row 27), "Выбрать модель ChatGPT", "Мощность" (row 26). "Select ChatGPT model" and
 * "Power" are row 26's own English words. The rest is this project's reading (marked r): a doctor
 * run on a live page is how to confirm them, and the structural strategies stand behind them.
 */
public final class Labels {

  /** The composer's aria-label: its placeholder, in Chat and in Work mode. */
  public static final List<String> COMPOSER = List.of("Ask anything" /* r */, "Ask ChatGPT" /* r */,
      "Message ChatGPT" /* r */, "Work with ChatGPT" /* r */, "Спросить ChatGPT", "Работайте с ChatGPT");
  /** Row 32 (09-21): plain "Send"; July's "Send prompt". A label list is never complete: the composer form's submit stands behind it. */
  public static final List<String> SEND = List.of("Send", "Send prompt", "Send message" /* r */, "Отправить",
      "发送", "发送消息" /* row 55 (dsh 1.0.5) */);
  public static final List<String> STOP = List.of("Stop answering", "Stop streaming", "Stop generating", "Stop" /* r */,
      "Остановить");
  public static final List<String> MODEL_PICKER = List.of("Select ChatGPT model", "Выбрать модель ChatGPT");
  public static final List<String> COPY_RESPONSE = List.of("Copy response", "Copy" /* r */, "Копировать ответ" /* r */,
      "Копировать" /* r */);
  /** Row 35: "Regenerate response" in the answer's action bar. */
  public static final List<String> REGENERATE = List.of("Regenerate response", "Regenerate" /* r */,
      "Повторить ответ" /* r */, "Повторить" /* r */);
  /** The Chat/Work switch's buttons (row 27: aria-pressed in a fresh tab). */
  public static final List<String> CHAT_MODE = List.of("Chat", "Чат");
  public static final List<String> WORK_MODE = List.of("Work", "Работа");
  /** The October picker's effort item (row 26), whose slider is aria-hidden. */
  public static final List<String> POWER = List.of("Power", "Мощность");

  private Labels() {}
}
