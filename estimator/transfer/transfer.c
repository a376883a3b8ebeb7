/* transfer/transfer.c — counts of one build from a run of another build of the same sources, see
 * transfer.h and docs/transfer.md.
 *
 * A source location is evaluated once each time control enters the blocks that hold it: from a
 * block that does not hold it, at the function's entry, or along a loop's back edge. Entering
 * one of its blocks from another of its blocks (a decision tree of one switch, the arms of one
 * &&) is the same evaluation going on. Counted so on both builds, the evaluations of a location
 * are the same number, whatever blocks each compiler made of it. A loop is entered as often in
 * both builds too, mostly: that is a weak pull where no location decides. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/lsq.h"
#include "base/path.h"
#include "transfer/transfer.h"

/* A location across builds: the file by its base name (the two builds may name it by different
 * paths), line and column. A loop's entries have the key of its line and the column LOOP_COLUMN. */
struct key {
	const char *file;
	unsigned line, column;
	const char *mfile;      /* a macro's statement: where the macro spells it (mfile NULL: none) */
	unsigned mline, mcolumn;
};

/* The column of a loop's entries: after every real column of its line. */
#define LOOP_COLUMN UINT_MAX

/* How much a loop's entries count against a location's evaluations: a weak pull, which decides
 * only what no location does. In micro-global at avr-gcc -Os nothing of the outer loop's own code
 * has a location the host build has, and the inner loops' bodies are evaluated as often whether
 * the loops are entered 40 times or 214: only the loops' entries tell. The entries can differ
 * (a rotated loop that sometimes runs no iteration is not entered then, its guard keeps it out,
 * where the source's -O0 loop tests first; a distributed loop is two), so the weight stays weak
 * in every round, where a location's grows as the result meets it. */
#define LOOP_WEIGHT 1e-2

static bool is_loop(const struct key *k)
{
	return k->column == LOOP_COLUMN;
}

static int key_cmp(const struct key *a, const struct key *b)
{
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	if (!a->mfile || !b->mfile)
		return (a->mfile != NULL) - (b->mfile != NULL);
	if ((c = strcmp(a->mfile, b->mfile)))
		return c;
	if (a->mline != b->mline)
		return a->mline < b->mline ? -1 : 1;
	return a->mcolumn < b->mcolumn ? -1 : a->mcolumn > b->mcolumn;
}

/* One way control enters a location's blocks: at the function's entry (p == SIZE_MAX) or along
 * the edge from block p, its successor number i, to block b. */
struct term {
	size_t p, i, b;
};

/* The blocks of one location in one function (one inlined copy of it), and how control enters them. */
struct region {
	struct key k;
	const struct roi_function *fn;
	struct term *terms;
	size_t nterms;
	bool value;             /* a value counter's location: its block, not a region */
	size_t block;           /* the value counter */
};

/* An edge: block p's i-th successor. */
struct edge {
	size_t p, i;
};

/* A function's graph without its value counters: predecessors, and which edges go back. */
struct graph {
	const struct roi_function *fn;
	size_t *npred;
	size_t *off;            /* off[p] + i: edge number of p's i-th successor */
	bool *back;             /* by edge number */
	size_t *in_off;         /* in[in_off[b] .. in_off[b + 1]): the edges into b */
	struct edge *in;
};

static bool counted(const struct roi_function *fn, size_t b)
{
	return !fn->blocks[b].value;
}

static void graph_build(struct graph *g, const struct roi_function *fn)
{
	size_t n = fn->nblocks, nedges = 0;

	g->fn = fn;
	g->npred = roi_xrealloc(NULL, n, sizeof *g->npred);
	g->off = roi_xrealloc(NULL, n + 1, sizeof *g->off);
	memset(g->npred, 0, n * sizeof *g->npred);
	for (size_t p = 0; p < n; p++) {
		g->off[p] = nedges;
		nedges += fn->blocks[p].nsucc;
		for (size_t i = 0; i < fn->blocks[p].nsucc; i++)
			if (fn->blocks[p].succ[i] >= 0)
				g->npred[fn->blocks[p].succ[i]]++;
	}
	g->off[n] = nedges;
	g->back = roi_xrealloc(NULL, nedges + 1, sizeof *g->back);
	memset(g->back, 0, (nedges + 1) * sizeof *g->back);
	g->in_off = roi_xrealloc(NULL, n + 1, sizeof *g->in_off);
	g->in = roi_xrealloc(NULL, nedges + 1, sizeof *g->in);
	for (size_t b = 0, k = 0; b <= n; b++) {
		g->in_off[b] = k;
		k += b < n ? g->npred[b] : 0;
	}
	size_t *fill = roi_xrealloc(NULL, n + 1, sizeof *fill);
	memcpy(fill, g->in_off, n * sizeof *fill);
	for (size_t p = 0; p < n; p++)
		for (size_t i = 0; i < fn->blocks[p].nsucc; i++)
			if (fn->blocks[p].succ[i] >= 0)
				g->in[fill[fn->blocks[p].succ[i]]++] = (struct edge){p, i};
	free(fill);

	/* Depth-first from the entry: an edge to a block still on the path is a back edge. */
	unsigned char *state = calloc(n, 1);         /* 0 new, 1 on the path, 2 done */
	size_t *stack = roi_xrealloc(NULL, n, sizeof *stack), *next = roi_xrealloc(NULL, n, sizeof *next), depth = 0;
	if (!state)
		abort();
	stack[depth] = 0;
	next[depth++] = 0;
	state[0] = 1;
	while (depth) {
		size_t p = stack[depth - 1], i = next[depth - 1]++;
		if (i == fn->blocks[p].nsucc) {
			state[p] = 2;
			depth--;
			continue;
		}
		int s = fn->blocks[p].succ[i];
		if (s < 0)
			continue;
		if (state[s] == 1)
			g->back[g->off[p] + i] = true;
		else if (state[s] == 0) {
			state[s] = 1;
			stack[depth] = (size_t)s;
			next[depth++] = 0;
		}
	}
	free(state);
	free(stack);
	free(next);
}

static void graph_free(struct graph *g)
{
	free(g->npred);
	free(g->off);
	free(g->back);
	free(g->in_off);
	free(g->in);
}

