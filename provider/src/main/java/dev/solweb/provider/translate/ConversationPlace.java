package dev.solweb.provider.translate;

import java.util.Objects;

/**
 * Where a seat opens the new conversations it manages ({@code SOLWEBD_PROJECT},
 * {@code SOLWEBD_TEMPORARY}): in the owner's history, inside one ChatGPT Project, or as temporary
 * chats the owner's history never keeps.
 */
public sealed interface ConversationPlace {

  /** The owner's ordinary history: the default. */
  record History() implements ConversationPlace {}

  /**
   * Inside the ChatGPT Project named {@code nameOrUrl} (its name as the sidebar shows it, or its
   * {@code /g/g-p-<slug>/project} URL). A project the page does not show, or shows twice, is a
   * typed {@code unavailable} before anything is typed.
   */
  record Project(String nameOrUrl) implements ConversationPlace {
    public Project {
      Objects.requireNonNull(nameOrUrl, "nameOrUrl");
      if (nameOrUrl.isBlank()) {
        throw new IllegalArgumentException("a project needs a name or a project URL");
      }
    }
  }

  /**
   * Temporary chats ({@code ?temporary-chat=true}, confirmed on the page before Send): never
   * saved to the owner's history, so they cannot be resumed once the page that holds them is
   * gone; a daemon restart replays them.
   */
  record Temporary() implements ConversationPlace {}

  ConversationPlace HISTORY = new History();
}
