#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/steps (make test's runner): each step in turn, a stop at the
# first failure, and a verdict listing every step's result and time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/steps
source "$here/lib.sh"
ok() { echo "ok: $*"; }
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out

# A make that logs its target and fails on the one named in $FAIL_ON.
cat > "$tmp/make" <<SH
#!/usr/bin/env bash
echo "\${@: -1}" >> "$tmp/made"
[ "\${@: -1}" != "\${FAIL_ON:-}" ]
SH
chmod +x "$tmp/make"
export MAKE=$tmp/make

if run pass 0 test one two three; then
	[ "$(paste -sd' ' "$tmp/made")" = "one two three" ] || fail "pass: made $(cat "$tmp/made")"
	has pass '^  one +ok +0 min 0[0-9] s$'
	has pass '^  three +ok '
	last pass "$(tail -n 1 "$tmp/out/test-steps.txt")"
	has pass '^test: passed, 3 step\(s\) in 0 min'
	ok "every step run in order, each with its time, then the verdict"
fi
rm -f "$tmp/made"
if FAIL_ON=two run failing 1 test one two three; then
	[ "$(paste -sd' ' "$tmp/made")" = "one two" ] || fail "failing: made $(cat "$tmp/made")"
	has failing '^  two +FAILED +0 min 0[0-9] s \(exit 1\)$'
	has failing '^  three +not run'
	has failing "^test: FAILED at 'two' after"
	ok "stops at the failing step, names it, lists what did not run"
fi
run usage 2 test
has usage '^Usage: steps NAME TARGET'
[ "$fails" = 0 ]
