# Shared by the bin/ launchers: find the repo, build once if needed, run a main class.
# Sourced, not executed. Logic lives in Java; this only assembles a classpath.
SOLWEB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# solweb_java MODULE MAIN_CLASS ARGS...   (JVM options: SOLWEB_JAVA_OPTS, else the launcher's default)
solweb_java() {
  local module="$1" main="$2"; shift 2
  local target="$SOLWEB_ROOT/$module/target"
  if [ ! -f "$target/classpath.txt" ] || [ ! -d "$target/classes" ]; then
    echo "solweb: building $module (first run)..." >&2
    (cd "$SOLWEB_ROOT" && mvn -B -q -pl "$module" -am package -DskipTests >&2) || {
      echo "solweb: build failed; run 'mvn -B package -DskipTests' in $SOLWEB_ROOT to see why" >&2
      exit 3
    }
  fi
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  # Short-lived tools start fastest on C1 alone; the long-lived daemon sets its own options.
  exec java ${SOLWEB_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1} \
    -cp "$target/classes:$(cat "$target/classpath.txt")" "$main" "$@"
}
