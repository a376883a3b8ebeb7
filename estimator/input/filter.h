/* input/filter.h — what a program's metadata says about the filter file it was compiled with
 * (docs/regions.md): rules that matched nothing anywhere, and the functions it left uncounted.
 * Shared by roi estimate and roi report, which both must say so. */
#ifndef ROI_FILTER_H
#define ROI_FILTER_H

#include <stddef.h>

#include "input/meta.h"

struct roi_unmatched_rule {
	const char *path;               /* the filter file as the metadata names it */
	unsigned line;
	const char *text;
};

/* The rules that no unit compiled with them matched, by path, then line. *out is malloc'd. */
size_t roi_filter_unmatched(const struct roi_program *p, struct roi_unmatched_rule **out);

/* One warning per unmatched rule: "PATH:LINE: rule 'TEXT' matched nothing in PROGRAM". */
void roi_filter_warn_unmatched(const struct roi_program *p);

/* The excluded functions, each name once, in the order of the units: their count; names[] (may be
 * NULL) gets up to max of them. */
size_t roi_filter_excluded(const struct roi_program *p, const struct roi_excluded **names, size_t max);

/* "foo, bar" for a sentence naming the excluded functions; malloc'd, NULL when there are none. */
char *roi_filter_excluded_list(const struct roi_program *p);

#endif