/* Order of two locations by place (file, line, column, a macro's spelling, inlined copy), not block. */
static int place_cmp(const struct roi_loc *a, const struct roi_loc *b)
{
	const unsigned x[] = {a->file, a->line, a->column, a->mfile, a->mline, a->mcolumn, a->instance};
	const unsigned y[] = {b->file, b->line, b->column, b->mfile, b->mline, b->mcolumn, b->instance};

	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static int loc_cmp(const void *pa, const void *pb)
{
	const struct roi_loc *a = pa, *b = pb;
	int c = place_cmp(a, b);

	return c ? c : a->block < b->block ? -1 : a->block > b->block;
}

struct regions {
	struct region *v;
	size_t n, cap;
};

static struct region *region_add(struct regions *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->v = roi_xrealloc(r->v, r->cap, sizeof *r->v);
	}
	memset(&r->v[r->n], 0, sizeof r->v[r->n]);
	return &r->v[r->n++];
}

/* The regions of fn: one per location and inlined copy, with the ways into it; a value counter's
 * location is a region of its own, of that counter. */
static void collect_regions(const struct graph *g, struct regions *out, struct roi_arena *arena)
{
	const struct roi_function *fn = g->fn;

	if (!fn->nlocs)
		return;
	struct roi_loc *locs = roi_xrealloc(NULL, fn->nlocs, sizeof *locs);
	size_t *mark = roi_xrealloc(NULL, fn->nblocks, sizeof *mark);

	memcpy(locs, fn->locs, fn->nlocs * sizeof *locs);
	qsort(locs, fn->nlocs, sizeof *locs, loc_cmp);
	for (size_t b = 0; b < fn->nblocks; b++)
		mark[b] = SIZE_MAX;
	for (size_t i = 0, j; i < fn->nlocs; i = j) {
		for (j = i + 1; j < fn->nlocs && place_cmp(&locs[j], &locs[i]) == 0; j++)
			;
		struct key k = {.file = roi_base_name(fn->unit->files[locs[i].file]), .line = locs[i].line,
				.column = locs[i].column};
		if (locs[i].mline) {
			k.mfile = roi_base_name(fn->unit->files[locs[i].mfile]);
			k.mline = locs[i].mline;
			k.mcolumn = locs[i].mcolumn;
		}
		/* value counters: each its own */
		for (size_t m = i; m < j; m++)
			if (!counted(fn, locs[m].block)) {
				struct region *r = region_add(out);
				r->k = k;
				r->fn = fn;
				r->value = true;
				r->block = locs[m].block;
			}
		for (size_t m = i; m < j; m++)
			mark[locs[m].block] = i;
		/* at most: the entry, and every edge into the location's blocks */
		size_t nterms = 0, most = 1;
		for (size_t m = i; m < j; m++)
			most += g->in_off[locs[m].block + 1] - g->in_off[locs[m].block];
		struct term *terms = roi_xrealloc(NULL, most, sizeof *terms);
		for (size_t m = i; m < j; m++) {
			size_t b = locs[m].block;
			if (!counted(fn, b))
				continue;
			if (b == 0)
				terms[nterms++] = (struct term){SIZE_MAX, 0, 0};
			for (size_t q = g->in_off[b]; q < g->in_off[b + 1]; q++) {
				const struct edge *e = &g->in[q];
				if (counted(fn, e->p) && (mark[e->p] != i || g->back[g->off[e->p] + e->i]))
					terms[nterms++] = (struct term){e->p, e->i, b};
			}
		}
		if (nterms) {
			struct region *r = region_add(out);
			r->k = k;
			r->fn = fn;
			r->terms = roi_arena_array(arena, nterms, sizeof *terms);
			memcpy(r->terms, terms, nterms * sizeof *terms);
			r->nterms = nterms;
		}
		free(terms);
		for (size_t m = i; m < j; m++)
			mark[locs[m].block] = SIZE_MAX;
	}
	free(mark);
	free(locs);
}

/* The loops of fn as regions: each entered along the edges into its header from outside it
 * (the function's entry, if the header is its first block). A loop without a line (nothing
 * but counter updates of its own) is left out: nothing ties it to the other build. */
static void collect_loop_regions(const struct graph *g, struct regions *out, struct roi_arena *arena)
{
	const struct roi_function *fn = g->fn;
	bool *inside = calloc(fn->nblocks + 1, sizeof *inside);

	if (!inside)
		abort();
	for (size_t l = 0; l < fn->nloops; l++) {
		const struct roi_loop *lp = &fn->loops[l];
		size_t h = lp->header, nterms = 0;

		if (!lp->line || !counted(fn, h))
			continue;
		for (size_t i = 0; i < lp->nblocks; i++)
			inside[lp->blocks[i]] = true;
		struct term *terms = roi_arena_array(arena, g->in_off[h + 1] - g->in_off[h] + 1, sizeof *terms);
		if (h == 0)
			terms[nterms++] = (struct term){SIZE_MAX, 0, 0};
		for (size_t q = g->in_off[h]; q < g->in_off[h + 1]; q++)
			if (counted(fn, g->in[q].p) && !inside[g->in[q].p])
				terms[nterms++] = (struct term){g->in[q].p, g->in[q].i, h};
		for (size_t i = 0; i < lp->nblocks; i++)
			inside[lp->blocks[i]] = false;
		if (!nterms)
			continue;
		struct region *r = region_add(out);
		r->k = (struct key){.file = roi_base_name(fn->unit->files[lp->file]), .line = lp->line,
				    .column = LOOP_COLUMN};
		r->fn = fn;
		r->terms = terms;
		r->nterms = nterms;
	}
	free(inside);
}

static int region_cmp(const void *pa, const void *pb)
{
	const struct region *a = pa, *b = pb;
	int c = key_cmp(&a->k, &b->k);

	if (c)
		return c;
	return (int)a->value - (int)b->value;
}

/* Everything both builds say about one location: the source's evaluations (or a value counter's
 * sum), the target's regions. */
struct anchor {
	struct key k;
	bool value;
	double source;
	bool in_source;
	bool passes;            /* the source's sum is a 64-bit long's shift passes (struct evaluated) */
	size_t first, n;        /* target regions [first, first + n) */
};

