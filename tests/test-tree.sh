#!/usr/bin/env bash
# tools/tree and tools/export on a toy base and a toy checkout: the tree
# is built, exports round-trip byte for byte, and work in the tree is
# never destroyed (uncommitted changes, unexported commits), unless
# --force, which keeps it on a backup branch and a stash.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A toy base tarball, with Debian's .gitignore trailer.
mkdir -p "$tmp/src/linux-source-toy/core"
printf 'int main(void) { return 0; }\n' > "$tmp/src/linux-source-toy/core/main.c"
printf 'all:\n' > "$tmp/src/linux-source-toy/Makefile"
printf '*.o\n#\n# Debian packaging: ignore everything at the top level, since it isn'"'"'t\n# included in our repository\n#\n/*\n!/debian/\n' \
	> "$tmp/src/linux-source-toy/.gitignore"
tar -C "$tmp/src" -cJf "$tmp/base.tar.xz" linux-source-toy

# A toy checkout.
co=$tmp/checkout
mkdir -p "$co/core-patches" "$co/drv-patches"
: > "$co/core-patches/series"
: > "$co/drv-patches/series"
printf 'core-patches *\ndrv-patches drv/\n' > "$co/series.conf"

export SKBPOOL_TOP=$co SKBPOOL_CACHE=$tmp/cache
export SKBPOOL_BASE_TARBALL=$tmp/base.tar.xz
export SKBPOOL_BASE_INSTALLED=1.0-1~toy BASE_VERSION=1.0-1~toy
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@localhost
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@localhost
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z'
tree=$tmp/cache/tree
t() { git -C "$tree" "$@"; }

"$tools/tree" 2>"$tmp/err" || { cat "$tmp/err"; bad "tree: fresh build"; }
if [ "$(t describe --tags)" = base-1.0-1_toy ] && ! grep -q Debian "$tree/.gitignore" &&
   [ "$(t config gc.auto)" = 0 ]; then
	ok "fresh tree: base tagged, Debian .gitignore trailer dropped, no auto gc"
else
	bad "fresh tree: $(t describe --tags 2>&1)"
fi

# Two commits, one per series directory, the second adding a new file.
echo 'int x;' >> "$tree/core/main.c"
t commit -qam "core: add x"
mkdir -p "$tree/drv"
echo 'int y;' > "$tree/drv/y.c"
t add -A
if [ -z "$(t diff --cached --name-only)" ]; then
	bad "a new file is invisible to git in the tree"
fi
t commit -qm "drv: add y"

"$tools/export" 2>/dev/null
if [ "$(cat "$co/core-patches/series")" = 0001-core-add-x.patch ] &&
   [ "$(cat "$co/drv-patches/series")" = 0001-drv-add-y.patch ]; then
	ok "export: one patch per directory, series files written"
else
	bad "export: $(ls "$co"/*/)"
fi
cp -r "$co" "$tmp/before"
"$tools/export" 2>/dev/null
if diff -r "$tmp/before" "$co" >/dev/null; then
	ok "export twice: byte-identical"
else
	bad "export twice differs"
fi

out=$("$tools/tree" 2>&1) || bad "tree on an up-to-date tree failed: $out"
case $out in *"up to date"*) ok "tree: up to date, nothing done" ;;
	*) bad "tree: expected 'up to date', got: $out" ;; esac

# Uncommitted changes: refused, and left alone.
echo 'int dirty;' >> "$tree/core/main.c"
if "$tools/tree" >"$tmp/out" 2>&1; then
	bad "tree clobbered a dirty tree"
elif grep -q "uncommitted changes" "$tmp/out" && grep -q dirty "$tree/core/main.c"; then
	ok "tree: refuses a dirty tree, change kept"
else
	bad "tree: dirty tree: $(cat "$tmp/out")"
fi
t checkout -q -- core/main.c

# A commit that is not exported: refused, and kept.
echo 'int z;' >> "$tree/core/main.c"
t commit -qam "core: add z"
head=$(t rev-parse HEAD)
if "$tools/tree" >"$tmp/out" 2>&1; then
	bad "tree clobbered an unexported commit"
elif grep -q "not in the exported series" "$tmp/out" && [ "$(t rev-parse HEAD)" = "$head" ]; then
	ok "tree: refuses unexported commits, HEAD kept"
else
	bad "tree: unexported commit: $(cat "$tmp/out")"
fi

