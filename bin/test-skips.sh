#!/usr/bin/env bash
# After ./test: counts the skipped tests in the Surefire and Failsafe reports written since the file $1 was made,
# prints them by class, and fails when SVC_REQUIRE_FULL_SUITE=1 (set by CI) and a class skipped that
# .ci/allowed-skips does not name. A developer's laptop may skip (a missing tool says why); CI may not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
since=$1
require=${SVC_REQUIRE_FULL_SUITE:-${CI:+1}}
allowed=$(grep -v '^\s*#' .ci/allowed-skips 2>/dev/null | awk 'NF {print $1}' || true)
total=0
unexplained=()
while IFS= read -r report; do
  suite=$(grep -o '<testsuite [^>]*>' "$report" | head -1)
  skipped=$(sed -n 's/.* skipped="\([0-9]*\)".*/\1/p' <<<"$suite")
  name=$(sed -n 's/.* name="\([^"]*\)".*/\1/p' <<<"$suite")
  [ -n "$skipped" ] && [ "$skipped" -gt 0 ] || continue
  total=$((total + skipped))
  echo "test: $name skipped $skipped"
  grep -qxF "${name##*.}" <<<"$allowed" || unexplained+=("$name")
done < <(find . -path '*/target/*-reports/TEST-*.xml' -newer "$since" 2>/dev/null | sort)
echo "test: $total skipped"
if [ "${require:-}" = 1 ] && [ ${#unexplained[@]} -gt 0 ]; then
  echo "test: FAILED: ${#unexplained[@]} test class(es) skipped without a reason in .ci/allowed-skips: ${unexplained[*]}" >&2
  exit 1
fi
