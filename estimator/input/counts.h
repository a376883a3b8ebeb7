/* input/counts.h — block and edge counts of a program, joined from a profile by (unit, index).
 *
 * Counts are kept program-wide: block b of function f is block[f->gblock0 + b], its edge e
 * edge[f->gedge0 + e] (input/flow.h numbers them). A function counted on the edges off a spanning
 * tree has its block and edge counts solved from its counters (input/flow.c); one counted per
 * block has its edge counts from its block counts. A runner that reads counters itself (roi run)
 * sets each function's from roi_counts_init with roi_counts_set. */
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
	uint64_t *edge;         /* [prog->nedges]: roi_edge_count */
	bool *saturated;        /* [prog->nblocks]: the count depends on a 16-bit counter stuck at 65535,
				 * and shows 65535 */
	uint64_t *counter;      /* [prog->ncounters]: a function's counters as its run left them, when
				 * raw[gindex] (to write the profile again) */
	bool *raw;              /* [prog->nfunctions], by gindex */
	bool *present;          /* [prog->nfunctions], by gindex: false when the profile has no counts */
	size_t nmissing;        /* functions without counts (their blocks count 0) */
	size_t nnegative;       /* counts that came out below zero and show 0 (input/flow.h) */
	const struct roi_function *first_negative;      /* the first function with one */
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
 * count (or, for a function counted on edges, its block checksum and a count per block), else
 * "PROFILE: function NAME (unit U) does not match PROGRAM: checksum 0xP != 0xM (profile from
 * another build: run the program again for a new one)" (profile's value first); every region line
 * must name a region of
 * the program, else "PROFILE:LINE: region I of unit U is not in PROGRAM (profile from another
 * build)". Functions of the program absent from
 * the profile count 0 and are flagged in present[]; the caller decides whether to warn. Counts whose
 * operations, block or edge executions, or region calls add up to more than 64 bits hold are
 * refused, not wrapped ("PROFILE: function NAME (unit U): the program's operations overflow 64
 * bits (damaged or edited profile?)"): every total the estimator prints then fits. */
int roi_counts_join(struct roi_counts *c, const struct roi_program *prog, const struct roi_profile *prof,
		    struct roi_err *err);

/* fn's counts from values: its counters as its run left them (fn->ncounters of them; the
 * function's block and edge counts solved from them), or, per_block, one count per entry of its
 * blocks (a profile line with fn's block checksum: what roi transfer and roi fit write). stuck is
 * the value a counter sticks at (65535 for 16-bit counters), else 0. Returns -1 when a solved count
 * passes 64 bits. */
int roi_counts_set(struct roi_counts *c, const struct roi_function *fn, const uint64_t *values, bool per_block,
		   uint64_t stuck);

static inline uint64_t roi_block_count(const struct roi_counts *c, const struct roi_function *fn, size_t b)
{
	return c->block[fn->gblock0 + b];
}

/* How often the edge from block b of fn (not a value counter) to its successor number i,
 * fn->blocks[b].succ[i], ran; with i = -1, how often b was left other than by a successor
 * (fn->blocks[b].fake only: a call in it that did not return, or the block's end when it has no
 * successor). Exact for a function counted on edges (fn->on_edges) from its counters; otherwise
 * from its block counts, which the block counts determine but for the calls that did not return.
 * The function's entry is block 0's count. For the machine-code pricing of branches: which way
 * each went. */
static inline uint64_t roi_edge_count(const struct roi_counts *c, const struct roi_function *fn, size_t b, int i)
{
	const struct roi_block *blk = &fn->blocks[b];

	return c->edge[fn->gedge0 + blk->edge + (i < 0 ? blk->nsucc : (size_t)i)];
}

#endif
