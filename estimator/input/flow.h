/* input/flow.h — a function's counted edges and the counts flow conservation solves from them
 * (docs/formats.md §1, "Counted edges").
 *
 * The plugin counts the edges off a spanning tree of a function's graph (gcc-plugin/roi-edges.cc):
 * the metadata's "edges" list them in counter order, "fake" the blocks that may leave the function
 * other than by their successors. Every block is entered as often as it is left, so the counted
 * edges determine every other edge, and a block's count is the sum of the edges into it. A function
 * without "edges" has a counter per block, as before.
 *
 * A counted edge is a block's successor, or a block's entries (all its edges in: the count of the
 * block; block 0's are the function's calls), where counting them keeps no block of its own alive
 * (a loop of one block). A function's edges are numbered block by block: block b's successors from
 * fn->blocks[b].edge on, in the order of its "succ", then its fake edge, when it has one. */
#ifndef ROI_FLOW_H
#define ROI_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "input/jv.h"
#include "input/meta.h"

/* Reads f's "fake" and "edges" (fn's blocks blk already read and checked) into fn and blk: which
 * blocks have a fake edge, the edge numbers, the counted edges, the counters. The counted edges
 * must be distinct edges of the function, not fake ones, and the others a spanning tree of its
 * blocks and its entry and exit ("PREFIX: functions[I].edges: the edges not counted close a cycle
 * through block B: ..."), or no count would follow from them. */
int roi_flow_parse(const struct jv *v, const cJSON *f, const char *w, struct roi_function *fn,
		   struct roi_block *blk);

/* The checksum of the function from block_crc, the CRC of its blocks (roi-checksum.h): its fake
 * and edge lines added. */
uint32_t roi_flow_checksum(const struct roi_function *fn, uint32_t block_crc);

/* What the solver says of one function's counts. */
struct roi_flow_result {
	size_t saturated;       /* counts that depend on a 16-bit counter stuck at 65535 (set to 65535) */
	size_t negative;        /* counts that came out below zero (set to 0): counters that do not add
				 * up, as when a thread was inside the function when its counts were taken */
};

/* fn's block counts (every entry of its blocks, value counters' included) into block[fn->nblocks]
 * and its edge counts into edge[fn->nedges], from its counters (fn->ncounters of them). A counter
 * equal to stuck (65535 for 16-bit counters, else 0: none) is a lower bound only: a count that
 * depends on it is set to stuck and flagged in saturated[b] (block counts; NULL: not wanted).
 * Returns -1 when a count passes 64 bits, else 0 with *r filled. */
int roi_flow_solve(const struct roi_function *fn, const uint64_t *counters, uint64_t stuck, uint64_t *block,
		   uint64_t *edge, bool *saturated, struct roi_flow_result *r);

/* The edge counts of fn from its block counts, as a counter per block gives them (formats.md §1:
 * an edge out of a block with one successor carries that block's count, any other edge its
 * target's; a fake edge what its block's count leaves over) into edge[fn->nedges]. */
void roi_flow_edges_from_blocks(const struct roi_function *fn, const uint64_t *block, uint64_t *edge);

/* The counters (fn->ncounters) a run of fn with these block counts leaves, into counters: each
 * counted edge's count as roi_flow_edges_from_blocks gives it, then the value counters'. False
 * when they do not give these block counts again (counts that break flow conservation, as an
 * estimate may) or when a 16-bit counter could not hold them (stuck: 65535, else 0). */
bool roi_flow_counters_from_blocks(const struct roi_function *fn, const uint64_t *block, uint64_t stuck,
				   uint64_t *counters);

#endif
