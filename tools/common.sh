# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared settings for the tools/ scripts. Sourced, not run.
#
# Every path outside the checkout derives from SKBPOOL_CACHE, which the
# Makefile exports (make CACHE=...). SKBPOOL_TOP, SKBPOOL_BASE_TARBALL
# and SKBPOOL_BASE_INSTALLED exist for tests/ (a toy checkout and base).
# Keep these paths stable: ccache hashes absolute paths, so a moved tree
# or build directory gets no hits.

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(dirname "$TOOLS")
# The checkout whose series the tools read and write; tests/ points it
# at a toy checkout.
TOP=${SKBPOOL_TOP:-$TOP}
: "${SKBPOOL_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/skbpool}"
# The pinned base. The Makefile passes BASE_VERSION, BASE_SUITE and
# BASE_MIRROR and is their one home; a tool run by hand reads them from
# it (the tools' own, for a toy checkout of tests/ that has none).
makefile_var() {
	local mk=$TOP/Makefile
	[ -f "$mk" ] || mk=$TOOLS/../Makefile
	sed -n "s/^$1[[:space:]]*[:?]*=[[:space:]]*//p" "$mk"
}
: "${BASE_VERSION:=$(makefile_var BASE_VERSION)}"
: "${BASE_SUITE:=$(makefile_var BASE_SUITE)}"
: "${BASE_MIRROR:=$(makefile_var BASE_MIRROR)}"
# major.minor of a Debian version of the kernel (7.3 for 1:7.3.4-1~bpo13+1)
base_series() { sed -E 's/^[0-9]+://; s/^([0-9]+\.[0-9]+).*/\1/' <<<"$1"; }
BASE_PKG=linux-source-$(base_series "$BASE_VERSION")
# tools/deps fetches the base here: the .deb, the tarball it ships
# (/usr/src/$BASE_PKG.tar.xz in the package) and a marker file holding
# the version it came from, written last.
BASE_DIR=$SKBPOOL_CACHE/base/$BASE_PKG
BASE_MARKER=$BASE_DIR/version
BASE_FETCHED_TARBALL=$BASE_DIR/$BASE_PKG.tar.xz
BASE_TARBALL=${SKBPOOL_BASE_TARBALL:-$BASE_FETCHED_TARBALL}
TREE=$SKBPOOL_CACHE/tree
# shellcheck disable=SC2034  # read by the tools that source this file
BUILD_ROOT=$SKBPOOL_CACHE/build
# make check's scratch tree and build directory, laid out as the UML
# cell's $TREE and $BUILD_ROOT/uml are: under CCACHE_BASEDIR both build
# from ../../tree with the same config, so the UML cell's compiles after
# a check are ccache hits, not a second full build.
# shellcheck disable=SC2034  # read by the tools that source this file
CHECK_TREE=$SKBPOOL_CACHE/check/tree
# shellcheck disable=SC2034  # read by the tools that source this file
CHECK_BUILD=$SKBPOOL_CACHE/check/build/uml
# shellcheck disable=SC2034  # read by the tools that source this file
OUT=${SKBPOOL_OUT:-$TOP/out}
# The results the checkout keeps (git-tracked), one JSON per kind, each
# written by the tool that measures it; tools/tables renders the tables
# of README.md and docs/ from them.
# shellcheck disable=SC2034  # read by the tools that source this file
RESULTS=${SKBPOOL_RESULTS:-$TOP/results}
export CCACHE_DIR=${CCACHE_DIR:-$SKBPOOL_CACHE/ccache}
export CCACHE_BASEDIR=$SKBPOOL_CACHE
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

# Git identity used for the base commit and for `git am` in scratch trees.
# Patch authorship comes from the patches themselves.
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-skbpool tools}"
export GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-tools@localhost}"

