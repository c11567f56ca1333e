#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/coverage on a toy: a kernel tree of one C file (a base commit,
# tagged, and a branch 'series' adding a function), a toy checkout
# (fragments, kunit/expected, a threshold, one build-only patch), a fake
# kunit.py that writes a .gcda file, a kernel log and a JSON, and an
# lcov whose --capture gives a fabricated tracefile of the worktree's
# file; lcov's --extract and --summary, genhtml and coverage-summary are
# the real ones. Checks what kunit.py is asked (no --jobs, the
# fragments), the worktree (series + the build-only patch), the summary
# and the HTML report, and the check of the summary's numbers against
# 'lcov --summary': an lcov that counts otherwise, or fails, fails the
# run; so does coverage under the threshold. No kernel is built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
tool=$tools/coverage
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

for c in lcov genhtml gcov git; do
	command -v "$c" >/dev/null || { echo "$c not installed (make deps installs it)"; exit 77; }
done

export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out SKBPOOL_TOP=$tmp/checkout
export SKBPOOL_BASE_INSTALLED=1.0-1~toy BASE_VERSION=1.0-1~toy
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.org
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.org
tree=$SKBPOOL_CACHE/tree wt=$SKBPOOL_CACHE/coverage-tree
t() { git -C "$tree" "$@"; }

# --- the tree: base (tagged) and branch 'series' ----------------------------

mkdir -p "$tree/net/core" "$tree/arch/um" "$tree/tools/testing/kunit"
t init -q
cat > "$tree/net/core/foo.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
int old_fn(int a);

int old_fn(int a)
{
	return a + 1;
}
C
echo 'um' > "$tree/arch/um/Makefile"
# The fake kunit.py: its argv to $FAKE_ARGS; 'run' writes a .gcda file
# for foo.c, the kernel log and a JSON of one suite of 2 passing cases
cat > "$tree/tools/testing/kunit/kunit.py" <<'PY'
import json
import os
import sys

opts = dict(a.split('=', 1) for a in sys.argv[2:] if a.startswith('--') and '=' in a)
with open(os.environ['FAKE_ARGS'], 'w') as f:
    f.write('\n'.join(sys.argv[1:]) + '\n')
build = opts['--build_dir']
os.makedirs(os.path.join(build, 'net/core'), exist_ok=True)
open(os.path.join(build, 'net/core/foo.gcda'), 'w').close()
with open(os.path.join(build, 'test.log'), 'w') as f:
    f.write('KTAP version 1\n1..1\n# toy: pass:2 fail:0 skip:0 total:2\nok 1 toy\n')
with open(opts['--json'], 'w') as f:
    json.dump({'name': 'main', 'test_cases': [], 'sub_groups': [
        {'name': 'toy', 'sub_groups': [], 'test_cases': [
            {'name': 'a', 'status': 'PASS'}, {'name': 'b', 'status': 'PASS'}]}]}, f)
print('fake kunit.py: Testing complete.')
PY
t add -A
t commit -qm base
t tag base-1.0-1_toy
t checkout -qb series
cat > "$tree/net/core/foo.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
int old_fn(int a);
int new_fn(int a);

int old_fn(int a)
{
	return a + 1;
}

int new_fn(int a)
{
	if (a)
		return old_fn(a);
	return 0;
}
C
t commit -qam "core: add new_fn"

# --- the checkout -----------------------------------------------------------

co=$SKBPOOL_TOP
mkdir -p "$co/kunit/coverage"
for f in base debug uml coverage; do echo "CONFIG_TOY_${f^^}=y" > "$co/kunit/$f.config"; done
echo 'toy 2' > "$co/kunit/expected"
printf '# toy\nthreshold 50\n' > "$co/kunit/coverage-threshold"
cat > "$co/kunit/coverage/0001-um-gcov.patch" <<'PATCH'
--- a/arch/um/Makefile
+++ b/arch/um/Makefile
@@ -1 +1,2 @@
 um
+gcov
PATCH

# --- lcov: --capture gives the fabricated tracefile -------------------------

bin=$tmp/bin
mkdir -p "$bin"
export REAL_LCOV FAKE_INFO=$tmp/capture.info
REAL_LCOV=$(command -v lcov)
# FAKE_LCOV_SUMMARY=fail: --summary fails; =other: it counts one line
# more than there is
cat > "$bin/lcov" <<'SH'
#!/usr/bin/env bash
out=
args=("$@")
for ((i = 0; i < $#; i++)); do
	case ${args[i]} in -o|--output-file) out=${args[i+1]} ;; esac
done
case " $* " in
*" --capture "*) cp "$FAKE_INFO" "$out"; exit 0 ;;
*" --summary "*)
	case ${FAKE_LCOV_SUMMARY:-} in
	fail) echo "lcov: ERROR: no valid records found in tracefile" >&2; exit 1 ;;
	other) "$REAL_LCOV" "$@" | sed -E 's/\(([0-9]+) of ([0-9]+) lines\)/(\1 of 9\2 lines)/'
	       exit "${PIPESTATUS[0]}" ;;
	esac ;;
