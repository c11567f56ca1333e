# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the tests/test-*.sh that check a tool's exit status and
# output. Sourced after setting $tool, the command under test.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# run NAME EXPECTED_RC ARGS...: run $tool, output in $tmp/NAME.out
run() {
	local name=$1 want=$2 rc=0
	shift 2
	"${tool:?is not set}" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name: exit $rc, expected $want; output:"
		sed 's/^/  | /' "$tmp/$name.out"
		return 1
	fi
}
# has NAME REGEX / hasnt NAME REGEX: the output of NAME (does not) match
has() {
	grep -Eq -- "$2" "$tmp/$1.out" ||
		{ fail "$1: output lacks /$2/:"; sed 's/^/  | /' "$tmp/$1.out"; }
}
hasnt() {
	! grep -Eq -- "$2" "$tmp/$1.out" ||
		{ fail "$1: output has /$2/:"; sed 's/^/  | /' "$tmp/$1.out"; }
}
# last NAME LINE: the output's last line is exactly LINE
last() {
	[ "$(tail -n 1 "$tmp/$1.out")" = "$2" ] ||
		{ fail "$1: last line is not '$2':"; sed 's/^/  | /' "$tmp/$1.out"; }
}
