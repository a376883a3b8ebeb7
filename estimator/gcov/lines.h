/* gcov/lines.h — a function's line counts as gcov computes them, from roi's block counts.
 *
 * gcov's view of the function's graph is rebuilt from roi's (graph.h: blocks added after gcov's
 * pass left out, blocks cut after calls, entries through abnormal edges), then gcc/gcov.cc's
 * algorithm runs on it (add_line_counts, accumulate_line_info, get_cycles_count: cycles.h). At -O0 the counts are gcov's own
 * for the same runs (roi gcov-check compares them); at other levels, what gcov would say of the
 * optimised code. The rules and why each exists: docs/gcov-check.md, "Lines". */
#ifndef ROI_GCOV_LINES_H
#define ROI_GCOV_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/counts.h"
#include "input/meta.h"

/* One line of one function, before the unit's functions are combined: "on" when some node is on
 * the line (count is then the arc count), else count is the sum of the line's node counts. own:
 * 1 + gindex of the function when gcov keeps the line apart for it (a function of a group: several
 * start on one line, as a macro makes them), else 0. */
struct roi_gcov_line {
	unsigned file, line;            /* file indexes the unit's files */
	bool on;
	int64_t count;
	size_t own;
};

struct roi_gcov_lines {
	struct roi_gcov_line *v;
	size_t n, cap;
};

/* Appends every line of fn as gcov counts it. Returns the number of blocks whose outgoing edge
 * counts their block counts leave open (taken as 0; none with roi's metadata). */
size_t roi_gcov_function_lines(const struct roi_counts *counts, const struct roi_function *fn,
			       struct roi_gcov_lines *out);

/* A unit's lines, as gcov combines the functions of one .gcda: when some function has a node on a
 * line, the line counts those functions' arcs; otherwise the sum of all its node counts. Calls
 * emit once per line (twice for a line two functions of a group keep apart), by file index and
 * line; empties fl for the next unit. */
typedef void roi_gcov_emit(void *ctx, unsigned file, unsigned line, uint64_t count);
void roi_gcov_unit_lines(struct roi_gcov_lines *fl, roi_gcov_emit *emit, void *ctx);
void roi_gcov_lines_free(struct roi_gcov_lines *fl);

/* fn's entries through abnormal edges (a computed or nonlocal goto's target, a setjmp receiver):
 * executions its normal predecessors do not explain, which gcov counts as calls. */
uint64_t roi_gcov_arrivals(const struct roi_counts *counts, const struct roi_function *fn);

#endif
