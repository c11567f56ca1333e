#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/steps (make test's runner): each step in turn, a stop at the
# first failure, and a verdict listing every step's result and time; a
# target run in parallel with a step (--parallel), waited for, or stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/steps
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out

# A make that logs its target, sleeps 30 s on the one named in
# $SLOW_ON, fails on the one named in $FAIL_ON.
cat > "$tmp/make" <<SH
#!/usr/bin/env bash
echo "\${@: -1}" >> "$tmp/made"
[ "\${@: -1}" != "\${SLOW_ON:-}" ] || sleep 30
echo "niceness \$(nice)"
[ ! -r /proc/self/autogroup ] || echo "autogroup \$(cat /proc/self/autogroup)"
echo "made \${@: -1}"
[ "\${@: -1}" != "\${FAIL_ON:-}" ]
SH
chmod +x "$tmp/make"
export MAKE=$tmp/make

# A setsid that takes half a second to start: a busy machine's. A step
# that fails before it has run must still stop the target (CI once
# waited 30 s for it).
mkdir -p "$tmp/bin"
cat > "$tmp/bin/setsid" <<SH
#!/usr/bin/env bash
sleep 0.5
exec $(command -v setsid) "\$@"
SH
chmod +x "$tmp/bin/setsid"

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
rm -f "$tmp/made"
if run parallel 0 --parallel two:bg test one two three; then
	[ "$(sort "$tmp/made" | paste -sd' ')" = "bg one three two" ] || fail "parallel: made $(cat "$tmp/made")"
	has parallel '^  bg +ok +0 min 0[0-9] s \(in parallel with two\)$'
	grep -q '^made bg$' "$tmp/out/test-bg.log" || fail "parallel: no output in out/test-bg.log"
	grep -q '^niceness 15$' "$tmp/out/test-bg.log" || fail "parallel: not at nice 15: $(cat "$tmp/out/test-bg.log")"
	# a session is an autogroup, whose own nice value rules across groups
	[ ! -r /proc/self/autogroup ] || grep -q '^autogroup .* nice 15$' "$tmp/out/test-bg.log" ||
		fail "parallel: its autogroup not at nice 15: $(cat "$tmp/out/test-bg.log")"
	[ "$(grep -n '' "$tmp/out/test-steps.txt" | grep -E ' (two|bg|three) ' | cut -d: -f1 | paste -sd' ')" = "3 4 5" ] ||
		fail "parallel: the verdict does not list bg between two and three"
	ok "a target in parallel with a step: run at nice 15 (its autogroup too), waited for, its output kept, listed after the step"
fi
rm -f "$tmp/made"
if FAIL_ON='bg' run parallel-fails 1 --parallel two:bg test one two three; then
	has parallel-fails '^  bg +FAILED +.*\(in parallel with two, exit 1, log '
	has parallel-fails '^  three +not run'
	has parallel-fails "^test: FAILED at 'bg' after"
	has parallel-fails '^  bg: made bg$'
	ok "a failing target in parallel with a step fails the run, with its log's tail"
fi
rm -f "$tmp/made"
t0=$SECONDS
if PATH=$tmp/bin:$PATH SLOW_ON=bg FAIL_ON=two run parallel-stopped 1 --parallel two:bg test one two three; then
	[ $((SECONDS - t0)) -lt 20 ] || fail "parallel-stopped: took $((SECONDS - t0)) s: bg waited for"
	has parallel-stopped '^  bg +stopped +\(in parallel with two\)$'
	has parallel-stopped "^test: FAILED at 'two' after"
	! pgrep -f "$tmp/make" >/dev/null || fail "parallel-stopped: bg still running"
	ok "a target in parallel with a step that fails is stopped, not waited for"
fi
run parallel-usage 2 --parallel two test one two
has parallel-usage "^steps: --parallel wants STEP:TARGET, not 'two'"
run usage 2 test
has usage '^Usage: steps \[--parallel STEP:TARGET\]... NAME TARGET'
[ "$fails" = 0 ]
