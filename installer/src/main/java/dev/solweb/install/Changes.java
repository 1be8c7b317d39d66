package dev.solweb.install;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every change the installer makes goes through here: it is printed (one line per step), done
 * unless this is a dry run, and recorded in the manifest. Ownership rule: a path is the
 * installer's to replace only when the manifest records it and it still holds what was recorded;
 * anything else is the user's and is backed up first (once: an earlier backup is never overwritten).
 */
final class Changes {
  private final PrintWriter out;
  private final boolean dryRun;
  private final Manifest manifest;
  private final Layout layout;
  private final Set<Path> touched = new HashSet<>();
  private final List<String> failures = new ArrayList<>();
  private int changed;
  private int unchanged;

  Changes(PrintWriter out, boolean dryRun, Manifest manifest, Layout layout) {
    this.out = out;
    this.dryRun = dryRun;
    this.manifest = manifest;
    this.layout = layout;
  }

  boolean dryRun() {
    return dryRun;
  }

  Manifest manifest() {
    return manifest;
  }

  void say(String verb, Path path, String detail) {
    out.println("install: " + (dryRun && isChange(verb) ? "would " : "") + verb + " " + path
        + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
    out.flush();
    if (isChange(verb)) {
      changed++;
    } else if (verb.equals("unchanged")) {
      unchanged++;
    }
  }

  void note(String line) {
    out.println("install: " + line);
    out.flush();
  }

  void fail(StepFailed e) {
    failures.add(e.getMessage());
    out.println("install: FAILED " + e.getMessage());
    out.flush();
  }

  List<String> failures() {
    return failures;
  }

  int changed() {
    return changed;
  }

  int unchanged() {
    return unchanged;
  }

  /** Keeps a prior entry that this run did not redo (a skipped step), so it is not taken as stale. */
  void keep(Path path) {
    touched.add(path);
  }

  boolean wasTouched(Path path) {
    return touched.contains(path);
  }

  private static boolean isChange(String verb) {
    return !verb.equals("unchanged") && !verb.equals("skip") && !verb.equals("keep");
  }

  /** Creates the missing directories down to {@code dir}, recording each one created. */
  void mkdirs(Path dir) throws IOException {
    List<Path> missing = new ArrayList<>();
    for (Path d = dir; d != null && !Files.exists(d); d = d.getParent()) {
      missing.add(0, d);
    }
    for (Path d : missing) {
      say("mkdir", d, null);
      if (!dryRun) {
        Files.createDirectory(d);
      }
      record(new Entry(Entry.Kind.DIR, d, null, null, null));
    }
    for (Path d = dir; d != null; d = d.getParent()) {
      if (manifest.get(d).filter(e -> e.kind() == Entry.Kind.DIR).isPresent()) {
        touched.add(d);
      }
    }
  }

  /** Copies one file of the tree to {@code to} (bytes and mode), unless it is already there. */
  void copyFile(Path from, Path to) throws IOException, StepFailed {
    Optional<Entry> prior = manifest.get(to);
    if (Files2.sameFile(from, to)) {
      String sha = prior.filter(e -> e.sha256() != null).map(Entry::sha256).orElse(null);
      say("unchanged", to, null);
      record(new Entry(Entry.Kind.FILE, to, sha != null ? sha : Files2.sha256(to), null,
          prior.map(Entry::backup).orElse(null)));
      return;
    }
    Path backup = displace(to, prior, "replace");
    if (!Files2.exists(to)) {
      mkdirs(to.getParent());
      say("copy", to, null);
    }
    if (!dryRun) {
      Path tmp = to.resolveSibling(".install-" + to.getFileName());
      Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
      Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    record(new Entry(Entry.Kind.FILE, to, Files2.sha256(from), null, backup));
  }

  /** Makes {@code link} a symlink to {@code target}. */
  void link(Path link, Path target) throws IOException, StepFailed {
    Optional<Entry> prior = manifest.get(link);
    if (Files2.linksTo(link, target.toString())) {
      say("unchanged", link, "-> " + target);
      record(new Entry(Entry.Kind.LINK, link, null, target.toString(), prior.map(Entry::backup).orElse(null)));
      return;
    }
    Path backup = displace(link, prior, "relink");
    if (!Files2.exists(link) || dryRun) {
      mkdirs(link.getParent());
      say("link", link, "-> " + target);
    }
    if (!dryRun) {
      Files.createSymbolicLink(link, target);
    }
    record(new Entry(Entry.Kind.LINK, link, null, target.toString(), backup));
  }

  /** Rewrites the user's file in place (through any symlink, keeping its mode) with a backup copy first. */
  void rewrite(Path file, byte[] bytes, String why) throws IOException, StepFailed {
    Optional<Entry> prior = manifest.get(file);
    Path backup = prior.map(Entry::backup).orElse(null);
    boolean ours = prior.isPresent() && prior.get().kind() == Entry.Kind.MERGED && Files2.stillOurs(prior.get());
    if (!ours) {
      if (backup != null) {
        throw new StepFailed(file + " changed since the last install and its earlier backup " + backup
            + " is still kept; move one of them away, then install again");
      }
      backup = layout.backupOf(file);
      mkdirs(backup.getParent());
      say("backup", file, "copy kept at " + backup);
      if (!dryRun) {
        Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      }
    }
    say("merge", file, why);
    if (!dryRun) {
      Files.write(file, bytes);
    }
    record(new Entry(Entry.Kind.MERGED, file, Files2.sha256(bytes), null, backup));
  }

  /**
   * Merges keys into the user's settings file (creating it when absent), an existing file backed
   * up once first; {@code record} says which keys and what they held (see {@link PiSettings}).
   */
  void mergeKeys(Path file, byte[] bytes, String record, String why) throws IOException, StepFailed {
    Optional<Entry> prior = manifest.get(file).filter(e -> e.kind() == Entry.Kind.SETTINGS);
    Path backup = prior.map(Entry::backup).orElse(null);
    boolean exists = Files2.exists(file);
    if (exists && backup == null && prior.isEmpty()) {
      backup = layout.backupOf(file);
      if (Files2.exists(backup)) {
        throw new StepFailed(file + ": an earlier backup " + backup + " is still kept; move it away, then install again");
      }
      mkdirs(backup.getParent());
      say("backup", file, "copy kept at " + backup);
      if (!dryRun) {
        Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      }
    }
    if (!exists) {
      mkdirs(file.getParent());
    }
    say(exists ? "merge" : "create", file, why);
    if (!dryRun) {
      Files.write(file, bytes);
    }
    record(new Entry(Entry.Kind.SETTINGS, file, Files2.sha256(bytes), record, backup));
  }

  /**
   * Puts {@code bytes} at {@code file}: a new file where there was none (recorded as created, so
   * uninstall deletes it), our earlier one rewritten, or the user's own file merged with a backup.
   */
  void create(Path file, byte[] bytes, String why) throws IOException, StepFailed {
    Optional<Entry> prior = manifest.get(file);
    boolean ours = prior.isPresent() && prior.get().kind() == Entry.Kind.CREATED && Files2.stillOurs(prior.get());
    if (Files2.exists(file) && !ours) {
      rewrite(file, bytes, why);
      return;
    }
    if (ours && Files2.sha256(bytes).equals(prior.get().sha256())) {
      say("unchanged", file, why);
    } else {
      mkdirs(file.getParent());
      say(ours ? "rewrite" : "create", file, why);
      if (!dryRun) {
        Files.write(file, bytes);
      }
    }
    record(new Entry(Entry.Kind.CREATED, file, Files2.sha256(bytes), null, null));
  }

  /** Records a file changed by a verb the installer ran (sw install-ccr), with the backup taken before. */
  void recordExternal(Entry entry) {
    record(entry);
  }

  /**
   * Clears {@code path} for a new file or link: ours (as recorded) is removed; the user's is moved
   * to the backups (symlinks as symlinks), once. Returns the backup to record, or null.
   */
  Path displace(Path path, Optional<Entry> prior, String verb) throws IOException, StepFailed {
    Path backup = prior.map(Entry::backup).orElse(null);
    if (!Files2.exists(path)) {
      return backup;
    }
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      throw new StepFailed(path + " is a directory; the installer replaces only files and links");
    }
    if (prior.isPresent() && Files2.stillOurs(prior.get())) {
      say(verb, path, "installed earlier");
      if (!dryRun) {
        Files.delete(path);
      }
      return backup;
    }
    if (backup != null) {
      throw new StepFailed(path + " changed since the last install and its earlier backup " + backup
          + " is still kept; move one of them away, then install again");
    }
    Path to = layout.backupOf(path);
    mkdirs(to.getParent());
    say("backup", path, "moved to " + to);
    if (!dryRun) {
      Files.move(path, to, LinkOption.NOFOLLOW_LINKS);
    }
    return to;
  }

  private void record(Entry entry) {
    touched.add(entry.path());
    if (!dryRun) {
      manifest.put(entry);
    }
  }
}
