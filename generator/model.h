/* SPDX-License-Identifier: GPL-2.0 */
/* The versioned JSON model that every renderer reads (model.c). */
#ifndef IOCTLGEN_MODEL_H
#define IOCTLGEN_MODEL_H

#include "registry.h"

/* Raise it whenever the model's keys change (tests/golden checks the key list). */
#define IOCTLGEN_MODEL_VERSION 9

/* The JSON model, in a buffer the caller releases. */
void model_write(const struct registry *reg, struct strbuf *out);
/*
 * The same in pieces: whenever out holds MODEL_PIECE bytes or more, they go
 * to put(ctx, data, len) and out is emptied; the rest at the end.  Returns 0,
 * or -1 with errno as the first put() that failed left it (the pieces after
 * it are dropped).  The CLI writes the model so: whole, it was 15 MB of
 * memory faulted in page by page, a tenth of the CPU time of `ioctlgen model`.
 */
#define MODEL_PIECE (64u << 10)
int model_write_pieces(const struct registry *reg, struct strbuf *out,
		       int (*put)(void *ctx, const char *data, size_t len), void *ctx);

/* Only the ioctl macros and fixed-width types, as one JSON document
 * (`ioctlgen dump --c-words`: they need no spec). */
void model_write_cwords_doc(struct strbuf *out);

#endif
