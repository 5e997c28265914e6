// SPDX-License-Identifier: GPL-2.0
/*
 * Where ioctlgen may write a file.  Outputs go through a temporary file and
 * a rename(), which replaces whatever has the name: run as root, `-o
 * /dev/full` would turn the device node into a regular file and `-o
 * /dev/stdout` would replace the symlink.  So an existing target must be a
 * regular file.  A symbolic link to a regular file is written through, as a
 * shell's `>` does: the file it names is replaced (the temporary file goes
 * beside that file) and the link stays.  A link to anything else, or to
 * nothing, is refused like the thing itself.
 */
#define _XOPEN_SOURCE 700	/* realpath() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "util.h"

static const char *kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return "not a regular file";
}

const char *output_target(const char *path, char **through)
{
	static char why[64];
	struct stat st;

	*through = NULL;
	if (lstat(path, &st))
		return errno == ENOENT ? NULL : "cannot look at it";
	if (S_ISREG(st.st_mode))
		return NULL;
	if (!S_ISLNK(st.st_mode))
		return kind(st.st_mode);
	if (stat(path, &st))
		return errno == ENOENT ? "a symbolic link to nothing" : "a symbolic link that cannot be followed";
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, sizeof(why), "a symbolic link to %s", kind(st.st_mode));
		return why;
	}
	*through = realpath(path, NULL);
	return *through ? NULL : "a symbolic link that cannot be followed";
}
