#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/qemu-shim/qemu-system-x86_64 in front of a fake qemu that prints
# its argv, one argument a line: kunit.py's '-accel kvm -accel hvf
# -accel tcg' loses the kvm and hvf pairs, every other argument keeps
# its place (one with spaces stays one), the line naming the accelerator
# is printed, qemu's exit status comes back. The KVM probe: the fake
# qemu's probe guest fails, hangs or runs (FAKE_KVM), and KVM is kept
# only when it ran; the probe guest itself, under the real qemu's TCG,
# reaches its exit port; SKBPOOL_QEMU_KVM=0 skips it, =1 keeps KVM only
# where the device opens; the real qemu is found past the wrapper's
# own directory. Then tools/run-kunit puts the wrapper first on PATH
# for the qemu cells and not for UML (a fake kunit.py says which qemu
# it would run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../tools
tool=$tools/qemu-shim/qemu-system-x86_64
# shellcheck source=lib.sh
source "$here/lib.sh"
ok() { echo "ok: $*"; }

bin=$tmp/bin
mkdir -p "$bin"
# the real qemu, for the probe guest under TCG (none: that case skipped)
export REAL_QEMU
REAL_QEMU=$(command -v qemu-system-x86_64 || true)
# The fake qemu. Started as the probe (its isa-debug-exit device): logs
# the call to $FAKE_PROBES and, by FAKE_KVM, fails as qemu does without
# KVM (the default), hangs, exits 65 as the probe guest does when it
# ran, or runs the probe guest under the real qemu's TCG ('tcg').
cat > "$bin/qemu-system-x86_64" <<'SH'
#!/usr/bin/env bash
if [[ " $* " == *" isa-debug-exit,"* ]]; then
	echo "$*" >> "$FAKE_PROBES"
	case ${FAKE_KVM:-fails} in
	runs) exit 65 ;;
	hangs) exec sleep 60 ;;
	tcg) args=("$@"); args[1]=tcg; exec "$REAL_QEMU" "${args[@]}" ;;
	*) echo "qemu-system-x86_64: Could not access KVM kernel module: No such device" >&2
	   echo "qemu-system-x86_64: failed to initialize kvm: No such device" >&2
	   exit 1 ;;
	esac
fi
echo "fake qemu"
for a in "$@"; do printf '%s\n' "$a"; done
exit "${FAKE_QEMU_RC:-0}"
SH
chmod +x "$bin/qemu-system-x86_64"
export FAKE_PROBES=$tmp/probes
# probes NAME: how many probe guests the run NAME started
probes() { wc -l < "$FAKE_PROBES.$1"; }
# with_probes NAME ...: run NAME ..., its probes counted apart
with_probes() { : > "$FAKE_PROBES"; run "$@"; local rc=$?; mv "$FAKE_PROBES" "$FAKE_PROBES.$1"; return $rc; }
# the wrapper's directory twice on PATH, once by another spelling, and
# ahead of the fake: both are skipped
export PATH=$tools/qemu-shim:$tools/../tools/qemu-shim/:$bin:$PATH
unset SKBPOOL_QEMU_KVM
export SKBPOOL_KVM_DEV=$tmp/kvm
touch "$SKBPOOL_KVM_DEV"

# argv NAME: what the fake qemu got, space-joined, '|' between arguments
argv() { sed -n '/^fake qemu$/,$p' "$tmp/$1.out" | tail -n +2 | paste -sd '|'; }
# accel_line NAME: the wrapper's line
accel_line() { grep '^qemu-shim: ' "$tmp/$1.out" || true; }

# kunit.py 7.3's command line for the x86_64 cells
kunit=(-nodefaults -m 1024 -kernel /b/arch/x86/boot/bzImage
       -append 'kunit.filter_glob=skb_pool.* console=ttyS0 kunit_shutdown=reboot'
       -no-reboot -nographic -accel kvm -accel hvf -accel tcg
       -serial stdio -bios qboot.rom -smp 2)
want='-nodefaults|-m|1024|-kernel|/b/arch/x86/boot/bzImage|-append|kunit.filter_glob=skb_pool.* console=ttyS0 kunit_shutdown=reboot|-no-reboot|-nographic|-accel|tcg|-serial|stdio|-bios|qboot.rom|-smp|2'
if with_probes kunit 0 "${kunit[@]}"; then
	[ "$(argv kunit)" = "$want" ] || fail "kunit: qemu got $(argv kunit)"
	[ "$(accel_line kunit)" = "qemu-shim: accel tcg (kvm not used: a probe guest under KVM did not run (qemu exit 1: qemu-system-x86_64: Could not access KVM kernel module: No such device))" ] ||
		fail "kunit: line: $(accel_line kunit)"
	[ "$(grep -c '^qemu-shim: ' "$tmp/kunit.out")" = 1 ] || fail "kunit: not one line"
	[ "$(probes kunit)" = 1 ] || fail "kunit: $(probes kunit) probes, not 1"
	grep -Eq -- '^-accel kvm .*-bios [^ ]+/probe\.bin ' "$FAKE_PROBES.kunit" ||
		fail "kunit: the probe: $(cat "$FAKE_PROBES.kunit")"
	ok "the probe guest fails under KVM: kvm and hvf dropped, the rest in order, one line"
