/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest tools/qemu-shim/qemu-system-x86_64 boots under KVM before it
 * lets a qemu cell use KVM: a 64 KiB firmware image (qemu -bios) that
 * goes from the reset vector through 32-bit protected mode and paging to
 * 64-bit long mode, as a kernel's boot does, then writes 0x20 to the
 * isa-debug-exit port 0xf4, so that qemu exits with (0x20 << 1) | 1 = 65.
 * Where KVM cannot run such a guest (a /dev/kvm that opens on a CPU
 * without VMX or SVM), qemu hangs or fails instead, and the qemu cells
 * keep to TCG.
 *
 * Assembled by tools/qemu-shim/qemu-system-x86_64 ('as --32', then
 * 'objcopy -O binary'). qemu maps the image's last 128 KiB, here all of
 * it, at 0xf0000 too: that is where the code below runs from.
 */
	.set	BASE, 0xf0000		/* the image, seen below 1 MiB */
	.set	PML4, 0x1000		/* page tables in guest RAM */

	.code16
	.org	0
start:
	cli
	mov	$0xf000, %ax
	mov	%ax, %ds
	lgdtl	gdtr
	mov	%cr0, %eax
	or	$1, %eax		/* PE */
	mov	%eax, %cr0
	ljmpl	$0x08, $(BASE + pm32)

	.code32
pm32:
	mov	$0x10, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %ss
	/* PML4 -> PDPT -> PD, the first 2 MiB identity-mapped */
	movl	$(PML4 + 0x1003), PML4
	movl	$0, PML4 + 4
	movl	$(PML4 + 0x2003), PML4 + 0x1000
	movl	$0, PML4 + 0x1004
	movl	$0x83, PML4 + 0x2000
	movl	$0, PML4 + 0x2004
	mov	%cr4, %eax
	or	$0x20, %eax		/* PAE */
	mov	%eax, %cr4
	mov	$PML4, %eax
	mov	%eax, %cr3
	mov	$0xc0000080, %ecx	/* EFER */
	rdmsr
	or	$0x100, %eax		/* LME */
	wrmsr
	mov	%cr0, %eax
	or	$0x80000000, %eax	/* PG */
	mov	%eax, %cr0
	ljmpl	$0x18, $(BASE + lm64)

	.code64
lm64:
	mov	$0x20, %al
	out	%al, $0xf4
1:	hlt
	jmp	1b

	.p2align 3
gdt:
	.quad	0
	.quad	0x00cf9a000000ffff	/* 0x08: code, 32-bit, flat */
	.quad	0x00cf92000000ffff	/* 0x10: data, flat */
	.quad	0x00af9a000000ffff	/* 0x18: code, 64-bit */
gdtr:
	.word	gdtr - gdt - 1
	.long	BASE + gdt

	.org	0xfff0			/* the reset vector, 0xfffffff0 */
	.code16
	ljmp	$0xf000, $start
	.org	0x10000
