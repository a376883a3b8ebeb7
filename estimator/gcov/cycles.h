/* gcov/cycles.h — gcov's get_cycles_count (gcc/gcov.cc) on gcov's view of a function (graph.h):
 * for the nodes of one line, the executions that go round among them. As gcov finds them: every
 * elementary circuit through a start node on the line (Johnson's algorithm, gcov's circuit()) takes
 * its least remaining arc count (an arc's cs) off each of its arcs and adds it (handle_cycle). */
#ifndef ROI_GCOV_CYCLES_H
#define ROI_GCOV_CYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gcov/graph.h"

struct roi_gcov_cycles {
	struct roi_gcov_arc *arcs;
	const size_t *out;
	const bool *on;
	size_t start;
	size_t *path, npath;                    /* arc indices */
	bool *blocked;
	size_t **list, *nlist, *caplist;        /* nodes to unblock with node v */
	int64_t count;
	size_t nn;
};

/* A search on g's arcs through the nodes on[] (which the caller sets per line); free with
 * roi_gcov_cycles_free. */
void roi_gcov_cycles_init(struct roi_gcov_cycles *cy, struct roi_gcov_graph *g, const bool *on);
/* The count of the cycles through start, taken off the arcs' cs. */
int64_t roi_gcov_cycles_through(struct roi_gcov_cycles *cy, size_t start);
void roi_gcov_cycles_free(struct roi_gcov_cycles *cy);

#endif