# --force: the commit is set aside on a backup branch, the tree rebuilt.
"$tools/tree" --force >/dev/null 2>&1 || bad "tree --force failed"
# (no "| grep -q" under pipefail: grep exiting first fails the pipeline)
if grep -q "core: add z" <<<"$(t log --format=%s --branches='backup/*')" &&
   [ "$(t rev-list --count base-1.0-1_toy..HEAD)" = 2 ]; then
	ok "tree --force: work kept on backup/*, series re-applied"
else
	bad "tree --force: $(t branch -a)"
fi

# The checkout's series changed (as after a pull), the tree has no work
# of its own: re-applied without complaint.
: > "$co/drv-patches/series"
rm "$co/drv-patches/"*.patch
if "$tools/tree" >"$tmp/out" 2>&1 && [ "$(t rev-list --count base-1.0-1_toy..HEAD)" = 1 ]; then
	ok "tree: checkout changed, tree re-applied"
else
	bad "tree after checkout change: $(cat "$tmp/out")"
fi

# A patch that does not apply: the patch and the hunk are named.
cp "$tmp/before/drv-patches/0001-drv-add-y.patch" "$co/drv-patches/"
sed -i 's/^+int y;/+int y;\n+int w;/; s/^@@ -0,0 +1 @@/@@ -0,0 +1,2 @@/' \
	"$co/drv-patches/0001-drv-add-y.patch"
printf '0001-drv-add-y.patch\n' > "$co/drv-patches/series"
cp "$co/core-patches/0001-core-add-x.patch" "$co/core-patches/0002-core-again.patch"
printf '0001-core-add-x.patch\n0002-core-again.patch\n' > "$co/core-patches/series"
if "$tools/tree" >"$tmp/out" 2>&1; then
	bad "tree applied a patch that cannot apply"
elif grep -q "core-patches/0002-core-again.patch does not apply" "$tmp/out" &&
     grep -q "core/main.c" "$tmp/out"; then
	ok "tree: a failing patch is named, with its file and hunk"
else
	bad "tree: failing patch: $(cat "$tmp/out")"
fi

# Commits out of series order: export refuses, naming the commit.
printf '0001-core-add-x.patch\n' > "$co/core-patches/series"
rm "$co/core-patches/0002-core-again.patch"
"$tools/tree" --force >/dev/null 2>&1 || true
echo 'int v;' > "$tree/drv/v.c"
t add -A
t commit -qm "drv: add v"
echo 'int u;' >> "$tree/core/main.c"
t commit -qam "core: add u"
if "$tools/export" >"$tmp/out" 2>&1; then
	bad "export accepted a core commit after a drv commit"
elif grep -q 'core: add u' "$tmp/out" && grep -q "rebase -i" "$tmp/out"; then
	ok "export: out-of-order commit named, with the fix"
else
	bad "export out of order: $(cat "$tmp/out")"
fi

# A commit that touches the files of two series belongs to the later one.
t reset -q --hard HEAD~2
mkdir -p "$co/ext-patches" "$tree/ext"
: > "$co/ext-patches/series"
printf 'core-patches *\ndrv-patches drv/\next-patches ext/\n' > "$co/series.conf"
echo 'int s;' > "$tree/ext/s.c"
echo 'int s;' >> "$tree/drv/y.c"
t add -A
t commit -qm "ext: share s with drv"
if "$tools/export" >"$tmp/out" 2>&1 &&
   [ "$(cat "$co/ext-patches/series")" = 0001-ext-share-s-with-drv.patch ] &&
   [ "$(cat "$co/drv-patches/series")" = 0001-drv-add-y.patch ]; then
	ok "export: a commit of two series goes to the later one"
else
	bad "export, commit of two series: $(cat "$tmp/out") $(ls "$co"/*/)"
fi

# series.conf changed so that the same commits would export differently
# (as when a series directory is added): a tree that still holds what
# the last apply put there is re-applied, not refused.
t reset -q --hard HEAD~1
rm -rf "$co/ext-patches" "$tree/ext"
printf 'core-patches *\ndrv-patches drv/\n' > "$co/series.conf"
"$tools/tree" --force >/dev/null 2>&1 || true
mkdir -p "$co/ext-patches"
: > "$co/ext-patches/series"
printf 'core-patches *\ndrv-patches drv/\next-patches drv/\n' > "$co/series.conf"
if "$tools/tree" >"$tmp/out" 2>&1 && grep -q "tree ready" "$tmp/out"; then
	ok "tree: series.conf changed, an untouched tree re-applied"
