/* gcov/lines.c — a function's line counts as gcov computes them, from roi's block counts (see
 * lines.h; the rules and why each exists: docs/gcov-check.md, "Lines"). */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "gcov/cycles.h"
#include "gcov/graph.h"
#include "gcov/lines.h"

static bool in_group(const struct roi_function *fn)
{
	const struct roi_unit *u = fn->unit;

	for (size_t f = 0; f < u->nfunctions; f++)
		if (&u->functions[f] != fn && u->functions[f].line == fn->line && u->functions[f].file == fn->file)
			return true;
	return false;
}

uint64_t roi_gcov_arrivals(const struct roi_counts *counts, const struct roi_function *fn)
{
	struct roi_gcov_graph g;
	int64_t n;

	roi_gcov_graph_build(counts, fn, &g);
	n = g.arrivals;
	roi_gcov_graph_free(&g);
	return (uint64_t)n;
}

static int by_line(const void *a, const void *b)
{
	const struct roi_gcov_line *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->own < y->own ? -1 : x->own > y->own;
}

/* gcov's accumulate_line_info: a line with nodes on it counts the arcs entering them from
 * elsewhere plus the cycles that stay among them (get_cycles_count); a line without, the sum of the
 * counts of the nodes that have it. Lines of a group function from its own line to its last line in
 * that file are its own (gcov's function_info::lines). */
size_t roi_gcov_function_lines(const struct roi_counts *counts, const struct roi_function *fn,
			       struct roi_gcov_lines *out)
{
	struct roi_gcov_graph g;
	struct roi_gcov_cycles cy;
	unsigned own_last = fn->line;
	bool *on, group = in_group(fn);

	roi_gcov_graph_build(counts, fn, &g);
	on = roi_xzalloc(g.nn + 1, sizeof *on);
	roi_gcov_cycles_init(&cy, &g, on);
	for (size_t i = 0; i < g.nlb; i++)
		if (g.lb[i].file == fn->file && g.lb[i].line > own_last)
			own_last = g.lb[i].line;

	for (size_t i = 0, j; i < g.nlb; i = j) {
		int64_t count = 0, sum = 0;
		bool any = false;

		for (j = i; j < g.nlb && g.lb[j].file == g.lb[i].file && g.lb[j].line == g.lb[i].line; j++) {
			sum += g.count[g.lb[j].node];
			on[g.lb[j].node] = g.lb[j].on;
			any |= g.lb[j].on;
		}
		if (any) {
			for (size_t a = 0; a < g.narcs; a++) {
				if (on[g.arcs[a].dst] && !on[g.arcs[a].src])
					count += g.arcs[a].count;
				g.arcs[a].cs = g.arcs[a].count;
			}
			for (size_t k = i; k < j; k++)
				if (g.lb[k].on)
					count += roi_gcov_cycles_through(&cy, g.lb[k].node);
		}
		for (size_t k = i; k < j; k++)
			on[g.lb[k].node] = false;
		out->v = roi_xgrow(out->v, out->n, &out->cap, sizeof *out->v);
		out->v[out->n++] = (struct roi_gcov_line){
			g.lb[i].file, g.lb[i].line, any, any ? count : sum,
			group && g.lb[i].file == fn->file && g.lb[i].line >= fn->line && g.lb[i].line <= own_last
				? fn->gindex + 1 : 0};
	}

	size_t undetermined = g.undetermined;
	roi_gcov_cycles_free(&cy);
	free(on);
	roi_gcov_graph_free(&g);
	return undetermined;
}

void roi_gcov_unit_lines(struct roi_gcov_lines *fl, roi_gcov_emit *emit, void *ctx)
{
	roi_sort(fl->v, fl->n, sizeof *fl->v, by_line);
	for (size_t i = 0, j; i < fl->n; i = j) {
		int64_t on = 0, off = 0;
		bool any = false;

		for (j = i; j < fl->n && by_line(&fl->v[i], &fl->v[j]) == 0; j++) {
			if (fl->v[j].on)
				on += fl->v[j].count;
			else
				off += fl->v[j].count;
			any |= fl->v[j].on;
		}
		off = any ? on : off;
		emit(ctx, fl->v[i].file, fl->v[i].line, off > 0 ? (uint64_t)off : 0);
	}
	fl->n = 0;
}

void roi_gcov_lines_free(struct roi_gcov_lines *fl)
{
	free(fl->v);
	memset(fl, 0, sizeof *fl);
}
