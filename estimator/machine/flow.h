/* machine/flow.h — how often each instruction of a counted function ran, from its block counts.
 *
 * The function's instructions (the plain firmware's) are cut into straight-line pieces at jumps,
 * branch targets and where the counted block they belong to changes (the block-lines build's line
 * table says which: docs/calibration.md). A piece runs as often as control enters it, and control
 * flows along the machine code's edges: each piece passes on what comes in (conservation), the
 * function is entered as often as its entry block ran, and the machine edges from the code of
 * counted block A into the entry of block B carry what the counted edge A -> B carried (through
 * blocks that have no code of their own). Solved like gcov solves its spanning tree: an equation
 * with one unknown left gives it. What no count decides is estimated and counted as such: a
 * loop inside one counted block (a shift by a run-time amount, a copy) from the value counters of
 * its block (steps, bytes) or the constant its counter register was loaded with; a branch inside
 * one counted block by its statement's value counter ("taken": a minimum's move, a signed
 * division's fix-up), else (a test the compiler added, a decision tree's default) half and half. */
#ifndef ROI_MACHINE_FLOW_H
#define ROI_MACHINE_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "input/counts.h"
#include "input/meta.h"
#include "machine/code.h"

/* An instruction's owner, besides a counted block's index. */
enum { ROI_OWN_FN = -1 };       /* the function's own line: prologue, epilogue */

struct roi_mfunc {
	const struct roi_function *fn;
	uint64_t addr, size;
	struct roi_minsn *ins;
	size_t nins;
	long *owner;            /* per instruction: its counted block, or ROI_OWN_FN */
	double *count;          /* per instruction: executions */
	double *taken;          /* per instruction: a branch's taken, a skip's skipping executions */
	/* what the counts did not decide, by instruction executions */
	size_t guessed;         /* branches inside one counted block, split half and half */
	size_t branches_counted; /* branches inside one counted block, by their statements' "taken"
				  * value counters */
	size_t loops_counted;   /* loops inside a counted block, from a value counter or a constant */
	size_t loops_guessed;   /* loops inside a counted block nothing counted: taken once */
	size_t shared;          /* machine edges into code the compiler shared between blocks */
	size_t off;             /* equations the solution misses by more than a count (moved code) */
	bool aligned;           /* the block-lines build differed from the plain one and was aligned */
	/* loops of a constant count that move data, by block: a copy or a fill of a constant length
	 * the compiler expanded inline, which a memory routine's value counter still counts */
	struct roi_mconst_loop {
		long block;
		double trips;
	} *copies;
	size_t ncopies;
};

/* The count of the k-th successor edge of block b (an exit: -1). The one place edge counts are
 * derived from block counts (docs/formats.md §1: critical edges are split, so an edge out of a
 * block with one successor carries its count, any other its target's). */
uint64_t roi_machine_edge_count(const struct roi_counts *c, const struct roi_function *fn, size_t b, size_t k);

/* Decodes fn's instructions in plain and gives each its counted block from the block-lines build
 * blocks (the same code when optimising; at -O0 GCC keeps a nop where a block's line changes,
 * and the two are aligned). Errors: "PLAIN: no symbol ASM for function NAME", "BLOCKS: the code of
 * ASM does not match PLAIN's (not a block-lines build of the same sources?)". */
int roi_mfunc_build(struct roi_mfunc *f, const struct roi_mcode *plain, const struct roi_mcode *blocks,
		    const struct roi_function *fn, struct roi_err *err);

/* Solves f's instruction counts from the block counts (plain: the code it was built from). */
void roi_mfunc_solve(struct roi_mfunc *f, const struct roi_mcode *plain, const struct roi_counts *counts);

void roi_mfunc_free(struct roi_mfunc *f);

#endif
