package dev.solweb.provider.translate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Which managed conversations a delete names: exact IDs (a conversation id from the URL, or a
 * session key), those idle at least {@code idleDays}, all, or those of one client session. Only registry entries can be
 * selected: an ID the registry does not hold is refused as not a managed conversation, so a
 * personal chat is never deleted by naming it.
 */
public record ConversationSelection(List<String> ids, Integer idleDays, boolean all, String clientSession) {

  public ConversationSelection {
    ids = ids == null ? List.of() : List.copyOf(ids);
    int given = (ids.isEmpty() ? 0 : 1) + (idleDays == null ? 0 : 1) + (all ? 1 : 0) + (clientSession == null ? 0 : 1);
    if (given != 1) {
      throw new IllegalArgumentException("name the conversations to delete: IDs, --idle-days N or --all (exactly one)");
    }
    if (idleDays != null && idleDays < 0) {
      throw new IllegalArgumentException("--idle-days must be 0 or more, got " + idleDays);
    }
  }

  public ConversationSelection(List<String> ids, Integer idleDays, boolean all) {
    this(ids, idleDays, all, null);
  }

  /** Every conversation whose turns carried this client-session header value (factory-gpt run --cleanup). */
  public static ConversationSelection ofClientSession(String clientSession) {
    return new ConversationSelection(List.of(), null, false, clientSession);
  }

  /**
   * The selected entries, in registry order (IDs: in the order given, each once).
   *
   * @throws IllegalArgumentException naming every ID that is not a managed conversation
   */
  public List<Conversation> select(Collection<Conversation> managed, Instant now) {
    if (all) {
      return List.copyOf(managed);
    }
    if (clientSession != null) {
      String digest = SessionKey.clientTag(clientSession);
      return managed.stream().filter(c -> digest.equals(c.clientSession())).toList();
    }
    if (idleDays != null) {
      long cutoff = now.minus(Duration.ofDays(idleDays)).getEpochSecond();
      return managed.stream().filter(c -> c.lastUsedEpochSecond() <= cutoff).toList();
    }
    List<Conversation> chosen = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String id : ids) {
      Conversation match = managed.stream()
          .filter(c -> id.equals(c.sessionKey()) || id.equals(c.conversationId()) || id.equals(c.url()))
          .findFirst().orElse(null);
      if (match == null) {
        unknown.add(id);
      } else if (chosen.stream().noneMatch(c -> Objects.equals(c.sessionKey(), match.sessionKey()))) {
        chosen.add(match);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("not a managed conversation: " + String.join(", ", unknown)
          + " (only conversations in this daemon's registry can be deleted; solwebctl conversations list shows them);"
          + " nothing was deleted");
    }
    return chosen;
  }
}
