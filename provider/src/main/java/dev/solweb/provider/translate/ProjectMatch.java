package dev.solweb.provider.translate;

import java.util.Locale;

/**
 * Whether a conversation's project slug (from its {@code /g/g-p-<slug>/c/<id>} URL) is the
 * project {@code SOLWEBD_PROJECT} names. A project URL names its id ({@code g-p-<32 hex>}, the
 * {@code -<name>} after it optional: REAL-PAGE row 23); a name matches
 * the slug the page derives from it ({@code g-p-<id>-<name-slug>}: the name lower-cased, every
 * run of other characters one hyphen), as the whole slug or its end.
 */
final class ProjectMatch {
  private ProjectMatch() {}

  /** A project slug's id part: its 32 hex digits, when it starts with them (the name after them is optional). */
  private static String id(String slug) {
    return slug.matches("(?i)[0-9a-f]{32}(?:-.*)?") ? slug.substring(0, 32).toLowerCase(Locale.ROOT) : slug;
  }

  /** Why a conversation is not where {@code place} opens new ones (so it must not be resumed), or null. */
  static String misplaced(Conversation conversation, ConversationPlace place) {
    if (place instanceof ConversationPlace.Project project) {
      if (conversation.project() == null) {
        return "the conversation is not in the project " + project.nameOrUrl() + " (SOLWEBD_PROJECT)";
      }
      if (!matches(project.nameOrUrl(), conversation.project())) {
        return "the conversation is in the project " + conversation.project() + ", not in " + project.nameOrUrl()
            + " (SOLWEBD_PROJECT)";
      }
      return null;
    }
    if (place instanceof ConversationPlace.Temporary && !conversation.temporary()) {
      return "the conversation is not a temporary chat (SOLWEBD_TEMPORARY=1)";
    }
    return null;
  }

  static boolean matches(String nameOrUrl, String slug) {
    String named = Conversation.projectOf(nameOrUrl);
    if (named != null) {
      return id(named).equals(id(slug)); // the slug after the id is optional (REAL-PAGE row 23)
    }
    String name = nameOrUrl.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    String lower = slug.toLowerCase(Locale.ROOT);
    return !name.isEmpty() && (lower.equals(name) || lower.endsWith("-" + name));
  }
}
