#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/deps against fakes of dpkg-query, apt-get, apt-cache,
# dpkg-deb and id (PATH shims over a fake package database in $tmp/db
# and a fake suite): the system packages (nothing installed, apt
# failing, apt "succeeding" without installing, not root, --check) and
# the base fetched with the private apt configuration (fetched and
# extracted, silent when there, the pin no longer offered, the pin
# moved, the suite unreachable, the download or the extraction failing,
# the package not offered at all, not root). Each checks the exit code,
# what was printed, what apt was asked to do and with which options, and
# what is left in the cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/deps
# shellcheck source=lib.sh
source "$here/lib.sh"

pinned=7.3.4-1~bpo13+1
pkg=linux-source-7.3
# q STRING: STRING as an extended regex matching itself
q() { sed 's/[][\\.*^$+?(){}|]/\\&/g' <<<"$1"; }
P=$(q "$pinned")
export BASE_VERSION=$pinned
# the suite and the mirror: the Makefile's
unset BASE_SUITE BASE_MIRROR SKBPOOL_BASE_INSTALLED SKBPOOL_BASE_TARBALL
suite=trixie-backports mirror=http://deb.debian.org/debian
export SKBPOOL_CACHE=$tmp/cache
base=$SKBPOOL_CACHE/base/$pkg
B=$(q "$base")
apt_dir=$SKBPOOL_CACHE/base/apt

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
# Shared by the apt-get and apt-cache shims: the -o options of the
# call. With Dir::Etc::sourcelist it is a call of the private
# configuration, whose lists (the suite's $SHIM_DB/suite, copied by
# 'update') live in Dir::State::lists; without, the system's.
cat > "$bin/shim-apt-opts" <<'SH'
srclist= lists= opt_cache= cmd= error_on=
args=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) case $2 in
	    Dir::Etc::sourcelist=*) srclist=${2#*=} ;;
	    Dir::State::lists=*) lists=${2#*=} ;;
	    Dir::Cache=*) opt_cache=${2#*=} ;;
	    esac
	    shift 2 ;;
	--error-on=any) error_on=1; shift ;;
	-*) shift ;;
	*) [ -n "$cmd" ] || cmd=$1; [ "$1" = "$cmd" ] || args+=("$1"); shift ;;
	esac
done
SH
# apt-get update|install|download ARGS: logged to $SHIM_DB/apt.log.
# The system's: install records PKG[=VER] in the database unless
# SHIM_APT_NOOP is set; SHIM_APT_FAIL=update|install makes that step
# fail as apt does. The private: update copies the suite into the
# private lists (SHIM_FETCH_FAIL=unreachable: apt's warning and exit 0,
# or its error and exit 100 with --error-on=any, as apt 2.6 does);
# download writes PKG_VER_all.deb in the current directory for a
# version the lists have (SHIM_FETCH_FAIL=download: a 404;
# SHIM_FETCH_FAIL=nodeb: exit 0 and no file).
cat > "$bin/apt-get" <<'SH'
#!/usr/bin/env bash
echo "apt-get $*" >> "$SHIM_DB/apt.log"
source "$(dirname "$0")/shim-apt-opts"
if [ -z "$srclist" ]; then
	if [ "${SHIM_APT_FAIL:-}" = "$cmd" ]; then
		echo "E: Could not do $cmd (shim)" >&2
		exit 100
	fi
	[ "$cmd" = install ] || exit 0
	[ -z "${SHIM_APT_NOOP:-}" ] || exit 0
	for a in "${args[@]}"; do
		p=${a%%=*} v=${a#*=}
		[ "$v" != "$a" ] || v=1.0
		echo "$p $v" >> "$SHIM_DB/installed"
	done
	exit 0
fi
url=$(awk '{print $(NF-2)}' "$srclist")
case $cmd in
update)
	[ -d "$lists/partial" ] || { echo "E: List directory $lists/partial is missing. - Acquire (2: No such file or directory)" >&2; exit 100; }
	[ -d "$opt_cache/archives/partial" ] || { echo "E: Archives directory $opt_cache/archives/partial is missing." >&2; exit 100; }
	cat "$srclist" >> "$SHIM_DB/sources.log"
	if [ "${SHIM_FETCH_FAIL:-}" = unreachable ]; then
		w=W; [ -z "$error_on" ] || w=E
		echo "$w: Failed to fetch $url/dists/InRelease  Could not connect (shim)" >&2
		[ -z "$error_on" ] || exit 100
		exit 0
	fi
	cp "$SHIM_DB/suite" "$lists/shim_Packages" ;;
