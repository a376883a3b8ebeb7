/* price/hier.h — a program's cost as a hierarchy, from one run: function → loop nest → line, each with
 * its estimated cost (from roi_estimate), and, where hooks ran, the measured time of its region.
 *
 * Costs are inclusive of callees, as a measured time is: a call to a counted function carries that
 * function's cost per call (its total over its calls from other functions, as gprof apportions it;
 * functions calling each other recursively share one total, charged to calls from outside). A
 * scope's cost is the sum of its children's (inner loops and lines). */
#ifndef ROI_HIER_H
#define ROI_HIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "price/estimate.h"

enum roi_node_kind { ROI_NODE_FUNCTION, ROI_NODE_LOOP, ROI_NODE_LINE };

struct roi_cost_sum {
	double ops, cycles, energy_j;
};

/* Calls from one line to one counted function: how many, and what they cost inclusively (the
 * callee's cost per call times the calls; nothing for a call inside a recursion, whose cost is
 * counted where it runs). */
struct roi_call_site {
	const struct roi_function *callee;
	uint64_t calls;
	bool recursive;                 /* caller and callee call each other */
	struct roi_cost_sum cost;
};

struct roi_node {
	enum roi_node_kind kind;
	const char *id;                 /* "main", "main:22" (function:line of a loop), "prog.c:23" */
	const struct roi_function *fn;  /* NULL: a region of a function that is not counted */
	int loop;                       /* loops: index into fn->loops; -1 for a region not in them */
	const char *file;
	unsigned line;
	uint64_t calls;                 /* functions: entries (block 0); loops: entries from outside */
	uint64_t iterations;            /* loops: executions of the header */
	struct roi_cost_sum self;       /* the scope's own operations */
	struct roi_cost_sum cost;       /* self and the callees' share: what a hook would measure */
	const char **callees;           /* lines: counted functions called there (names) */
	size_t ncallees;
	const struct roi_call_site *sites;      /* lines: calls to counted functions, by callee */
	size_t nsites;
	const struct roi_region *region;        /* its hooks, if it has some */
	const struct roi_region_result *measured;       /* the region's result; NULL when it did not run */
	uint64_t hook_pairs;            /* hook pairs timed inside it: its own and its hooked inner loops' */
	double overhead;                /* inner pairs x hook-cost + own calls x hook-inside (0 without them) */
	double net;                     /* measured total - overhead, at least 0 */
	struct roi_node *parent;
	struct roi_node **children;     /* inner loops and lines, by cost, descending */
	size_t nchildren;
};

struct roi_hier {
	const struct roi_estimate *e;
	struct roi_node **roots;        /* functions that ran or were measured, by cost, descending */
	size_t nroots;
	size_t nnever;                  /* counted functions that never ran (not in roots) */
	struct roi_cost_sum total;      /* every counted operation once */
	uint64_t hook_pairs;            /* every region's calls */
	size_t nmeasured;               /* regions that ran */
	struct roi_arena arena;
};

/* Free with roi_hier_free, also on failure: "PROGRAM: ID: the cost with its callees is not a finite
 * number (...)", rather than a figure of inf or nan. */
int roi_hier_build(struct roi_hier *h, const struct roi_estimate *e, struct roi_err *err);
void roi_hier_free(struct roi_hier *h);

/* What shares are of: cycles with a model, operations without. */
double roi_hier_weight(const struct roi_hier *h, const struct roi_cost_sum *c);
/* What a node's share of its scope is of: its parent's weight, the whole run's for a function. */
double roi_hier_scope_weight(const struct roi_hier *h, const struct roi_node *n);
/* "function", "loop", "line", as the outputs name a node's kind. */
const char *roi_node_kind_name(enum roi_node_kind kind);

/* The nodes with that id, in tree order: their number; out gets up to max. */
size_t roi_hier_find(const struct roi_hier *h, const char *id, struct roi_node **out, size_t max);

/* A filter line for the next level down. */
struct roi_suggestion {
	const char *rule;               /* "hooks include loop prog.c:31", "hooks include function mix" */
	const struct roi_node *node;    /* the loop or function it names; NULL for a function not counted */
	const char *name;               /* for a function not counted: its name */
};

enum roi_suggest_why { ROI_SUGGEST_NONE, ROI_SUGGEST_REGION, ROI_SUGGEST_MEASURED, ROI_SUGGEST_FUNCTION };

/* The filter lines for the level below `from`, or, when from is NULL, below the hottest measured
 * region none of whose inner loops and callees is measured yet, or, without measurements, below
 * the function with the largest cost of its own (which is then suggested too). Loops and callees
 * already hooked are left out. Returns the node the suggestions are for (NULL when nothing ran);
 * *why says how it was chosen. */
const struct roi_node *roi_hier_suggest(struct roi_hier *h, const struct roi_node *from,
					struct roi_suggestion **out, size_t *n, enum roi_suggest_why *why);

#endif
