/* roi-spell.h — how far apart two names are, for "did you mean" in a filter's rule that matched
 * nothing: the plugin says it while compiling a unit (roi-filter.cc), roi estimate for the whole
 * program (estimator/input/filter.c). Header-only, valid C11 and C++11. */
#ifndef ROI_SPELL_H
#define ROI_SPELL_H

#include <string.h>

/* The longest name compared; longer ones are never taken for each other. (No allocation: GCC's
 * headers, which the plugin includes first, poison malloc.) */
#define ROI_SPELL_MAX 256

/* The edit distance of a and b (insertions, deletions, substitutions), or limit + 1 when it is
 * more than limit. */
static inline unsigned roi_edit_distance(const char *a, const char *b, unsigned limit)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[ROI_SPELL_MAX + 1], d;

	if ((la > lb ? la - lb : lb - la) > limit || lb > ROI_SPELL_MAX)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	return d > limit ? limit + 1 : d;
}

/* How many edits a name of this length may be from what was meant: a typo, not another name. */
static inline unsigned roi_spell_limit(const char *name)
{
	return strlen(name) > 4 ? 2 : 1;
}

#endif /* ROI_SPELL_H */