/* Whether value counter b of fn counts the passes of a 64-bit shift's library routine (n / 8 +
 * n % 8, formats.md) on a C long: a host's long is 64 bits, an AVR's or a Cortex-M's 32, whose
 * counter counts the bits n themselves. Passes are not bits, and a sum of passes gives no sum of
 * bits: such a pairing is said, not hidden. */
static bool long_passes(const struct roi_function *fn, size_t b)
{
	const struct roi_block *blk = &fn->blocks[b];
	const struct roi_op *op = blk->nops ? &fn->unit->ops[blk->ops[0].op] : NULL;

	return op && strcmp(op->kind, "steps") == 0 && op->type && strcmp(op->type + 1, "64") == 0 && op->ctype &&
	       (strcmp(op->ctype, "long") == 0 || strcmp(op->ctype, "unsigned long") == 0);
}

/* ---- the source build: evaluations per location ---- */

static double term_count(const struct roi_function *fn, const struct roi_counts *c, const struct term *t)
{
	if (t->p == SIZE_MAX)
		return (double)roi_block_count(c, fn, 0);
	return (double)roi_block_count(c, fn, fn->blocks[t->p].nsucc == 1 ? t->p : t->b);
}

/* A location of the source build and its evaluations (a value counter's: the sum it counted). */
struct evaluated {
	struct key k;
	bool value;
	double n;
	bool passes;            /* a value counter of a 64-bit long's shift: its routine's passes */
};

static int evaluated_cmp(const void *pa, const void *pb)
{
	const struct evaluated *a = pa, *b = pb;
	int c = key_cmp(&a->k, &b->k);

	return c ? c : (int)a->value - (int)b->value;
}

/* ---- the target build: unknowns, rows, solution ---- */

struct unknowns {
	size_t *var;            /* [program block] variable of a counted block */
	size_t **edge;          /* [function gindex][edge number]: variable of the edge */
	size_t *first;          /* [function gindex]: its variables are first[k] .. first[k + 1] - 1 */
	size_t n;
};

static size_t find(size_t *parent, size_t x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

/* One variable per chain of blocks that always run together (a block whose one successor has it
 * as its one predecessor), one more per edge that neither end's count gives. */
static void number_function(const struct graph *g, struct unknowns *u, size_t *parent)
{
	const struct roi_function *fn = g->fn;
	size_t base = fn->gblock0;

	u->first[fn->gindex] = u->n;
	for (size_t b = 0; b < fn->nblocks; b++)
		parent[b] = b;
	for (size_t p = 0; p < fn->nblocks; p++) {
		int s = fn->blocks[p].nsucc == 1 ? fn->blocks[p].succ[0] : -1;
		if (counted(fn, p) && s > 0 && g->npred[s] == 1)
			parent[find(parent, (size_t)s)] = find(parent, p);
	}
	for (size_t b = 0; b < fn->nblocks; b++)
		u->var[base + b] = SIZE_MAX;
	for (size_t b = 0; b < fn->nblocks; b++)
		if (counted(fn, b)) {
			size_t r = find(parent, b);
			if (u->var[base + r] == SIZE_MAX)
				u->var[base + r] = u->n++;
			u->var[base + b] = u->var[base + r];
		}
	size_t *edge = roi_xrealloc(NULL, g->off[fn->nblocks] + 1, sizeof *edge);
	for (size_t p = 0; p < fn->nblocks; p++)
		for (size_t i = 0; i < fn->blocks[p].nsucc; i++) {
			int s = fn->blocks[p].succ[i];
			size_t *e = &edge[g->off[p] + i];
			if (!counted(fn, p))
				*e = SIZE_MAX;
			else if (fn->blocks[p].nsucc == 1)
				*e = u->var[base + p];
			else if (s > 0 && g->npred[s] == 1)
				*e = u->var[base + (size_t)s];
			else if (s >= 0)
				*e = u->n++;
			else
				*e = SIZE_MAX;      /* to the exit: no count needed */
		}
	u->edge[fn->gindex] = edge;
}

static size_t term_var(const struct unknowns *u, const struct graph *g, const struct term *t)
{
	if (t->p == SIZE_MAX)
		return u->var[g->fn->gblock0];
	return u->edge[g->fn->gindex][g->off[t->p] + t->i];
}

/* One function's least-squares problem, solved by roi_lsq_solve: column j is the variable
 * base + j. */
struct system {
	size_t base, nvars;
	double *z, *y, *w;
	bool *pinned;           /* per column: held at 0, since a solution had it below */
	size_t *anchor;         /* per row: its anchor, ENTRY_ROW, or FLOW_ROW */
	size_t nrows, cap;
};

enum { FLOW_ROW = -1, ENTRY_ROW = -2 };

static double *sys_row(struct system *s, double w, size_t anchor)
{
	if (s->nrows == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->z = roi_xrealloc(s->z, s->cap * s->nvars, sizeof *s->z);
		s->y = roi_xrealloc(s->y, s->cap, sizeof *s->y);
		s->w = roi_xrealloc(s->w, s->cap, sizeof *s->w);
		s->anchor = roi_xrealloc(s->anchor, s->cap, sizeof *s->anchor);
	}
	double *row = &s->z[s->nrows * s->nvars];
	memset(row, 0, s->nvars * sizeof *row);
	s->y[s->nrows] = 0;
	s->w[s->nrows] = w;
	s->anchor[s->nrows] = anchor;
	s->nrows++;
	return row;
}

/* Flow rows of one function: what enters a block leaves it. Heavy: they must hold. */
enum { FLOW_WEIGHT = 1000000 };

static void flow_rows(struct system *s, const struct unknowns *u, const struct graph *g)
{
	const struct roi_function *fn = g->fn;
	size_t base = fn->gblock0;

	for (size_t p = 0; p < fn->nblocks; p++) {
		if (!counted(fn, p) || fn->blocks[p].nsucc < 2)
			continue;
		bool to_exit = false;
		for (size_t i = 0; i < fn->blocks[p].nsucc; i++)
			to_exit |= fn->blocks[p].succ[i] < 0;
		if (to_exit)
			continue;
		double *row = sys_row(s, FLOW_WEIGHT, (size_t)FLOW_ROW);
		row[u->var[base + p] - s->base] += 1;
		for (size_t i = 0; i < fn->blocks[p].nsucc; i++)
			row[u->edge[fn->gindex][g->off[p] + i] - s->base] -= 1;
	}
	for (size_t b = 1; b < fn->nblocks; b++) {
		if (!counted(fn, b) || g->npred[b] < 2)
			continue;
		double *row = sys_row(s, FLOW_WEIGHT, (size_t)FLOW_ROW);
		row[u->var[base + b] - s->base] += 1;
		for (size_t q = g->in_off[b]; q < g->in_off[b + 1]; q++)
			if (counted(fn, g->in[q].p))
				row[u->edge[fn->gindex][g->off[g->in[q].p] + g->in[q].i] - s->base] -= 1;
	}
}

/* Rounds of least squares on relative errors, each reweighted from the last towards the least
 * absolute relative error (IRLS): a location whose evaluations the compilers changed (a statement
 * hoisted out of its loop on one side only) then pulls no other count with it. */
enum { IRLS_ROUNDS = 15 };

/* ---- putting it together ---- */

struct names {
	const char **v;
	size_t n;
};

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The assembler names some function of prog has an inlined copy of. */
static void inlined_names(const struct roi_program *prog, struct names *out)
{
	size_t n = 0;

	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++)
			n += prog->units[u].functions[f].ninlined;
	out->v = roi_xrealloc(NULL, n + 1, sizeof *out->v);
	out->n = 0;
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++)
			for (size_t i = 0; i < prog->units[u].functions[f].ninlined; i++)
				out->v[out->n++] = prog->units[u].functions[f].inlined[i];
	qsort(out->v, out->n, sizeof *out->v, str_cmp);
}