download)
	p=${args[0]%%=*} v=${args[0]#*=}
	if ! grep -qxF "$p $v" "$lists/shim_Packages" 2>/dev/null; then
		echo "E: Version '$v' for '$p' was not found" >&2
		exit 100
	fi
	if [ "${SHIM_FETCH_FAIL:-}" = download ]; then
		echo "E: Failed to fetch $url/pool/main/l/$p.deb  404  Not Found (shim)" >&2
		exit 100
	fi
	[ "${SHIM_FETCH_FAIL:-}" != nodeb ] || exit 0
	echo "SHIMDEB $p $v" > "${p}_${v//:/%3a}_all.deb" ;;
*) exit 1 ;;
esac
SH
# apt-cache madison PKG / pkgnames PREFIX: from the private lists, as
# apt-cache prints them (madison in the lists' order, pkgnames
# unsorted); nothing before an update.
cat > "$bin/apt-cache" <<'SH'
#!/usr/bin/env bash
echo "apt-cache $*" >> "$SHIM_DB/apt.log"
source "$(dirname "$0")/shim-apt-opts"
l=$lists/shim_Packages
[ -n "$lists" ] && [ -f "$l" ] || exit 0
case $cmd in
madison) awk -v p="${args[0]}" -v u="$(awk '{print $(NF-2), $(NF-1)}' "$srclist")" \
	'$1 == p {printf "%10s | %s | %s/main amd64 Packages\n", $1, $2, u}' "$l" ;;
pkgnames) awk -v p="${args[0]}" 'index($1, p) == 1 {print $1}' "$l" | sort -u -r ;;
*) exit 1 ;;
esac
SH
# dpkg-deb -x DEB DIR: a shim .deb's usr/src/PKG.tar.xz into DIR,
# logged to $SHIM_DB/dpkg-deb.log; SHIM_DPKG_DEB=fail: dpkg-deb's error;
# SHIM_DPKG_DEB=empty: a package without the tarball.
cat > "$bin/dpkg-deb" <<'SH'
#!/usr/bin/env bash
echo "dpkg-deb $*" >> "$SHIM_DB/dpkg-deb.log"
[ "$1" = -x ] && [ $# = 3 ] || exit 2
read -r magic p v < "$2" || true
if [ "${SHIM_DPKG_DEB:-}" = fail ] || [ "$magic" != SHIMDEB ]; then
	echo "dpkg-deb: error: '$2' is not a Debian format archive" >&2
	exit 2
fi
mkdir -p "$3/usr/share/doc/$p"
[ "${SHIM_DPKG_DEB:-}" = empty ] && exit 0
mkdir -p "$3/usr/src"
echo "tarball $p $v" > "$3/usr/src/$p.tar.xz"
SH
# id -u: $SHIM_UID.
cat > "$bin/id" <<'SH'
#!/usr/bin/env bash
echo "${SHIM_UID:-0}"
SH
chmod +x "$bin"/*
export PATH=$bin:$PATH

pkgs=$(sed -n '/^pkgs=(/,/)/p' "$tool" | tr -d '()' | sed 's/^pkgs=//')
# fresh [VER...]: a database with nothing installed and an empty cache;
# the suite offers the base at the versions given (in that order).
fresh() {
	rm -rf "$db" "$SKBPOOL_CACHE"
	mkdir -p "$db"
	: > "$db/installed"
	: > "$db/apt.log"
	: > "$db/suite"
	: > "$db/dpkg-deb.log"
	: > "$db/sources.log"
	local v
	for v in "$@"; do echo "$pkg $v" >> "$db/suite"; done
	echo "linux-source-7.2 7.2.12-1~bpo13+1" >> "$db/suite"
}
# all_installed: every system package installed.
all_installed() {
	local p
	for p in $pkgs; do echo "$p 1.0" >> "$db/installed"; done
}
installs() { grep -E "^apt-get .*install" "$db/apt.log" || true; }
# the calls of the private configuration / of the system's
private() { grep -F 'Dir::Etc::sourcelist=' "$db/apt.log" || true; }
system() { grep -vF 'Dir::Etc::sourcelist=' "$db/apt.log" || true; }
downloads() { grep -E "^apt-get .* download " "$db/apt.log" || true; }
# fetched VER: the cache holds the base VER, its marker and its .deb,
# and nothing half-done
fetched() {
	local name=$1 v=$2
	[ "$(head -n 1 "$base/version" 2>/dev/null)" = "$v" ] ||
		fail "$name: marker: $(cat "$base/version" 2>&1)"
	[ "$(sed -n 's/^pinned //p' "$base/version" 2>/dev/null)" = "$BASE_VERSION" ] ||
		fail "$name: marker's pin: $(cat "$base/version" 2>&1)"
	[ "$(cat "$base/$pkg.tar.xz" 2>&1)" = "tarball $pkg $v" ] ||
		fail "$name: tarball: $(cat "$base/$pkg.tar.xz" 2>&1)"
	[ -f "$base/${pkg}_${v}_all.deb" ] || fail "$name: no .deb in $base: $(ls "$base")"
	nothing_left "$name"
}
nothing_left() {
	local left
	left=$(find "$SKBPOOL_CACHE/base" -maxdepth 1 -name '.fetch.*' -o -maxdepth 1 -name '*.old' 2>/dev/null || true)
	[ -z "$left" ] || fail "$1: left behind: $left"
}
not_fetched() {
	[ ! -e "$base/version" ] && [ ! -e "$base/$pkg.tar.xz" ] ||
		fail "$1: a base was left: $(ls "$base")"
	nothing_left "$1"
}
# private_options NAME: every apt call of the fetch (and only those)
# carries the four options of the private configuration, pointing into
# the cache: none reads or writes /etc/apt, /var/lib/apt, /var/cache/apt.
private_options() {
	local line n=0
	while read -r line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		for o in "Dir::Etc::sourcelist=$apt_dir/sources.list" "Dir::Etc::sourceparts=-" \
			 "Dir::State::lists=$apt_dir/lists" "Dir::Cache=$apt_dir/cache"; do
			grep -qF -- "-o $o " <<<"$line" || fail "$1: '-o $o' missing: $line"
		done
	done < <(private)
	[ "$n" -ge 3 ] || fail "$1: $n private apt calls (update, madison, download expected)"
	! grep -E '^apt-cache|download' <<<"$(system)" ||
		fail "$1: a fetch call without the private options: $(system)"
	[ "$(cat "$apt_dir/sources.list" 2>&1)" = "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${2:-$mirror} $suite main" ] ||
		fail "$1: sources.list: $(cat "$apt_dir/sources.list" 2>&1)"
}

# Nothing installed, nothing fetched: installs the system packages,
# fetches the pinned base with the private configuration and extracts
# its tarball, and says so.
fresh 7.3.3-1~bpo13+1 "$pinned"
run nothing 0 && {
	has nothing "^deps: installing: make gcc git "
	has nothing "^deps: installed: "
	has nothing "^deps: fetching $pkg $P from $suite on $mirror$"
	has nothing "^deps: fetched: $pkg $P -> $B/$pkg\\.tar\\.xz$"
	for p in $pkgs; do
		grep -qw -- "$p" <<<"$(installs)" || fail "nothing: $p not installed"
	done
	! grep -q linux-source <<<"$(installs)" || fail "nothing: the system apt asked for the base: $(installs)"
	grep -qx 'apt-get update -qq' <<<"$(system)" || fail "nothing: no system apt-get update"
	grep -q "update" <<<"$(private)" || fail "nothing: no private apt-get update"
	grep -qE "download $pkg=$P\$" <<<"$(downloads)" ||
		fail "nothing: base not downloaded at the pinned version: $(downloads)"
	grep -qE "^dpkg-deb -x .*/${pkg}_${P}_all.deb " "$db/dpkg-deb.log" ||
		fail "nothing: not extracted with dpkg-deb -x: $(cat "$db/dpkg-deb.log")"
	fetched nothing "$pinned"
}
# ... with the private options on every call of the fetch, and on none
# of the system's.
private_options private-options
# ... and a second run finds everything and does nothing, silently.
: > "$db/apt.log"
: > "$db/dpkg-deb.log"
run again 0 && {
	[ ! -s "$tmp/again.out" ] || fail "again: printed: $(cat "$tmp/again.out")"
	[ ! -s "$db/apt.log" ] || fail "again: called apt: $(cat "$db/apt.log")"
	[ ! -s "$db/dpkg-deb.log" ] || fail "again: called dpkg-deb"
}

