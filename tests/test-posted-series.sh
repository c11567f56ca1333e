#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/posted-series on a toy thread and a toy tree: the patches come out
# verbatim, in order, with their subjects, and the replies (one with a
# diff of its own) are left out; a rebase is applied to its posted patch;
# the branch is made in a temporary worktree, the tree's checkout left
# alone; a second run changes nothing; a thread missing a patch, a patch
# that does not apply and a branch at another commit are refused with a
# message saying so. No kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/posted-series
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }
# begin / passed MESSAGE: "ok: MESSAGE" when no check failed since begin
begin() { f0=$fails; }
passed() { [ "$fails" != "$f0" ] || ok "$*"; }

export SKBPOOL_OUT=$tmp/out
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.org
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.org
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
date='Tue, 25 Nov 2025 20:00:41 +0000'
sob="Signed-off-by: Tester <t@example.org>"

# The posted series, made on the base it was written against ("posted"):
# 1/3 b -> B, 2/3 a new file, 3/3 g -> G (its context has f).
tree=$tmp/tree
t() { git -C "$tree" "$@"; }
git init -q -b master "$tree"
mkdir "$tree/core"
printf '%s\n' a b c d e f g h i > "$tree/core/main.c"
t add -A
t commit -qm "toy base"
t tag posted
sed -i 's/^b$/B/' "$tree/core/main.c"
t commit -qam "core: b to B" -m "Make b B." -m "$sob"
printf 'int two;\n' > "$tree/core/two.c"
t add -A
t commit -qm "core: add two" -m "A second file." -m "$sob"
sed -i 's/^g$/G/' "$tree/core/main.c"
t commit -qam "core: g to G" -m "Make g G." -m "$sob"
t format-patch -q --subject-prefix='PATCH net-next v2' -o "$tmp/fp" posted..HEAD
# The base the series goes on ("base"): f is F there, so 3/3 needs a rebase.
t checkout -q -b work posted
sed -i 's/^f$/F/' "$tree/core/main.c"
t commit -qam "toy base, moved on"
t tag base
# work left in the checkout: the tool must not touch it
echo 'uncommitted' >> "$tree/core/main.c"
# the tool's commits must not depend on the caller's clock or identity
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

# thread_msg SUBJECT AUTHOR BODYFILE: one message of a thread
thread_msg() { printf '%s\n\n[%s]\n\n' "$1" "$2"; cat "$3"; printf '\n'; }
# body N: the text of format-patch's patch N after its headers
# (less the blank line after the signature, which a thread does not keep)
body() { sed '1,/^$/d' "$tmp/fp/000$1-"*.patch | sed '${/^$/d}'; }
subject() { sed -n 's/^Subject: //p' "$tmp/fp/000$1-"*.patch; }
for n in 1 2 3; do body "$n" > "$tmp/body$n"; done
printf 'Three toy changes.\n\nTester (3):\n  core: b to B\n' > "$tmp/cover"
cat > "$tmp/reply2" <<'TXT'
Tester wrote:
> diff --git a/core/two.c b/core/two.c
> +int two;

Better as:

diff --git a/core/main.c b/core/main.c
--- a/core/main.c
+++ b/core/main.c
@@ -1,3 +1,3 @@
-a
+REPLY
 B
 c
-- 
Reviewer
TXT
printf 'Tester wrote:\n> Make b B.\n\nLooks good.\n' > "$tmp/reply1"
# thread MISSING: the toy thread, as the threads in the design notes are laid out (the title,
# then each message), without patch MISSING (0: complete)
thread() {
	printf '[PATCH net-next v2 0/3] toy: three changes\n\n'
	thread_msg '[PATCH net-next v2 0/3] toy: three changes' Tester "$tmp/cover"
	[ "$1" = 1 ] || thread_msg "$(subject 1)" Tester "$tmp/body1"
	thread_msg "Re: $(subject 1)" Reviewer "$tmp/reply1"
	[ "$1" = 2 ] || thread_msg "$(subject 2)" Tester "$tmp/body2"
	thread_msg "Re: $(subject 2)" Reviewer "$tmp/reply2"
	thread_msg "Re: $(subject 1)" Tester "$tmp/reply1"
	[ "$1" = 3 ] || thread_msg "$(subject 3)" Tester "$tmp/body3"
}
thread 0 > "$tmp/thread.txt"
thread 2 > "$tmp/thread-missing.txt"

# The rebase of 3/3: its context line f is F on the base.
p3=0003-core-g-to-G.patch
mkdir -p "$tmp/rebases" "$tmp/norebases"
printf 'From %s Mon Sep 17 00:00:00 2001\nFrom: Tester <t@example.org>\nDate: %s\nSubject: %s\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n' \
	0000000000000000000000000000000000000000 "$date" "$(subject 3)" > "$tmp/posted3"
cat "$tmp/body3" >> "$tmp/posted3"
sed 's/^ f$/ F/' "$tmp/posted3" > "$tmp/rebased3"
{
	echo "Rebase of 3/3: f is F on the base (context only)."
	echo
	diff -u --label "a/$p3" --label "b/$p3" "$tmp/posted3" "$tmp/rebased3" || true
} > "$tmp/rebases/${p3%.patch}.rebase"

args=(--tree "$tree" --rebases "$tmp/rebases" --base base --count 3 --date "$date")
head0=$(t rev-parse HEAD)
wt0=$(t worktree list | wc -l)

