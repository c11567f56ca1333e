#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/check-modules on a toy tree, with a fake make (a kernel
# build is too slow here): what it fails on, each alone, and a pass.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../tools/check-modules
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out SKBPOOL_TOP=$tmp/top
mkdir -p "$tmp/top/kunit" "$tmp/bin"
printf 'CONFIG_MODULES=y\nCONFIG_TUN=m\n' > "$tmp/top/kunit/modules.config"

# A tree: the base, and the series (one commit) that the make below
# builds differently according to the files it finds
tree=$tmp/tree
git init -q "$tree"
git -C "$tree" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
git -C "$tree" tag base
git -C "$tree" -c user.name=t -c user.email=t@t commit -q --allow-empty -m series
head=$(git -C "$tree" rev-parse HEAD)

# make: tinyconfig writes a .config, olddefconfig keeps it (dropping
# CONFIG_TUN=m when the tree asks for it), the build prints what
# $tmp/behaviour says and leaves tun.ko (with a kunit symbol if asked)
cat > "$tmp/bin/make" <<SH
#!/usr/bin/env bash
set -euo pipefail
out=
for a; do case \$a in O=*) out=\${a#O=} ;; esac; done
b=\$(cat "$tmp/behaviour" 2>/dev/null || true)
series=0
[ "\$(git -C "$tree" rev-parse HEAD)" = "\$(git -C "$tree" rev-parse base)" ] || series=1
case " \$* " in
*" tinyconfig "*) echo 'CONFIG_64BIT=y' > "\$out/.config" ;;
*" olddefconfig "*)
	if [ \$series = 1 ] && [ "\$b" = noconfig ]; then
		grep -v '^CONFIG_TUN=' "\$out/.config" > "\$out/.c2" || true
		mv "\$out/.c2" "\$out/.config"
	fi ;;
*)
	[ "\$b" = silent ] || echo 'drivers/net/tun.c:10:5: warning: an old warning [-Wfoo]'
	if [ \$series = 1 ]; then
		case \$b in
		modpost) echo "ERROR: modpost: drivers/net/tun.ko: symbol 'dev_ioctl' undefined!"; exit 2 ;;
		warning) echo 'drivers/net/tun.c:99:5: warning: a new warning [-Wbar]' ;;
		esac
	fi
	mkdir -p "\$out/drivers/net"
	sym=tun_probe
	[ \$series = 0 ] || [ "\$b" != kunitsym ] || sym=tun_kunit_case
	echo "int \$sym(void) { return 0; }" > "\$out/t.c"
	for ko in tun tap macvtap veth; do
		gcc -c -o "\$out/drivers/net/\$ko.ko" "\$out/t.c"
	done ;;
esac
SH
chmod +x "$tmp/bin/make"
export PATH=$tmp/bin:$PATH

t() { echo "$1" > "$tmp/behaviour"; run "$@" --tree "$tree" --base base --build "$tmp/build-$1"; }

if t pass 0; then
	has pass 'builds as modules in [0-9]+ s: no modpost error, no new warning, no test in a driver module$'
	hasnt pass 'old warning'
	ok "a clean modular build passes; a warning the base has too is not new"
fi
if t silent 0; then
	has silent 'no new warning, no test in a driver module$'
	hasnt silent 'building the base'
	ok "a series whose build does not warn does not build the base"
fi
if t noconfig 1; then
	has noconfig 'FAIL: CONFIG_TUN=m asked, the .config has: nothing \(a dependency is missing\)$'
	ok "a fragment line the .config lacks fails, with what it got"
fi
if t modpost 1; then
	has modpost "ERROR: modpost: drivers/net/tun.ko: symbol 'dev_ioctl' undefined!"
	has modpost 'FAIL: the series does not build as modules'
	ok "a modpost error fails, and is shown"
fi
if t warning 1; then
	has warning 'FAIL: new warning in the modular build: drivers/net/tun.c: warning: a new warning \[-Wbar\]$'
	hasnt warning 'an old warning'
	ok "a new warning fails, the base's does not"
fi
if t kunitsym 1; then
	has kunitsym 'FAIL: drivers/net/tun.ko holds test code: tun_kunit_case$'
	ok "a test symbol in a driver module fails"
fi
[ "$(git -C "$tree" rev-parse HEAD)" = "$head" ] ||
	fail "the tree was left at another commit than its HEAD"
run notree 1 --tree "$tmp/nope"
has notree 'is not a git work tree'

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "check-modules"
