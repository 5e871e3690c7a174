#!/usr/bin/env bash
# Lists what the test run left in the temporary directory (tests delete what they create: TempDirs in the kernel's
# test kit, a lab's close()). A warning, not a failure: other processes on the machine write there too. A test run
# that leaks an embedded PostgreSQL per class fills a disk within a few dozen runs; this makes such a leak visible.
set -euo pipefail
started="$1"
tmp="${TMPDIR:-/tmp}"
left=$(find "$tmp" -mindepth 1 -maxdepth 1 -newer "$started" \
    \( -name 'svc-*' -o -name 'plugin-*' -o -name 'dns-*' -o -name 'fw-*' -o -name 'ssh-*' -o -name 'onnxruntime-java*' \) \
    2>/dev/null | sort || true)
if [[ -n "$left" ]]; then
    echo "test: WARNING: the run left $(wc -l <<<"$left") entries in $tmp (a test that does not delete what it creates):"
    du -sh $left 2>/dev/null | sort -h | tail -20
fi