else
	bad "tree after a series.conf change: $(cat "$tmp/out")"
fi

# An interrupted git am (left in progress): refused; --force aborts it
# and rebuilds, the series applied.
n_series=$(t rev-list --count base-1.0-1_toy..HEAD)
printf 'From: x <x@localhost>\nSubject: [PATCH] broken\n\n---\n--- a/nope.c\n+++ b/nope.c\n@@ -1 +1 @@\n-a\n+b\n' > "$tmp/broken.patch"
t am -q "$tmp/broken.patch" >/dev/null 2>&1 || true
if [ -d "$tree/.git/rebase-apply" ] && ! "$tools/tree" >"$tmp/out" 2>&1 &&
   grep -q "a git operation is in progress (rebase-apply)" "$tmp/out" &&
   "$tools/tree" --force >"$tmp/out" 2>&1 && grep -q "tree ready" "$tmp/out" &&
   grep -q "rebase-apply in progress was aborted" "$tmp/out" &&
   [ ! -e "$tree/.git/rebase-apply" ] &&
   [ "$(t rev-list --count base-1.0-1_toy..HEAD)" = "$n_series" ] &&
   [ "$(t symbolic-ref --short HEAD)" = series ]; then
	ok "tree: an am in progress refused; --force aborts it and re-applies"
else
	bad "am in progress: $(cat "$tmp/out")"
fi

# tree_killed_while_waiting: tools/tree with the shims of $tmp/shim first
# on PATH, in a process group of its own, output in $tmp/out; the group
# killed (as Ctrl-C kills it) once a shim has said it is waiting.
tree_killed_while_waiting() {
	local pid
	PATH=$tmp/shim:$PATH setsid "$tools/tree" >"$tmp/out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ -e "$tmp/shim/waiting" ] && break; sleep 0.1; done
	kill -TERM -- -"$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# Killed while applying (the second git am sleeps until killed): the am
# is aborted, the tree left at its base; the next run re-applies.
mkdir -p "$tmp/shim"
real_git=$(command -v git)
cat > "$tmp/shim/git" <<SH
#!/usr/bin/env bash
case " \$* " in
*" am -q "*)
	n=\$(cat "$tmp/shim/n" 2>/dev/null || echo 0)
	echo \$((n + 1)) > "$tmp/shim/n"
	if [ "\$n" = 1 ]; then touch "$tmp/shim/waiting"; sleep 30; fi ;;
esac
exec "$real_git" "\$@"
SH
chmod +x "$tmp/shim/git"
[ "$n_series" -ge 2 ] || bad "the toy series has $n_series patches; this case needs 2"
t checkout -q -B series base-1.0-1_toy
rm -rf "$tree/.git/skbpool"
tree_killed_while_waiting
if [ -e "$tmp/shim/waiting" ] && grep -q "interrupted: the tree is left at base-1.0-1_toy" "$tmp/out" &&
   [ ! -e "$tree/.git/rebase-apply" ] &&
   [ "$(t rev-parse HEAD)" = "$(t rev-parse base-1.0-1_toy)" ] &&
   "$tools/tree" >"$tmp/out2" 2>&1 && grep -q "tree ready" "$tmp/out2" &&
   [ "$(t rev-list --count base-1.0-1_toy..HEAD)" = "$n_series" ]; then
	ok "tree: killed while applying, left at its base; the next run re-applies"
else
	bad "killed while applying: $(cat "$tmp/out" "$tmp/out2" 2>/dev/null)"
fi

# Killed during the first import (tar sleeps until killed): no half tree
# is left at $tree; the next run imports it whole.
rm -rf "$tree" "$tmp/shim/waiting"
cat > "$tmp/shim/tar" <<SH
#!/usr/bin/env bash
touch "$tmp/shim/waiting"
sleep 30
SH
chmod +x "$tmp/shim/tar"
rm -f "$tmp/shim/git"
tree_killed_while_waiting
if [ -e "$tmp/shim/waiting" ] && [ ! -e "$tree" ] &&
   "$tools/tree" >"$tmp/out2" 2>&1 && grep -q "tree ready" "$tmp/out2" &&
   [ "$(t rev-list --count base-1.0-1_toy..HEAD)" = "$n_series" ] &&
   [ ! -e "$tree.import" ]; then
	ok "tree: killed during the first import, no half tree; the next run imports it"