static bool has_name(const struct names *s, const char *name)
{
	return bsearch(&name, s->v, s->n, sizeof *s->v, str_cmp) != NULL;
}

struct transfer {
	const struct roi_program *to, *from;
	const struct roi_counts *from_counts;
	struct roi_arena arena;
	const struct roi_function **fn;         /* the target's functions, by gindex */
	struct graph *graph;                    /* by gindex */
	struct regions dst;                     /* the target's regions, sorted */
	struct evaluated *src;                  /* the source's locations, sorted and summed */
	size_t nsrc;
	struct anchor *an;
	size_t nan;
	struct unknowns uk;
	double *x;                              /* [uk.n] the solution */
	double *calls;                          /* [function]: entries per the source, < 0 unknown */
	double *uncalled;                       /* [function]: with sites[], the entries per the source
						 * that no direct call made (through a pointer, from code
						 * without metadata); < 0: calls[] alone, or unknown */
	struct call_site *sites;                /* the target's direct calls, by callee (function) */
	size_t *first_site;                     /* [function + 1]: its calls in sites[] */
	struct names in_to, in_from;
	struct roi_transfer_stats *st;
	double worst;                           /* st->worst's relative miss */
};

/* The source's function named like fn, or NULL: none, or two of that name. */
static const struct roi_function *source_function(const struct transfer *t, const struct roi_function *fn)
{
	const struct roi_function *found = NULL;

	for (size_t u = 0; u < t->from->nunits; u++)
		for (size_t f = 0; f < t->from->units[u].nfunctions; f++) {
			const struct roi_function *g = &t->from->units[u].functions[f];
			if (strcmp(g->name, fn->name) != 0 ||
			    (fn->is_static && strcmp(roi_base_name(g->unit->source), roi_base_name(fn->unit->source)) != 0))
				continue;
			if (found)
				return NULL;
			found = g;
		}
	return found;
}

/* The target functions whose out-of-line copy is entered by the calls left to it (those the
 * target inlined somewhere and the source did not), by name: what a direct call row calls. */
struct callee {
	const char *name;
	size_t k;               /* gindex in the target */
};

static int callee_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct callee *)pa)->name, ((const struct callee *)pb)->name);
}

/* The callee row r of fn's block b calls directly, or NULL. */
static const struct callee *callee_of(const struct callee *v, size_t n, const struct roi_function *fn, size_t b,
				      size_t r)
{
	const struct roi_op *op = &fn->unit->ops[fn->blocks[b].ops[r].op];

	if (!n || strcmp(op->kind, "call") != 0 || !op->direct || !op->callee)
		return NULL;
	return bsearch(&(struct callee){op->callee, 0}, v, n, sizeof *v, callee_cmp);
}

/* The target's direct calls, per callee: where a function the target inlined somewhere keeps an
 * out-of-line copy, that copy is entered by the calls left to it, not by every call of the source
 * (which the inlined copies' locations share with it). */
struct call_site {
	size_t callee, fn, block;       /* target function indices (gindex), fn's block */
	double n;                       /* calls per execution of the block */
};

static int site_cmp(const void *pa, const void *pb)
{
	const struct call_site *a = pa, *b = pb;

	return (a->callee > b->callee) - (a->callee < b->callee);
}

/* t->uncalled: for each such function, how often the source's was entered by no direct call of
 * it (through a pointer, from code without metadata), its entries less its direct calls in the
 * source's counted code; -1 for the others. t->sites: the target's direct calls of them. One pass
 * over each build's calls. */
