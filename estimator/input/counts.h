/* input/counts.h — block counts of a program, joined from a profile by (unit, index).
 *
 * Counts are kept program-wide: block b of function f is block[f->gblock0 + b]. A runner
 * that reads counters itself (roi run) fills a roi_counts from roi_counts_init directly. */
#ifndef ROI_COUNTS_H
#define ROI_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "input/meta.h"
#include "input/profile.h"

/* What the hooks measured for one region of the program. */
struct roi_region_result {
	bool ran;               /* the profile has a line for it */
	uint64_t calls, total;  /* total in the unit of roi_counts.time_unit */
	uint64_t inner;         /* hook enters inside its outermost calls (when has_inner) */
	bool has_inner;         /* false in profiles before 2026-11 */
};

struct roi_counts {
	uint64_t *block;        /* [prog->nblocks] */
	bool *present;          /* [prog->nfunctions], by gindex: false when the profile has no counts */
	size_t nmissing;        /* functions without counts (their blocks count 0) */
	uint64_t runs;
	char *transferred;      /* the profile's "transferred" program, else NULL (owned) */
	char *profile;          /* the profile's path when joined from one, else NULL (owned) */
	struct roi_region_result *region;       /* [prog->nregions], by gindex */
	size_t nregions_ran;
	const char *time_unit;  /* "ns" or "cycles"; NULL when no region ran */
	bool has_hook_cost;
	double hook_cost;       /* per enter+exit pair, in time_unit, as an enclosing region measures it */
	double hook_inside;     /* of its own pair, what a region measures */
};

/* All zero, every function absent. */
void roi_counts_init(struct roi_counts *c, const struct roi_program *prog);
void roi_counts_free(struct roi_counts *c);

/* Joins: every profile function must exist in the program with the same checksum and counter
 * count, else "PROFILE: function NAME (unit U) does not match PROGRAM: checksum 0xP != 0xM
 * (profile from another build: run the program again for a new one)" (profile's value first); every region line must name a region of
 * the program, else "PROFILE:LINE: region I of unit U is not in PROGRAM (profile from another
 * build)". Functions of the program absent from
 * the profile count 0 and are flagged in present[]; the caller decides whether to warn. Counts whose
 * operations, block or edge executions, or region calls add up to more than 64 bits hold are
 * refused, not wrapped ("PROFILE: function NAME (unit U): the program's operations overflow 64
 * bits (damaged or edited profile?)"): every total the estimator prints then fits. */
int roi_counts_join(struct roi_counts *c, const struct roi_program *prog, const struct roi_profile *prof,
		    struct roi_err *err);

static inline uint64_t roi_block_count(const struct roi_counts *c, const struct roi_function *fn, size_t b)
{
	return c->block[fn->gblock0 + b];
}

#endif
