# Shared by the bin/ launchers: find the root, assemble a classpath, run a main class.
# Sourced, not executed. Logic lives in Java; this only assembles a classpath. Two layouts:
#   install tree (dist/target/solweb-<version>/, or the installed prefix): lib/*.jar once, and
#     lib/<module>.classpath listing that launcher's jars as @LIB@/<jar>; never Maven, never the repo.
#   source repo: <module>/target/classes + <module>/target/classpath.txt, built on first use.
# Symlinked launchers (~/.local/bin/solwebd -> <prefix>/bin/solwebd) resolve to their real root.
SOLWEB_ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"

# solweb_npm_tools NAME...: installs each pinned client tools/NAME from its lockfile (npm ci, into the
# repo, never global) when its install is missing, unfinished or older than the lockfile. npm writes
# node_modules/.package-lock.json last: a directory without it is an install that did not finish. A
# node_modules that is a symbolic link is another checkout's install: it is used, never reinstalled from here.
# bin/test, bin/demo, bin/killgate and the launchers that run a client share this one rule.
solweb_npm_tools() {
  local name tool
  for name in "$@"; do
    tool="$SOLWEB_ROOT/tools/$name"
    if [ ! -f "$tool/package-lock.json" ]; then
      echo "solweb: tools/$name has no package-lock.json" >&2
      exit 4
    fi
    [ -L "$tool/node_modules" ] && continue
    if [ -f "$tool/node_modules/.package-lock.json" ] && [ ! "$tool/package-lock.json" -nt "$tool/node_modules" ]; then
      continue
    fi
    command -v npm >/dev/null || { echo "solweb: npm is missing; install Node.js and npm (apt-get install nodejs npm)" >&2; exit 4; }
    echo "solweb: installing the pinned tools/$name from its lockfile: npm ci --prefix tools/$name" >&2
    npm ci --prefix "$tool" --no-audit --no-fund >&2 || {
      echo "solweb: npm ci --prefix tools/$name failed" >&2
      exit 4
    }
    touch "$tool/node_modules"
  done
}

# solweb_pinned_pi: installs the pinned Pi (tools/pi) if missing.
solweb_pinned_pi() {
  solweb_npm_tools pi
}

# solweb_build MODULE: builds MODULE (and what it needs) once, on first use. After changing or
# pulling sources run `mvn -B package -DskipTests` (or bin/test): launchers do not rebuild, since
# tests run them in the middle of a Maven build. An install tree is never built.
solweb_build() {
  [ -f "$SOLWEB_ROOT/lib/$1.classpath" ] && return 0
  local target="$SOLWEB_ROOT/$1/target"
  if [ ! -f "$target/classpath.txt" ] || [ ! -d "$target/classes" ]; then
    if [ ! -f "$SOLWEB_ROOT/pom.xml" ]; then
      echo "solweb: $SOLWEB_ROOT is neither an install tree (no lib/$1.classpath) nor the source repo" >&2
      exit 3
    fi
    echo "solweb: building $1 (first run)..." >&2
    (cd "$SOLWEB_ROOT" && mvn -B -q -pl "$1" -am package -DskipTests >&2) || {
      echo "solweb: build failed; run 'mvn -B package -DskipTests' in $SOLWEB_ROOT to see why" >&2
      exit 3
    }
  fi
}

# solweb_classpath MODULE: sets REPLY to MODULE's runtime classpath (builds the repo if needed).
solweb_classpath() {
  local module="$1"
  local listed="$SOLWEB_ROOT/lib/$module.classpath"
  if [ -f "$listed" ]; then
    local cp
    cp="$(<"$listed")"
    REPLY="${cp//@LIB@/$SOLWEB_ROOT/lib}"
    # The Playwright driver unpacked once by bin/install (else each JVM unpacks 134 MB into /tmp).
    if [ -z "${PLAYWRIGHT_DRIVER_DIR-}" ] && [ -d "$SOLWEB_ROOT/playwright-driver" ]; then
      export PLAYWRIGHT_DRIVER_DIR="$SOLWEB_ROOT/playwright-driver"
    fi
    return 0
  fi
  solweb_build "$module"
  local target="$SOLWEB_ROOT/$module/target"
  REPLY="$target/classes:$(<"$target/classpath.txt")"
}

# solweb_java MODULE MAIN_CLASS ARGS...   (JVM options: SOLWEB_JAVA_OPTS, else the launcher's default)
solweb_java() {
  local module="$1" main="$2"; shift 2
  solweb_classpath "$module"
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  # Short-lived tools start fastest on C1 alone; the long-lived daemon sets its own options.
  # -Dsolweb.root tells solwebctl (and the installer) which tree it belongs to.
  exec "${JAVA:-java}" ${SOLWEB_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1} \
    -Dsolweb.root="$SOLWEB_ROOT" -cp "$REPLY" "$main" "$@"
}
