#!/usr/bin/env bash
# tools/check-series on a toy kernel: a good series passes every step
# (the per-patch build and W=1/sparse with a toy Makefile that takes
# kbuild's arguments), and a patch broken in each way the checklist
# knows fails the step that catches it, with a message naming the patch
# and the line. checkpatch.pl and kernel-doc are the base's own, Sphinx
# and sparse Debian's; no kernel is built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
tool=$tools/check-series
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

for c in sparse gcc; do
	command -v "$c" >/dev/null || { echo "FAIL: $c missing: run 'make deps'"; exit 1; }
done
/usr/bin/python3 -c 'import sphinx' || { echo "FAIL: python3-sphinx missing: run 'make deps'"; exit 1; }

# The base's checkpatch.pl and kernel-doc, extracted once per tarball
# from the base that 'make deps' fetched (common.sh's BASE_TARBALL, for
# the SKBPOOL_CACHE of this run); without it the test cannot run: exit
# 77, which tests/run reports as a skip.
mapfile -t b < <(unset SKBPOOL_BASE_TARBALL SKBPOOL_BASE_INSTALLED
		 source "$tools/common.sh"
		 echo "$BASE_TARBALL"
		 installed_base_version)
tarball=${b[0]}
if [ -z "${b[1]:-}" ]; then
	echo "no fetched base ($tarball), whose checkpatch.pl and kernel-doc it needs: run 'make deps'"
	exit 77
fi
# (in 7.3, not 6.12, scripts/kernel-doc is a link to
# tools/docs/kernel-doc, a Python program with its library in
# tools/lib/python; the paths are kept, and tar's complaint about a
# member an older base lacks is only shown when what is needed did not
# come out)
scripts=${XDG_CACHE_HOME:-$HOME/.cache}/skbpool-test-scripts/$(stat -c %s-%Y "$tarball")
if [ ! -f "$scripts/scripts/kernel-doc" ] || [ ! -f "$scripts/Documentation/sphinx/kerneldoc.py" ]; then
	rm -rf "$scripts.tmp"
	mkdir -p "$scripts.tmp"
	tar -C "$scripts.tmp" -xJf "$tarball" --wildcards --strip-components=1 \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' '*/scripts/kernel-doc' \
		'*/tools/docs/kernel-doc' '*/tools/lib/python/*' \
		'*/Documentation/sphinx/kerneldoc.py' 2>"$tmp/tar.err" || true
	if [ ! -f "$scripts.tmp/scripts/checkpatch.pl" ] || [ ! -f "$scripts.tmp/scripts/kernel-doc" ] ||
	   [ ! -f "$scripts.tmp/Documentation/sphinx/kerneldoc.py" ]; then
		cat "$tmp/tar.err"
		echo "FAIL: no scripts/checkpatch.pl, scripts/kernel-doc or Documentation/sphinx/kerneldoc.py out of $tarball"
		exit 1
	fi
	rm -rf "$scripts"
	mv "$scripts.tmp" "$scripts"
fi

# A toy kernel: what checkpatch wants to see at the top, the scripts, a
# Sphinx conf.py, an index, one C file, and a Makefile that answers
# kbuild's 'O= olddefconfig', 'O=' (build all) and 'W=1 C=2 dir/file.o'
src=$tmp/src/linux-source-toy
mkdir -p "$src"/{Documentation/networking,arch,include,drivers,fs,init,ipc,kernel,lib,scripts,core}
for f in COPYING CREDITS Kbuild MAINTAINERS README; do echo "$f" > "$src/$f"; done
for d in arch include drivers fs init ipc kernel lib; do echo "$d" > "$src/$d/README"; done
printf '*.o\n' > "$src/.gitignore"
cp -a "$scripts/." "$src/"
# the first fragment of the UML cell's configuration, kunit.py's
mkdir -p "$src/tools/testing/kunit/configs"
echo 'CONFIG_TOY_UML=y' > "$src/tools/testing/kunit/configs/arch_uml.config"
# the base's kernel-doc Sphinx extension, as the kernel's conf.py loads it
cat > "$src/Documentation/conf.py" <<'PY'
import os
import sys
sys.path.insert(0, os.path.abspath('sphinx'))
project = "toy"
master_doc = "index"
extensions = ['kerneldoc']
PY
printf 'Networking\n==========\n\n.. toctree::\n   :maxdepth: 1\n\n   alpha\n' \
	> "$src/Documentation/networking/index.rst"
