// SPDX-License-Identifier: GPL-2.0
/* "Did you mean": the candidate closest to a misspelled word, if close. */
#include <string.h>

#include "suggest.h"

/* Optimal string alignment distance (Levenshtein with transpositions),
 * stopping early once every cell of a row exceeds limit. */
static unsigned int distance(const char *a, const char *b, unsigned int limit)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned int row[3][SUGGEST_MAX + 1];

	if (n > SUGGEST_MAX || m > SUGGEST_MAX)
		return limit + 1;
	if ((n > m ? n - m : m - n) > limit)
		return limit + 1;
	for (size_t j = 0; j <= m; j++)
		row[0][j] = (unsigned int)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned int *cur = row[i % 3], *prev = row[(i - 1) % 3], *prev2 = row[(i + 1) % 3];
		unsigned int low;

		cur[0] = (unsigned int)i;
		low = cur[0];
		for (size_t j = 1; j <= m; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];
			unsigned int d = prev[j] + 1;

			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < low)
				low = d;
		}
		if (low > limit)
			return limit + 1;
	}
	return row[n % 3][m];
}

void suggest_init(struct suggest *s, const char *word)
{
	size_t n = strlen(word);

	s->word = word;
	s->best = NULL;
	/* a third of the word, at least 1 and at most 3 edits */
	s->limit = n < 3 ? 1 : n / 3 > 3 ? 3 : (unsigned int)(n / 3);
	s->best_d = s->limit + 1;
}

void suggest_try(struct suggest *s, const char *candidate)
{
	unsigned int d;

	if (!candidate || !strcmp(candidate, s->word))
		return;
	d = distance(s->word, candidate, s->best_d - 1 < s->limit ? s->best_d - 1 : s->limit);
	if (d < s->best_d) {
		s->best_d = d;
		s->best = candidate;
	}
}
