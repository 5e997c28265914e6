// SPDX-License-Identifier: GPL-2.0
/* ioctl(-1, N, 0) for every number N (hex, one per line) on stdin, in
 * order, so that strace -e trace=ioctl prints one line per number. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>

int main(void)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin))
		ioctl(-1, (unsigned long)strtoul(line, NULL, 16), 0);
	return 0;
}
