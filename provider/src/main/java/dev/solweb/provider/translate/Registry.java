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
 * Session key to managed conversation. Persisted (when given a file) atomically after every
 * change, so a restarted daemon continues a conversation instead of replaying it. A corrupt file
 * fails closed to replay: it is set aside and the registry starts empty. Prompts and transcripts
 * are never written. Thread-safe.
 */
public final class Registry {
  private static final Logger LOG = Logger.getLogger(Registry.class.getName());
  private static final ObjectMapper JSON = Json.MAPPER;

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
          registry.conversations.put(conversation.sessionKey(), conversation);
        }
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

  public synchronized void put(Conversation conversation) {
    conversations.put(conversation.sessionKey(), conversation);
    save();
  }

  public synchronized void markUncertain(String sessionKey) {
    Conversation conversation = conversations.get(sessionKey);
    if (conversation != null) {
      conversations.put(sessionKey, conversation.uncertain());
      save();
    }
  }

  public synchronized int size() {
    return conversations.size();
  }

  public synchronized Collection<Conversation> all() {
    return List.copyOf(conversations.values());
  }

  private void save() {
    if (file == null) {
      return;
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
    } catch (IOException e) {
      // A lost write costs a replay after restart, never a wrong conversation: the digest check
      // still guards every resume.
      LOG.warning("could not write registry " + file + ": " + e.getMessage());
    }
  }
}
