/* gcov/cycles.c — gcov's cycle count on one line's nodes, see cycles.h. */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "gcov/cycles.h"

static bool arc_usable(const struct roi_gcov_cycles *cy, const struct roi_gcov_arc *a)
{
	return a->dst >= cy->start && a->cs > 0 && cy->on[a->dst];
}

static void unblock(struct roi_gcov_cycles *cy, size_t u)
{
	size_t n = cy->nlist[u];

	if (!cy->blocked[u])
		return;
	cy->blocked[u] = false;
	cy->nlist[u] = 0;
	for (size_t i = 0; i < n; i++)
		unblock(cy, cy->list[u][i]);
}

/* gcov's circuit(): every elementary cycle through start on the line's nodes takes its smallest
 * remaining arc count off all its arcs and adds it to the line (handle_cycle). */
static bool circuit(struct roi_gcov_cycles *cy, size_t v)
{
	bool found = false;

	cy->blocked[v] = true;
	cy->nlist[v] = 0;
	for (size_t i = cy->out[v]; i < cy->out[v + 1]; i++) {
		const struct roi_gcov_arc *a = &cy->arcs[i];
		bool zero = false;

		if (!arc_usable(cy, a))
			continue;
		cy->path[cy->npath++] = i;
		if (a->dst == cy->start) {
			int64_t least = INT64_MAX;

			for (size_t k = 0; k < cy->npath; k++)
				if (cy->arcs[cy->path[k]].cs < least)
					least = cy->arcs[cy->path[k]].cs;
			cy->count += least;
			for (size_t k = 0; k < cy->npath; k++)
				cy->arcs[cy->path[k]].cs -= least;
			found = true;
		} else {
			for (size_t k = 0; k < cy->npath && !zero; k++)
				zero = cy->arcs[cy->path[k]].cs <= 0;
			if (!zero && !cy->blocked[a->dst])
				found |= circuit(cy, a->dst);
		}
		cy->npath--;
	}
	if (found) {
		unblock(cy, v);
		return true;
	}
	for (size_t i = cy->out[v]; i < cy->out[v + 1]; i++) {
		size_t w = cy->arcs[i].dst, k;

		if (!arc_usable(cy, &cy->arcs[i]) || !cy->blocked[w])
			continue;
		for (k = 0; k < cy->nlist[w] && cy->list[w][k] != v; k++)
			;
		if (k == cy->nlist[w]) {
			cy->list[w] = roi_xgrow(cy->list[w], cy->nlist[w], &cy->caplist[w], sizeof **cy->list);
			cy->list[w][cy->nlist[w]++] = v;
		}
	}
	return false;
}

/* Whether another function of fn's unit starts on fn's line: gcov then counts fn's lines apart. */

void roi_gcov_cycles_init(struct roi_gcov_cycles *cy, struct roi_gcov_graph *g, const bool *on)
{
	memset(cy, 0, sizeof *cy);
	cy->arcs = g->arcs;
	cy->out = g->out;
	cy->on = on;
	cy->nn = g->nn;
	cy->path = roi_xzalloc(g->narcs + 1, sizeof *cy->path);
	cy->blocked = roi_xzalloc(g->nn + 1, sizeof *cy->blocked);
	cy->list = roi_xzalloc(g->nn + 1, sizeof *cy->list);
	cy->nlist = roi_xzalloc(g->nn + 1, sizeof *cy->nlist);
	cy->caplist = roi_xzalloc(g->nn + 1, sizeof *cy->caplist);
}

int64_t roi_gcov_cycles_through(struct roi_gcov_cycles *cy, size_t start)
{
	memset(cy->blocked, 0, (cy->nn + 1) * sizeof *cy->blocked);
	cy->start = start;
	cy->npath = 0;
	cy->count = 0;
	circuit(cy, start);
	return cy->count;
}

void roi_gcov_cycles_free(struct roi_gcov_cycles *cy)
{
	for (size_t v = 0; v <= cy->nn; v++)
		free(cy->list[v]);
	free(cy->list);
	free(cy->nlist);
	free(cy->caplist);
	free(cy->blocked);
	free(cy->path);
	memset(cy, 0, sizeof *cy);
}