static void collect_calls(struct transfer *t)
{
	size_t nf = t->to->nfunctions, nc = 0, n = 0, cap = 16;
	struct callee *cv = roi_xrealloc(NULL, nf + 1, sizeof *cv);
	const struct roi_function *g;

	t->uncalled = roi_xrealloc(NULL, nf + 1, sizeof *t->uncalled);
	for (size_t k = 0; k < nf; k++) {
		bool by_calls = t->calls[k] < 0 && has_name(&t->in_to, t->fn[k]->asm_name) &&
				(g = source_function(t, t->fn[k])) && !has_name(&t->in_from, g->asm_name);
		t->uncalled[k] = by_calls ? (double)roi_block_count(t->from_counts, g, 0) : -1;
		if (by_calls)
			cv[nc++] = (struct callee){t->fn[k]->name, k};
	}
	qsort(cv, nc, sizeof *cv, callee_cmp);
	for (size_t u = 0; nc && u < t->from->nunits; u++)
		for (size_t f = 0; f < t->from->units[u].nfunctions; f++) {
			const struct roi_function *h = &t->from->units[u].functions[f];
			for (size_t b = 0; b < h->nblocks; b++)
				for (size_t r = 0; r < h->blocks[b].nops; r++) {
					const struct callee *c = callee_of(cv, nc, h, b, r);
					if (c)
						t->uncalled[c->k] -= (double)roi_block_count(t->from_counts, h, b) *
								     (double)h->blocks[b].ops[r].n;
				}
		}
	for (size_t i = 0; i < nc; i++)
		t->uncalled[cv[i].k] = fmax(0, t->uncalled[cv[i].k]);

	t->sites = roi_xrealloc(NULL, cap, sizeof *t->sites);
	t->first_site = roi_xrealloc(NULL, nf + 1, sizeof *t->first_site);
	for (size_t k = 0; nc && k < nf; k++) {
		const struct roi_function *fn = t->fn[k];
		for (size_t b = 0; b < fn->nblocks; b++)
			for (size_t r = 0; r < fn->blocks[b].nops; r++) {
				const struct callee *c = callee_of(cv, nc, fn, b, r);
				if (!c)
					continue;
				if (n == cap)
					t->sites = roi_xrealloc(t->sites, cap *= 2, sizeof *t->sites);
				t->sites[n++] = (struct call_site){c->k, k, b, (double)fn->blocks[b].ops[r].n};
			}
	}
	free(cv);
	qsort(t->sites, n, sizeof *t->sites, site_cmp);
	for (size_t c = 0, i = 0; c <= nf; c++) {
		while (i < n && t->sites[i].callee < c)
			i++;
		t->first_site[c] = i;
	}
}

/* The entries of target function k the latest counts give: its uncalled entries and the calls of
 * it left in the target. */
static double entries_by_calls(const struct transfer *t, size_t k)
{
	double e = t->uncalled[k];

	for (size_t i = t->first_site[k]; i < t->first_site[k + 1]; i++) {
		const struct call_site *c = &t->sites[i];
		size_t v = t->uk.var[t->fn[c->fn]->gblock0 + c->block];
		if (v != SIZE_MAX)
			e += fmax(0, t->x[v]) * c->n;
	}
	return e;
}

/* The calls of the source's function named like fn, when neither build inlined it anywhere (then
 * every call enters it). Negative when unknown. */
static double entry_calls(const struct transfer *t, const struct roi_function *fn)
{
	const struct roi_function *g;

	if (has_name(&t->in_to, fn->asm_name) || !(g = source_function(t, fn)) || has_name(&t->in_from, g->asm_name))
		return -1;      /* inlined, or none or two of that name */
	return (double)roi_block_count(t->from_counts, g, 0);
}

/* The source's evaluations, location by location. */
static int collect_source(struct transfer *t, struct roi_err *err)
{
	struct regions src = {0};
	bool any = false;

	for (size_t u = 0; u < t->from->nunits; u++)
		for (size_t f = 0; f < t->from->units[u].nfunctions; f++) {
			const struct roi_function *fn = &t->from->units[u].functions[f];
			struct graph g;

			any |= fn->has_locs;
			graph_build(&g, fn);
			collect_regions(&g, &src, &t->arena);
			collect_loop_regions(&g, &src, &t->arena);
			graph_free(&g);
		}
	if (!any) {
		free(src.v);
		return roi_err_set(err, "%s: its roi metadata has no source locations (\"locs\": compiled by an "
				   "older roi plugin?)", t->from->path);
	}
	t->src = roi_xrealloc(NULL, src.n + 1, sizeof *t->src);
	for (size_t r = 0; r < src.n; r++) {
		const struct region *re = &src.v[r];
		double n = re->value ? (double)roi_block_count(t->from_counts, re->fn, re->block) : 0;

		for (size_t i = 0; i < re->nterms; i++)
			n += term_count(re->fn, t->from_counts, &re->terms[i]);
		t->src[r] = (struct evaluated){re->k, re->value, n, re->value && long_passes(re->fn, re->block)};
	}
	qsort(t->src, src.n, sizeof *t->src, evaluated_cmp);
	t->nsrc = 0;
	for (size_t r = 0; r < src.n; r++)
		if (t->nsrc && evaluated_cmp(&t->src[t->nsrc - 1], &t->src[r]) == 0) {
			t->src[t->nsrc - 1].n += t->src[r].n;
			t->src[t->nsrc - 1].passes |= t->src[r].passes;
		}
		else
			t->src[t->nsrc++] = t->src[r];
	free(src.v);
	return 0;
}

/* Whether a and b are on the same line of the same file. */
static bool same_line(const struct key *a, const struct key *b)
{
	return a->line == b->line && strcmp(a->file, b->file) == 0;
}

/* A value counter whose column the source lacks takes the one value counter of the source on its
 * line, when it is the only one of the target there too: the compilers' columns of one shift can
 * differ (avr-gcc 5.4 and gcc 12 put kernel-block-float's '(int16_t) seed >> range' at
 * different columns), its line does not. */
static void match_values_by_line(struct transfer *t)
{
	for (size_t a = 0; a < t->nan; a++) {
		struct anchor *an = &t->an[a];
		size_t lo = 0, hi = t->nsrc, found = SIZE_MAX, nfound = 0, ntarget = 0;

		if (!an->value || an->in_source)
			continue;
		/* the anchors are in location order: the line's are a's neighbours */
		for (size_t b = a; b-- > 0 && same_line(&t->an[b].k, &an->k);)
			ntarget += t->an[b].value;
		for (size_t b = a; b < t->nan && same_line(&t->an[b].k, &an->k); b++)
			ntarget += t->an[b].value;
		/* the first source location at or after (file, line, column 0) */
		struct key first = {.file = an->k.file, .line = an->k.line};
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (key_cmp(&t->src[mid].k, &first) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t s = lo; s < t->nsrc && same_line(&t->src[s].k, &an->k); s++)
			if (t->src[s].value) {
				found = s;
				nfound++;
			}
		if (ntarget != 1 || nfound != 1)
			continue;
		an->source = t->src[found].n;
		an->passes = t->src[found].passes;
		an->in_source = true;
		t->st->values_matched += an->n;
	}
}

