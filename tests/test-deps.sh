#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/deps against stand-ins for dpkg-query, apt-get, apt-cache and id
# (PATH shims over a fake package database in $tmp/db): nothing
# installed, everything installed, an old base, a base no longer
# offered, a base offered nowhere, apt failing, apt "succeeding" without
# installing, not root, --check. Each checks the exit code, what was
# printed and what apt-get was asked to install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/deps
source "$here/lib.sh"

pinned=6.12.117-1~deb12u1
export BASE_VERSION=$pinned
unset SKBPOOL_BASE_INSTALLED

db=$tmp/db
bin=$tmp/bin
mkdir -p "$bin"
export SHIM_DB=$db

# dpkg-query -W -f=FMT PKG: as dpkg-query does for a package that is
# installed ("install ok installed" and its version), and exit 1 with
# "no packages found" for one it has never seen.
cat > "$bin/dpkg-query" <<'SH'
#!/usr/bin/env bash
fmt= pkg=
for a in "$@"; do
	case $a in -W) ;; -f=*) fmt=${a#-f=} ;; *) pkg=$a ;; esac
done
ver=$(awk -v p="$pkg" '$1 == p {print $2}' "$SHIM_DB/installed" 2>/dev/null)
if [ -z "$ver" ]; then
	echo "dpkg-query: no packages found matching $pkg" >&2
	exit 1
fi
fmt=${fmt//'${Status}'/install ok installed}
fmt=${fmt//'${Version}'/$ver}
printf "$fmt"
SH
# apt-get update|install ARGS: logged to $SHIM_DB/apt.log; install
# records PKG[=VER] in the database unless SHIM_APT_NOOP is set;
# SHIM_APT_FAIL=update|install makes that step fail as apt does.
cat > "$bin/apt-get" <<'SH'
#!/usr/bin/env bash
echo "apt-get $*" >> "$SHIM_DB/apt.log"
for a in "$@"; do
	case $a in update|install) cmd=$a; break ;; esac
done
if [ "${SHIM_APT_FAIL:-}" = "$cmd" ]; then
	echo "E: Could not do $cmd (shim)" >&2
	exit 100
fi
[ "$cmd" = install ] || exit 0
[ -z "${SHIM_APT_NOOP:-}" ] || exit 0
for a in "$@"; do
	case $a in -*|install) continue ;; esac
	p=${a%%=*} v=${a#*=}
	[ "$v" != "$a" ] || v=$(awk -v p="$p" '$1 == p {print $2; exit}' "$SHIM_DB/offered" 2>/dev/null)
	echo "$p ${v:-1.0}" >> "$SHIM_DB/installed"
done
SH
# apt-cache madison PKG: the versions in $SHIM_DB/offered, newest first.
cat > "$bin/apt-cache" <<'SH'
#!/usr/bin/env bash
[ "$1" = madison ] || exit 1
awk -v p="$2" '$1 == p {printf " %s | %s | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n", $1, $2}' \
	"$SHIM_DB/offered" 2>/dev/null
SH
# id -u: $SHIM_UID.
cat > "$bin/id" <<'SH'
#!/usr/bin/env bash
echo "${SHIM_UID:-0}"
SH
chmod +x "$bin"/*
export PATH=$bin:$PATH

pkgs=$(sed -n '/^pkgs=(/,/)/p' "$tool" | tr -d '()' | sed 's/^pkgs=//')
# fresh [BASEVER...]: a database with nothing installed; the base
# versions given are offered (newest first).
fresh() {
	rm -rf "$db"
	mkdir -p "$db"
	: > "$db/installed"
	: > "$db/apt.log"
	: > "$db/offered"
	local v
	for v in "$@"; do echo "linux-source-6.12 $v" >> "$db/offered"; done
}
# all_but_base: every package but the base installed.
all_but_base() {
	local p
	for p in $pkgs; do echo "$p 1.0" >> "$db/installed"; done
}
installs() { grep -E "^apt-get .*install" "$db/apt.log" || true; }

# Nothing installed: installs everything, the base at the pinned
# version, and says so (today's failure: exit 1 with nothing printed).
fresh "$pinned" 6.12.115-2~deb12u1
run nothing 0 && {
	has nothing "^deps: installing: make gcc git "
	has nothing "^deps: installed: "
	grep -q "linux-source-6.12=$pinned" <<<"$(installs)" ||
		fail "nothing: base not installed at the pinned version: $(installs)"
	for p in $pkgs; do
		grep -qw -- "$p" <<<"$(installs)" || fail "nothing: $p not installed"
	done
	grep -q '^apt-get update' "$db/apt.log" || fail "nothing: no apt-get update"
}
# ... and a second run finds everything and does nothing, silently.
: > "$db/apt.log"
run again 0 && {
	[ ! -s "$tmp/again.out" ] || fail "again: printed: $(cat "$tmp/again.out")"
	[ ! -s "$db/apt.log" ] || fail "again: called apt: $(cat "$db/apt.log")"
}

# An older base installed: a warning, nothing installed.
fresh "$pinned"
all_but_base
echo "linux-source-6.12 6.12.113-1~deb12u1" >> "$db/installed"
run old-base 0 && {
	has old-base "WARNING: linux-source-6.12 6.12.113-1~deb12u1 is installed, not the pinned $pinned"
	[ -z "$(installs)" ] || fail "old-base: installed something: $(installs)"
}

# The pinned version no longer offered: the newest 6.12, with a warning
# naming it.
fresh 6.12.120-1~deb12u1 "6.12.115-2~deb12u1"
all_but_base
run gone 0 && {
	has gone "WARNING: linux-source-6.12 $pinned is no longer offered; installing the newest 6.12 \(6.12.120-1~deb12u1\)"
	grep -qE 'install .* linux-source-6.12$' <<<"$(installs)" ||
		fail "gone: base not installed unversioned: $(installs)"
}

# No source offers the base at all: a clear error, no install.
fresh
all_but_base
run nowhere 1 && {
	has nowhere "^deps: error: no apt source offers linux-source-6.12 .*bookworm-security"
	[ -z "$(installs)" ] || fail "nowhere: installed something: $(installs)"
}

# apt-get update fails: its message, then what failed and what to do.
fresh "$pinned"
SHIM_APT_FAIL=update run update-fails 1 && {
	has update-fails "E: Could not do update"
	has update-fails "^deps: error: apt-get update failed .*sources"
}

# apt-get install fails.
fresh "$pinned"
SHIM_APT_FAIL=install run install-fails 1 && {
	has install-fails "E: Could not do install"
	has install-fails "^deps: error: apt-get install .* failed"
}

# apt-get install exits 0 but installs nothing.
fresh "$pinned"
SHIM_APT_NOOP=1 run install-noop 1 &&
	has install-noop "^deps: error: apt-get install exited 0 but these are still not installed: make gcc .*linux-source-6.12"

# Not root: the missing packages named, nothing run.
fresh "$pinned"
SHIM_UID=1000 run not-root 1 && {
	has not-root "needs root"
	has not-root "apt-get install make gcc .*linux-source-6.12"
	[ ! -s "$db/apt.log" ] || fail "not-root: called apt: $(cat "$db/apt.log")"
}

# --check: reports, installs nothing.
fresh "$pinned"
all_but_base
run check 1 --check && {
	has check "^deps: missing packages: linux-source-6.12$"
	[ ! -s "$db/apt.log" ] || fail "check: called apt"
}

# A bad option: usage, exit 2.
run bad-option 2 --frobnicate && has bad-option "^Usage: deps"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: deps (11 cases)"
