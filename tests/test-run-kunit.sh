#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/run-kunit in front of a fake kunit.py (in a fake tree) that
# records its command line and plays a run: the JSON and kernel log it
# is given, and an exit status. Checks what each cell asks kunit.py for
# (subcommand, the cell's fragments, --arch, the qemu config and
# timeout of the qemu cells, the build directory, ccache, no --jobs:
# kunit.py's default is the CPUs this process may run on, as nproc's),
# the qemu wrapper first on PATH for the qemu cells only, what is
# written to out/, and the verdict: a clean run passes; a splat in the
# log, a suite missing from the JSON, kunit.py failing, no kernel log,
# the wrong number of CPUs each fail the cell, saying why; --build-only
# builds and writes nothing to out/. No kernel is built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tool=$top/tools/run-kunit
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out SKBPOOL_RESULTS=$tmp/results
unset SKBPOOL_TOP
# rec FILTER: the uml cell's entry in results/kunit.json, through jq
rec() { jq -c ".cells.uml | $1" "$SKBPOOL_RESULTS/kunit.json" 2>&1 || true; }
kunit_dir=$SKBPOOL_CACHE/tree/tools/testing/kunit
mkdir -p "$SKBPOOL_CACHE/tree/.git" "$kunit_dir"
# The fake kunit.py: its argv, one a line, and the qemu it would run
# (QEMU=, as shutil.which finds it on PATH) to $FAKE_ARGS; 'run' copies $FAKE_JSON to --json= and $FAKE_LOG to the
# build directory's test.log (each when set), prints a summary line;
# exits $FAKE_RC.
cat > "$kunit_dir/kunit.py" <<'PY'
import os
import shutil
import sys

opts = dict(a.split('=', 1) for a in sys.argv[2:] if a.startswith('--') and '=' in a)
with open(os.environ['FAKE_ARGS'], 'w') as f:
    f.write('\n'.join(sys.argv[1:]) + '\n')
    f.write(f"QEMU={shutil.which('qemu-system-x86_64')}\n")
if sys.argv[1] == 'run':
    if os.environ.get('FAKE_JSON'):
        shutil.copy(os.environ['FAKE_JSON'], opts['--json'])
    if os.environ.get('FAKE_LOG'):
        shutil.copy(os.environ['FAKE_LOG'], os.path.join(opts['--build_dir'], 'test.log'))
    print('fake kunit.py: Testing complete.')
sys.exit(int(os.environ.get('FAKE_RC', '0')))
PY
export FAKE_ARGS=$tmp/args
unset FAKE_JSON FAKE_LOG FAKE_RC

# JSON as kunit.py --json writes it: every suite of kunit/expected with
# its count of passing cases (json SKIP-SUITE: that suite left out)
json() {
	python3 - "$top/kunit/expected" "${1:-}" <<'PY'
import json
import sys
groups = []
for line in open(sys.argv[1]):
    w = line.split()
    if not w or w[0].startswith('#') or w[0] == sys.argv[2]:
        continue
    groups.append({'name': w[0], 'sub_groups': [], 'test_cases': [
        {'name': f'case_{i}', 'status': 'PASS'} for i in range(int(w[1]))]})
print(json.dumps({'name': 'main', 'sub_groups': groups, 'test_cases': []}))
PY
}
json > "$tmp/good.json"
json tun > "$tmp/no-tun.json"
# kernel logs: real ones; a 2-CPU one with a case skipped for want of a CPU
cp "$here/data/uml-clean.log" "$tmp/uml.log"
cp "$here/data/uml-warn-on.log" "$tmp/uml-warn.log"
cp "$here/data/rt73-clean.log" "$tmp/rt.log"
{ cat "$tmp/rt.log"; echo '        ok 12 x # SKIP needs a second online CPU'; } > "$tmp/rt-skip.log"