/* The target's regions, and an anchor per location: what the source says of it. */
static int collect_target(struct transfer *t, struct roi_err *err)
{
	const struct roi_program *to = t->to;
	bool any = false;
	size_t k = 0;

	t->fn = roi_xrealloc(NULL, to->nfunctions + 1, sizeof *t->fn);
	t->graph = roi_xrealloc(NULL, to->nfunctions + 1, sizeof *t->graph);
	for (size_t u = 0; u < to->nunits; u++)
		for (size_t f = 0; f < to->units[u].nfunctions; f++, k++) {
			t->fn[k] = &to->units[u].functions[f];
			any |= t->fn[k]->has_locs;
			graph_build(&t->graph[k], t->fn[k]);
			collect_regions(&t->graph[k], &t->dst, &t->arena);
			collect_loop_regions(&t->graph[k], &t->dst, &t->arena);
		}
	if (!any)
		return roi_err_set(err, "%s: its roi metadata has no source locations (\"locs\": compiled by an "
				   "older roi plugin?)", to->path);
	qsort(t->dst.v, t->dst.n, sizeof *t->dst.v, region_cmp);
	t->an = roi_xrealloc(NULL, t->dst.n + 1, sizeof *t->an);
	for (size_t i = 0, j; i < t->dst.n; i = j) {
		const struct region *r = &t->dst.v[i];
		for (j = i + 1; j < t->dst.n && region_cmp(&t->dst.v[j], r) == 0; j++)
			;
		struct evaluated want = {r->k, r->value, 0, false};
		const struct evaluated *e = bsearch(&want, t->src, t->nsrc, sizeof *t->src, evaluated_cmp);
		t->an[t->nan++] = (struct anchor){r->k, r->value, e ? e->n : 0, e != NULL, e && e->passes, i, j - i};
		if (r->value) {
			t->st->values += j - i;
			t->st->values_matched += e ? j - i : 0;
		} else if (!is_loop(&r->k)) {
			t->st->locations++;
			t->st->matched += e != NULL;
		}
	}
	if (t->st->matched == 0)
		return roi_err_set(err, "%s and %s have no source location in common (not builds of the same "
				   "sources?)", t->from->path, to->path);
	match_values_by_line(t);
	return 0;
}

/* The evaluations of anchor a in the target as x has them, in every function but 'skip' (NULL:
 * in all). */
static double anchor_sum(const struct transfer *t, size_t a, const struct roi_function *skip)
{
	const struct anchor *an = &t->an[a];
	double sum = 0;

	for (size_t r = an->first; r < an->first + an->n; r++) {
		const struct region *re = &t->dst.v[r];
		if (re->fn == skip)
			continue;
		for (size_t i = 0; i < re->nterms; i++)
			sum += t->x[term_var(&t->uk, &t->graph[re->fn->gindex], &re->terms[i])];
	}
	return sum;
}

/* Function k's system: its flow rows, its entry (when the source says how often it is called),
 * and a row per location it has blocks of (listed in anchors[0 .. nanchors)). */
static void build_system(const struct transfer *t, size_t k, const size_t *anchors, size_t nanchors,
			 struct system *s)
{
	const struct roi_function *fn = t->fn[k];

	memset(s, 0, sizeof *s);
	s->base = t->uk.first[k];
	s->nvars = t->uk.first[k + 1] - s->base;
	if (!s->nvars)
		return;
	flow_rows(s, &t->uk, &t->graph[k]);
	if (t->calls[k] >= 0 || t->uncalled[k] >= 0)
		sys_row(s, 0, (size_t)ENTRY_ROW)[t->uk.var[fn->gblock0] - s->base] = 1;
	for (size_t i = 0; i < nanchors; i++) {
		const struct anchor *an = &t->an[anchors[i]];
		double *row = sys_row(s, 0, anchors[i]);
		for (size_t r = an->first; r < an->first + an->n; r++) {
			const struct region *re = &t->dst.v[r];
			for (size_t q = 0; re->fn == fn && q < re->nterms; q++)
				row[term_var(&t->uk, &t->graph[k], &re->terms[q]) - s->base] += 1;
		}
	}
}

static void system_free(struct system *s)
{
	free(s->pinned);
	free(s->z);
	free(s->y);
	free(s->w);
	free(s->anchor);
}

/* Scratch space of solve_nonnegative, grown to the largest function. */
struct solve_work {
	double *x, *z, *prior, *ridge, *lower;
	size_t cap_vars, cap_z;
};

static double *work_reserve(struct solve_work *w, const struct system *s)
{
	if (s->nvars > w->cap_vars) {
		w->cap_vars = s->nvars;
		w->x = roi_xrealloc(w->x, s->nvars, sizeof *w->x);
		w->prior = roi_xrealloc(w->prior, s->nvars, sizeof *w->prior);
		w->ridge = roi_xrealloc(w->ridge, s->nvars, sizeof *w->ridge);
		w->lower = roi_xrealloc(w->lower, s->nvars, sizeof *w->lower);
	}
	if (s->nrows * s->nvars > w->cap_z) {
		w->cap_z = s->nrows * s->nvars;
		w->z = roi_xrealloc(w->z, w->cap_z, sizeof *w->z);
	}
	return w->x;
}

/* Least squares with every count at 0 or above: unbounded solves, each time pinning at 0 the
 * counts that came out below it (their columns dropped), until none does; they stay pinned in
 * the later rounds. Lawson and Hanson's method would also let a pinned count go back up, one
 * factorisation per count: minutes for a function of a thousand blocks, most of them never run,
 * for no difference on the corpus. */
