#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/fresh-check with fakes of id, debootstrap, mount, umount,
# mountpoint and chroot (nothing is mounted, no root is built, no
# command runs in a chroot): the README's "The two commands" block gives
# the commands ('make', 'make test'), run in order in the root, each
# logged and timed in summary.txt; the root is debootstrapped once
# (minbase + git, make, ca-certificates) and unpacked anew each run; the
# binds are let go at the end, also when a command fails; a failing
# command stops the run, named with its log; debootstrap failing, no
# commands in the README and not being root are errors.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tool=$top/tools/fresh-check
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

bin=$tmp/bin
mkdir -p "$bin"
export FAKE_LOG=$tmp/calls FAKE_MOUNTS=$tmp/mounts
: > "$FAKE_MOUNTS"
# id -u: $FAKE_UID (0)
printf '#!/bin/sh\n[ "$1" = -u ] && { echo "${FAKE_UID:-0}"; exit 0; }\nexec /usr/bin/id "$@"\n' > "$bin/id"
# debootstrap ... DIR MIRROR: a root with what the tool writes into
cat > "$bin/debootstrap" <<'SH'
#!/usr/bin/env bash
echo "debootstrap $*" >> "$FAKE_LOG"
[ -z "${FAKE_DEBOOTSTRAP_FAIL:-}" ] || { echo "E: Failed getting release file"; exit 1; }
dir=${*: -2:1}
mkdir -p "$dir/etc/apt" "$dir/root" "$dir/usr/bin"
echo bookworm > "$dir/etc/debian_version"
SH
# mount --bind SRC DIR / umount DIR / mountpoint -q DIR: a list
cat > "$bin/mount" <<'SH'
#!/usr/bin/env bash
echo "mount $*" >> "$FAKE_LOG"
[ "$1" = --bind ] && [ $# = 3 ] || { echo "unexpected mount $*" >&2; exit 1; }
echo "$3" >> "$FAKE_MOUNTS"
SH
cat > "$bin/umount" <<'SH'
#!/usr/bin/env bash
echo "umount $*" >> "$FAKE_LOG"
d=${*: -1}
grep -vxF -- "$d" "$FAKE_MOUNTS" > "$FAKE_MOUNTS.new" || true
mv "$FAKE_MOUNTS.new" "$FAKE_MOUNTS"
SH
cat > "$bin/mountpoint" <<'SH'
#!/usr/bin/env bash
grep -qxF -- "${*: -1}" "$FAKE_MOUNTS"
SH
# chroot ROOT env ... bash -c 'cd /root/skbpool && CMD': says so, and
# fails (exit 2) for CMD = $FAKE_FAIL
cat > "$bin/chroot" <<'SH'
#!/usr/bin/env bash
cmd=${*: -1}
cmd=${cmd#cd /root/skbpool && }
echo "chroot $1 $cmd" >> "$FAKE_LOG"
[ -d "$1/root/skbpool/.git" ] || { echo "no clone in $1"; exit 3; }
echo "ran: $cmd"
[ "$cmd" != "${FAKE_FAIL:-}" ] || { echo "make: *** [test] Error 2"; exit 2; }
SH
chmod +x "$bin"/*
export PATH=$bin:$PATH
for c in id debootstrap mount umount mountpoint chroot; do
	[ "$(command -v "$c")" = "$bin/$c" ] ||
		{ echo "FAIL: $c is not the fake one: nothing may be mounted for real"; exit 1; }
done

# the checkout: a clone of this one's README in a git repository
co=$tmp/checkout
mkdir -p "$co"
cp "$top/README.md" "$co/"
git -C "$co" init -q
git -C "$co" -c user.name=t -c user.email=t@example.org add -A
git -C "$co" -c user.name=t -c user.email=t@example.org commit -qm readme
export SKBPOOL_TOP=$co SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out
out=$SKBPOOL_OUT/fresh-check root=$SKBPOOL_CACHE/fresh-check/root
calls() { grep -c "^$1" "$FAKE_LOG" || true; }

if run good 0; then
	f0=$fails
	[ "$(calls debootstrap)" = 1 ] || fail "good: $(calls debootstrap) debootstraps"
	grep -q '^debootstrap --variant=minbase --include=git,make,ca-certificates bookworm ' "$FAKE_LOG" ||
		fail "good: debootstrap: $(grep debootstrap "$FAKE_LOG")"
	[ "$(grep '^chroot ' "$FAKE_LOG" | cut -d' ' -f3- | paste -sd '|')" = "make|make test" ] ||
		fail "good: the commands run: $(grep '^chroot ' "$FAKE_LOG")"
	[ "$(calls 'mount --bind')" = 4 ] || fail "good: $(calls 'mount --bind') binds, not 4"
	[ ! -s "$FAKE_MOUNTS" ] || fail "good: still bound: $(cat "$FAKE_MOUNTS")"
	grep -q '^deb http://deb.debian.org/debian bookworm main$' "$root/etc/apt/sources.list" ||
		fail "good: sources.list"
	grep -Eq '^make +exit 0 in 0 min 0[0-9] s$' "$out/summary.txt" &&
		grep -Eq '^make test +exit 0 in ' "$out/summary.txt" ||
		fail "good: summary: $(cat "$out/summary.txt")"
	grep -qx 'ran: make test' "$out/2-make-test.log" || fail "good: no log 2-make-test.log"
	has good '^fresh-check: passed: the README.s commands ran cold'
	[ "$fails" != "$f0" ] ||
		ok "the README's two commands run in order in a new root, logged, timed; binds let go"
fi

: > "$FAKE_LOG"
touch "$root/leftover"
if run second 0; then
	[ "$(calls debootstrap)" = 0 ] || fail "second: debootstrapped again"
	[ ! -e "$root/leftover" ] || fail "second: the root of the last run kept"
	ok "a second run: the pristine root reused, unpacked anew"
fi

: > "$FAKE_LOG"
if FAKE_FAIL='make test' run test-fails 1; then
	has test-fails "^fresh-check: 'make test' failed in the fresh root \(log: $out/2-make-test\.log\)"
	has test-fails '^fresh-check: error: fresh-check failed$'
	grep -Eq '^make test +exit 2 in ' "$out/summary.txt" || fail "test-fails: summary: $(cat "$out/summary.txt")"
	[ ! -s "$FAKE_MOUNTS" ] || fail "test-fails: still bound: $(cat "$FAKE_MOUNTS")"
	ok "'make test' failing: the run fails, naming it and its log; binds let go"
fi
: > "$FAKE_LOG"
if FAKE_FAIL='make' run make-fails 1; then
	[ "$(grep '^chroot ' "$FAKE_LOG" | cut -d' ' -f3- | paste -sd '|')" = make ] ||
		fail "make-fails: ran $(grep '^chroot ' "$FAKE_LOG")"
	ok "'make' failing: 'make test' not run"
fi

rm -f "$SKBPOOL_CACHE/fresh-check/root.tar"
if FAKE_DEBOOTSTRAP_FAIL=1 run debootstrap-fails 1; then
	has debootstrap-fails "^fresh-check: error: debootstrap failed \(log: $out/debootstrap\.log\)$"
	has debootstrap-fails 'E: Failed getting release file'
	[ ! -e "$SKBPOOL_CACHE/fresh-check/root.tar" ] || fail "debootstrap-fails: a root.tar left"
	ok "debootstrap failing: said so with its log, no pristine root kept"
fi

FAKE_UID=1000 run not-root 1 && has not-root '^fresh-check: error: needs root' &&
	ok "not root: said so"
sed -i 's/^## The two commands$/## Two commands/' "$co/README.md"
run no-block 1 && has no-block "^fresh-check: error: no commands found under '## The two commands'" &&
	ok "a README without the block: said so"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "fresh-check"