esac
exec "$REAL_LCOV" "$@"
SH
chmod +x "$bin/lcov"
export PATH=$bin:$PATH
# new_fn: 3 of its 4 lines ran; old_fn both
cat > "$FAKE_INFO" <<EOF
TN:
SF:$wt/net/core/foo.c
FN:5,old_fn
FN:10,new_fn
FNDA:2,old_fn
FNDA:2,new_fn
FNF:2
FNH:2
DA:5,2
DA:7,2
DA:10,2
DA:12,2
DA:13,2
DA:14,0
LF:6
LH:5
end_of_record
EOF
export FAKE_ARGS=$tmp/args
cov=$SKBPOOL_OUT/coverage

# --- the runs ---------------------------------------------------------------

if run good 0; then
	f0=$fails
	grep -qx run "$FAKE_ARGS" && grep -qx -- --arch=um "$FAKE_ARGS" ||
		fail "good: not 'kunit.py run --arch=um': $(paste -sd ' ' "$FAKE_ARGS")"
	for f in base debug uml coverage; do
		grep -qxF -- "--kunitconfig=$co/kunit/$f.config" "$FAKE_ARGS" ||
			fail "good: no --kunitconfig=$co/kunit/$f.config"
	done
	! grep -q -- '^--jobs' "$FAKE_ARGS" || fail "good: --jobs given to kunit.py"
	grep -qxF gcov "$wt/arch/um/Makefile" || fail "good: the build-only patch is not in the worktree"
	grep -q '^int new_fn' "$wt/net/core/foo.c" || fail "good: the worktree is not the series"
	has good '^net/core/foo\.c +5/6 +83\.3 +2/2 +100\.0$'
	has good '^new_fn +net/core/foo\.c:10 +new +3/4 +75\.0 +2$'
	has good "^coverage: HTML report: $cov/html/index.html$"
	hasnt good 'differ|lcov --summary'
	[ -s "$cov/html/index.html" ] || fail "good: no HTML report"
	[ -s "$cov/summary.txt" ] && [ -s "$cov/coverage.info" ] && [ -s "$cov/kunit.json" ] ||
		fail "good: out/coverage lacks summary.txt, coverage.info or kunit.json"
	[ "$fails" != "$f0" ] ||
		ok "a toy series measured: kunit.py without --jobs, the summary, the report, lcov agrees"
	# the committed series' figures, recorded in the checkout
	got=$(jq -c '[.base, .series, .command, .changed.hit, .changed.found,
		.changed.unreachable, .changed.pass, .files[0].file, .files[0].lines_hit]' \
		"$co/results/coverage.json" 2>&1) || true
	if [ "$got" = "[\"1.0\",\"$(t rev-parse --short series)\",\"make coverage\",3,4,0,true,\"net/core/foo.c\",5]" ]; then
		ok "the figures recorded in results/coverage.json"
	else
		fail "results/coverage.json: $got"
	fi
fi

# lcov --summary counting otherwise: the run fails, saying where
if FAKE_LCOV_SUMMARY=other run lcov-other 1 --no-run; then
	has lcov-other "^coverage: the summary's totals \('5/6 83\.3 2/2 100\.0'\) differ from lcov --summary's \('5/96 "
	has lcov-other "^coverage: net/core/foo\.c: the summary says '5/6 83\.3 2/2 100\.0', lcov --summary '5/96 "
	has lcov-other '^coverage: error: coverage below the threshold or incomplete'
	ok "lcov --summary counting otherwise: the run fails, totals and file named"
fi
if FAKE_LCOV_SUMMARY=fail run lcov-fails 1 --no-run; then
	has lcov-fails "^coverage: lcov --summary $cov/coverage\.info failed: the summary's numbers are not checked$"
	has lcov-fails 'no valid records found'
	ok "lcov --summary failing: the run fails, said so"
fi
# under the threshold
printf 'threshold 90\n' > "$co/kunit/coverage-threshold"
if run below 1 --no-run; then
	has below '^FAIL: new and changed functions at 75\.0% of their lines, under the threshold of 90%$'
	has below '^coverage: error: coverage below the threshold'
	ok "under the threshold: fails"
fi
printf 'threshold 50\n' > "$co/kunit/coverage-threshold"
run again 0 --no-run && hasnt again 'differ' && ok "--no-run: recaptured and summarised again"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "coverage"
