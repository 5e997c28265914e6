// SPDX-License-Identifier: GPL-2.0
/*
 * Issues ioctls for tests/lookup/run to trace with strace: some strace 6.1
 * names, some of 6.12's headers it cannot (PIDFD_H, DRM_H: the 6.12 tree's
 * headers, by path), a size no version has, a number nothing has.  Prints
 * "NAME NUMBER" for each, the numbers as gcc makes them of the headers.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <asm/ioctls.h>
#include <linux/fs.h>
#include PIDFD_H
#include DRM_H

/* <fcntl.h> would clash with <linux/fcntl.h>, which pidfd.h includes */
extern int open(const char *path, int flags, ...);

static void issue(int fd, const char *name, unsigned long number)
{
	char buf[4096] = { 0 };

	printf("%s 0x%lx\n", name, number);
	fflush(stdout);
	ioctl(fd, number, buf);
}

int main(void)
{
	int fd = open("/dev/null", 0 /* O_RDONLY */);

	issue(fd, "TCGETS", TCGETS);
	issue(fd, "FS_IOC_GETFLAGS", FS_IOC_GETFLAGS);
	issue(fd, "PIDFD_GET_CGROUP_NAMESPACE", PIDFD_GET_CGROUP_NAMESPACE);
	issue(fd, "DRM_IOCTL_SYNCOBJ_WAIT", DRM_IOCTL_SYNCOBJ_WAIT);
	/* DRM_IOCTL_SYNCOBJ_WAIT's dir, type and nr with a size no version has */
	issue(fd, "size:DRM_IOCTL_SYNCOBJ_WAIT", _IOC(_IOC_READ | _IOC_WRITE, 'd', 0xc3, 48));
	issue(fd, "none", _IOW(0xee, 0x99, int));
	if (fork() == 0) {
		issue(fd, "TCGETS", TCGETS);
		_exit(0);
	}
	/* the child's line is in the output before strace (and the test) end */
	wait(NULL);
	return 0;
}