# Not root, the system packages there: the fetch needs no root; another
# mirror when BASE_MIRROR says so.
fresh "$pinned"
all_installed
BASE_MIRROR=http://mirror.invalid/debian SHIM_UID=1000 run user-fetch 0 && {
	has user-fetch "^deps: fetching $pkg $P from $suite on http://mirror.invalid/debian$"
	[ -z "$(installs)" ] || fail "user-fetch: installed something: $(installs)"
	fetched user-fetch "$pinned"
	private_options user-fetch http://mirror.invalid/debian
}

# The pinned version no longer offered: the newest 7.3 by Debian's
# version order (7.3.10 > 7.3.9), with a warning naming it.
fresh 7.3.9-1~bpo13+1 7.3.10-1~bpo13+1 7.3.3-1~bpo13+1
all_installed
run gone 0 && {
	has gone "WARNING: $pkg $P is no longer offered by $suite; fetching the newest 7.3 \\(7.3.10-1~bpo13\\+1\\)"
	grep -qE "download $pkg=7.3.10-1~bpo13\+1\$" <<<"$(downloads)" ||
		fail "gone: not the newest downloaded: $(downloads)"
	fetched gone 7.3.10-1~bpo13+1
}
# ... and then, for the same pin: the warning again, nothing fetched.
: > "$db/apt.log"
run gone-again 0 && {
	has gone-again "WARNING: using $pkg 7.3.10-1~bpo13\+1: the pinned $P was not offered"
	[ ! -s "$db/apt.log" ] || fail "gone-again: called apt: $(cat "$db/apt.log")"
}

