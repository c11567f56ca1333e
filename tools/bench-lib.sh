# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The bench guest's boot, shared by tools/bench and tools/bench-attribute
# (sourced after common.sh; uses $GUEST, $WORK and $BUILD_ROOT).

# NAME:SIZE, comma-separated, of the workloads tools/bench-guest/workloads
# lists for a boot with $1 vCPUs (SIZE 0 for a workload with none).
work_list() {
	awk -v vcpus="$1" '
		/^#/ || NF == 0 { next }
		NF != 3 { print FILENAME ":" FNR ": not NAME SIZES VCPUS" > "/dev/stderr"; exit 1 }
		$3 != vcpus { next }
		{ n = split($2 == "-" ? "0" : $2, sz, ",")
		  for (i = 1; i <= n; i++) out = out (out ? "," : "") $1 ":" sz[i] }
		END { print out }' "$GUEST/workloads" ||
		die "$GUEST/workloads is broken (above)"
}

# boot KERNEL-NAME INITRAMFS-NAME LOG VCPUS [APPEND]: bench-KERNEL-NAME's
# kernel with $WORK/initramfs-INITRAMFS-NAME.gz under qemu -icount, the
# console to LOG; the qemu arguments of array BENCH_QEMU_EXTRA added
# (tools/bench-attribute's plugin).
boot() {
	local kernel=$BUILD_ROOT/bench-$1/arch/x86/boot/bzImage t0=$SECONDS
	timeout "${BENCH_TIMEOUT:-3600}" qemu-system-x86_64 -nodefaults -nographic -no-reboot \
		-bios qboot.rom -icount shift=0,sleep=off -smp "$4" -m 512 \
		${BENCH_QEMU_EXTRA[@]+"${BENCH_QEMU_EXTRA[@]}"} \
		-serial stdio -kernel "$kernel" -initrd "$WORK/initramfs-$2.gz" \
		-append "console=ttyS0 panic=-1 rdinit=/init quiet nokaslr tsc=reliable $5" \
		</dev/null 2>&1 | tr -d '\r' > "$3" || true
	note "$1: booted ($4 vCPU) and ran in $((SECONDS - t0))s (log: $3)"
}

check_raw() { # kernel-name raw
	grep -q '^BENCH-DONE' "$2" || die "$1: the guest did not finish (log: $2)"
	! grep '^BENCH-FAIL' "$2" || die "$1: a workload failed (log: $2)"
	# Time is instructions only on a clocksource that counts them.
	grep -q '^CLOCKSOURCE tsc$' "$2" || die "$1: the guest clocksource is not tsc (log: $2)"
	# The crng was made ready before the workloads (skbbench rng-seed).
	grep -q '^RNG ready$' "$2" || die "$1: the guest's crng was not seeded (log: $2)"
	"$TOOLS/scan-splats" "$2" || die "$1: kernel splat (log: $2)"
}
