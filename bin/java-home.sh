# Sourced by the project's scripts: exports JAVA_HOME pointing at a JDK >= 21, and SVC_JAVA_MAJOR (its major version).
# JAVA_HOME wins when it is new enough; otherwise the newest JDK under /usr/lib/jvm.
# Written with bash built-ins only: every `svc` command sources it, and each forked sed or subshell costs milliseconds.

# Sets SVC_MAJOR to the major version of the JDK in $1, read from its release file without starting a JVM
# (a JVM start costs ~100 ms); a JDK without one is asked once.
svc_read_java_major() {
  local line v=""
  SVC_MAJOR=""
  if [ -f "$1/release" ]; then
    while IFS= read -r line; do
      case "$line" in JAVA_VERSION=*) v=${line#JAVA_VERSION=}; v=${v//\"/}; break ;; esac
    done < "$1/release"
  fi
  if [ -z "$v" ]; then
    v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1)
  fi
  case "$v" in 1.*) v=${v#1.}; v=${v%%.*} ;; *) v=${v%%.*} ;; esac
  case "$v" in ''|*[!0-9]*) v=0 ;; esac
  SVC_MAJOR=$v
}
# Prints the major version of the JDK in $1.
svc_java_major() {
  svc_read_java_major "$1"
  echo "$SVC_MAJOR"
}
# Sets JAVA_HOME and SVC_JAVA_MAJOR, or says why not and fails.
svc_find_java_home() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    svc_read_java_major "$JAVA_HOME"
    if [ "$SVC_MAJOR" -ge 21 ]; then SVC_JAVA_MAJOR=$SVC_MAJOR; return 0; fi
  fi
  local best="" best_v=0 d
  for d in /usr/lib/jvm/*/; do
    d=${d%/}
    [ -x "$d/bin/javac" ] || continue
    svc_read_java_major "$d"
    if [ "$SVC_MAJOR" -gt "$best_v" ]; then best=$d; best_v=$SVC_MAJOR; fi
  done
  if [ "$best_v" -ge 21 ]; then JAVA_HOME=$best; SVC_JAVA_MAJOR=$best_v; return 0; fi
  echo "error: no JDK >= 21 found (set JAVA_HOME, or install one under /usr/lib/jvm)" >&2
  return 1
}
svc_find_java_home || exit 1
export JAVA_HOME SVC_JAVA_MAJOR
export PATH="$JAVA_HOME/bin:$PATH"
# The system Maven's bundled Guava uses sun.misc.Unsafe; keep newer JDKs from warning about it on every build.
case " ${MAVEN_OPTS:-} " in
  *unsafe-memory-access*) ;;
  *) [ "$SVC_JAVA_MAJOR" -ge 24 ] && export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
esac
true
