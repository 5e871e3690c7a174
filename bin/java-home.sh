# Sourced by the project's scripts: exports JAVA_HOME pointing at a JDK >= 21.
# JAVA_HOME wins when it is new enough; otherwise the newest JDK under /usr/lib/jvm.
svc_java_major() {
  # the JDK's release file says it without starting a JVM (a JVM start costs ~100 ms on every command)
  local v=""
  if [ -f "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9.]*\).*/\1/p' "$1/release" | head -1)
    case "$v" in 1.*) v=${v#1.}; v=${v%%.*} ;; *) v=${v%%.*} ;; esac
  fi
  if [ -z "$v" ]; then
    v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1)
  fi
  echo "$v"
}
svc_find_java_home() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    local v; v=$(svc_java_major "$JAVA_HOME")
    if [ "${v:-0}" -ge 21 ] 2>/dev/null; then echo "$JAVA_HOME"; return 0; fi
  fi
  local best="" best_v=0 d v
  for d in /usr/lib/jvm/*/; do
    d=${d%/}
    [ -x "$d/bin/javac" ] || continue
    v=$(svc_java_major "$d")
    if [ "${v:-0}" -gt "$best_v" ] 2>/dev/null; then best=$d; best_v=$v; fi
  done
  if [ "$best_v" -ge 21 ]; then echo "$best"; return 0; fi
  echo "error: no JDK >= 21 found (set JAVA_HOME, or install one under /usr/lib/jvm)" >&2
  return 1
}
JAVA_HOME=$(svc_find_java_home) || exit 1
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# The system Maven's bundled Guava uses sun.misc.Unsafe; keep newer JDKs from warning about it on every build.
case " ${MAVEN_OPTS:-} " in
  *unsafe-memory-access*) ;;
  *) [ "$(svc_java_major "$JAVA_HOME")" -ge 24 ] 2>/dev/null && export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
esac
true