# 1. extraction: exactly the 3 patches, in order, subjects as posted,
# each the posted text verbatim under From:/Date:/Subject:
begin
if run first 0 "${args[@]}" --thread "$tmp/thread.txt" --branch v2 --out "$tmp/o1"; then
	has first 'v2: 3 patches of \[PATCH net-next v2 n/3\] on base, 1 of them rebased'
	got=$(cd "$tmp/o1" && ls -1 *.patch | tr '\n' ' ')
	want="0001-core-b-to-B.patch 0002-core-add-two.patch 0003-core-g-to-G.patch "
	[ "$got" = "$want" ] || fail "extraction: files '$got', not '$want'"
	i=0
	for f in "$tmp/o1"/*.patch; do
		i=$((i + 1))
		[ "$(sed -n 's/^Subject: //p' "$f")" = "[PATCH net-next v2 $i/3] $(subject "$i" | sed 's/^\[[^]]*\] //')" ] ||
			fail "extraction: $f: subject $(sed -n 's/^Subject: //p' "$f")"
		[ "$(sed -n 's/^From: //p' "$f")" = "Tester <t@example.org>" ] &&
			[ "$(sed -n 's/^Date: //p' "$f")" = "$date" ] ||
			fail "extraction: $f: From:/Date: $(grep -E '^(From|Date):' "$f")"
		sed '1,/^$/d' "$f" | cmp -s - "$tmp/body$i" ||
			fail "extraction: $f is not the posted text of patch $i: $(sed '1,/^$/d' "$f" | diff - "$tmp/body$i")"
	done
	cmp -s "$tmp/o1/rebased/$p3" "$tmp/rebased3" || fail "rebase: rebased/$p3 is not the rebased text"
	[ ! -e "$tmp/o1/rebased/0001-core-b-to-B.patch" ] || fail "rebase: a rebased 1/3 without a rebase"
	passed "extraction: 3 patches in order, subjects, From, Date and text as posted; the rebase applied"
fi

# 2. the replies are left out: not in the patches, not in the branch
begin
if t rev-parse -q --verify refs/heads/v2 >/dev/null; then
	log=$(t log --reverse --format='%s|%an' base..v2 | tr '\n' ' ')
	[ "$log" = "core: b to B|Tester core: add two|Tester core: g to G|Tester " ] ||
		fail "branch: commits $log"
	[ "$(t show v2:core/main.c | tr '\n' ' ')" = "a B c d e F G h i " ] ||
		fail "branch: core/main.c is $(t show v2:core/main.c | tr '\n' ' ')"
	! grep -lE 'REPLY|Reviewer|Looks good' "$tmp/o1"/*.patch ||
		fail "replies: reply text in the patches"
	[ "$(t rev-parse HEAD)" = "$head0" ] && grep -q uncommitted "$tree/core/main.c" &&
		[ "$(t worktree list | wc -l)" = "$wt0" ] ||
		fail "the tree's checkout or worktrees changed"
	passed "replies ignored; branch v2 has the 3 commits; the checkout is untouched"
fi
v2=$(t rev-parse -q --verify refs/heads/v2 || echo none)

# 3. a thread missing a patch is refused, and makes no branch
begin
if run missing 1 "${args[@]}" --thread "$tmp/thread-missing.txt" --branch v2-missing --out "$tmp/o3"; then
	has missing "thread-missing.txt: \[PATCH net-next v2 n/3\] is not complete: no patch 2/3"
	! t rev-parse -q --verify refs/heads/v2-missing >/dev/null || fail "missing: a branch was made"
	passed "a thread without 2/3: refused"
fi
run count 1 "${args[@]}" --thread "$tmp/thread.txt" --branch v2-count --out "$tmp/o3" --count 4 &&
	has count 'has 3 patches, not 4' && ok "--count 4 for a 3-patch series: refused"

# 4. a second run: the same commits, nothing changed, the same files
cp -r "$tmp/o1" "$tmp/o1.first"
begin
# (another time and committer in the environment: the same commits)
if GIT_COMMITTER_DATE='2030-06-01T12:00:00Z' GIT_COMMITTER_NAME=Other \
   run again 0 "${args[@]}" --thread "$tmp/thread.txt" --branch v2 --out "$tmp/o1"; then
	has again 'v2 is already at the series'
	[ "$(t rev-parse v2)" = "$v2" ] || fail "again: v2 moved from $v2 to $(t rev-parse v2)"
	diff -r "$tmp/o1.first" "$tmp/o1" >/dev/null || fail "again: the patch files differ"
	passed "second run: v2 unchanged ($(t rev-parse --short v2)), same files"
fi
# and into a new branch: the same commit
begin
sleep 1
if run again2 0 "${args[@]}" --thread "$tmp/thread.txt" --branch v2-again --out "$tmp/o4"; then
	[ "$(t rev-parse v2-again)" = "$v2" ] || fail "again2: v2-again is not v2"
	passed "a run into another branch: the same commit"
fi

# 5. a branch that exists at another commit is refused and left alone
t branch elsewhere posted
begin
if run elsewhere 1 "${args[@]}" --thread "$tmp/thread.txt" --branch elsewhere --out "$tmp/o5"; then
	has elsewhere "the branch elsewhere exists in .* at [0-9a-f]+, not at this series on base"
	[ "$(t rev-parse elsewhere)" = "$(t rev-parse posted)" ] || fail "elsewhere: the branch moved"
	passed "a branch at another commit: refused, left alone"
fi

# 6. without its rebase, 3/3 does not apply: refused, no branch
begin
if run norebase 1 "${args[@]}" --rebases "$tmp/norebases" --thread "$tmp/thread.txt" --branch v2-norebase --out "$tmp/o6"; then
	has norebase "0003-core-g-to-G.patch does not apply to base"
	! t rev-parse -q --verify refs/heads/v2-norebase >/dev/null || fail "norebase: a branch was made"
	[ "$(t worktree list | wc -l)" = "$wt0" ] || fail "norebase: a worktree was left"
	passed "a patch that does not apply: refused"
fi

[ "$fails" = 0 ]