static void solve_nonnegative(struct system *s, double *x, struct solve_work *w)
{
	if (!s->pinned) {
		s->pinned = calloc(s->nvars, sizeof *s->pinned);
		if (!s->pinned)
			abort();
	}
	memcpy(w->z, s->z, s->nrows * s->nvars * sizeof *w->z);
	for (size_t j = 0; j < s->nvars; j++) {
		w->prior[j] = 0;
		w->ridge[j] = 1e-9;
		w->lower[j] = -HUGE_VAL;
		for (size_t r = 0; s->pinned[j] && r < s->nrows; r++)
			w->z[r * s->nvars + j] = 0;
	}
	struct roi_lsq f = {s->nrows, s->nvars, w->z, s->y, s->w, w->prior, w->ridge, w->lower, NULL, NULL};
	for (int pass = 0; pass < 8; pass++) {
		bool negative = false;
		roi_lsq_solve(&f, x);
		for (size_t j = 0; j < s->nvars; j++)
			if (x[j] < 0 && !s->pinned[j]) {
				negative = s->pinned[j] = true;
				for (size_t r = 0; r < s->nrows; r++)
					w->z[r * s->nvars + j] = 0;
			}
		if (!negative)
			break;
	}
	for (size_t j = 0; j < s->nvars; j++)
		x[j] = s->pinned[j] ? 0 : fmax(x[j], 0);
}

/* Each function's locations: the anchors (of the source, not value counters) with a region in
 * it, in anchor order; function k's are list[off[k]] .. list[off[k] + n[k] - 1]. */
struct anchor_lists {
	size_t *n, *off, *list;
};

static void function_anchors(const struct transfer *t, struct anchor_lists *out)
{
	size_t nf = t->to->nfunctions;
	size_t *n = calloc(nf + 1, sizeof *n), *off = roi_xrealloc(NULL, nf + 2, sizeof *off);
	size_t *list = roi_xrealloc(NULL, t->dst.n + 1, sizeof *list), *last = roi_xrealloc(NULL, nf + 1, sizeof *last);

	if (!n)
		abort();
	for (size_t k = 0; k < nf; k++)
		last[k] = SIZE_MAX;
	/* the first pass counts, the second fills */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t a = 0; a < t->nan; a++) {
			if (!t->an[a].in_source || t->an[a].value)
				continue;
			for (size_t r = t->an[a].first; r < t->an[a].first + t->an[a].n; r++) {
				size_t k = t->dst.v[r].fn->gindex;
				if (last[k] == a)
					continue;
				last[k] = a;
				if (pass)
					list[off[k] + n[k]] = a;
				n[k]++;
			}
		}
		if (pass == 0) {
			off[0] = 0;
			for (size_t k = 0; k < nf; k++) {
				off[k + 1] = off[k] + n[k];
				n[k] = 0;
				last[k] = SIZE_MAX;
			}
		}
	}
	free(last);
	*out = (struct anchor_lists){n, off, list};
}

/* Counts the flow rows of S the result does not keep (flow rows weigh much, but are not
 * enforced): a sum off by more than 1 and 1 % of its largest inflow. */
static void count_flow_off(struct transfer *t, const struct system *s)
{
	for (size_t r = 0; r < s->nrows; r++) {
		double sum = 0, count = 0;
		if (s->anchor[r] != (size_t)FLOW_ROW)
			continue;
		for (size_t j = 0; j < s->nvars; j++) {
			double z = s->z[r * s->nvars + j];
			sum += z * t->x[s->base + j];
			if (z > 0)
				count = fmax(count, t->x[s->base + j]);
		}
		if (fabs(sum) > fmax(1, 0.01 * count))
			t->st->flow_off++;
	}
}

/* How far the result is from each location it had: the locations it misses by more than 1 and
 * 1 %, and the one it misses most, relatively. */
static void find_disagreements(struct transfer *t)
{
	for (size_t a = 0; a < t->nan; a++) {
		const struct anchor *an = &t->an[a];
		if (!an->in_source || an->value || is_loop(&an->k))
			continue;
		double sum = anchor_sum(t, a, NULL), off = fabs(sum - an->source), rel = off / fmax(an->source, 1);
		if (off <= 1 || off <= 0.01 * an->source)
			continue;
		if (t->st->disagree++ == 0 || rel > t->worst) {
			t->worst = rel;
			snprintf(t->st->worst, sizeof t->st->worst, "%s:%u:%u: source %.0f, target %.0f", an->k.file,
				 an->k.line, an->k.column, an->source, sum);
		}
	}
}

/* The weight of anchor an's row, with counts in units of SCALE, when the result misses it by REL
 * of its evaluations (1 before the first round): relative errors, reweighted towards the least
 * absolute relative error; a loop's stays weak, however well the result meets it. */
static double anchor_weight(const struct anchor *an, double scale, double rel)
{
	double y = fmax(an->source, 1) / scale;

	return is_loop(&an->k) ? LOOP_WEIGHT / (y * y) : 1 / (y * y * fmax(rel, 1e-3));
}

/* Solves function after function (Gauss-Seidel: each with the others' latest counts), round after
 * round, the weights of the locations reweighted between rounds from how far all functions
 * together miss them. One least-squares problem per function keeps the cost at that of the
 * largest function, where a program's inlined helpers would tie most of it into one. */
