/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* Stands for the kernel tree in the lint's golden test: linux/golden.h exists, linux/other.h does not. */
