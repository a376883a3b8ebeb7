/* transfer/transfer.h — the counts of one build of a program from a run of another build of the same
 * sources: a host run's counts for a firmware that has not run (docs/transfer.md).
 *
 * Two compilers, or two optimisation levels, cut the same source into different blocks, but
 * every statement keeps its source location (file, line, column). The run of the source build
 * says how often each location was evaluated; the target build's blocks are the counts that
 * give those evaluations and keep the flow through every block (what enters leaves), found by
 * least squares, robust to the few locations whose evaluations the two compilers changed. */
#ifndef ROI_TRANSFER_H
#define ROI_TRANSFER_H

#include <stddef.h>

#include "base/err.h"
#include "input/counts.h"
#include "input/meta.h"

struct roi_transfer_stats {
	size_t locations;       /* distinct source locations the target build evaluates */
	size_t matched;         /* of them, ones the source build evaluates too */
	size_t disagree;        /* matched ones the result misses by more than 1 % (and 1 evaluation) */
	char worst[320];        /* the one it misses most, "FILE:LINE:COL: source N, target M"; "" if none */
	size_t values, values_matched;  /* the target's value counters; those with a source location */
	size_t functions;       /* target functions given counts */
	size_t flow_off;        /* blocks whose counts in and out differ by more than 1 % (and 1) */
	size_t passes;          /* value counters given a host's 64-bit long shift passes for bits */
	char passes_at[300];    /* the first one's location, FILE:LINE:COL */
};

/* Fills *out (for the program 'to') from the counts of the program 'from'. Both need the metadata's
 * "locs". Errors: a program without them (an older plugin), no location in common. Free *out with
 * roi_counts_free even on failure. */
int roi_transfer(const struct roi_program *to, const struct roi_program *from, const struct roi_counts *from_counts,
		 struct roi_counts *out, struct roi_transfer_stats *st, struct roi_err *err);

#endif