# The pin moved (the Makefile's BASE_VERSION changed): the new pin is
# fetched and replaces the old base.
fresh 7.3.3-1~bpo13+1 "$pinned"
all_installed
BASE_VERSION=7.3.3-1~bpo13+1 run old-pin 0 || true
run pin-moved 0 && {
	has pin-moved "^deps: fetched: $pkg $P"
	fetched pin-moved "$pinned"
	[ "$(ls "$base"/*.deb | wc -l)" = 1 ] || fail "pin-moved: $(ls "$base")"
}

# The suite cannot be reached (apt-get update fails): apt's message,
# what failed and what to do, nothing fetched.
fresh "$pinned"
all_installed
SHIM_FETCH_FAIL=unreachable run unreachable 1 && {
	has unreachable "E: Failed to fetch $mirror/"
	has unreachable "^deps: error: apt-get update of $suite on $mirror failed .*network.*BASE_MIRROR"
	[ -z "$(downloads)" ] || fail "unreachable: downloaded: $(downloads)"
	not_fetched unreachable
}

# The download fails: what failed and what to do; the base fetched
# before (the old pin) is left as it was.
fresh 7.3.3-1~bpo13+1 "$pinned"
all_installed
BASE_VERSION=7.3.3-1~bpo13+1 run old-pin 0 || true
SHIM_FETCH_FAIL=download run download-fails 1 && {
	has download-fails "404  Not Found"
	has download-fails "^deps: error: apt-get download $pkg=$P from $suite on $mirror failed .*network"
	[ "$(head -n 1 "$base/version")" = 7.3.3-1~bpo13+1 ] ||
		fail "download-fails: the previous base is gone: $(cat "$base/version" 2>&1)"
	nothing_left download-fails
}
# apt-get download exits 0 without a .deb.
fresh "$pinned"
all_installed
SHIM_FETCH_FAIL=nodeb run no-deb 1 && {
	has no-deb "^deps: error: apt-get download $pkg=$P exited 0 but wrote 0 "
	not_fetched no-deb
}

# dpkg-deb -x fails; the package has no tarball.
fresh "$pinned"
all_installed
SHIM_DPKG_DEB=fail run dpkg-deb-fails 1 && {
	has dpkg-deb-fails "not a Debian format archive"
	has dpkg-deb-fails "^deps: error: dpkg-deb -x ${pkg}_${P}_all.deb failed .*run make again"
	not_fetched dpkg-deb-fails
}
fresh "$pinned"
all_installed
SHIM_DPKG_DEB=empty run no-tarball 1 && {
	has no-tarball "^deps: error: ${pkg}_${P}_all.deb has no usr/src/$pkg.tar.xz"
	not_fetched no-tarball
}

# The suite does not offer the base at all: a clear error naming what
# it has, no download.
fresh
all_installed
run nowhere 1 && {
	has nowhere "^deps: error: $suite on $mirror offers no $pkg \(it has: linux-source-7.2\): set BASE_VERSION"
	[ -z "$(downloads)" ] || fail "nowhere: downloaded: $(downloads)"
	not_fetched nowhere
}

# The system's apt-get update fails: its message, then what failed and
# what to do.
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
SHIM_APT_NOOP=1 run install-noop 1 && {
	has install-noop "^deps: error: apt-get install exited 0 but these are still not installed: make gcc .*python3-sphinx"
	not_fetched install-noop
}

# Not root, system packages missing: they are named, nothing run.
fresh "$pinned"
SHIM_UID=1000 run not-root 1 && {
	has not-root "needs root"
	has not-root "apt-get install make gcc .*python3-sphinx"
	[ ! -s "$db/apt.log" ] || fail "not-root: called apt: $(cat "$db/apt.log")"
}

# --check: reports, installs and fetches nothing.
fresh "$pinned"
all_installed
run check 1 --check && {
	has check "^deps: missing base: $pkg $P is not fetched into $B$"
	hasnt check "missing packages"
	[ ! -s "$db/apt.log" ] || fail "check: called apt"
}
fresh "$pinned"
run check-all 1 --check && {
	has check-all "^deps: missing packages: make gcc "
	has check-all "^deps: missing base: "
	[ ! -s "$db/apt.log" ] || fail "check-all: called apt"
}

# A bad option, an extra argument: usage, exit 2. --help: exit 0.
run bad-option 2 --frobnicate && has bad-option "^Usage: deps"
run extra-arg 2 --check foo && has extra-arg "^Usage: deps"
run help 0 --help && has help "^Usage: deps" && has help "$suite"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: deps (23 cases)"
