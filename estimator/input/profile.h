/* profile.h — profiles (docs/formats.md §3) read whole into memory, and written by the commands
 * that make them (roi run, roi transfer, roi fit). The format's one reader and writer is the
 * runtime's, runtime/roi-profile-io.c, which profile.c includes. */
#ifndef ROI_PROFILE_H
#define ROI_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/err.h"
#include "../../runtime/roi-profile-io.h"

/* A "fn" record (runtime/roi-profile-io.h: the format's one struct for it), its counts, and the
 * line it was on. */
struct roi_profile_fn {
	struct roi_pf_fn rec;
	const uint64_t *counts;
	unsigned line;          /* of the "fn" record, for messages */
};

/* A "region" line (docs/regions.md): a region that ran, its calls and inclusive time. */
struct roi_profile_region {
	struct roi_pf_region rec;
	unsigned line;          /* of the "region" record, for messages */
};

/* What the region hooks measured: every region that ran and the hooks' own cost. */
struct roi_profile_timing {
	const struct roi_profile_region *regions;
	size_t nregions;
	bool has_hook_cost;     /* the optional "hook-cost" line */
	double hook_cost;       /* per enter+exit pair, in unit, as a region around it measures it */
	double hook_inside;     /* of its own pair, what a region measures ("hook-inside"; else hook_cost) */
	const char *unit;       /* "ns" or "cycles", shared by every line; NULL when there is none */
};

struct roi_profile {
	const char *path;
	const char *program;    /* the "program" line */
	uint64_t runs;
	const char *transferred; /* the optional "transferred" line: the program whose run roi transfer
				    carried onto this build, else NULL (the counts were measured) */
	const struct roi_profile_fn *fns;
	size_t nfns;
	struct roi_profile_timing timing;
	struct roi_arena arena;
};

/* Reads and checks a whole profile: header, the optional hook-cost line, fn lines, region lines, end
 * line with the function count and the CRC-32 of everything before it. Any deviation is "PATH:LINE: <what>"; a truncated file is
 * "PATH:LINE: missing end line (truncated profile?)". Free with roi_profile_free even on failure. */
int roi_profile_load(const char *path, struct roi_profile *prof, struct roi_err *err);
int roi_profile_parse(const char *path, const char *data, size_t size, struct roi_profile *prof,
		      struct roi_err *err);
void roi_profile_free(struct roi_profile *prof);

/* Writes a profile of the given functions (their counts, in order), the regions of timing (may be
 * NULL: none) and the end line; transferred (NULL: none) names the program whose run roi transfer
 * carried onto this one. */
int roi_profile_write(FILE *out, const char *program, uint64_t runs, const char *transferred,
		      const struct roi_profile_fn *fns, size_t nfns, const struct roi_profile_timing *timing,
		      struct roi_err *err);

#endif
