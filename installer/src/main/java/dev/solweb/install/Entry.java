package dev.solweb.install;

import java.nio.file.Path;

/**
 * One thing the installer put in place, as recorded in the manifest, so {@code --uninstall}
 * removes exactly it and restores what it displaced.
 *
 * @param kind what was done (see {@link Kind})
 * @param path the absolute path it was done to
 * @param sha256 for FILE, MERGED and CREATED: the SHA-256 of the bytes the installer wrote
 * @param target for LINK: the symlink's target; for TREE: the stamp of what was unpacked; for
 *     SETTINGS: which keys were merged, with the value each held before ({@link PiSettings})
 * @param backup the displaced original (a file or symlink moved/copied under the prefix), or null
 */
public record Entry(Kind kind, Path path, String sha256, String target, Path backup) {

  public enum Kind {
    /** A directory the installer created (removed at uninstall when empty). */
    DIR,
    /** A file of the install tree copied under the prefix. */
    FILE,
    /** A symlink to something under the prefix. */
    LINK,
    /** A file of the user's rewritten in place (a provider merged in); the backup is the original. */
    MERGED,
    /** A config file the installer (or a verb it ran) created where none was. */
    CREATED,
    /** A directory generated wholesale (the unpacked Playwright driver); removed recursively. */
    TREE,
    /** Keys merged into a settings file the user and Pi keep editing; taken back key by key. */
    SETTINGS
  }

  public Entry withBackup(Path newBackup) {
    return new Entry(kind, path, sha256, target, newBackup);
  }
}
