/* report/lines.h — a run's cost per source file and line, for the formats that annotate sources
 * (lcov, gcov's JSON, the HTML report): each line's own operations (with a model, cycles and
 * energy too), how often it ran as gcov counts it (gcov/lines.h), the calls to counted functions
 * made there, and the functions each file defines. Files are keyed by their absolute path, so a
 * header compiled into several units is one file whose lines add up. */
#ifndef ROI_REPORT_LINES_H
#define ROI_REPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "price/hier.h"

struct roi_src_line {
	unsigned line;
	bool has_count;                 /* gcov would list the line (one only an operation names is not) */
	uint64_t count;                 /* its executions, as gcov counts them */
	bool unexecuted;                /* a block on it never ran (gcov's unexecuted_block) */
	struct roi_cost_sum self;       /* its own operations */
	struct roi_call_site *sites;    /* calls to counted functions made there, by callee */
	size_t nsites;
};

struct roi_src_fn {
	const struct roi_function *fn;
	const struct roi_node *node;    /* its row in the hierarchy; NULL when it never ran */
	uint64_t calls;                 /* entries (block 0) */
};

struct roi_src_file {
	const char *path;               /* absolute (the real path when the file exists) */
	const char *name;               /* as the compiler was given it */
	struct roi_src_line *lines;     /* by line */
	size_t nlines;
	struct roi_src_fn *fns;         /* every counted function defined in it, by line */
	size_t nfns;
	struct roi_cost_sum self;       /* its lines' own operations */
};

struct roi_src_files {
	struct roi_src_file *v;         /* by path */
	size_t n;
	size_t **unit_file;             /* [unit][file]: its position in v */
	struct roi_arena arena;
};

void roi_src_files_build(struct roi_src_files *s, const struct roi_hier *h);
void roi_src_files_free(struct roi_src_files *s);

/* Where file f of unit u is: relative names are taken from the compiling directory (source_abs
 * less source), then resolved to the real path when the file exists. */
const char *roi_unit_file_path(struct roi_arena *a, const struct roi_unit *u, unsigned f);

/* The index in u->files of a node's file name (struct roi_node.file is one of them); 0 if not. */
unsigned roi_unit_file_index(const struct roi_unit *u, const char *name);

#endif
