// SPDX-License-Identifier: GPL-2.0
/* Diagnostics: collected, then printed as path:line:col: error: message [rule]. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "diag.h"
#include "util.h"

static void diag_vadd(struct diags *d, struct about about, struct mark m, enum severity sev,
		      const char *rule, bool accepted, const char *fmt, va_list ap)
{
	struct diag *g;
	va_list again;
	char buf[512];
	int n;

	grow(&d->v, &d->cap, d->n + 1, sizeof(*d->v));
	g = &d->v[d->n];
	g->mark = m;
	g->sev = sev;
	g->rule = rule;
	g->about = about;
	g->accepted = sev == SEV_WARNING && accepted;
	g->seq = (unsigned int)d->n++;
	/* one vsnprintf() when the message fits buf, the usual case: a
	 * large registry has tens of thousands of warnings */
	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	g->msg = xrealloc(NULL, (size_t)n + 1);
	if ((size_t)n < sizeof(buf))
		memcpy(g->msg, buf, (size_t)n + 1);
	else
		vsnprintf(g->msg, (size_t)n + 1, fmt, again);
	va_end(again);
	text_defang(g->msg);	/* a message may quote hostile spec text */
	if (sev == SEV_ERROR)
		d->errors++;
	else if (!g->accepted)
		d->warnings++;
}

void diag_add(struct diags *d, struct mark m, enum severity sev, const char *rule,
	      bool accepted, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, (struct about){ NULL, NULL }, m, sev, rule, accepted, fmt, ap);
	va_end(ap);
}

void diag_add_about(struct diags *d, struct about about, struct mark m, enum severity sev,
		    const char *rule, bool accepted, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, about, m, sev, rule, accepted, fmt, ap);
	va_end(ap);
}

static int diag_cmp(const void *pa, const void *pb)
{
	const struct diag *a = pa, *b = pb;
	int c = strcmp(a->mark.file ? a->mark.file : "", b->mark.file ? b->mark.file : "");

	if (c)
		return c;
	if (a->mark.line != b->mark.line)
		return a->mark.line < b->mark.line ? -1 : 1;
	if (a->mark.col != b->mark.col)
		return a->mark.col < b->mark.col ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void diags_sort(struct diags *d)
{
	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), diag_cmp);
}

void diag_print(FILE *f, const struct diag *g, bool werror, bool show_accepted)
{
	const char *what = g->sev == SEV_ERROR || werror ? "error" : "warning";

	if (g->accepted) {
		if (!show_accepted)
			return;
		what = "note";
	}
	fprintf(f, "%s:%u:%u: %s: %s [%s]%s\n", g->mark.file ? g->mark.file : "?", g->mark.line,
		g->mark.col, what, g->msg, g->rule, g->accepted ? " (accepted)" : "");
}

void diags_print(FILE *f, const struct diags *d, bool werror, bool show_accepted)
{
	for (size_t i = 0; i < d->n; i++)
		diag_print(f, &d->v[i], werror, show_accepted);
}

void diags_release(struct diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	memset(d, 0, sizeof(*d));
}
