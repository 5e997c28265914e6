// SPDX-License-Identifier: GPL-2.0
/*
 * A program of libioctlreg's users, built against the installed library
 * with pkg-config (tests/lookup/run): every number below is what gcc makes
 * of the macro in this machine's kernel headers (Debian's linux-libc-dev,
 * the exported x86_64 UAPI), never the registry's.  Each must be found
 * under its name on x86_64, and the name's number must be the macro's.
 * Prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include <asm/ioctls.h>
#include <linux/fs.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <linux/perf_event.h>
#include <linux/videodev2.h>
#include <ioctlreg.h>

static const struct { const char *name; unsigned int number; unsigned int size_arg; } want[] = {
	{ "TCGETS", TCGETS, 0 },
	{ "FIONREAD", FIONREAD, 0 },
	{ "FS_IOC_GETFLAGS", FS_IOC_GETFLAGS, 0 },
	{ "FS_IOC_SETFLAGS", FS_IOC_SETFLAGS, 0 },
	{ "BLKGETSIZE64", BLKGETSIZE64, 0 },
	{ "EVIOCGVERSION", EVIOCGVERSION, 0 },
	{ "EVIOCGNAME", EVIOCGNAME(64), 64 },
	{ "KVM_RUN", KVM_RUN, 0 },
	{ "VIDIOC_QUERYCAP", VIDIOC_QUERYCAP, 0 },
	{ "PERF_EVENT_IOC_ENABLE", PERF_EVENT_IOC_ENABLE, 0 },
};

int main(void)
{
	struct ioctlreg *r;
	struct ioctlreg_hit hits[16];
	char err[256];
	int abi, v, n = 0, failed = 0;

	if (ioctlreg_open_builtin(&r, err, sizeof(err))) {
		printf("not ok 1 - the built-in table: %s\n1..1\n", err);
		return 1;
	}
	abi = ioctlreg_abi_find(r, "x86_64");
	v = ioctlreg_version_find(r, "6.1");
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		size_t k, found = ioctlreg_lookup(r, (size_t)abi, v, want[i].number, hits, 16);
		struct ioctlreg_number num = { 0 };
		struct ioctlreg_command c;
		int named = 0, same = 0;

		for (k = 0; k < found && k < 16; k++)
			named |= !ioctlreg_command(r, hits[k].command, &c) && !strcmp(c.name, want[i].name) &&
				 (!want[i].size_arg || hits[k].size_arg == want[i].size_arg);
		/* the name's number: that of the command of this name x86_64 has */
		for (long cmd = ioctlreg_command_find(r, want[i].name, 0); cmd >= 0;
		     cmd = ioctlreg_command_find(r, want[i].name, (size_t)cmd + 1))
			same |= ioctlreg_command_number(r, (size_t)cmd, (size_t)abi, v, &num) &&
				(want[i].size_arg ? num.number == (want[i].number & ~(0x3fffu << 16)) :
						    num.number == want[i].number);
		failed += !(named && same);
		printf("%sok %d - %s = 0x%08x (gcc): looked up, and its number\n", named && same ? "" : "not ",
		       ++n, want[i].name, want[i].number);
	}
	ioctlreg_close(r);
	printf("1..%d\n", n);
	return failed != 0;
}