else
	bad "killed during import: $(ls -d "$tree"* 2>&1) $(cat "$tmp/out2" 2>/dev/null)"
fi

# The fixes for net: the directory whose paths are '-' (the first) holds
# the tree's first commits, as many as its series file lists, whatever
# they touch; the others go by their paths. Exported twice: no diff; the
# tree then holds exactly the checkout's series.
rm -rf "$co/ext-patches" "$tmp/shim"
mkdir -p "$co/fix-patches"
printf 'fix-patches -\ncore-patches *\ndrv-patches drv/\n' > "$co/series.conf"
printf 'any name: export writes it\n' > "$co/fix-patches/series"
t reset -q --hard base-1.0-1_toy
mkdir -p "$tree/drv"
echo 'int fix;' > "$tree/drv/fix.c"
t add -A
t commit -qm "drv: fix"
echo 'int x2;' >> "$tree/core/main.c"
t commit -qam "core: add x2"
echo 'int y2;' > "$tree/drv/y2.c"
t add -A
t commit -qm "drv: add y2"
if "$tools/export" >"$tmp/out" 2>&1 &&
   [ "$(cat "$co/fix-patches/series")" = 0001-drv-fix.patch ] &&
   [ "$(cat "$co/core-patches/series")" = 0001-core-add-x2.patch ] &&
   [ "$(cat "$co/drv-patches/series")" = 0001-drv-add-y2.patch ]; then
	ok "export: the first commits to the fixes' directory, by its count; the rest by path"
else
	bad "export with fixes: $(cat "$tmp/out") $(head "$co"/*/series)"
fi
rm -rf "$tmp/before"
cp -r "$co" "$tmp/before"
"$tools/export" 2>/dev/null || bad "export with fixes, second time"
if diff -r "$tmp/before" "$co" >/dev/null; then
	ok "export with fixes twice: byte-identical"
else
	bad "export with fixes twice differs: $(diff -r "$tmp/before" "$co" | head -5)"
fi
if "$tools/tree" --force >"$tmp/out" 2>&1 && "$tools/tree" >"$tmp/out" 2>&1 &&
   grep -q "up to date (base-1.0-1_toy + 3 patches)" "$tmp/out" &&
   [ "$(t log -1 --format=%s HEAD~2)" = "drv: fix" ]; then
	ok "tree: the fixes applied first, the tree up to date with the checkout"
else
	bad "tree with fixes: $(cat "$tmp/out")"
fi
# export_refused WHAT PATTERN: export fails, saying PATTERN
export_refused() {
	if "$tools/export" >"$tmp/out" 2>&1; then
		bad "export accepted $1"
	elif grep -q "$2" "$tmp/out"; then
		ok "export: $1 refused"
	else
		bad "export, $1: $(cat "$tmp/out")"
	fi
}
# more fixes listed than the tree has commits: refused, not guessed
printf 'a\nb\nc\nd\n' > "$co/fix-patches/series"
export_refused "more fixes listed than commits" \
	"the series files of fix-patches list 4 counted commits, but .* has only 3 commits on base-1.0-1_toy"
cp "$tmp/before/fix-patches/series" "$co/fix-patches/series"
# the fixes' directory must come first
printf 'core-patches *\nfix-patches -\ndrv-patches drv/\n' > "$co/series.conf"
export_refused "the fixes' directory not first" \
	"^export: error: series.conf: fix-patches has the paths '-' (its commits counted from the tree's first ones), so it must come before core-patches and every directory placed by paths"
# a second counted directory takes the commits after the fixes, by its
# count, whatever they touch (net-next patches posted on their own)
mkdir -p "$co/stat-patches"
printf 'fix-patches -\nstat-patches -\ncore-patches *\ndrv-patches drv/\n' > "$co/series.conf"
printf 'x\n' > "$co/stat-patches/series"
if "$tools/export" >"$tmp/out" 2>&1 &&
   [ "$(cat "$co/fix-patches/series")" = 0001-drv-fix.patch ] &&
   [ "$(cat "$co/stat-patches/series")" = 0001-core-add-x2.patch ] &&
   [ "$(cat "$co/core-patches/series")" = "" ] &&
   [ "$(cat "$co/drv-patches/series")" = 0001-drv-add-y2.patch ]; then
	ok "export: a second counted directory takes the next commits by its count"
else
	bad "export with two counted directories: $(cat "$tmp/out") $(head "$co"/*/series)"
fi

[ "$fails" = 0 ]
