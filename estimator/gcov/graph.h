/* gcov/graph.h — gcov's view of a roi function's graph, from roi's blocks and their counts: the
 * nodes and arcs gcov's own pass saw, each arc's count, and the lines each node is on.
 *
* gcov (gcc/profile.cc, gcc/gcov.cc) sees a function's graph as it was before roi's pass; roi's
 * blocks are mapped back onto it:
 * - the blocks added after gcov's graph was written are left out: those that split an edge (no
 *   lines, one way in, one way out: an arc through one is an arc from its predecessor) and a first
 *   block with no line but the function's that leads to a join, made when roi or gcov's
 *   instrumentation split the entry edge of a loop header (the function's line goes to that
 *   header, where gcov has it);
 * - a block of labels alone (the metadata's "labels") was split off the block it leads to after
 *   gcov's pass, when GCC set up a loop there at -O0: its lines go back to that block's first piece,
 *   where gcov has them, and arcs into it go to that block;
 * - gcov ends a block after every call that may not return (a fake arc to the exit); roi's block
 *   is cut into such pieces after each call to a function that is neither a GCC builtin nor
 *   internal, reading its ops rows in their order, which is the statements' order;
 * - a block reached through abnormal edges (computed goto, nonlocal goto, setjmp) gets a fake
 *   arc from gcov's entry carrying the executions its normal predecessors do not explain.
 * Edge counts follow from block counts (docs/formats.md). The line counts are gcov/lines.h's. */

#ifndef ROI_GCOV_GRAPH_H
#define ROI_GCOV_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/counts.h"
#include "input/meta.h"

struct roi_gcov_arc {
	size_t src, dst;
	int64_t count, cs;      /* cs: what cycle detection has not yet taken (gcov's cs_count) */
};

/* A line of a node; "on" when gcov puts the node on it: the last line the node has in a file,
 * except for the function's last node, which gcov never puts on a line (add_line_counts). */
struct roi_gcov_lineblock {
	unsigned file, line;
	size_t node;
	bool on;
};

/* The graph: node v < nn a piece of a roi block, node nn gcov's entry. */
struct roi_gcov_graph {
	size_t nn;              /* nodes; node nn stands for gcov's entry block */
	int64_t *count;         /* [nn] */
	struct roi_gcov_arc *arcs;
	size_t narcs, cap;
	size_t *out;            /* arcs leaving node v: arcs[out[v] .. out[v + 1]) */
	struct roi_gcov_lineblock *lb;   /* by line, then node */
	size_t nlb;
	int64_t arrivals;       /* entries through abnormal edges */
	size_t undetermined;    /* blocks whose outgoing edge counts their block counts leave open */
};

/* gcov's view of fn with the counts of one run; free with roi_gcov_graph_free. */
void roi_gcov_graph_build(const struct roi_counts *counts, const struct roi_function *fn, struct roi_gcov_graph *g);
void roi_gcov_graph_free(struct roi_gcov_graph *g);

#endif