prog=$(basename "$0")
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 1; }
note() { printf '%s: %s\n' "$prog" "$*" >&2; }
# need_value "$@": in an option loop, before reading the value $2 of
# option $1: a usage error (the caller's usage, exit 2) when it has
# none, rather than set -u's "unbound variable".
need_value() { [ $# -ge 2 ] || { usage >&2; exit 2; }; }

# lock_cache: hold the cache's lock ($SKBPOOL_CACHE/lock, flock) until
# this tool exits, so that two runs on one cache never work in its tree
# and build directories at once. A second run says who holds the lock
# and waits for it. The tools a locked tool runs inherit the lock
# (SKBPOOL_CACHE_LOCKED names the cache it is held on).
lock_cache() {
	local lock=$SKBPOOL_CACHE/lock holder
	[ "${SKBPOOL_CACHE_LOCKED:-}" = "$SKBPOOL_CACHE" ] && return 0
	mkdir -p "$SKBPOOL_CACHE" || die "cannot create the cache $SKBPOOL_CACHE"
	exec {SKBPOOL_LOCK_FD}>>"$lock" || die "cannot open the cache lock $lock"
	if ! flock -n "$SKBPOOL_LOCK_FD"; then
		holder=$(cat "$lock.holder" 2>/dev/null) || holder="unknown"
		note "the cache $SKBPOOL_CACHE is in use by $holder: waiting for it (another cache: make CACHE=DIR)"
		flock "$SKBPOOL_LOCK_FD" || die "could not take the cache lock $lock"
		note "the cache lock is ours now"
	fi
	printf 'pid %d (%s, in %s) since %s\n' "$$" "$prog${*:+ $*}" "$PWD" \
		"$(date -u '+%Y-%m-%d %H:%M:%S UTC')" > "$lock.holder" ||
		die "cannot write $lock.holder"
	export SKBPOOL_CACHE_LOCKED=$SKBPOOL_CACHE
}

# heartbeat_start DIR LABEL / heartbeat_stop: while a long build runs,
# a line every $SKBPOOL_HEARTBEAT seconds (default 60) on stderr:
# "LABEL: 3 min 0 s, 1234 objects built", the objects being the .o files
# under DIR newer than the start. The loop ends with heartbeat_stop, or
# by itself within a second once this tool has exited. Its sleeps hold
# none of the tool's descriptors: a caller that reads the tool's output
# through a pipe gets its end-of-file when the tool exits, not a minute
# later.
heartbeat_pid='' heartbeat_stamp=''
heartbeat_start() {
	local dir=$1 label=$2 every=${SKBPOOL_HEARTBEAT:-60} parent=$$ t0=$SECONDS
	local stamp
	stamp=$(mktemp) || die "cannot create a heartbeat stamp"
	heartbeat_stamp=$stamp
	mkdir -p "$dir"
	(
		# not the cache lock: it goes when the tool does
		[ -z "${SKBPOOL_LOCK_FD:-}" ] || eval "exec $SKBPOOL_LOCK_FD>&-"
		next=$((t0 + every))
		# shellcheck disable=SC2217  # sleep holds no descriptor of the tool's
		while sleep 1 </dev/null >/dev/null 2>&1 && kill -0 "$parent" 2>/dev/null; do
			[ "$SECONDS" -ge "$next" ] || continue
			next=$((next + every))
			n=$(find "$dir" -name '*.o' -newer "$stamp" 2>/dev/null | wc -l)
			e=$((SECONDS - t0))
			printf '%s: %s: %d min %d s, %d objects built\n' "$prog" "$label" \
				$((e / 60)) $((e % 60)) "$n" >&2
		done
		rm -f "$stamp"
	) &
	heartbeat_pid=$!
}
heartbeat_stop() {
	[ -n "$heartbeat_pid" ] || return 0
	kill "$heartbeat_pid" 2>/dev/null || true
	wait "$heartbeat_pid" 2>/dev/null || true
	# killed in its sleep, the loop did not get to remove its stamp
	rm -f "$heartbeat_stamp"
	heartbeat_pid='' heartbeat_stamp=''
}

# The version of the base that tools/deps fetched (its marker, when the
# tarball is there too), or empty. (The name is from when the base was
# a system package.)
installed_base_version() {
	if [ -n "${SKBPOOL_BASE_INSTALLED:-}" ]; then
		echo "$SKBPOOL_BASE_INSTALLED"
		return
	fi
	[ -r "$BASE_TARBALL" ] || return 0
	fetched_base_version
}

# The version tools/deps fetched into $BASE_DIR (line 1 of the marker,
# when the tarball is there too), or empty; with 'pin': the BASE_VERSION
# it was fetched for (line 2), which differs from the version when that
# was no longer offered.
# shellcheck disable=SC2120  # tools/deps passes 'pin'
fetched_base_version() {
	[ -r "$BASE_FETCHED_TARBALL" ] && [ -s "$BASE_MARKER" ] || return 0
	if [ "${1:-}" = pin ]; then
		sed -n 's/^pinned //p' "$BASE_MARKER"
	else
		head -n 1 "$BASE_MARKER"
	fi
}

# The tag of the base in the tree (base-<fetched version>), after
# checking that the tree exists and holds it: the one answer every tool
# gives to "which base", the version tools/deps fetched (the pinned one,
# or the newest of its series when that was no longer offered).
tree_base_tag() {
	local ver tag
	[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' (it holds the base)"
	ver=$(installed_base_version)
	[ -n "$ver" ] || die "$BASE_PKG is not fetched (no $BASE_TARBALL): run 'make deps'"
	tag=$(base_tag "$ver")
	git -C "$TREE" rev-parse -q --verify "refs/tags/$tag" >/dev/null ||
		die "the tree has no $tag (the base fetched): run 'make tree'"
	echo "$tag"
}

# Whether Debian package $1 is installed.
pkg_installed() {
	local status
	status=$(dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null) || true
	[ "$status" = "install ok installed" ]
}

# strip_line_numbers: 'path:line[:col]: text' lines as 'path: text', to
# compare compiler warnings across versions of a file (check-build,
# check-modules).
strip_line_numbers() { sed -E 's/^([^ :]+):[0-9]+(:[0-9]+)?: /\1: /'; }

# A git ref name for a Debian version (git refuses '~' and ':').
base_tag() { printf 'base-%s' "$1" | tr '~:' '__'; }

# The series directories in apply order, from series.conf.
series_dirs() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/series.conf" | awk '{print $1}'; }

# The series directories whose commits are counted rather than placed
# by path: those whose paths are "-" in series.conf. They come first, in
# order, and take the tree's first commits, each as many as its series
# file lists (series_count). The first of them is the fixes for net
# (fixes_dir), which make mbox sends to net; the others, like every
# directory after them, go to net-next.
counted_dirs() {
	local d paths pathed=
	while read -r d paths; do
		if [ "$paths" != - ]; then
			pathed=$d
			continue
		fi
		[ -z "$pathed" ] ||
			die "series.conf: $d has the paths '-' (its commits counted from the tree's first ones), so it must come before $pathed and every directory placed by paths"
		echo "$d"
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/series.conf")
}

# The series directory of the fixes for net, or empty when there is
# none: the first of counted_dirs.
fixes_dir() {
	local dirs
	dirs=$(counted_dirs) || exit 1
	head -n 1 <<<"$dirs"
}

# A guest root for qemu: DIR gets bin/busybox (Debian's busybox-static)
# and empty proc, sys and dev.
guest_root() {
	local busybox
	busybox=$(command -v busybox || true)
	[ -n "$busybox" ] && grep -q 'statically linked' <<<"$(file -L "$busybox")" ||
		die "busybox-static is not installed: run 'make deps'"
	mkdir -p "$1/bin" "$1/proc" "$1/sys" "$1/dev"
	cp "$busybox" "$1/bin/busybox"
}

# Pack guest root DIR into the gzipped initramfs OUT.
pack_initramfs() {
	(cd "$1" && find . | cpio -o -H newc --quiet) | gzip -1 > "$2"
}

# The number of patches series directory $1's series file lists.
series_count() {
	grep -cvE '^[[:space:]]*(#|$)' "$TOP/$1/series" 2>/dev/null || true
}

# A git worktree of $TREE at DIR ($1), made at REV ($2) if missing or
# broken; left as it is otherwise.
ensure_worktree() {
	if [ ! -d "$1" ] || ! git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$1"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$1" "$2"
	fi
}

# build_only_worktree DIR REV MESSAGE PATCH...: the worktree DIR of
# $TREE at REV with the build-only PATCHes applied, as a commit of fixed
# identity and dates (the same REV and patches give the same commit) that
# DIR is reset --hard to: git rewrites only the files that differ, so
# make rebuilds only what changed since the last build there.
build_only_worktree() {
	local wt=$1 rev=$2 msg=$3 p tree want idx
	shift 3
	ensure_worktree "$wt" "$rev"
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx git -C "$wt" read-tree "$rev"
	for p; do
		GIT_INDEX_FILE=$idx git -C "$wt" apply --cached "$p" ||
			{ rm -f "$idx"; die "${p#"$TOP"/} does not apply to $(git -C "$TREE" log -1 --format='%h %s' "$rev")"; }
	done
	tree=$(GIT_INDEX_FILE=$idx git -C "$wt" write-tree)
	rm -f "$idx"
	want=$(GIT_AUTHOR_NAME=build-only GIT_AUTHOR_EMAIL=build-only@localhost \
	       GIT_COMMITTER_NAME=build-only GIT_COMMITTER_EMAIL=build-only@localhost \
	       GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' \
	       GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
	       git -C "$wt" commit-tree "$tree" -p "$rev" -m "$msg")
	git -C "$wt" reset -q --hard "$want"
	git -C "$wt" clean -fdxq
}

# A scratch worktree of $TREE at DIR ($1), clean at REV ($2): made if
# missing, any git am in it aborted, every change and untracked file
# dropped.
scratch_worktree() {
	ensure_worktree "$1" "$2"
	git -C "$1" am --abort >/dev/null 2>&1 || true
	git -C "$1" checkout -q -f --detach "$2"
	git -C "$1" clean -fdxq
}

# patch_origin TREE REV FILE LINE DEFAULT: the patch that wrote line LINE
# of FILE as it is at REV in the git tree TREE (git blame, through the
# caller's associative array patch_of: commit -> patch), or DEFAULT when
# the line is from no patch of the series.
patch_origin() {
	local sha
	sha=$(git -C "$1" blame -l -s -L "$4,$4" "$2" -- "$3" 2>/dev/null |
		cut -d' ' -f1 | tr -d '^') || true
	if [ -n "$sha" ] && [ -n "${patch_of[$sha]:-}" ]; then
		echo "${patch_of[$sha]}"
	else
		echo "$5"
	fi
}

# The patches of every series, "dir/file" in apply order, on stdout;
# dies when a series file names a patch that does not exist.
series_patches() {
	local d p
	while read -r d; do
		[ -f "$TOP/$d/series" ] || continue
		while read -r p; do
			case $p in ''|'#'*) continue ;; esac
			[ -f "$TOP/$d/$p" ] ||
				die "$d/series names $p, which does not exist"
			echo "$d/$p"
		done < "$TOP/$d/series"
	done < <(series_dirs)
}

# git am every series into the work tree $1 (checked out at base $2), in
# order. On a patch that does not apply, aborts the am, prints git's
# message (it names the file and the hunk) and returns 1 with the patch
# in $failed_patch.
failed_patch=
apply_series() {
	local p log list
	# (an assignment keeps series_patches' exit status; a bare $() in
	# the for list would not)
	list=$(series_patches) || return 1
	log=$(mktemp)
	for p in $list; do
		if ! git -C "$1" am -q --no-3way "$TOP/$p" > "$log" 2>&1; then
			git -C "$1" am --abort >/dev/null 2>&1 || true
			sed 's/^/  /' "$log" >&2
			rm -f "$log"
			# shellcheck disable=SC2034  # read by the caller
			failed_patch=$p
			note "$p does not apply to $2 (the hunk is named above)"
			return 1
		fi
	done
	rm -f "$log"
}

# The series dirs' series files and patches, copied from $1 to $2: what
# defines a series (cover letters and other files are not part of it).
snapshot_series() {
	local d
	while read -r d; do
		mkdir -p "$2/$d"
		if [ -f "$1/$d/series" ]; then
			cp "$1/$d/series" "$2/$d/"
		else
			: > "$2/$d/series"
		fi
		find "$1/$d" -maxdepth 1 -name '*.patch' -exec cp {} "$2/$d/" \; 2>/dev/null || true
	done < <(series_dirs)
}

# placeholder_identity "Name <mail>": true when the identity cannot
# stand behind a Signed-off-by (the DCO is certified by a person): no
# name, no mail, a mail at localhost, or at a domain reserved for
# examples and tests (RFC 2606: example, example.*, *.example, *.test,
# *.invalid, *.localhost).
placeholder_identity() {
	local id=$1 name mail domain
	[[ $id =~ ^([^\<\>]*[^\<\>\ ])\ \<([^\<\>\ @]+)@([^\<\>\ @]+)\>$ ]] || return 0
	name=${BASH_REMATCH[1]} mail=${BASH_REMATCH[2]}
	domain=$(tr '[:upper:]' '[:lower:]' <<<"${BASH_REMATCH[3]}")
	[ -n "$name" ] && [ -n "$mail" ] || return 0
	case $domain in
	localhost|localhost.*|localdomain|*.localdomain|example|example.*|*.example|\
	*.example.com|*.example.net|*.example.org|*.test|test|*.invalid|invalid|*.localhost)
		return 0 ;;
	esac
	return 1
}

# The identity the mails go out under, "Name <mail>": $SKBPOOL_SENDER,
# else git's user.name and user.email in the checkout. Empty if neither.
sender_identity() {
	if [ -n "${SKBPOOL_SENDER:-}" ]; then
		echo "$SKBPOOL_SENDER"
		return
	fi
	local name mail
	name=$(git -C "$TOP" config user.name 2>/dev/null) || true
	mail=$(git -C "$TOP" config user.email 2>/dev/null) || true
	[ -z "$name$mail" ] || echo "$name <$mail>"
}
