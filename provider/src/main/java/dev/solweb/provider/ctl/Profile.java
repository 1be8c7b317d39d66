package dev.solweb.provider.ctl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * The browser profile an identity pins: canonical (symlinks resolved), an existing directory the
 * current user owns, on a local filesystem. A profile on NFS/SMB/sshfs could be opened by another
 * host's browser at the same time, so it is refused.
 */
final class Profile {

  static final Set<String> NETWORK_FILESYSTEMS = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs",
      "sshfs", "fuse.sshfs", "9p", "afs", "ceph", "glusterfs", "fuse.glusterfs", "davfs", "fuse.davfs2",
      "fuse.rclone", "lustre", "gpfs", "coda");

  private Profile() {}

  /** @throws CtlException {@link ExitCodes#REFUSED} "non-local profile: ..." */
  public static Path canonicalLocal(CtlEnv env) throws CtlException {
    Path dir = env.profileDir();
    Path real;
    try {
      real = dir.toRealPath();
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "non-local profile: " + dir + " does not exist");
    }
    try {
      if (!Files.isDirectory(real)) {
        throw new CtlException(ExitCodes.REFUSED, "non-local profile: " + real + " is not a directory");
      }
      int uid = (Integer) Files.getAttribute(real, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (uid != env.euid()) {
        throw new CtlException(ExitCodes.REFUSED,
            "non-local profile: " + real + " is owned by uid " + uid + ", not the current user");
      }
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "non-local profile: " + real + " cannot be inspected", e);
    }
    String fsType = filesystemOf(env.mountInfoFile(), real);
    if (NETWORK_FILESYSTEMS.contains(fsType)) {
      throw new CtlException(ExitCodes.REFUSED,
          "non-local profile: " + real + " is on a network filesystem (" + fsType + ")");
    }
    return real;
  }

  /** The filesystem type of the longest mount point containing {@code path}, per mountinfo. */
  static String filesystemOf(Path mountInfo, Path path) throws CtlException {
    String best = null;
    int bestLength = -1;
    try {
      for (String line : Files.readAllLines(mountInfo)) {
        String[] halves = line.split(" - ", 2);
        String[] fields = halves[0].split(" ");
        if (halves.length < 2 || fields.length < 5) {
          continue;
        }
        Path mountPoint = Path.of(unescape(fields[4]));
        int length = mountPoint.toString().length();
        if (path.startsWith(mountPoint) && length >= bestLength) {
          best = halves[1].split(" ")[0];
          bestLength = length;
        }
      }
    } catch (IOException e) {
      throw new CtlException(ExitCodes.REFUSED, "non-local profile: cannot read " + mountInfo, e);
    }
    if (best == null) {
      throw new CtlException(ExitCodes.REFUSED, "non-local profile: no mount holds " + path);
    }
    return best;
  }

  // mountinfo escapes space, tab, newline and backslash as \ooo.
  private static String unescape(String field) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
