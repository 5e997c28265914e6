/* SPDX-License-Identifier: GPL-2.0 */
/* "Did you mean": the closest of some candidates to a misspelled word (suggest.c). */
#ifndef IOCTLGEN_SUGGEST_H
#define IOCTLGEN_SUGGEST_H

/* words longer than this are never compared */
#define SUGGEST_MAX 127

struct suggest {
	const char *word;
	const char *best;	/* the closest candidate so far, or NULL */
	unsigned int best_d, limit;
};

void suggest_init(struct suggest *s, const char *word);
/* Offer a candidate; the closest within the limit wins, the first on a tie. */
void suggest_try(struct suggest *s, const char *candidate);

#endif
