# SPDX-License-Identifier: GPL-2.0
# kunit.py --qemu_config for the x86_64 cells: kunit.py's own x86_64
# config (qemu_configs/x86_64.py, same form in 7.3) plus SMP and 2 vCPUs,
# so the suites' cross-CPU cases run on two CPUs. kunit.py adds
# -m 1024 and, in 7.3, '-accel kvm -accel hvf -accel tcg' ahead of these
# parameters; tools/run-kunit's qemu wrapper (tools/qemu-shim) drops
# hvf, and kvm unless a probe guest runs under it. qemu takes the first accelerator that starts, so an
# '-accel tcg,thread=multi' here would never be read: it is not given.
# TCG's default on an x86_64 host is one host thread per vCPU anyway
# (qemu 7.2, -smp 2: 4 threads with '-accel tcg', 3 with thread=single).
# panic=1: a kernel that panics (an oops with BHs disabled, say) reboots
# after a second, and kunit.py's -no-reboot ends qemu, so the cell fails
# then, not at kunit.py's --timeout (30 minutes) with the guest halted.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y
CONFIG_NR_CPUS=8''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0 panic=1',
			   extra_qemu_params=['-bios', 'qboot.rom',
					      '-smp', '2'])