static void solve_target(struct transfer *t)
{
	const struct roi_program *to = t->to;
	size_t nf = to->nfunctions, *parent = roi_xrealloc(NULL, to->nblocks + 1, sizeof *parent);

	t->uk.var = roi_xrealloc(NULL, to->nblocks + 1, sizeof *t->uk.var);
	t->uk.edge = roi_xrealloc(NULL, nf + 1, sizeof *t->uk.edge);
	t->uk.first = roi_xrealloc(NULL, nf + 1, sizeof *t->uk.first);
	for (size_t k = 0; k < nf; k++)
		number_function(&t->graph[k], &t->uk, parent + t->fn[k]->gblock0);
	t->uk.first[nf] = t->uk.n;
	free(parent);
	t->x = roi_xrealloc(NULL, t->uk.n + 1, sizeof *t->x);
	memset(t->x, 0, (t->uk.n + 1) * sizeof *t->x);
	t->calls = roi_xrealloc(NULL, nf + 1, sizeof *t->calls);
	for (size_t k = 0; k < nf; k++)
		t->calls[k] = entry_calls(t, t->fn[k]);
	/* inlined in the target, not in the source: entered by the calls the target left */
	collect_calls(t);

	struct anchor_lists lists;
	function_anchors(t, &lists);

	/* in units of the largest evaluation count, so that the weights stay in range; relative errors */
	double scale = 1, *weight = roi_xrealloc(NULL, t->nan + 1, sizeof *weight);
	for (size_t a = 0; a < t->nan; a++)
		scale = fmax(scale, t->an[a].source);
	for (size_t a = 0; a < t->nan; a++)
		weight[a] = anchor_weight(&t->an[a], scale, 1);
	struct system *sys = roi_xrealloc(NULL, nf + 1, sizeof *sys);
	for (size_t k = 0; k < nf; k++)
		build_system(t, k, &lists.list[lists.off[k]], lists.n[k], &sys[k]);

	struct solve_work work = {0};
	for (int round = 0; round <= IRLS_ROUNDS; round++) {
		for (size_t k = 0; k < nf; k++) {
			struct system *s = &sys[k];
			if (!s->nvars)
				continue;
			if (t->uncalled[k] >= 0 && entries_by_calls(t, k) < 0.5) {
				/* an out-of-line copy no call is left to: never entered (flow alone
				 * would let a loop of it go round with no entry, taking its
				 * inlined copies' evaluations) */
				for (size_t j = 0; j < s->nvars; j++)
					t->x[s->base + j] = 0;
				continue;
			}
			for (size_t r = 0; r < s->nrows; r++) {
				size_t a = s->anchor[r];
				if (a == (size_t)FLOW_ROW)
					continue;
				if (a == (size_t)ENTRY_ROW) {
					double calls = t->calls[k] >= 0 ? t->calls[k] : entries_by_calls(t, k);
					double f = fmax(calls, 1) / scale;
					s->y[r] = calls / scale;
					s->w[r] = 1 / (f * f);
					continue;
				}
				s->y[r] = (t->an[a].source - anchor_sum(t, a, t->fn[k])) / scale;
				s->w[r] = weight[a];
			}
			solve_nonnegative(s, work_reserve(&work, s), &work);
			for (size_t j = 0; j < s->nvars; j++)
				t->x[s->base + j] = work.x[j] * scale;
		}
		for (size_t a = 0; a < t->nan; a++) {
			if (!t->an[a].in_source || t->an[a].value)
				continue;
			double off = fabs(anchor_sum(t, a, NULL) - t->an[a].source);
			weight[a] = anchor_weight(&t->an[a], scale, off / fmax(t->an[a].source, 1));
		}
	}
	for (size_t k = 0; k < nf; k++)
		count_flow_off(t, &sys[k]);
	find_disagreements(t);
	for (size_t k = 0; k < nf; k++)
		system_free(&sys[k]);
	free(sys);
	free(lists.n);
	free(lists.off);
	free(lists.list);
	free(work.x);
	free(work.z);
	free(work.prior);
	free(work.ridge);
	free(work.lower);
	free(weight);
}

/* Block counts, then value counters: the source's sum at their location, shared among the
 * target's counters there by how often their statements ran. A branch's arm counter ("taken") the
 * source has none of at its location (an if on the host that the firmware's compiler made a
 * MIN_EXPR, which has no location of its own) is half its statement's runs: the even split
 * --price machine makes without one, not 0, which would say the arm never ran. */
static void fill_counts(struct transfer *t, struct roi_counts *out)
{
	for (size_t k = 0; k < t->to->nfunctions; k++) {
		const struct roi_function *fn = t->fn[k];
		if (!fn->has_locs)
			continue;
		for (size_t b = 0; b < fn->nblocks; b++) {
			size_t v = t->uk.var[fn->gblock0 + b];
			if (v != SIZE_MAX)
				out->block[fn->gblock0 + b] = (uint64_t)llround(fmax(0, t->x[v]));
		}
		for (size_t b = 0; b < fn->nblocks; b++)
			if (fn->blocks[b].branch && fn->blocks[b].site >= 0)
				out->block[fn->gblock0 + b] = out->block[fn->gblock0 + (size_t)fn->blocks[b].site] / 2;
		out->present[fn->gindex] = true;
		out->nmissing--;
		t->st->functions++;
	}
	for (size_t a = 0; a < t->nan; a++) {
		const struct anchor *an = &t->an[a];
		double total = 0;

		if (!an->value || !an->in_source)
			continue;
		for (size_t r = an->first; r < an->first + an->n; r++) {
			const struct region *re = &t->dst.v[r];
			long long site = re->fn->blocks[re->block].site;
			total += site >= 0 ? (double)out->block[re->fn->gblock0 + (size_t)site] : 1;
			if (an->passes && !long_passes(re->fn, re->block) && t->st->passes++ == 0)
				snprintf(t->st->passes_at, sizeof t->st->passes_at, "%s:%u:%u", an->k.file, an->k.line,
					 an->k.column);
		}
		for (size_t r = an->first; r < an->first + an->n; r++) {
			const struct region *re = &t->dst.v[r];
			long long site = re->fn->blocks[re->block].site;
			double w = site >= 0 ? (double)out->block[re->fn->gblock0 + (size_t)site] : 1;
			double share = total > 0 ? w / total : 1.0 / (double)an->n;
			out->block[re->fn->gblock0 + re->block] = (uint64_t)llround(an->source * share);
		}
	}
}

int roi_transfer(const struct roi_program *to, const struct roi_program *from, const struct roi_counts *from_counts,
		 struct roi_counts *out, struct roi_transfer_stats *st, struct roi_err *err)
{
	struct transfer t = {.to = to, .from = from, .from_counts = from_counts, .st = st};
	int rc;

	memset(st, 0, sizeof *st);
	roi_counts_init(out, to);
	out->runs = from_counts->runs;
	inlined_names(to, &t.in_to);
	inlined_names(from, &t.in_from);
	rc = collect_source(&t, err);
	if (rc == 0)
		rc = collect_target(&t, err);
	if (rc == 0) {
		solve_target(&t);
		fill_counts(&t, out);
	}
	for (size_t k = 0; t.graph && k < to->nfunctions; k++) {
		graph_free(&t.graph[k]);
		if (t.uk.edge)
			free(t.uk.edge[k]);
	}
	free(t.uk.edge);
	free(t.uk.var);
	free(t.uk.first);
	free(t.calls);
	free(t.uncalled);
	free(t.sites);
	free(t.first_site);
	free(t.x);
	free(t.graph);
	free(t.fn);
	free(t.an);
	free(t.src);
	free(t.dst.v);
	free(t.in_to.v);
	free(t.in_from.v);
	roi_arena_free(&t.arena);
	return rc;
}
