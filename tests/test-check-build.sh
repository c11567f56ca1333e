#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/check-build on a toy kernel whose Makefile takes kbuild's
# arguments ('O= olddefconfig', 'O=' to build all, 'W=1 C=2 dir/file.o')
# and compiles with gcc: the .config is the UML cell's fragments
# (kunit.py's arch_uml.config, then kunit/{base,debug,kasan,uml}.config)
# in that order; each patch is built in order, a documentation-only one
# is not, a second run rebuilds nothing and a changed fragment rebuilds;
# a missing fragment is an error that names it (exit 2) and builds
# nothing; a patch that does not build, and a new W=1 warning in a file
# a patch touches, fail naming the patch. No kernel is built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/check-build
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

command -v gcc >/dev/null || { echo "gcc not installed (make deps installs it)"; exit 77; }

export SKBPOOL_CACHE=$tmp/cache SKBPOOL_TOP=$tmp/checkout CCACHE_DISABLE=1
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.org
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.org
tree=$tmp/tree build=$tmp/build
t() { git -C "$tree" "$@"; }
# no ccache in the toy's 'CC=ccache gcc': a ccache that runs gcc
bin=$tmp/bin
mkdir -p "$bin"
printf '#!/bin/sh\nexec "$@"\n' > "$bin/ccache"
chmod +x "$bin/ccache"
export PATH=$bin:$PATH

mkdir -p "$tree/core" "$tree/Documentation" "$tree/tools/testing/kunit/configs"
echo 'CONFIG_TOY_ARCH_UML=y' > "$tree/tools/testing/kunit/configs/arch_uml.config"
cat > "$tree/Makefile" <<'MK'
O ?= .
.DEFAULT_GOAL := all
Makefile: ;
WARN := -Wall -Wno-unused-but-set-variable
ifeq ($(W),1)
WARN += -Wextra -Wunused-but-set-variable
endif
OBJS := $(patsubst %.c,%.o,$(wildcard core/*.c))
all: $(addprefix $(O)/,$(OBJS))
$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -c $< -o $@
olddefconfig:
	@cp $(O)/.config $(O)/.config.seen
%.o: FORCE
	@mkdir -p $(O)/$(dir $@)
	$(CC) $(WARN) -c $*.c -o $(O)/$@
FORCE:
.PHONY: all olddefconfig FORCE
MK
printf '// SPDX-License-Identifier: GPL-2.0\nint main_value(void);\nint main_value(void)\n{\n\treturn 1;\n}\n' \
	> "$tree/core/main.c"
printf '*.o\n' > "$tree/.gitignore"
t init -q
t add -A
t commit -qm base
cat > "$tree/core/foo.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
int foo_get(int n);

int foo_get(int n)
{
	int seen;

	seen = n;
	return seen + 1;
}
C
t add -A
t commit -qm "core: add foo"
echo 'Foo.' > "$tree/Documentation/foo.rst"
t add -A
t commit -qm "Documentation: foo"
printf '%s 0001-core-add-foo.patch\n%s 0002-Documentation-foo.patch\n' \
	"$(t rev-parse HEAD~1)" "$(t rev-parse HEAD)" > "$tmp/patches"

co=$SKBPOOL_TOP
mkdir -p "$co/kunit"
for f in base debug kasan uml; do echo "CONFIG_TOY_${f^^}=y" > "$co/kunit/$f.config"; done
args=(--tree "$tree" --base HEAD~2 --patches "$tmp/patches" --build "$build")

if run good 0 "${args[@]}"; then
	f0=$fails
	has good '^check-build: 1/2 0001-core-add-foo\.patch: built '
	has good '^check-build: 2/2 0002-Documentation-foo\.patch: documentation only, not built$'
	has good '^check-build: built 1 patch\(es\), 0 already built before'
	has good '^check-build: every patch builds; no new W=1 or sparse warning'
	[ "$(paste -sd ' ' "$build/.config.seen")" = "CONFIG_TOY_ARCH_UML=y CONFIG_TOY_BASE=y CONFIG_TOY_DEBUG=y CONFIG_TOY_KASAN=y CONFIG_TOY_UML=y" ] ||
		fail "good: the .config: $(paste -sd ' ' "$build/.config.seen")"
	[ "$fails" != "$f0" ] || ok "each patch built in order on the cell's fragments, in order; the page alone not built"
fi
run again 0 "${args[@]}" && has again 'built 0 patch\(es\), 1 already built before' &&
	ok "a second run: nothing rebuilt"
echo 'CONFIG_TOY_DEBUG_MORE=y' >> "$co/kunit/debug.config"
run changed 0 "${args[@]}" && has changed 'built 1 patch\(es\), 0 already built before' &&
	grep -qx CONFIG_TOY_DEBUG_MORE=y "$build/.config.seen" &&
	ok "a fragment changed: built again, with it"

mv "$co/kunit/kasan.config" "$tmp/kasan.config"
if run no-fragment 2 "${args[@]}"; then
	has no-fragment "^check-build: error: config fragment $co/kunit/kasan\\.config is missing"
	hasnt no-fragment 'building|built'
	ok "a missing fragment: exit 2 naming it, nothing built"
fi
mv "$tmp/kasan.config" "$co/kunit/kasan.config"
mv "$tree/tools/testing/kunit/configs/arch_uml.config" "$tmp/arch_uml.config"
run no-arch-fragment 2 "${args[@]}" &&
	has no-arch-fragment "^check-build: error: config fragment $tree/tools/testing/kunit/configs/arch_uml\\.config is missing" &&
	ok "kunit.py's arch_uml.config missing: exit 2 naming it"
mv "$tmp/arch_uml.config" "$tree/tools/testing/kunit/configs/arch_uml.config"

# a patch that does not build; one that adds a W=1 warning
t checkout -q HEAD~1
sed -i 's/return seen + 1;/return seen + 1/' "$tree/core/foo.c"
t commit -qam "core: foo broken"
t log -2 --reverse --format='%H %f.patch' > "$tmp/broken"
if run no-build 1 --tree "$tree" --base HEAD~2 --patches "$tmp/broken" --build "$build"; then
	has no-build 'FAIL: core-foo-broken\.patch \(patch 2/2\) does not build'
	has no-build '  core-foo-broken\.patch: core/foo\.c:[0-9]+:[0-9]+: error'
	ok "a patch that does not build: named, with gcc's error"
fi
t checkout -q HEAD~1
sed -i 's/return seen + 1;/return n + 1;/' "$tree/core/foo.c"
t commit -qam "core: foo warns"
t log -2 --reverse --format='%H %f.patch' > "$tmp/warns"
if run w1 1 --tree "$tree" --base HEAD~2 --patches "$tmp/warns" --build "$build"; then
	# named with the patch its line comes from (git blame): the
	# declaration of 'seen' is the first patch's
	has w1 "FAIL: core-add-foo\\.patch: new W=1/sparse warning: core/foo\\.c:6:[0-9]+: warning: variable .seen. set but not used"
	has w1 '2/2 core-foo-warns\.patch: built'
	ok "a new W=1 warning: named with the patch its line comes from, and the line"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "check-build"
