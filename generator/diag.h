/* SPDX-License-Identifier: GPL-2.0 */
/* Diagnostics: every finding of every stage as path:line:col: severity: message [rule] (diag.c). */
#ifndef IOCTLGEN_DIAG_H
#define IOCTLGEN_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A place in a spec file; line and col are 1-based. */
struct mark {
	const char *file;
	unsigned int line, col;
};

enum severity { SEV_ERROR, SEV_WARNING };

/* The entry a finding is about: a command of a header, a header, or neither. */
struct about {
	const char *command, *header;	/* a command's name, a header's path, or NULL */
};

struct diag {
	struct mark mark;
	enum severity sev;
	const char *rule;	/* static string: "unknown-key", "overlap", ... */
	char *msg;
	struct about about;	/* strings the registry's arena owns */
	bool accepted;		/* a warning the registry accepts explicitly */
	unsigned int seq;	/* report order, to keep sorting stable */
};

struct diags {
	struct diag *v;
	size_t n, cap;
	unsigned int errors, warnings;	/* not counting accepted warnings */
};

void diag_add(struct diags *d, struct mark m, enum severity sev, const char *rule,
	      bool accepted, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same, for a finding about one command or header. */
void diag_add_about(struct diags *d, struct about about, struct mark m, enum severity sev,
		    const char *rule, bool accepted, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Sort by file, line, column.  Print to f, accepted warnings only if asked. */
void diags_sort(struct diags *d);
void diags_print(FILE *f, const struct diags *d, bool werror, bool show_accepted);
/* One diagnostic, as diags_print() prints it. */
void diag_print(FILE *f, const struct diag *g, bool werror, bool show_accepted);
void diags_release(struct diags *d);

/*
 * The one spelling of each way a stage reports: ERR and WARN for a finding
 * of the registry reg at mark m, CMD_ERR and CMD_WARN for one about command
 * c (the model names it; registry.h's command_about()), LOAD_ERR for the
 * loader L's finding about the entry it is loading (spec_load.h).
 */
#define ERR(reg, m, rule, ...) diag_add(&(reg)->diags, (m), SEV_ERROR, rule, false, __VA_ARGS__)
#define WARN(reg, m, rule, acc, ...) diag_add(&(reg)->diags, (m), SEV_WARNING, rule, acc, __VA_ARGS__)
#define CMD_ERR(reg, c, m, rule, ...) \
	diag_add_about(&(reg)->diags, command_about(c), (m), SEV_ERROR, rule, false, __VA_ARGS__)
#define CMD_WARN(reg, c, m, rule, acc, ...) \
	diag_add_about(&(reg)->diags, command_about(c), (m), SEV_WARNING, rule, acc, __VA_ARGS__)
#define LOAD_ERR(L, m, rule, ...) \
	diag_add_about((L)->d, (L)->about, (m), SEV_ERROR, rule, false, __VA_ARGS__)

#endif