fi

# the probe guest runs under KVM: kvm first, tcg the fallback
kvm_want=${want/-accel|tcg/-accel|kvm|-accel|tcg}
FAKE_KVM=runs with_probes probe-runs 0 "${kunit[@]}" &&
	[ "$(argv probe-runs)" = "$kvm_want" ] &&
	[ "$(accel_line probe-runs)" = "qemu-shim: accel kvm (a probe guest ran under KVM; tcg if kvm fails to start)" ] &&
	ok "the probe guest runs under KVM: kvm kept, first, said so" ||
	fail "probe-runs: qemu got $(argv probe-runs); $(accel_line probe-runs)"
# ... or hangs: tcg, after the probe's timeout
FAKE_KVM=hangs SKBPOOL_KVM_PROBE_TIMEOUT=1 with_probes probe-hangs 0 "${kunit[@]}" &&
	[ "$(argv probe-hangs)" = "$want" ] &&
	[ "$(accel_line probe-hangs)" = "qemu-shim: accel tcg (kvm not used: a probe guest under KVM did not finish in 1 s)" ] &&
	ok "the probe guest hangs under KVM: tcg, said so" ||
	fail "probe-hangs: qemu got $(argv probe-hangs); $(accel_line probe-hangs)"
# the probe guest itself, under the real qemu with TCG, reaches its exit
if [ -n "$REAL_QEMU" ]; then
	FAKE_KVM=tcg with_probes probe-tcg 0 -m 64 &&
		[ "$(accel_line probe-tcg)" = "qemu-shim: accel kvm (a probe guest ran under KVM; tcg if kvm fails to start)" ] &&
		ok "the probe guest boots to long mode and exits under a real qemu (TCG)" ||
		fail "probe-tcg: $(accel_line probe-tcg)"
else
	echo "note: no real qemu-system-x86_64: the probe guest itself not booted"
fi

# the forms qemu also takes: options after the name, --accel, -enable-kvm
run forms 0 -enable-kvm --accel kvm,kernel-irqchip=split -accel hvf,x=1 -smp 2 -accel tcg,thread=multi &&
	[ "$(argv forms)" = '-smp|2|-accel|tcg,thread=multi' ] &&
	ok "kvm,OPTS, --accel, -enable-kvm dropped" || fail "forms: qemu got $(argv forms)"

# nothing left: -accel tcg added, at the end
run none 0 -accel kvm -m 64 && [ "$(argv none)" = '-m|64|-accel|tcg' ] &&
	has none '^qemu-shim: accel tcg ' && ok "no accelerator left: tcg added" ||
	fail "none: qemu got $(argv none)"

# qemu's exit status is the wrapper's
FAKE_QEMU_RC=3 run rc 3 -accel tcg && ok "qemu's exit status passed on"

# no device: said so, no probe
SKBPOOL_KVM_DEV=$tmp/nokvm with_probes no-dev 0 "${kunit[@]}" &&
	[ "$(accel_line no-dev)" = "qemu-shim: accel tcg (kvm not used: no $tmp/nokvm)" ] &&
	[ "$(probes no-dev)" = 0 ] &&
	ok "no /dev/kvm: said so, no probe" || fail "no-dev: $(accel_line no-dev)"

# SKBPOOL_QEMU_KVM=0: tcg, no probe
FAKE_KVM=runs SKBPOOL_QEMU_KVM=0 with_probes kvm0 0 "${kunit[@]}" &&
	[ "$(argv kvm0)" = "$want" ] && [ "$(probes kvm0)" = 0 ] &&
	[ "$(accel_line kvm0)" = "qemu-shim: accel tcg (kvm not used: SKBPOOL_QEMU_KVM=0)" ] &&
	ok "SKBPOOL_QEMU_KVM=0: tcg without a probe" || fail "kvm0: qemu got $(argv kvm0); $(accel_line kvm0)"
