package dev.solweb.provider.translate;

import dev.solweb.provider.json.Json;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Session key to managed conversation: {@code <home>/registry.json}, mode 0600. Persisted (when
 * given a file) atomically after every change, so a restarted daemon continues a conversation
 * instead of replaying it, answers an identical re-send of a last turn from memory, and knows
 * which conversations had a turn in flight when it stopped (those load as {@code uncertain}:
 * their next turn replays into a fresh conversation, so nothing is typed twice into one). A
 * corrupt file fails closed to replay: it is set aside and the registry starts empty. Prompts
 * and transcripts are never written; the one text kept per conversation is its last answer.
 * Bounded: at most {@link #MAX_CONVERSATIONS} entries, the least recently changed dropped first.
 * Thread-safe.
 */
public final class Registry {
  private static final Logger LOG = Logger.getLogger(Registry.class.getName());
  private static final ObjectMapper JSON = Json.MAPPER;
  public static final int MAX_CONVERSATIONS = 1000;

  private final Map<String, Conversation> conversations = new LinkedHashMap<>();
  private final Path file;

  private Registry(Path file) {
    this.file = file;
  }

  public static Registry inMemory() {
    return new Registry(null);
  }

  /** Loads {@code file} if it exists; a file that does not parse is renamed {@code *.corrupt}. */
  public static Registry persistent(Path file) {
    Registry registry = new Registry(file);
    if (Files.exists(file)) {
      try {
        List<Conversation> loaded = JSON.readValue(file.toFile(), new TypeReference<List<Conversation>>() {});
        for (Conversation conversation : loaded) {
          if (conversation == null || conversation.sessionKey() == null || conversation.url() == null
              || conversation.effort() == null || conversation.deliveredDigest() == null || conversation.status() == null) {
            throw new IOException("an entry lacks a required field");
          }
          if (conversation.status() == Conversation.Status.IN_FLIGHT) {
            // This daemon never saw that turn end: the conversation may hold it, or half of it.
            LOG.warning("conversation " + conversation.sessionKey() + " had a turn in flight when the daemon stopped;"
                + " it is uncertain and its next turn replays into a fresh conversation");
            conversation = conversation.uncertain();
          }
          registry.conversations.put(conversation.sessionKey(), conversation);
        }
        registry.trim();
      } catch (IOException e) {
        registry.conversations.clear();
        Path aside = file.resolveSibling(file.getFileName() + ".corrupt");
        LOG.warning("registry " + file + " is unreadable (" + e.getMessage() + "); set aside as " + aside
            + "; conversations will be replayed");
        try {
          Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException moveFailed) {
          LOG.warning("could not set aside " + file + ": " + moveFailed.getMessage());
        }
      }
    }
    return registry;
  }

  public synchronized Optional<Conversation> get(String sessionKey) {
    return Optional.ofNullable(conversations.get(sessionKey));
  }

  /**
   * Stores {@code conversation}, on disk (when persistent) before returning.
   *
   * @return false when the file could not be written (the change holds in memory only)
   */
  public synchronized boolean put(Conversation conversation) {
    conversations.remove(conversation.sessionKey());
    conversations.put(conversation.sessionKey(), conversation);
    trim();
    return save();
  }

  public synchronized void remove(String sessionKey) {
    if (conversations.remove(sessionKey) != null) {
      save();
    }
  }

  private void trim() {
    while (conversations.size() > MAX_CONVERSATIONS) {
      conversations.remove(conversations.keySet().iterator().next());
    }
  }

  public synchronized int size() {
    return conversations.size();
  }

  public synchronized Collection<Conversation> all() {
    return List.copyOf(conversations.values());
  }

  private boolean save() {
    if (file == null) {
      return true;
    }
    try {
      Path temp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(temp);
      Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      JSON.writeValue(temp.toFile(), new ArrayList<>(conversations.values()));
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    } catch (IOException e) {
      // A lost write costs a replay after restart, never a wrong conversation: the digest check
      // still guards every resume.
      LOG.warning("could not write registry " + file + ": " + e.getMessage());
      return false;
    }
  }
}
