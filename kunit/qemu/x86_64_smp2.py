# SPDX-License-Identifier: GPL-2.0
# kunit.py --qemu_config for the x86_64 cells: kunit.py's own x86_64
# config plus SMP and 2 vCPUs (TCG, one host thread per vCPU), so the
# suites' concurrency cases run on two CPUs. kunit.py adds -m 1024.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y
CONFIG_NR_CPUS=8''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-bios', 'qboot.rom',
					      '-smp', '2',
					      '-accel', 'tcg,thread=multi'])
