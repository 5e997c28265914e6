// SPDX-License-Identifier: GPL-2.0
/* The table built into the installed library: table-data.S includes its bytes. */
#include "ioctlreg.h"

extern const unsigned char ioctlreg_builtin_table[], ioctlreg_builtin_table_end[];

int ioctlreg_open_builtin(struct ioctlreg **out, char *err, size_t errlen)
{
	return ioctlreg_open_buffer(ioctlreg_builtin_table,
				    (size_t)(ioctlreg_builtin_table_end - ioctlreg_builtin_table), out,
				    err, errlen);
}
