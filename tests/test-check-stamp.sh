#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/check-stamp with a fake check (a script that counts its runs and
# passes or fails as told), in a toy checkout that carries a copy of
# tools/ and the Makefile, committed: a pass is remembered for the same
# series and tools commits and the same command; make mbox's form (no
# --again) then skips the check, make check's (--again) runs it. A new
# commit of the series or of the tools, uncommitted changes, a failure,
# another command or a change while the check runs: the check runs (and
# the pass is not remembered where the key is not sure).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

co=$tmp/checkout
mkdir -p "$co/core-patches" "$co/kunit"
cp -r "$here/../tools" "$here/../Makefile" "$co/"
printf 'core-patches *\n' > "$co/series.conf"
printf '0001-core-a.patch\n' > "$co/core-patches/series"
echo 'a patch' > "$co/core-patches/0001-core-a.patch"
echo 'CONFIG_TOY=y' > "$co/kunit/base.config"
# the fake check: counts its runs in $tmp/runs, exits $FAKE_RC (0),
# and runs $FAKE_DURING in the checkout while it "checks"
cat > "$tmp/fake-check" <<SH
#!/usr/bin/env bash
echo run >> "$tmp/runs"
echo "fake check: run \$(wc -l < "$tmp/runs")"
[ -z "\${FAKE_DURING:-}" ] || (cd "$co" && eval "\$FAKE_DURING")
exit "\${FAKE_RC:-0}"
SH
chmod +x "$tmp/fake-check"
g() { git -C "$co" "$@"; }
g init -q -b main
g add -A
g -c user.name=T -c user.email=t@kernel.org commit -qm "all" --date=2026-01-01T00:00:00Z
commit() { g -c user.name=T -c user.email=t@kernel.org commit -qam "$1"; }

export SKBPOOL_TOP=$co SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out
export SKBPOOL_BASE_INSTALLED=1.0-1~toy BASE_VERSION=1.0-1~toy
tool=$co/tools/check-stamp
runs() { wc -l < "$tmp/runs" 2>/dev/null || echo 0; }
# expect_runs NAME N: the fake check has run N times in all
expect_runs() {
	[ "$(runs)" = "$2" ] || fail "$1: the check ran $(runs) times in all, expected $2"
}

run key 0 key && has key '^series [0-9a-f]{40}$' && has key '^tools [0-9a-f]{40}$' &&
	has key '^base 1.0-1~toy$' && ok "key: the series and tools commits, the base"

# first run: the check runs, passes, the pass is remembered
run first 0 run "$tmp/fake-check" && has first 'fake check: run 1' &&
	[ -f "$tmp/out/check-stamp" ] && ok "a first pass runs the check and writes the stamp"
expect_runs first 1
# make mbox's form on the same commits: not run again, said so
if run same 0 run "$tmp/fake-check"; then
	has same "passed on series [0-9a-f]{12} with tools [0-9a-f]{12} \(.*UTC\): not run again"
	hasnt same 'fake check'
	expect_runs same 1
	ok "the same commits: the check not run again"
fi
# make check's form: runs again
run again 0 run --again "$tmp/fake-check" && has again 'fake check: run 2' &&
	ok "--again: the check runs again"
expect_runs again 2
# another command (a partial check) is another key
run other 0 run "$tmp/fake-check" --skip build && has other 'fake check: run 3' &&
	ok "another command line: the check runs"
run other-back 0 run "$tmp/fake-check" --skip build && hasnt other-back 'fake check' &&
	ok "...and is remembered under its own command line"

# a commit of the series: runs; a commit elsewhere (docs): does not
echo 'another patch' >> "$co/core-patches/0001-core-a.patch"
commit "core: change the patch"
run series 0 run "$tmp/fake-check" && has series 'fake check: run 4' &&
	ok "a new series commit: the check runs"
echo 'docs' > "$co/README"
g add README
commit "README"
run docs 0 run "$tmp/fake-check" && hasnt docs 'fake check' &&
	ok "a commit outside the series and tools: not run again"
# a commit of the tools
echo '# a comment' >> "$co/tools/mbox"
commit "tools: a comment"
run tools 0 run "$tmp/fake-check" && has tools 'fake check: run 5' &&
	ok "a new tools commit: the check runs"
# kunit/ (the build's configuration) is part of the series' key
echo 'CONFIG_TOY2=y' >> "$co/kunit/base.config"
commit "kunit: a config"
run kunit 0 run "$tmp/fake-check" && has kunit 'fake check: run 6' &&
	ok "a new kunit/ commit: the check runs"

# uncommitted changes in what the check reads: it runs, every time,
# and nothing is remembered
echo 'dirty' >> "$co/core-patches/0001-core-a.patch"
if run dirty 0 run "$tmp/fake-check"; then
	has dirty 'uncommitted changes in what the check reads: .*core-patches/0001-core-a.patch'
	has dirty 'fake check: run 7'
	run dirty2 0 run "$tmp/fake-check" && has dirty2 'fake check: run 8' &&
		ok "uncommitted changes: the check runs each time"
fi
run key-dirty 1 key && has key-dirty 'uncommitted changes' &&
	ok "key: none with uncommitted changes, said why"
g checkout -q -- core-patches
# an untracked patch file counts as a change too
echo 'new' > "$co/core-patches/0002-core-b.patch"
run untracked 0 run "$tmp/fake-check" && has untracked 'fake check: run 9' &&
	has untracked 'uncommitted changes' && ok "an untracked file in a series directory: the check runs"
rm "$co/core-patches/0002-core-b.patch"

# clean again: the pass of these commits (before the changes) counts
run clean-again 0 run "$tmp/fake-check" && hasnt clean-again 'fake check' &&
	ok "clean again: the pass of the same commits still counts"
expect_runs clean-again 9

# a failure: the exit status is the check's, and a pass is forgotten
if FAKE_RC=1 run fail 1 run --again "$tmp/fake-check"; then
	[ ! -e "$tmp/out/check-stamp" ] || fail "fail: the stamp is still there"
	run after-fail 0 run "$tmp/fake-check" && has after-fail 'fake check: run 11' &&
		ok "a failed check: its status, the earlier pass forgotten"
fi

# the checkout changes while the check runs: not remembered
FAKE_DURING='echo x >> core-patches/0001-core-a.patch; git -c user.name=T -c user.email=t@kernel.org commit -qam during' \
	run during 0 run --again "$tmp/fake-check"
has during 'the checkout changed while .* ran: its pass is not remembered'
run after-during 0 run "$tmp/fake-check" && has after-during 'fake check: run 13' &&
	ok "a commit while the check runs: the pass is not remembered"

# usage errors
run no-cmd 2 run && has no-cmd 'run: no command' && has no-cmd '^Usage: '
run no-sub 2 && has no-sub '^Usage: '
run key-extra 2 key x && has key-extra '^Usage: ' && ok "usage errors: exit 2"

[ "$fails" = 0 ]