# arg NAME LINE: kunit.py got LINE as an argument (or QEMU=...)
arg() { grep -qxF -- "$2" "$FAKE_ARGS" || fail "$1: kunit.py did not get '$2': $(paste -sd ' ' "$FAKE_ARGS")"; }
noarg() { ! grep -qE -- "$2" "$FAKE_ARGS" || fail "$1: kunit.py got /$2/: $(paste -sd ' ' "$FAKE_ARGS")"; }

# a clean UML run
if FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/uml.log run uml 0 uml; then
	f0=$fails
	arg uml run
	for f in base debug kasan uml; do arg uml "--kunitconfig=$top/kunit/$f.config"; done
	arg uml --arch=um
	arg uml "--build_dir=$SKBPOOL_CACHE/build/uml"
	arg uml "--make_options=CC=ccache gcc"
	arg uml "--json=$SKBPOOL_OUT/kunit-uml.json"
	noarg uml '^--jobs'
	noarg uml '^--timeout'
	noarg uml '^--kunitconfig=.*/(rt|checkers|userspace|preempt)\.config$'
	noarg uml '^QEMU=.*/qemu-shim/'
	has uml '^fake kunit.py: Testing complete\.$'
	has uml '^scan-splats: 0 splats in '
	has uml '^[0-9]+ passed, 0 failed'
	has uml '^run-kunit: cell uml passed '
	cmp -s "$tmp/good.json" "$SKBPOOL_OUT/kunit-uml.json" || fail "uml: out/kunit-uml.json is not kunit.py's"
	cmp -s "$tmp/uml.log" "$SKBPOOL_OUT/kunit-uml.log" || fail "uml: out/kunit-uml.log is not the kernel's"
	grep -q 'Testing complete' "$SKBPOOL_OUT/kunit-uml.txt" || fail "uml: out/kunit-uml.txt is not kunit.py's output"
	[ "$fails" != "$f0" ] ||
		ok "uml: kunit.py run with the cell's fragments, --arch=um, no --jobs; out/ written; passed"
	# recorded for the README's matrix, with the suites' counts
	total=$(awk '!/^#/ && NF == 2 { n += $2 } END { print n }' "$top/kunit/expected")
	got=$(rec '[.cases, .passed, .failed, .skipped, .splats, .arch, .command, .suites.tun.expected == .suites.tun.cases]')
	if [ "$got" = "[$total,$total,0,0,\"0\",\"x86_64 (qemu TCG)\",\"make kunit-uml\",true]" ] &&
	   has uml "^run-kunit: cell uml: recorded in $SKBPOOL_RESULTS/kunit.json"; then
		ok "uml: the run recorded in results/kunit.json (cases, suites, splats)"
	else
		fail "uml: results/kunit.json: $got"
	fi
fi

# the qemu cells: their fragments, the qemu config, the timeout, the
# wrapper first on PATH
for cell in rt x86_64; do
	case $cell in
	rt) frags="base debug rt checkers" ;;
	x86_64) frags="base debug kasan userspace preempt" ;;
	esac
	if FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/rt.log run "$cell" 0 "$cell"; then
		f0=$fails
		for f in $frags; do arg "$cell" "--kunitconfig=$top/kunit/$f.config"; done
		arg "$cell" --arch=x86_64
		arg "$cell" "--qemu_config=$top/kunit/qemu/x86_64_smp2.py"
		arg "$cell" --timeout=1800
		arg "$cell" "QEMU=$top/tools/qemu-shim/qemu-system-x86_64"
		noarg "$cell" '^--jobs'
		has "$cell" "^run-kunit: cell $cell passed "
		[ "$fails" != "$f0" ] ||
			ok "$cell: its fragments, x86_64 with the qemu config and timeout, tools/qemu-shim on PATH; passed"
	fi
done

# extra arguments go to kunit.py run, after the cell's
FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/uml.log run extra 0 uml 'skb_pool.*' &&
	[ "$(sed -n '$!p' "$FAKE_ARGS" | tail -n 1)" = 'skb_pool.*' ] &&
	ok "extra arguments: last, to kunit.py run" || fail "extra: $(paste -sd ' ' "$FAKE_ARGS")"

