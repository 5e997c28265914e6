/* SPDX-License-Identifier: GPL-2.0 */
/* The commands behind a number on one ABI, in words (describe.c): what decode and annotate print. */
#ifndef IOCTLGEN_CLI_DESCRIBE_H
#define IOCTLGEN_CLI_DESCRIBE_H

#include <stdbool.h>

#include "ioctlreg.h"
#include "util.h"

/* Hits one lookup keeps; more are counted ("and 3 more"). */
#define DESCRIBE_MAX_HITS 16

/*
 * The commands that carry number on ABI abi, as decode prints them: each
 * command once, its other names as aliases, distinct commands joined by
 * " or ", each with its header, versions and time64 notes; "no registered
 * command" for none.  Appended to sb.
 */
void describe_number(const struct ioctlreg *r, size_t abi, uint32_t number, struct strbuf *sb);

/* One hit as decode prints it: NAME(args) (header) [versions] (describe.c). */
void describe_hit(const struct ioctlreg *r, const struct ioctlreg_hit *hit, size_t abi,
		  struct strbuf *sb);

/* The name as the caller wrote it: NAME, or NAME(args) for a family. */
void describe_call(const struct ioctlreg *r, const struct ioctlreg_hit *hit, size_t abi,
		   struct strbuf *sb);

/* The versions of mask: "6.1 only", "6.12 to 6.13", "6.1, 6.13 to 6.14". */
void describe_versions(const struct ioctlreg *r, uint64_t mask, struct strbuf *sb);

/*
 * The one wording of a number that command cmd carries on ABI k in some of
 * the versions it exists in only (its number changed, or the ABI lacks it
 * in others), hit the versions of that number: those versions, then its
 * other numbers there and where the ABI lacks it, then when it came or
 * went: "6.1 only; 0xc02864c3 in 6.12".  Appended to sb; false, and
 * nothing appended, when the number holds in every version it has one on
 * the ABI.  decode prints it in brackets; `table --dump` hands it to the
 * site's decoder, which shows it as it is.
 */
bool describe_number_versions(const struct ioctlreg *r, size_t cmd, size_t k, uint64_t hit,
			      struct strbuf *sb);

/*
 * The distinct commands of hits[0..m), each once: from *i on, the next hit
 * that is no other name of a command before it; *group gets its index, *i
 * moves past it.  Returns the hit that names the command as its own (the
 * end of its alias-of chain) when one does, else *group; m when no
 * command is left.  describe_same() tells its other names.
 */
size_t describe_next(const struct ioctlreg *r, size_t abi, const struct ioctlreg_hit *hits, size_t m,
		     size_t *i, size_t *group);
/* Two names of one command on abi: their alias-of chains end in one name. */
bool describe_same(const struct ioctlreg *r, size_t abi, const struct ioctlreg_hit *a,
		   const struct ioctlreg_hit *b);

#endif
