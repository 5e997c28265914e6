// SPDX-License-Identifier: GPL-2.0
/*
 * Where ioctlgen may write a file.  Outputs go through a temporary file and
 * a rename(), which replaces whatever has the name: run as root, `-o
 * /dev/full` would turn the device node into a regular file and `-o
 * /dev/stdout` would replace the symlink.  So an existing target must be a
 * regular file itself; a symlink is refused too, even to a regular file,
 * because the rename would replace the link, not the file it names.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>

#include "util.h"

const char *output_target_problem(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? NULL : "cannot look at it";
	if (S_ISREG(st.st_mode))
		return NULL;
	if (S_ISLNK(st.st_mode))
		return "a symbolic link (write to the file it names instead)";
	if (S_ISDIR(st.st_mode))
		return "a directory";
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		return "a device";
	return "not a regular file";
}
