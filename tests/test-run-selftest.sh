#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/run-selftest on a toy tree (a tun.c that only returns, a ynl
# directory whose Makefile makes an empty libynl.a, a 'headers' target)
# and a fake qemu-system-x86_64 that records its command line and
# prints a console log it is given: the selftest is built statically
# and packed with busybox into an initramfs whose /init runs it; qemu
# boots the x86_64 cell's bzImage with it, KUnit off, 2 vCPUs, TCG; the
# run passes on 'selftest: exit 0' with no splat, and fails on another
# exit, a splat, or no exit line; a missing kernel, a kernel without
# initramfs or geneve, and a tree without YNL_GENS are errors.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
tool=$top/tools/run-selftest
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

for c in gcc ar cpio gzip busybox; do
	command -v "$c" >/dev/null || { echo "$c not installed (make deps installs it)"; exit 77; }
done

export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out
unset SKBPOOL_TOP
tree=$SKBPOOL_CACHE/tree sel=tools/testing/selftests
build=$SKBPOOL_CACHE/build/x86_64
mkdir -p "$tree/Documentation/netlink/specs" "$tree/include/uapi/linux" \
	"$tree/tools/include" "$tree/tools/scripts" "$tree/tools/net/ynl/lib" \
	"$tree/tools/net/ynl/generated" "$tree/$sel/net"
echo maintainers > "$tree/MAINTAINERS"
echo 'name: rt-link' > "$tree/Documentation/netlink/specs/rt-link.yaml"
echo '/* toy */' > "$tree/include/uapi/linux/if_tun.h"
echo '/* toy */' > "$tree/tools/include/toy.h"
echo '# toy' > "$tree/tools/scripts/Makefile.include"
echo '/* toy */' > "$tree/$sel/kselftest.h"
echo '/* toy */' > "$tree/$sel/kselftest_harness.h"
echo '/* toy */' > "$tree/$sel/net/tuntap_helpers.h"
printf 'int main(void)\n{\n\treturn 0;\n}\n' > "$tree/$sel/net/tun.c"
printf 'YNL_GENS := \\\n\trt-link \\\n\trt-addr \\\n# end of YNL_GENS\n' > "$tree/$sel/net/Makefile"
# libynl.a: an empty archive; the GENS it was asked for, kept
printf 'libynl.a:\n\techo "$(GENS)" > gens\n\tar rcs $@\n' > "$tree/tools/net/ynl/Makefile"
printf 'headers:\n\tmkdir -p $(O)/usr/include\n' > "$tree/Makefile"
git -C "$tree" init -q
git -C "$tree" add -A
git -C "$tree" -c user.name=t -c user.email=t@example.org commit -qm toy
mkdir -p "$build/arch/x86/boot"
echo bzImage > "$build/arch/x86/boot/bzImage"
printf 'CONFIG_BLK_DEV_INITRD=y\nCONFIG_GENEVE=y\n' > "$build/.config"

bin=$tmp/bin
mkdir -p "$bin"
export FAKE_ARGS=$tmp/qemu-args FAKE_CONSOLE=$tmp/console
cat > "$bin/qemu-system-x86_64" <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$@" > "$FAKE_ARGS"
cat "$FAKE_CONSOLE"
SH
chmod +x "$bin/qemu-system-x86_64"
export PATH=$bin:$PATH
console() { { echo "Linux version 7.3.4 (toy)"; echo "selftest: begin"; printf '%s\n' "$@"; } > "$FAKE_CONSOLE"; }
work=$SKBPOOL_CACHE/selftest log=$SKBPOOL_OUT/selftest-tun.log

console 'ok 1 tun.open_close' '# PASSED: 1 / 1 tests passed.' '# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0' 'selftest: exit 0'
if run good 0; then
	f0=$fails
	for a in "-kernel|$build/arch/x86/boot/bzImage" "-initrd|$work/initramfs.gz" \
		 '-smp|2' '-accel|tcg,thread=multi' '-no-reboot|-bios'; do
		paste -sd '|' "$FAKE_ARGS" | grep -qF -- "$a" || fail "good: qemu did not get '$a'"
	done
	grep -q 'kunit.enable=0' "$FAKE_ARGS" || fail "good: KUnit not disabled"
	files=$(gunzip -c "$work/initramfs.gz" | cpio -t --quiet 2>/dev/null | sort | paste -sd ' ')
	for f in init bin/busybox bin/tun; do
		[[ " $files " == *" $f "* ]] || fail "good: no $f in the initramfs ($files)"
	done
	file -L "$work/root/bin/tun" | grep -q 'statically linked' || fail "good: the selftest is not static"
	grep -q '^/bin/tun$' "$work/root/init" || fail "good: /init does not run the selftest"
	[ "$(cat "$work/src/tools/net/ynl/gens")" = "rt-link rt-addr " ] ||
		fail "good: libynl built with GENS '$(cat "$work/src/tools/net/ynl/gens")'"
	has good '^# PASSED: 1 / 1 tests passed\.$'
	has good "^run-selftest: tun selftest passed on the patched kernel \(log: $log\)$"
	cmp -s "$FAKE_CONSOLE" "$log" || fail "good: $log is not the console"
	[ -z "$(git -C "$tree" status --porcelain)" ] || fail "good: the tree was written to"
	[ "$fails" != "$f0" ] ||
		ok "built static with libynl of the Makefile's YNL_GENS, packed, booted (KUnit off, 2 vCPUs); passed"
fi

console 'not ok 1 tun.open_close' '# FAILED: 0 / 1 tests passed.' 'selftest: exit 1'
if run fails 1; then
	has fails '^not ok 1 tun\.open_close$'
	has fails "^run-selftest: the tun selftest did not exit 0 \(log: $log\)$"
	has fails '^run-selftest: error: tun selftest FAILED$'
	ok "the selftest failing: the run fails"
fi
console 'ok 1 tun.open_close' 'selftest: exit 0' '------------[ cut here ]------------' \
	'WARNING: CPU: 1 PID: 1 at drivers/net/tun.c:100 tun_get_user+0x10/0x20' '---[ end trace 0000000000000000 ]---'
if run splat 1; then
	has splat 'scan-splats: 1 splat'
	has splat '^run-selftest: error: tun selftest FAILED$'
	ok "a splat, though the selftest passed: the run fails"
fi
console 'ok 1 tun.open_close'
run no-exit 1 && has no-exit 'did not exit 0' && ok "no exit line (the guest hung): fails"

sed -i '/^CONFIG_GENEVE=y$/d' "$build/.config"
run no-geneve 1 && has no-geneve '^run-selftest: error: .* has no geneve' && ok "a kernel without geneve: said so"
sed -i '/^CONFIG_BLK_DEV_INITRD=y$/d' "$build/.config"
run no-initrd 1 && has no-initrd '^run-selftest: error: .* cannot boot an initramfs' && ok "a kernel without initramfs: said so"
printf 'CONFIG_BLK_DEV_INITRD=y\nCONFIG_GENEVE=y\n' > "$build/.config"
sed -i 's/^YNL_GENS := /YNL := /' "$tree/$sel/net/Makefile"
git -C "$tree" -c user.name=t -c user.email=t@example.org commit -qam 'no YNL_GENS'
run no-gens 1 && has no-gens "^run-selftest: error: no YNL_GENS list in $sel/net/Makefile" && ok "no YNL_GENS: said so"
rm "$build/arch/x86/boot/bzImage"
run no-kernel 1 && has no-kernel "^run-selftest: error: no .*/bzImage: run 'make kunit-x86_64' first$" &&
	ok "no kernel: said what to run"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "run-selftest"
