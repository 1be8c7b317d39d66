package dev.solweb.provider.translate;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Session key to managed conversation, durable under the daemon home (all mode 0600, in 0700
 * directories):
 *
 * <ul>
 *   <li>{@code registry.json}: every conversation's URL, effort, delivered count and digest,
 *       status and estimates (no prompt text), rewritten atomically after every change;
 *   <li>{@code registry.in-flight/<key>}: one small file per conversation with a Send in flight,
 *       written before Send and removed once the outcome is recorded; a daemon that finds one at
 *       start loads that conversation as {@code uncertain}, so its next turn replays into a fresh
 *       conversation and nothing is typed twice into one;
 *   <li>{@code registry.answers/<key>.json}: the answer to the conversation's last turn, so an
 *       identical re-send is answered without typing across restarts. The only text kept.
 * </ul>
 *
 * <p>A corrupt {@code registry.json} fails closed to replay: it is set aside and the registry
 * starts empty. Bounded: at most {@link #MAX_CONVERSATIONS} entries that are not tombstones, the
 * least recently changed dropped first with its files, and at most {@link #MAX_TOMBSTONES}
 * tombstones, the oldest dropped first. The two bounds are separate so tombstones never push out
 * a live conversation, and live ones never push out a recent tombstone. Dropping an old
 * tombstone cannot revive its conversation: nothing else names that URL, so its session's next
 * request is a session not seen before (a fresh conversation), and the URL itself shows the
 * page's not-found state (a resume of it would replay). While a tombstone is kept, no entry with
 * its URL is ever stored over it ({@link #put}).
 *
 * <p>Temporary chats ({@code SOLWEBD_TEMPORARY}) live only as long as their page: a registry
 * loaded at start marks every temporary entry {@code expired}, so it is replayed and
 * {@code solwebctl conversations list} says why. Thread-safe.
 */
final class Registry {
  private static final Logger LOG = Logger.getLogger(Registry.class.getName());
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final Pattern SAFE_KEY = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  static final int MAX_CONVERSATIONS = 1000;
  static final int MAX_TOMBSTONES = 1000;

  private final Map<String, Conversation> conversations = new LinkedHashMap<>();
  private final Path file;
  private final Path inFlightDir;
  private final Path answersDir;
  private final boolean readOnly;

  private Registry(Path file, boolean readOnly) {
    this.file = file;
    this.readOnly = readOnly;
    this.inFlightDir = file == null ? null : file.resolveSibling(file.getFileName().toString().replace(".json", "") + ".in-flight");
    this.answersDir = file == null ? null : file.resolveSibling(file.getFileName().toString().replace(".json", "") + ".answers");
  }

  static Registry inMemory() {
    return new Registry(null, false);
  }

  /** Loads {@code file} (and its in-flight marks and answers) if it exists; a file that does not parse is renamed {@code *.corrupt}. */
  static Registry persistent(Path file) {
    return load(file, false);
  }

  /**
   * The entries of {@code file} as a daemon starting now would see them (in-flight marks read
   * as uncertain, temporary chats as expired), without writing anything: what
   * {@code solwebctl conversations list} reads while no daemon runs. A file that does not parse
   * reads as empty and stays where it is.
   */
  static List<Conversation> snapshot(Path file) {
    return List.copyOf(load(file, true).all());
  }

  private static Registry load(Path file, boolean readOnly) {
    Registry registry = new Registry(file, readOnly);
    if (Files.exists(file)) {
      try {
        List<Conversation> loaded = JSON.readValue(file.toFile(), new TypeReference<List<Conversation>>() {});
        for (Conversation conversation : loaded) {
          if (conversation == null || conversation.sessionKey() == null || conversation.url() == null
              || conversation.effort() == null || conversation.deliveredDigest() == null || conversation.status() == null) {
            throw new IOException("an entry lacks a required field");
          }
          registry.conversations.put(conversation.sessionKey(), registry.withStoredAnswer(conversation));
        }
        registry.trim();
      } catch (IOException e) {
        registry.conversations.clear();
        if (readOnly) {
          LOG.warning("registry " + file + " is unreadable (" + e.getMessage() + ")");
          return registry;
        }
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
    registry.settleInFlight();
    return registry;
  }

  /**
   * Records that the page no longer holds {@code url}, the conversation of {@code sessionKey}:
   * its entry becomes a tombstone ({@link Conversation#tombstone}). Nothing changes when the
   * entry meanwhile names another URL (a newer conversation of that session is not deleted) or
   * is a tombstone already.
   *
   * @return the tombstone, or empty when nothing was recorded
   */
  synchronized Optional<Conversation> tombstone(String sessionKey, String url, long atEpochSecond) {
    Conversation current = conversations.get(sessionKey);
    if (current == null || !current.url().equals(url) || current.status() == Conversation.Status.DELETED) {
      return Optional.empty();
    }
    Conversation tombstone = current.tombstone(atEpochSecond);
    put(tombstone);
    return Optional.of(tombstone);
  }

  synchronized Optional<Conversation> get(String sessionKey) {
    return Optional.ofNullable(conversations.get(sessionKey));
  }

  /**
   * Stores {@code conversation} (and its answer), on disk (when persistent) before returning, and
   * clears its in-flight mark unless it is itself {@code in_flight}.
   *
   * @return false when a file could not be written (the change holds in memory only)
   */
  synchronized boolean put(Conversation conversation) {
    Conversation kept = conversations.get(conversation.sessionKey());
    if (revives(kept, conversation)) {
      LOG.warning("conversation " + conversation.sessionKey() + " was deleted from the page; its tombstone stays"
          + " (an entry for the same URL is never stored over it)");
      return true;
    }
    Conversation before = conversations.remove(conversation.sessionKey());
    conversations.put(conversation.sessionKey(), conversation);
    trim();
    if (file == null) {
      return true;
    }
    boolean ok = true;
    if (!Objects.equals(before == null ? null : before.lastAnswer(), conversation.lastAnswer())) {
      ok = writeAnswer(conversation);
    }
    ok &= save();
    if (conversation.status() != Conversation.Status.IN_FLIGHT) {
      deleteQuietly(keyFile(inFlightDir, conversation.sessionKey(), ""));
    }
    return ok;
  }

  /**
   * Marks {@code conversation} (status {@code in_flight}) before a Send: the small mark file
   * first, then the entry in memory. {@link #put} of the recorded outcome clears it.
   *
   * @return false when the mark could not be written: the caller must not send
   */
  synchronized boolean markInFlight(Conversation conversation) {
    if (conversation.status() != Conversation.Status.IN_FLIGHT) {
      throw new IllegalArgumentException("an in-flight mark needs status in_flight, got " + conversation.status());
    }
    if (file != null) {
      Path mark = keyFile(inFlightDir, conversation.sessionKey(), "");
      try {
        createPrivateDirectory(inFlightDir);
        // Its existence is the mark (the digest inside is for a reader): no rename needed.
        Files.deleteIfExists(mark);
        Files.createFile(mark, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(mark, conversation.inFlight() == null ? "" : conversation.inFlight());
      } catch (IOException e) {
        LOG.warning("could not write the in-flight mark " + mark + ": " + e.getMessage());
        return false;
      }
    }
    conversations.remove(conversation.sessionKey());
    conversations.put(conversation.sessionKey(), conversation);
    trim();
    return true;
  }

  /**
   * Records on the in-flight mark of {@code sessionKey} what the page's own request proved at the
   * Send boundary: the user message id and the conversation URL (null while a new chat has none).
   * A daemon that finds such a mark at start can look for that message's answer in the
   * conversation instead of replaying (the mark file then holds JSON: the turn's digest, the id,
   * the URL). Nothing changes when the conversation has no send in flight.
   *
   * @return false when the mark could not be rewritten (the send is still marked; only the id is lost)
   */
  public synchronized boolean markSent(String sessionKey, String userMessageId, String conversationUrl) {
    Conversation current = conversations.get(sessionKey);
    if (current == null || current.status() != Conversation.Status.IN_FLIGHT) {
      return true;
    }
    Conversation sent = current.sent(userMessageId, conversationUrl);
    conversations.put(sessionKey, sent);
    if (file == null) {
      return true;
    }
    Path mark = keyFile(inFlightDir, sessionKey, "");
    try {
      Map<String, String> content = new LinkedHashMap<>();
      content.put("in_flight", sent.inFlight() == null ? "" : sent.inFlight());
      content.put("sent_message_id", userMessageId);
      content.put("url", sent.url());
      writePrivate(mark, JSON.writeValueAsString(content));
      // The entry too: a session's first turn has no entry in registry.json before this one.
      return save();
    } catch (IOException e) {
      LOG.warning("could not record the sent message on the in-flight mark " + mark + ": " + e.getMessage());
      return false;
    }
  }

  /** The send a mark file recorded ({@link #markSent}), if it holds one; an older mark holds the digest alone. */
  private static Optional<Map<String, String>> sentOn(Path mark) {
    try {
      String text = Files.readString(mark).strip();
      if (!text.startsWith("{")) {
        return Optional.empty();
      }
      Map<String, String> content = JSON.readValue(text, new TypeReference<Map<String, String>>() {});
      return content.get("sent_message_id") == null ? Optional.empty() : Optional.of(content);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Would storing {@code next} over {@code kept} bring a deleted conversation back? */
  private static boolean revives(Conversation kept, Conversation next) {
    return kept != null && kept.status() == Conversation.Status.DELETED && next.status() != Conversation.Status.DELETED
        && !kept.url().isEmpty() && kept.url().equals(next.url());
  }

  synchronized void remove(String sessionKey) {
    if (conversations.remove(sessionKey) != null) {
      forgetFiles(sessionKey);
      save();
    }
  }

  synchronized int size() {
    return conversations.size();
  }

  synchronized Collection<Conversation> all() {
    return List.copyOf(conversations.values());
  }

  /** Applies both bounds, each dropping its least recently changed entries first (map order). */
  private void trim() {
    long tombstones = conversations.values().stream().filter(c -> c.status() == Conversation.Status.DELETED).count();
    long live = conversations.size() - tombstones;
    for (java.util.Iterator<Map.Entry<String, Conversation>> it = conversations.entrySet().iterator();
        it.hasNext() && (live > MAX_CONVERSATIONS || tombstones > MAX_TOMBSTONES); ) {
      Map.Entry<String, Conversation> entry = it.next();
      boolean tombstone = entry.getValue().status() == Conversation.Status.DELETED;
      if (tombstone ? tombstones > MAX_TOMBSTONES : live > MAX_CONVERSATIONS) {
        it.remove();
        forgetFiles(entry.getKey());
        if (tombstone) {
          tombstones--;
        } else {
          live--;
        }
      }
    }
  }

  /**
   * Applies the marks a stopped daemon left (those conversations are uncertain now), and expires
   * the temporary chats its page held.
   */
  private void settleInFlight() {
    if (inFlightDir == null) {
      return;
    }
    boolean changed = conversations.values().stream().anyMatch(c -> c.status() == Conversation.Status.IN_FLIGHT);
    changed |= expireTemporary();
    if (!Files.isDirectory(inFlightDir)) {
      settleEntriesInFlight(changed);
      return;
    }
    try (DirectoryStream<Path> marks = Files.newDirectoryStream(inFlightDir)) {
      for (Path mark : marks) {
        String key = mark.getFileName().toString();
        Conversation conversation = conversations.get(key);
        if (conversation != null) {
          // This daemon never saw that turn end: the conversation may hold it, or half of it.
          Optional<Map<String, String>> sent = sentOn(mark);
          if (sent.isPresent()) {
            // The page's request proved the send: the answer may be in the conversation already.
            LOG.warning("conversation " + key + " had a turn in flight when the daemon stopped, past its Send;"
                + " it is uncertain and its next identical request looks for the answer in the conversation first");
            conversations.put(key, conversation.sent(sent.get().get("sent_message_id"), sent.get().get("url"))
                .uncertain());
          } else {
            LOG.warning("conversation " + key + " had a turn in flight when the daemon stopped;"
                + " it is uncertain and its next turn replays into a fresh conversation");
            conversations.put(key, conversation.uncertain());
          }
          changed = true;
        }
        if (!readOnly) {
          deleteQuietly(mark);
        }
      }
    } catch (IOException e) {
      LOG.warning("could not read the in-flight marks in " + inFlightDir + ": " + e.getMessage());
    }
    settleEntriesInFlight(changed);
  }

  private boolean expireTemporary() {
    boolean changed = false;
    for (Map.Entry<String, Conversation> entry : conversations.entrySet()) {
      Conversation c = entry.getValue();
      if (c.temporary() && c.status() != Conversation.Status.DELETED && c.status() != Conversation.Status.EXPIRED) {
        LOG.info("conversation " + entry.getKey() + " was a temporary chat of a stopped daemon; it is expired"
            + " and its next turn replays into a fresh conversation");
        entry.setValue(c.withStatus(Conversation.Status.EXPIRED));
        changed = true;
      }
    }
    return changed;
  }

  /** An entry written while its Send was in flight reads as uncertain too. */
  private void settleEntriesInFlight(boolean changed) {
    conversations.replaceAll((key, c) -> c.status() == Conversation.Status.IN_FLIGHT ? c.uncertain() : c);
    if (changed) {
      save();
    }
  }

  private Conversation withStoredAnswer(Conversation conversation) {
    Path answer = keyFile(answersDir, conversation.sessionKey(), ".json");
    if (answer == null || !Files.isRegularFile(answer)) {
      return conversation;
    }
    try {
      return conversation.withAnswer(JSON.readValue(answer.toFile(), RememberedAnswer.class));
    } catch (IOException e) {
      LOG.warning("answer " + answer + " is unreadable (" + e.getMessage() + "); that turn is not remembered");
      deleteQuietly(answer);
      return conversation;
    }
  }

  private boolean writeAnswer(Conversation conversation) {
    Path answer = keyFile(answersDir, conversation.sessionKey(), ".json");
    if (answer == null) {
      return true;
    }
    if (conversation.lastAnswer() == null) {
      deleteQuietly(answer);
      return true;
    }
    try {
      createPrivateDirectory(answersDir);
      writePrivate(answer, JSON.writeValueAsString(conversation.lastAnswer()));
      return true;
    } catch (IOException e) {
      LOG.warning("could not write the answer " + answer + ": " + e.getMessage());
      return false;
    }
  }

  private void forgetFiles(String sessionKey) {
    if (file != null && !readOnly) {
      deleteQuietly(keyFile(answersDir, sessionKey, ".json"));
      deleteQuietly(keyFile(inFlightDir, sessionKey, ""));
    }
  }

  /** The file of one key in {@code dir}; null for a key that is not a plain file name. */
  private static Path keyFile(Path dir, String sessionKey, String suffix) {
    return dir != null && SAFE_KEY.matcher(sessionKey).matches() ? dir.resolve(sessionKey + suffix) : null;
  }

  private boolean save() {
    if (file == null || readOnly) {
      return true;
    }
    try {
      List<Conversation> entries = new ArrayList<>();
      conversations.values().forEach(c -> entries.add(c.withAnswer(null)));
      writePrivate(file, JSON.writeValueAsString(entries));
      return true;
    } catch (IOException e) {
      // A lost write costs a replay after restart, never a wrong conversation: the digest check
      // still guards every resume.
      LOG.warning("could not write registry " + file + ": " + e.getMessage());
      return false;
    }
  }

  /** Replaces {@code target} atomically with a mode-0600 file holding {@code content}. */
  private static void writePrivate(Path target, String content) throws IOException {
    Path temp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.deleteIfExists(temp);
    Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(temp, content);
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void createPrivateDirectory(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
  }

  private static void deleteQuietly(Path path) {
    if (path == null) {
      return;
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.fine("could not delete " + path + ": " + e.getMessage());
    }
  }
}
