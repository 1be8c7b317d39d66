# Shared by the bin/ launchers: find the repo, build once if needed, run a main class.
# Sourced, not executed. Logic lives in Java; this only assembles a classpath.
SOLWEB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# solweb_pinned_pi: installs the pinned Pi (tools/pi, from its lockfile, never global) if missing.
solweb_pinned_pi() {
  if [ ! -x "$SOLWEB_ROOT/tools/pi/node_modules/.bin/pi" ]; then
    echo "solweb: installing the pinned Pi (first run): npm ci --prefix tools/pi" >&2
    command -v npm >/dev/null || { echo "solweb: npm is missing; install Node.js and npm (apt-get install nodejs npm)" >&2; exit 4; }
    npm ci --prefix "$SOLWEB_ROOT/tools/pi" --no-audit --no-fund >&2 || {
      echo "solweb: npm ci --prefix tools/pi failed" >&2
      exit 4
    }
  fi
}

# solweb_build MODULE: builds MODULE (and what it needs) once, on first use. After changing or
# pulling sources run `mvn -B package -DskipTests` (or bin/test): launchers do not rebuild, since
# tests run them in the middle of a Maven build.
solweb_build() {
  local target="$SOLWEB_ROOT/$1/target"
  if [ ! -f "$target/classpath.txt" ] || [ ! -d "$target/classes" ]; then
    echo "solweb: building $1 (first run)..." >&2
    (cd "$SOLWEB_ROOT" && mvn -B -q -pl "$1" -am package -DskipTests >&2) || {
      echo "solweb: build failed; run 'mvn -B package -DskipTests' in $SOLWEB_ROOT to see why" >&2
      exit 3
    }
  fi
}

# solweb_java MODULE MAIN_CLASS ARGS...   (JVM options: SOLWEB_JAVA_OPTS, else the launcher's default)
solweb_java() {
  local module="$1" main="$2"; shift 2
  local target="$SOLWEB_ROOT/$module/target"
  solweb_build "$module"
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  # Short-lived tools start fastest on C1 alone; the long-lived daemon sets its own options.
  exec java ${SOLWEB_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1} \
    -cp "$target/classes:$(cat "$target/classpath.txt")" "$main" "$@"
}
