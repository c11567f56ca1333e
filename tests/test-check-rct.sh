#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/check-rct: a new function's declarations out of reverse christmas
# tree order, and a line added out of order to an upstream block, are
# reported with file and line; an upstream block left alone, a block
# whose order an initialiser forces, and a struct are not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/check-rct
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

g=$tmp/git
git init -q "$g"
t() { git -C "$g" -c user.name=t -c user.email=t@example.org "$@"; }
cat > "$g/a.c" <<'C'
static int upstream(int x)
{
	int i;
	unsigned long longer_name = 0;

	return x;
}
C
t add -A
t commit -qm base
cat > "$g/a.c" <<'C'
struct foo {
	int a;
	unsigned long longer_member;
};

static int upstream(int x)
{
	int i;
	unsigned long longer_name = 0;
	int added_in_place;

	return x;
}

static int added_in_order(int x)
{
	unsigned long longer_name = 0;
	int i;

	return x;
}

static int added_forced(int x)
{
	struct foo *f = NULL;
	unsigned long longer_name = f->a;

	return x;
}
C
t add -A
t commit -qm good

run good 0 "$g" HEAD~1 HEAD && ok "in order, upstream's or forced: nothing reported"

sed -i 's/^\tint added_in_place;$/\tunsigned long long added_out_of_place_here;/' "$g/a.c"
cat >> "$g/a.c" <<'C'

static int added_out_of_order(int y)
{
	int j;
	unsigned long other_name = y;

	return j;
}
C
t commit -qam bad
if run bad 1 "$g" HEAD~2 HEAD; then
	has bad '^a\.c:8: declarations not longest first \(lengths 14, 38, 51\)$'
	has bad '^a\.c:3[0-9]: declarations not longest first \(lengths 14, 37\)$'
	[ "$(wc -l < "$tmp/bad.out")" = 2 ] || fail "bad: not 2 lines"
	[ "$fails" != 0 ] ||
	ok "a new function out of order and a line added out of place: both reported"
fi
run usage 2

# git errors: exit 2 and the git command on stderr, nothing on stdout
# (which tools/check-series reads as the findings)
# err NAME ARGS...: check-rct's exit 2 on a git error, stdout empty
err() {
	local name=$1
	shift
	if run "$name" 2 "$@"; then
		has "$name" "^check-rct: error: git -C .* failed \(exit [0-9]+\): fatal: "
		[ -z "$("$tool" "$@" 2>/dev/null)" ] || fail "$name: output on stdout"
	fi
}
err not-a-repo "$tmp/nowhere" HEAD~1 HEAD
err bad-base "$g" no-such-base HEAD
err bad-head "$g" HEAD~1 no-such-head
[ "$fails" != 0 ] ||
	ok "git errors (no repository, no such BASE or HEAD): exit 2, said on stderr"
[ "$fails" = 0 ]
