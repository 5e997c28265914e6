/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioctlgen: the ioctl number registry as a library.  This header includes
 * every stage's; the library's own files include only those they use.
 *
 * Ground floor (calls nothing above it):
 *   util.c, diag.c, grammar*.c  buffers and arenas, diagnostics, text grammars
 *   layout.c    encode and decode one number on one layout
 *   parse.c     spec values as text: numbers, magic codes, sizeof()
 *   registry.c  lookups and the registry's order: by name, spec order, collisions' members
 *   command.c   one command on one ABI: its nr, alias, sizes, whether the ABI has it
 *   cwords.c    the ioctl macros and the fixed-width types, one list each
 *   lifetime_text.c  every wording of a lifetime
 * Load:
 *   yamltree.c  YAML into a tree whose every node knows its file, line and column
 *   spec*.c     the tree into registry structures, with key and type checks
 * Check (check.c runs the stages in order):
 *   check_lifetimes.c  versions, since/removed, doc-since
 *   check_names.c      unique names, alias-of chains and their numbers
 *   check_abis.c       ABIs' layouts and variants, field ranges
 *   check_magic.c      the magic-code table: overlaps, registered codes and ranges
 *   check_types.c      the types header specs define
 *   check_namespace.c  one C namespace: names other headers, <asm/ioctl.h>, guards own
 *   check_numbers.c    every number in every known version, and ABI changes
 *   numbers.c          spelling, encoded sizes and every number on every ABI
 *   number_table.c     an ABI's numbers sorted by key, size and spec order
 *   collisions.c       numbers that several commands share
 * After the check:
 *   table.c     the lookup table libioctlreg reads: numbers back to commands
 *   free.c      free magic codes and nrs, and what a proposed number clashes with
 *   lint.c      the lint: what the registry says about the kernel, by class
 *   json.c, model*.c  the versioned JSON model that every renderer reads
 */
#ifndef IOCTLGEN_H
#define IOCTLGEN_H

#include "check.h"
#include "cwords.h"
#include "diag.h"
#include "free.h"
#include "layout.h"
#include "lint.h"
#include "load.h"
#include "model.h"
#include "numbers.h"
#include "parse.h"
#include "registry.h"
#include "table.h"
#include "util.h"

#endif