printf 'Alpha\n=====\n\nAlpha.\n' > "$src/Documentation/networking/alpha.rst"
cat > "$src/core/main.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
int main_value(void);

int main_value(void)
{
	return 1;
}
C
cat > "$src/Makefile" <<'MK'
O ?= .
.DEFAULT_GOAL := all
Makefile: ;
WARN := -Wall -Wno-unused-but-set-variable
ifeq ($(W),1)
WARN += -Wextra -Wunused-but-set-variable -Wmissing-prototypes
endif
OBJS := $(patsubst %.c,%.o,$(wildcard core/*.c))
all: $(addprefix $(O)/,$(OBJS))
$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -c $< -o $@
olddefconfig:
	@:
%.o: FORCE
	@mkdir -p $(O)/$(dir $@)
	$(if $(filter 2,$(C)),sparse $*.c)
	$(CC) $(WARN) -c $*.c -o $(O)/$@
FORCE:
.PHONY: all olddefconfig FORCE
MK
# The toy's get_maintainer.pl: a maintainer per directory the patch
# touches, the list the mails go To, and the sender, as the real one
# can print them.
cat > "$src/scripts/get_maintainer.pl" <<'PL'
#!/usr/bin/perl
my $f = $ARGV[-1];
open(my $fh, '<', $f) or die "no $f";
my %dirs;
while (<$fh>) { $dirs{$1} = 1 if m{^\+\+\+ b/([^/]+)/}; }
print "Core Maint <core\@kernel.org>\n" if $dirs{core};
print "Doc Maint <doc\@kernel.org>\n" if $dirs{Documentation};
print "UM Maint <um\@kernel.org>\nlinux-um\@lists.infradead.org\n" if $dirs{arch};
print "netdev\@vger.kernel.org\nTess Tester <tess\@kernel.org>\n" if %dirs;
PL
tar -C "$tmp/src" -cJf "$tmp/base.tar.xz" linux-source-toy

co=$tmp/checkout
mkdir -p "$co/core-patches" "$co/kunit"
# the checkout's fragments of the UML cell's configuration
for f in base debug kasan uml; do echo "CONFIG_TOY_${f^^}=y" > "$co/kunit/$f.config"; done
: > "$co/core-patches/series"
printf 'core-patches *\n' > "$co/series.conf"
printf 'FILE_PATH_CHANGES\n' > "$co/checkpatch.ignore"
export SKBPOOL_TOP=$co SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out
export SKBPOOL_BASE_TARBALL=$tmp/base.tar.xz
export SKBPOOL_BASE_INSTALLED=1.0-1~toy BASE_VERSION=1.0-1~toy
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.org
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.org
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z'
export CCACHE_DISABLE=1
"$tools/tree" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
tree=$tmp/cache/tree
t() { git -C "$tree" "$@"; }
sob="Signed-off-by: Tester <t@example.org>"

# The good series: core/foo.c (kernel-doc, W=1 and sparse clean), a
# change to core/main.c, a documentation page linked from the index.
cat > "$tree/core/foo.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
/* The toy foo */

#include "foo.h"

static int foo_count;

/**
 * foo_get() - count a call
 * @n: a number
 *
 * Return: @n plus the number of calls so far.
 */
int foo_get(int n)
{
	int seen;

	seen = n;
	foo_count++;
	return seen + foo_count;
}
C
printf '/* SPDX-License-Identifier: GPL-2.0 */\nint foo_get(int n);\n' > "$tree/core/foo.h"
sed -i 's/return 1;/return 2;/' "$tree/core/main.c"
t add -A
t commit -qm "core: add foo" -m "Count calls." -m "$sob"
cat > "$tree/Documentation/networking/foo.rst" <<'RST'
.. SPDX-License-Identifier: GPL-2.0

===
Foo
===

Foo counts calls.

.. kernel-doc:: core/foo.c
RST
sed -i 's/^   alpha$/   alpha\n   foo/' "$tree/Documentation/networking/index.rst"
t add -A
t commit -qm "Documentation: networking: add foo" -m "Say what foo does." -m "$sob"
"$tools/export" 2>/dev/null
p1=core-patches/0001-core-add-foo.patch
p2=core-patches/0002-Documentation-networking-add-foo.patch
[ -f "$co/$p1" ] && [ -f "$co/$p2" ] || { echo "FAIL: export: $(ls "$co/core-patches")"; exit 1; }
cp -r "$co" "$tmp/good"

if run good 0 --skip modules; then
	has good 'build: .*2 patch\(es\)|built 1 patch'
	has good 'docs: Documentation/networking/foo.rst'
	has good 'series check passed'
	# the toy's t@example.org sign-off is flagged, not failed
	has good 'WARNING: form: 2 patch\(es\) signed off by an identity that cannot certify the DCO'
	ok "good series: every step passes"
fi
# The modular build needs an x86_64 kernel (tests/test-check-modules.sh
# tests it on its own), so "good" skips it; make check runs it by
# default: the toy, which has no kunit/modules.config, fails there.
run dflt 1 && has dflt 'FAIL: modules: see above' &&
	ok "the modules step runs by default"
run again 0 --only build && has again 'built 0 patch\(es\), 1 already built' &&
	ok "second run: nothing rebuilt"

# a fragment of the configuration missing: check-build says which and
# exits 2, rather than building another configuration
rm "$co/kunit/kasan.config"
if run no-fragment 1 --only build; then
	has no-fragment "^check-build: error: config fragment $co/kunit/kasan\.config is missing"
	hasnt no-fragment 'built [0-9]+ patch'
	ok "a missing config fragment: check-build names it, builds nothing"
fi
echo 'CONFIG_TOY_KASAN=y' > "$co/kunit/kasan.config"

# break P SED-EXPR: the good checkout, patch P edited with sed
break_patch() {
	rm -rf "$co"
	cp -r "$tmp/good" "$co"
	sed -i "$2" "$co/$1"
	grep -q . "$co/$1"
}
# expect NAME STEP REGEX: check-series --only STEP fails and says REGEX
expect() {
	if run "$1" 1 --only "$2"; then
		has "$1" "$3"
		has "$1" 'series check failed'
		ok "$1: caught by '$2'"
	fi
}

break_patch "$p1" 's/^ {$/ {  /'
expect no-apply apply "$p1 does not apply|patch failed: core/main.c:[0-9]+"
has no-apply "patch failed: core/main.c:[0-9]+"

break_patch "$p1" 's/^+\tfoo_count++;$/+\tfoo_count++/'
expect no-build build "$p1 \(patch 1/2\) does not build"
has no-build "$p1: core/foo.c:[0-9]+:[0-9]+: error"

break_patch "$p1" 's/^+\treturn seen + foo_count;$/+\treturn n + foo_count;/'
expect w1 build "FAIL: $p1: new W=1/sparse warning: core/foo.c:16:[0-9]+: warning: variable .seen. set but not used \\[-Wunused-but-set-variable\\]"

break_patch "$p1" 's/^+static int foo_count;$/+int foo_count;/'
expect sparse build "FAIL: $p1: new W=1/sparse warning: core/foo.c:6:[0-9]+: warning: symbol 'foo_count' was not declared"

break_patch "$p1" 's/^+\tfoo_count++;$/+\tfoo_count++; /'
expect checkpatch checkpatch "FAIL: checkpatch: $p1:[0-9]+: ERROR:TRAILING_WHITESPACE: .*\[FILE: core/foo.c:19\]"

break_patch "$p1" 's/^+ \* @n: a number$/+ * @m: a number/'
expect kernel-doc kerneldoc "FAIL: kernel-doc: $p1: core/foo.c:1[0-9]: warning: .*(n|m)"
# two warnings (@n not described, @m excess), each once
[ "$(grep -c 'FAIL: kernel-doc: ' "$tmp/kernel-doc.out")" = 2 ] ||
	fail "kernel-doc: not 2 warnings once each: $(grep 'FAIL: kernel-doc' "$tmp/kernel-doc.out")"

break_patch "$p1" '/^Signed-off-by:/d'
expect no-sob form "FAIL: $p1:[0-9]+: no Signed-off-by"

break_patch "$p1" 's/^Subject: \[PATCH\] core: add foo$/Subject: [PATCH] Add foo/'
expect subject form "FAIL: $p1:[0-9]+: subject 'Add foo' is not 'area: summary'"

# a subject over 72 columns, folded over two header lines as git does
break_patch "$p1" 's/^Subject: \[PATCH\] core: add foo$/Subject: [PATCH] core: add foo, a counter of the calls of foo_get() that\n nobody ever asked for/'
expect subject-long form "FAIL: $p1:[0-9]+: subject is 77 columns, more than 72: 'core: add foo, a counter of the calls of foo_get\\(\\) that nobody ever asked for'"

break_patch "$p1" 's/^+int foo_get(int n)$/+inline int foo_get(int n)/'
expect inline form "FAIL: $p1:[0-9]+: new inline in a .c file: inline int foo_get"

# a second declaration, longer than the first
break_patch "$p1" '/^+\tint seen;$/{n;s/^+$/+\tlong seen2 = 0;/}'
expect rct form "FAIL: $p1: core/foo.c:1[0-9]: declarations not longest first \(lengths 17, 23\)"

# check-rct failing (exit 2: a git error; a traceback with exit 1) is
# the tool's failure, said as such, not findings against the series:
# check-series from a copy of tools/ whose check-rct is a fake
rm -rf "$co" "$tmp/rct"
cp -r "$tmp/good" "$co"
mkdir "$tmp/rct"
cp -r "$tools" "$here/../Makefile" "$tmp/rct/"
fake_rct=$tmp/rct/tools/check-rct
printf '#!/bin/sh\necho "check-rct: error: git -C x diff failed (exit 128): fatal: bad object" >&2\nexit 2\n' \
	> "$fake_rct"
if tool=$tmp/rct/tools/check-series run rct-git-error 1 --only form; then
	f0=$fails
	has rct-git-error "^check-series: error: tools/check-rct failed \(exit 2\), so the declarations' order is not checked: check-rct: error: git -C x diff failed"
	hasnt rct-git-error 'FAIL: |series check failed'
	[ "$fails" != "$f0" ] || ok "check-rct exits 2: a tool failure, not findings"
fi
printf '#!/bin/sh\necho "Traceback (most recent call last):"\necho "  File x, line 3: NameError"\nexit 1\n' \
	> "$fake_rct"
if tool=$tmp/rct/tools/check-series run rct-traceback 1 --only form; then
	f0=$fails
	has rct-traceback "^check-series: error: tools/check-rct failed \(exit 1\), so the declarations' order is not checked: Traceback"
	hasnt rct-traceback 'FAIL: |series check failed'
	[ "$fails" != "$f0" ] ||
		ok "check-rct exits 1 without FILE:LINE: lines: a tool failure, not findings"
fi

break_patch "$p2" 's/^+Foo counts calls.$/+Foo counts `calls./'
expect doc-render docs "FAIL: docs: $p2: Documentation/networking/foo.rst:[0-9]+: (WARNING|CRITICAL|\(SEVERE)"

break_patch "$p1" 's/^+ \* @n: a number$/+ * @m: a number/'
expect doc-kernel-doc docs "FAIL: docs: $p1: core/foo.c:1[0-9]: warning: .*'(n|m)'"
[ "$(grep -c 'FAIL: docs: ' "$tmp/doc-kernel-doc.out")" = 2 ] ||
	fail "doc-kernel-doc: not 2 warnings once each: $(grep 'FAIL: docs' "$tmp/doc-kernel-doc.out")"

break_patch "$p2" 's/^+   foo$/+   fooo/'
expect doc-index docs "FAIL: docs: $p2: Documentation/networking/foo.rst:1: ERROR: not linked from Documentation/networking/index.rst"

# 16 patches in one series
rm -rf "$co"
cp -r "$tmp/good" "$co"
"$tools/tree" >/dev/null 2>&1 || { echo "FAIL: tree"; exit 1; }
for i in $(seq 3 16); do
	echo "int bar$i;" > "$tree/Documentation/bar$i.txt"
	t add -A
	t commit -qm "Documentation: add bar$i" -m "$sob"
done
"$tools/export" 2>/dev/null
expect sixteen form "FAIL: core-patches/series:16: 0016-Documentation-add-bar16.patch is patch 16 of 16 in one series; netdev takes at most 15 per series"
# the same 16 with the first a fix for net, the series directory
# net-fixes/ (paths '-', first in series.conf): 1 to net and 15 to
# net-next, each within the limit; the fix applies first, to the base
printf 'net-fixes -\ncore-patches *\n' > "$co/series.conf"
mkdir -p "$co/net-fixes"
echo 1 > "$co/net-fixes/series"
"$tools/export" 2>/dev/null
if run sixteen-fix 0 --only form; then
	hasnt sixteen-fix 'at most 15'
	has sixteen-fix 'apply: the 1 fix\(es\) for net \(net-fixes/\) apply to base-1.0-1_toy on their own, first'
	[ "$(cat "$co/net-fixes/series")" = 0001-core-add-foo.patch ] ||
		fail "sixteen-fix: net-fixes/series is $(cat "$co/net-fixes/series")"
	ok "sixteen-fix: 1 for net and 15 for net-next pass 'form'"
fi
rm -rf "$co/net-fixes"

# tools/mbox on the good series: cover 0/2 from the cover letter, the
# bench table from results/bench.json when its patched kernel is the
# series being mailed, refused otherwise; the mbox imports with git am
rm -rf "$co"
cp -r "$tmp/good" "$co"
"$tools/tree" --force >/dev/null 2>&1 || { echo "FAIL: tree"; exit 1; }
printf 'Subject: core: foo, counted\n\nFoo counts calls.\n' > "$co/core-patches/cover-letter"
# bench_json BASE PATCHED [TREE]: results/bench.json of one workload
bench_json() {
	mkdir -p "$co/results"
	python3 - "$co/results/bench.json" "$@" <<'PY'
import json
import sys
w = {"name": "foo-64", "unit": "instructions/packet", "base": 100.0,
     "patched": 90.0, "ratio": 0.9, "min": 89.0, "max": 91.0,
     "base_min": 99.0, "base_max": 101.0, "packets": 10, "runs": 7,
     "slab_heads_per_1000": 0.0, "slab_heads_per_1000_base": 1000.0,
     "spread_pct": 2.2, "goal": 0.8}
r = {"method": "toy", "base": sys.argv[2], "patched": sys.argv[3],
     "command": "make bench", "workloads": [w], "diagnostics": []}
if len(sys.argv) > 4:
    r["patched_tree"] = sys.argv[4]
json.dump(r, open(sys.argv[1], "w"))
PY
}
bench_json "1.0 (base-1.0-1_toy @ 0123abcd)" "1.0 (series @ $(git -C "$tree" rev-parse --short=12 series))"
tool=$tools/mbox
# No sender, or a placeholder one: no mails.
if SKBPOOL_SENDER="Tester <t@example.org>" run mbox-placeholder 1; then
	has mbox-placeholder "'Tester <t@example.org>' cannot sign off patches for netdev"
	[ ! -e "$tmp/out/mbox/core-patches.mbox" ] || fail "mbox-placeholder: wrote an mbox"
	ok "mbox: refuses a placeholder sender"
fi
if SKBPOOL_SENDER="Tess Tester <tess@localhost>" run mbox-localhost 1; then
	has mbox-localhost "cannot sign off patches"
	ok "mbox: refuses a localhost sender"
fi
export SKBPOOL_SENDER="Tess Tester <tess@kernel.org>"
if run mbox 0; then
	m=$tmp/out/mbox/core-patches.mbox
	# RFC: the toy, like the series, is on a release, not on net-next
	if [ "$(grep -c '^Subject: \[RFC PATCH net-next [0-2]/2\]' "$m")" = 3 ] &&
	   grep -q '^Subject: \[RFC PATCH net-next 0/2\] core: foo, counted$' "$m" &&
	   grep -q 'from results/bench.json of' "$m" &&
	   grep -qE '^  foo-64 +insns/packet +100.0 +90.0 +0.900 +1000.0 -> 0.0$' "$m"; then
		ok "mbox: cover 0/2 with results/bench.json's table, said so; patches 1/2, 2/2"
	else
		fail "mbox: $(grep -E '^Subject|foo-64|results' "$m")"
	fi
	has mbox 'bench table from .*/results/bench.json \(patched: 1.0 \(series @ [0-9a-f]{12}\), the series being mailed\)'
	# every mail From the sender, who signs off both patches in place of
	# the placeholder
	if [ "$(grep -c '^From: Tess Tester <tess@kernel.org>$' "$m")" = 3 ] &&
	   [ "$(grep -c '^Signed-off-by: Tess Tester <tess@kernel.org>$' "$m")" = 2 ] &&
	   ! grep -q 't@example.org' "$m"; then
		ok "mbox: From and Signed-off-by are the sender's, the placeholder's are gone"
	else
		fail "mbox identity: $(grep -E '^From: |^Signed-off-by' "$m")"
	fi
	# Cc: per mail from the tree's get_maintainer.pl, the cover's the
	# union, without the To: list and the sender
	ccs=$(awk '/^Subject:/ { s = $5 } /^Cc: / { printf "%s %s", s, $0; c = 1; next }
		c && /^ / { printf "%s", $0; next } c { print ""; c = 0 }' "$m")
	if [ "$ccs" = "$(printf '%s\n' '0/2] Cc: Core Maint <core@kernel.org>, Doc Maint <doc@kernel.org>' \
		'1/2] Cc: Core Maint <core@kernel.org>' '2/2] Cc: Doc Maint <doc@kernel.org>')" ]; then
		ok "mbox: Cc: from get_maintainer.pl per patch, the union on the cover"
	else
		fail "mbox Cc: got: $ccs"
	fi
	if grep -q '^base-commit: [0-9a-f]\{40\}$' "$m" &&
	   grep -q "^The base-commit below is the commit 'make tree' imports" "$m"; then
		ok "mbox: a base-commit trailer, said what it names"
	else
		fail "mbox: no base-commit: $(grep -n 'base-commit' "$m")"
	fi
	# a table of another base, of another series, or none: refused
	good_json=$(cat "$co/results/bench.json")
	sed -i 's/base-1.0-1_toy/base-0.9-1_toy/' "$co/results/bench.json"
	if run mbox-other 1; then
		has mbox-other "bench.json was measured on another base \(1.0 \(base-0.9-1_toy @ 0123abcd\)\), not base-1.0-1_toy"
		ok "mbox: a bench table of another base refused"
	fi
	bench_json "1.0 (base-1.0-1_toy @ 0123abcd)" "1.0 (series @ 4567)" \
		"$(git -C "$tree" rev-parse 'series~1^{tree}')"
	if run mbox-stale 1; then
		has mbox-stale "the bench table \(.*/results/bench.json\) is of another series: its patched kernel, 1.0 \(series @ 4567\), is not the series being mailed"
		ok "mbox: a bench table of another series (its patched tree) refused"
	fi
	bench_json "1.0 (base-1.0-1_toy @ 0123abcd)" "1.0 (series @ 4567)"
	if run mbox-unknown 1; then
		has mbox-unknown "names no patched commit that .* has \(1.0 \(series @ 4567\)\)"
		ok "mbox: a bench table of a commit the tree does not have refused"
	fi
	rm -f "$co/results/bench.json"
	if run mbox-none 1; then
		has mbox-none "no bench table \(.*/results/bench.json\): run 'make bench', or 'tools/mbox --no-bench'"
		ok "mbox: no bench table refused"
	fi
	if run mbox-no-bench 0 --no-bench && grep -q '^No benchmark figure in this mail (sent with --no-bench)\.$' "$m"; then
		ok "mbox --no-bench: the cover says there is no figure"
	else
		fail "mbox --no-bench: $(sed -n '/^Performance/,/^Tess/p' "$m")"
	fi
	printf '%s\n' "$good_json" > "$co/results/bench.json"
	has mbox 'import with .git am --empty=drop. onto base-1.0-1_toy'
	if run mbox-no-rfc 0 --no-rfc &&
	   [ "$(grep -c '^Subject: \[PATCH net-next [0-2]/2\]' "$m")" = 3 ]; then
		ok "mbox --no-rfc: [PATCH net-next x/2]"
	else
		fail "mbox --no-rfc: $(grep '^Subject' "$m")"
	fi
	# -v 2: the cover says what changed, from the series' changes file
	if run mbox-v2-none 1 -v 2; then
		has mbox-v2-none "-v 2: .*core-patches/changes has no 'v2:' section"
		ok "mbox -v 2 without a changelog refused"
	fi
	printf 'v2:\n- foo counted once\n\nv3:\n- later\n' > "$co/core-patches/changes"
	if run mbox-v2 0 -v 2; then
		if grep -q '^Subject: \[RFC PATCH net-next v2 0/2\]' "$m" &&
		   grep -A1 '^Changes in v2:$' "$m" | grep -q '^- foo counted once$' &&
		   ! grep -q '^- later$' "$m"; then
			ok "mbox -v 2: the cover's 'Changes in v2:' from changes"
		else
			fail "mbox-v2: $(grep -A3 -e '^Subject' -e '^Changes' "$m")"
		fi
	fi
	rm -f "$co/core-patches/changes"
	# net-fixes/: the first patch is a fix, a series of its own (first
	# in series.conf), sent first to net, the other to net-next on top
	# of it; both import and give the tree.
	cp -r "$co" "$tmp/co-before-net"
	printf 'net-fixes -\ncore-patches *\n' > "$co/series.conf"
	mkdir -p "$co/net-fixes"
	echo 1 > "$co/net-fixes/series"
	printf 'Subject: core: a fix\n\nFixes foo.\n' > "$co/net-fixes/cover-letter"
	"$tools/export" 2>/dev/null
	if run mbox-net 0; then
		n=$tmp/out/mbox/net-fixes.mbox
		if [ "$(grep -c '^Subject: \[RFC PATCH net [01]/1\]' "$n" 2>/dev/null)" = 2 ] &&
		   grep -q '^Subject: \[RFC PATCH net 0/1\] core: a fix$' "$n" &&
		   grep -q '^Subject: \[RFC PATCH net 1/1\] core: add foo$' "$n" &&
		   [ "$(grep -c '^Subject: \[RFC PATCH net-next [01]/1\]' "$m")" = 2 ] &&
		   grep -q '^Subject: \[RFC PATCH net-next 1/1\] Documentation: networking: add foo$' "$m" &&
		   grep -q '^  "core: a fix"$' "$m"; then
			ok "mbox: net-fixes/ to net first, the rest to net-next on top of it"
		else
			fail "mbox-net: $(grep -h '^Subject' "$n" "$m")"
		fi
		has mbox-net 'net-fixes.mbox: cover \+ 1 patch'
		has mbox-net 'import with .git am --empty=drop. onto base-1.0-1_toy'
	fi
	rm -rf "$co" "$tmp/out/mbox/net-fixes.mbox"
	mv "$tmp/co-before-net" "$co"
	# the patched tree named outright (what make bench records)
	bench_json "1.0 (base-1.0-1_toy @ 0123abcd)" "1.0 (series @ 4567)" \
		"$(git -C "$tree" rev-parse 'series^{tree}')"
	if run mbox2 0 && grep -qE '^  foo-64 .* 90.0 +0.900 ' "$m"; then
		ok "mbox: a bench table whose patched_tree is the series' is quoted"
	else
		fail "mbox2: $(sed -n '/^Performance/,/^Tess/p' "$m")"
	fi
fi

# mbox --um: kunit/coverage/*.patch alone, on the base, to linux-um;
# signed by the sender, Cc from get_maintainer.pl, no cover; a patch
# that does not apply to the base is refused by name
mkdir -p "$co/kunit/coverage"
cat > "$co/kunit/coverage/0001-um-toy.patch" <<'PATCH'
From: skbpool tools <tools@localhost>
Subject: [PATCH] arch: say um

Say um.

---
diff --git a/arch/README b/arch/README
--- a/arch/README
+++ b/arch/README
@@ -1 +1,2 @@
 arch
+um
PATCH
if run mbox-um 0 --um; then
	u=$tmp/out/mbox/linux-um.mbox
	if [ "$(grep -c '^Subject: ' "$u")" = 1 ] &&
	   grep -q '^Subject: \[PATCH\] arch: say um$' "$u" &&
	   grep -q '^To: linux-um@lists.infradead.org$' "$u" &&
	   grep -q '^Cc: UM Maint <um@kernel.org>,$' "$u" && grep -q '^ netdev@vger.kernel.org$' "$u" &&
	   grep -q '^From: Tess Tester <tess@kernel.org>$' "$u" &&
	   grep -q '^Signed-off-by: Tess Tester <tess@kernel.org>$' "$u" &&
	   grep -q '^base-commit: [0-9a-f]\{40\}$' "$u" && ! grep -q 'tools@localhost' "$u"; then
		ok "mbox --um: the UML patch alone to linux-um, signed, Cc from get_maintainer.pl, base-commit"
	else
		fail "mbox-um: $(grep -E '^(Subject|To|Cc|From|Signed-off-by|base-commit| )' "$u")"
	fi
	has mbox-um 'linux-um.mbox: 1 patch\(es\) to linux-um@lists.infradead.org, import onto base-1.0-1_toy'
fi
sed -i 's/^ arch$/ arch64/' "$co/kunit/coverage/0001-um-toy.patch"
if run mbox-um-bad 1 --um; then
	has mbox-um-bad '0001-um-toy.patch does not apply to base-1.0-1_toy'
	ok "mbox --um: a patch that does not apply to the base refused"
fi

[ "$fails" = 0 ]
