/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lookup table built into the installed libioctlreg.a and .so
 * (ioctlreg_builtin()): build/ioctl.table's bytes, named by IOCTLREG_TABLE
 * (the Makefile passes its absolute path), between two hidden symbols.
 */
	.section .rodata.ioctlreg,"a"
	.balign 8
	.globl ioctlreg_builtin_table
	.hidden ioctlreg_builtin_table
ioctlreg_builtin_table:
	.incbin IOCTLREG_TABLE
	.globl ioctlreg_builtin_table_end
	.hidden ioctlreg_builtin_table_end
ioctlreg_builtin_table_end:
	.section .note.GNU-stack,"",@progbits