# SKBPOOL_QEMU_KVM=1: kvm first, before the first accelerator left, no probe
SKBPOOL_QEMU_KVM=1 with_probes kvm 0 "${kunit[@]}" &&
	[ "$(argv kvm)" = "$kvm_want" ] && [ "$(probes kvm)" = 0 ] &&
	has kvm '^qemu-shim: accel kvm \(SKBPOOL_QEMU_KVM=1, no probe; tcg if kvm fails' &&
	ok "SKBPOOL_QEMU_KVM=1: kvm tried first, no probe" ||
	fail "kvm: qemu got $(argv kvm)"
SKBPOOL_QEMU_KVM=yes run kvm-bad 2 "${kunit[@]}" &&
	has kvm-bad '^qemu-shim: error: SKBPOOL_QEMU_KVM=yes: 0 \(never KVM\), 1' &&
	hasnt kvm-bad '^fake qemu$' && ok "SKBPOOL_QEMU_KVM=yes: an error, exit 2"
# ... but not when the device cannot be opened
SKBPOOL_QEMU_KVM=1 SKBPOOL_KVM_DEV=$tmp/nokvm run kvm-no-dev 0 "${kunit[@]}" &&
	[ "$(argv kvm-no-dev)" = "$want" ] &&
	has kvm-no-dev "^qemu-shim: accel tcg \(kvm not used: SKBPOOL_QEMU_KVM=1 but .*/nokvm cannot be opened" &&
	ok "SKBPOOL_QEMU_KVM=1 without a device: tcg" || fail "kvm-no-dev: qemu got $(argv kvm-no-dev)"

# no qemu but the wrapper: exit 127 and what to do (a PATH with only
# the wrapper and what a shell script needs)
mkdir -p "$tmp/noqemu"
for c in bash env dirname basename sed; do ln -s "$(command -v "$c")" "$tmp/noqemu/$c"; done
PATH=$tools/qemu-shim:$tmp/noqemu run no-qemu 127 -accel tcg &&
	has no-qemu "^qemu-shim: error: no qemu-system-x86_64 on PATH" &&
	ok "no real qemu: exit 127, said so"
# from here on, the wrapper is not on PATH
PATH=$bin:$(getconf PATH)
export PATH

# --help alone is the wrapper's; -help goes to qemu
run help 0 --help && has help '^Usage: qemu-system-x86_64' && hasnt help 'fake qemu' &&
	ok "--help"
run qemu-help 0 -help && has qemu-help '^fake qemu$'

# tools/run-kunit: the wrapper first on PATH for x86_64 and rt, not for
# uml. A fake tree whose kunit.py says which qemu it finds, runs it as
# 7.3's does (FAKE_KUNIT_DIRECT=1: the fake qemu by its path, past the
# wrapper) into the build directory's test.log, and fails; run-kunit
# then fails the cell (no JSON), after its checks of the log.
export SKBPOOL_CACHE=$tmp/cache SKBPOOL_OUT=$tmp/out
mkdir -p "$SKBPOOL_CACHE/tree/.git" "$SKBPOOL_CACHE/tree/tools/testing/kunit"
cat > "$SKBPOOL_CACHE/tree/tools/testing/kunit/kunit.py" <<PY
import os, shutil, subprocess, sys
build = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--build_dir=')][0]
qemu = shutil.which('qemu-system-x86_64')
print('kunit.py would run', qemu)
if os.environ.get('FAKE_KUNIT_DIRECT'):
    qemu = '$bin/qemu-system-x86_64'
p = subprocess.run([qemu, '-nodefaults', '-accel', 'kvm', '-accel', 'hvf',
                    '-accel', 'tcg', '-smp', '2'],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
open(os.path.join(build, 'test.log'), 'w').write(p.stdout)
sys.exit(1)
PY
tool=$tools/run-kunit
nolog="WARNING: no 'qemu-shim: accel' line"
for cell in x86_64 rt uml; do
	run "cell-$cell" 1 "$cell" || continue
	log=$tmp/out/kunit-$cell.log
	if [ "$cell" = uml ]; then
		has "cell-$cell" "kunit.py would run $bin/qemu-system-x86_64$"
		grep -qx kvm "$log" || fail "cell-$cell: kvm dropped for uml: $(cat "$log")"
	else
		has "cell-$cell" "kunit.py would run .*/tools/qemu-shim/qemu-system-x86_64$"
		grep -q '^qemu-shim: accel tcg ' "$log" || fail "cell-$cell: no shim line: $(cat "$log")"
		! grep -qx kvm "$log" || fail "cell-$cell: kvm reached qemu: $(cat "$log")"
	fi
	hasnt "cell-$cell" "$nolog"
done
FAKE_KUNIT_DIRECT=1 run cell-past-shim 1 rt && has cell-past-shim "$nolog"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
ok "qemu-shim (19 cases)"
