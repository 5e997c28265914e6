// SPDX-License-Identifier: GPL-2.0
/* ioctl(-1, N, 0) for every number N (hex, one per line) on stdin, in
 * order, so that strace -e trace=ioctl prints one line per number. */
#include <stdio.h>
#include <stdlib.h>

/* glibc's, as <sys/ioctl.h> has it: that header wants asm/ headers that
 * Debian has for the native ABI only, and the probe is built -m32 too. */
int ioctl(int fd, unsigned long request, ...);

int main(void)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin))
		ioctl(-1, (unsigned long)strtoul(line, NULL, 16), 0);
	return 0;
}