hasnt extra 'recorded in' && ok "a run narrowed by kunit.py options: not recorded"

# the failures
if FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/uml-warn.log run splat 1 uml; then
	has splat '^scan-splats: 1 splat\(s\) in '
	has splat '^run-kunit: cell uml FAILED '
	[ "$(rec .splats)" = '"1"' ] || fail "splat: results/kunit.json says splats $(rec .splats)"
	ok "a splat in the log: the cell fails, though every case passed"
fi
if FAKE_JSON=$tmp/no-tun.json FAKE_LOG=$tmp/uml.log run missing 1 uml; then
	has missing 'suite tun: missing'
	has missing '^run-kunit: cell uml FAILED '
	ok "a suite missing from the JSON: the cell fails"
fi
if FAKE_RC=1 FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/uml.log run kunit-fails 1 uml; then
	has kunit-fails '^run-kunit: kunit.py exited 1$'
	has kunit-fails '^run-kunit: cell uml FAILED '
	ok "kunit.py failing: the cell fails"
fi
if FAKE_RC=1 run no-log 1 uml; then
	has no-log '^run-kunit: no kernel log: the kernel did not build or did not run$'
	[ ! -e "$SKBPOOL_OUT/kunit-uml.log" ] || fail "no-log: an old kunit-uml.log left in out/"
	ok "no kernel log: the cell fails, said so, no stale log left"
fi
if FAKE_LOG=$tmp/uml.log run no-json 1 uml; then
	has no-json "^run-kunit: kunit.py wrote no JSON "
	ok "no JSON: the cell fails"
fi
# a qemu cell whose kernel brought up one CPU, or where a case skipped
# for want of a second
if FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/uml.log run one-cpu 1 x86_64; then
	has one-cpu '^run-kunit: the kernel did not bring up 2 CPUs$'
	ok "a qemu cell on one CPU: fails"
fi
if FAKE_JSON=$tmp/good.json FAKE_LOG=$tmp/rt-skip.log run cpu-skip 1 rt; then
	has cpu-skip '^run-kunit: a case skipped for want of a second CPU on 2 CPUs$'
	ok "a qemu cell where a case skipped for want of a second CPU: fails"
fi

# --build-only: kunit.py build, same configuration, nothing in out/
rm -rf "$SKBPOOL_OUT"
if run build-only 0 --build-only uml; then
	f0=$fails
	[ "$(head -n 1 "$FAKE_ARGS")" = build ] || fail "build-only: not 'kunit.py build': $(paste -sd ' ' "$FAKE_ARGS")"
	for f in base debug kasan uml; do arg build-only "--kunitconfig=$top/kunit/$f.config"; done
	arg build-only "--build_dir=$SKBPOOL_CACHE/build/uml"
	noarg build-only '^--json'
	has build-only "^run-kunit: cell uml: kernel built in $SKBPOOL_CACHE/build/uml$"
	[ -z "$(ls -A "$SKBPOOL_OUT" 2>/dev/null)" ] || fail "build-only: wrote $(ls "$SKBPOOL_OUT")"
	[ "$fails" != "$f0" ] || ok "--build-only: kunit.py build, nothing in out/"
fi
FAKE_RC=2 run build-fails 1 --build-only uml &&
	has build-fails '^run-kunit: error: cell uml: kunit.py build exited 2$' &&
	ok "--build-only: kunit.py build failing is an error"

# no tree
rm -rf "$SKBPOOL_CACHE/tree/.git"
run no-tree 1 uml && has no-tree "^run-kunit: error: no tree at $SKBPOOL_CACHE/tree: run 'make tree'$" &&
	ok "no tree: said what to do"
run bad-cell 2 arm && has bad-cell '^Usage: ' && ok "an unknown cell: a usage error"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "run-kunit"
