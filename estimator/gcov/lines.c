/* gcov/lines.c — a function's line counts as gcov computes them, from roi's block counts (see
 * gcov/lines.h; the rules and why each exists: docs/gcov-check.md, "Lines"). */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "gcov/lines.h"

/* Zero-filled; running out of memory is fatal, as everywhere in roi (arena.h). */
static void *zalloc(size_t n, size_t size)
{
	void *p = roi_xrealloc(NULL, n ? n : 1, size);

	memset(p, 0, (n ? n : 1) * size);
	return p;
}

/* Room for element n of a growing array. */
static void *grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	return roi_xrealloc(p, *cap, size);
}

/* qsort, which must not be given a null array even when it is empty. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

/* ---- gcov's view of a roi function ----
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
 * Edge counts follow from block counts (docs/formats.md). */

struct arc {
	size_t src, dst;
	int64_t count, cs;      /* cs: what cycle detection has not yet taken (gcov's cs_count) */
};

/* A line of a node; "on" when gcov puts the node on it: the last line the node has in a file,
 * except for the function's last node, which gcov never puts on a line (add_line_counts). */
struct lineblock {
	unsigned file, line;
	size_t node;
	bool on;
};

struct fgraph {
	size_t nn;              /* nodes; node nn stands for gcov's entry block */
	int64_t *count;         /* [nn] */
	struct arc *arcs;
	size_t narcs, cap;
	size_t *out;            /* arcs leaving node v: arcs[out[v] .. out[v + 1]) */
	struct lineblock *lb;   /* by line, then node */
	size_t nlb;
	int64_t arrivals;       /* entries through abnormal edges */
	size_t undetermined;    /* blocks whose outgoing edge counts their block counts leave open */
};

static void add_arc(struct fgraph *g, size_t src, size_t dst, int64_t count)
{
	g->arcs = grow(g->arcs, g->narcs, &g->cap, sizeof *g->arcs);
	g->arcs[g->narcs++] = (struct arc){src, dst, count, 0};
}

static int by_arc(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static int by_node_line(const void *a, const void *b)
{
	const struct lineblock *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int by_line_node(const void *a, const void *b)
{
	const struct lineblock *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int by_file_line(const void *a, const void *b)
{
	const struct roi_line *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Whether gcov ends a block after this operation: it adds a fake arc to the exit after any call
 * that may not return (profile.cc); GCC's builtins and internal functions are nothrow. */
static bool call_ends_block(const struct roi_op *op)
{
	return strcmp(op->kind, "call") == 0 && !op->builtin && !op->internal;
}

static void fgraph_free(struct fgraph *g)
{
	free(g->count);
	free(g->arcs);
	free(g->out);
	free(g->lb);
	memset(g, 0, sizeof *g);
}

/* Edge counts (ec[eoff[b] + k] for successor k of block b): a lone successor edge carries its
 * block's count, an edge into a block with no other way in carries that block's count, and one
 * edge left over takes the rest. Blocks with more left over add to *undetermined. */
static int64_t *edge_counts(const struct roi_counts *counts, const struct roi_function *fn, const size_t *npred,
			    const size_t *eoff, size_t *undetermined)
{
	int64_t *ec = zalloc(eoff[fn->nblocks], sizeof *ec);

	for (size_t b = 0; b < fn->nblocks; b++) {
		const struct roi_block *blk = &fn->blocks[b];
		int64_t known = 0, bc = (int64_t)roi_block_count(counts, fn, b);
		size_t unknown = 0, rest = 0;

		for (size_t k = 0; k < blk->nsucc; k++) {
			int s = blk->succ[k];
			int64_t *e = &ec[eoff[b] + k];

			if (blk->nsucc == 1)
				*e = bc;
			else if (s >= 0 && npred[s] == 1)
				*e = (int64_t)roi_block_count(counts, fn, (size_t)s);
			else {
				unknown++;
				rest = k;
				continue;
			}
			known += *e;
		}
		if (unknown == 1)
			ec[eoff[b] + rest] = bc - known > 0 ? bc - known : 0;
		else if (unknown > 1)
			(*undetermined)++;
	}
	return ec;
}

static void build_graph(const struct roi_counts *counts, const struct roi_function *fn, struct fgraph *g)
{
	const struct roi_unit *u = fn->unit;
	const struct roi_block *b0 = &fn->blocks[0];
	size_t n = fn->nblocks, nedges = 0, entry = 0, last = 0, nl = 2, maxn = n + 1;
	size_t *npred = zalloc(n, sizeof *npred), *eoff = zalloc(n + 1, sizeof *eoff);
	size_t *first = zalloc(n, sizeof *first), *lastn = zalloc(n, sizeof *lastn);
	bool *gone = zalloc(n, sizeof *gone);
	size_t *into = zalloc(n, sizeof *into);        /* a label block's: the block it heads, else 0 */
	int64_t *ec, *inflow = zalloc(n, sizeof *inflow);
	int64_t calls = (int64_t)roi_block_count(counts, fn, 0);

	memset(g, 0, sizeof *g);
	npred[0] = 1;                                   /* the arc from the function's entry */
	for (size_t b = 0; b < n; b++) {
		eoff[b] = nedges;
		nedges += fn->blocks[b].nsucc;
		nl += fn->blocks[b].nlines + fn->blocks[b].nops;
		maxn += fn->blocks[b].nops;
		for (size_t k = 0; k < fn->blocks[b].nsucc; k++)
			if (fn->blocks[b].succ[k] >= 0)
				npred[fn->blocks[b].succ[k]]++;
	}
	eoff[n] = nedges;
	/* gone: a pass-through block, a label block (above), or a value counter, which counts no
	 * executions and is no node of the flow graph */
	for (size_t b = 1; b < n; b++) {
		const struct roi_block *blk = &fn->blocks[b];
		bool one_out = blk->nsucc == 1 && blk->succ[0] != (int)b;

		gone[b] = blk->value || (one_out && blk->nlines == 0 && npred[b] == 1) ||
			  (one_out && blk->labels && blk->succ[0] > 0);
	}
	for (size_t b = 1; b < n; b++) {
		size_t t = b;

		for (size_t steps = 0; fn->blocks[t].labels && gone[t] && steps < n; steps++)
			t = (size_t)fn->blocks[t].succ[0];
		into[b] = t != b && !gone[t] ? t : 0;
	}
	if (b0->nsucc == 1 && b0->succ[0] > 0 && npred[b0->succ[0]] > 1 && b0->nlines == 1 &&
	    b0->lines[0].file == fn->file && b0->lines[0].line == fn->line) {
		gone[0] = true;
		entry = (size_t)b0->succ[0];
	}
	for (size_t steps = 0; gone[entry] && entry != 0 && steps < n; steps++)
		entry = (size_t)fn->blocks[entry].succ[0];
	for (size_t b = 0; b < n; b++)
		if (!gone[b])
			last = b;

	ec = edge_counts(counts, fn, npred, eoff, &g->undetermined);

	/* Nodes: each kept block cut after its calls, taking its ops rows in their order, which is
	 * the order of the statements. A line no row has is the function's (first piece) or a jump's
	 * (last piece). */
	g->count = zalloc(maxn, sizeof *g->count);
	g->lb = zalloc(nl, sizeof *g->lb);
	for (size_t b = 0; b < n; b++) {
		const struct roi_block *blk = &fn->blocks[b];
		int64_t bc = (int64_t)roi_block_count(counts, fn, b);
		size_t seg = 0, l0 = g->nlb;
		bool pending = false;           /* a call ended the current piece */
		struct roi_line after = {0, 0};

		if (gone[b])
			continue;
		first[b] = g->nn;
		for (size_t r = 0; r < blk->nops; r++) {
			struct roi_line l = {blk->ops[r].file, blk->ops[r].line};

			/* the prologue's and the register allocator's operations roi adds (formats.md)
			 * are no statement's */
			if (roi_op_is_added(&u->ops[blk->ops[r].op]))
				continue;

			/* A statement without a location has the previous one's (or the function's
			 * at the start): gcov's own counter updates after a call, for one. */
			if (!bsearch(&l, blk->lines, blk->nlines, sizeof l, by_file_line) ||
			    (pending && l.file == after.file && l.line == after.line))
				continue;
			if (pending)
				seg++;
			pending = call_ends_block(&u->ops[blk->ops[r].op]);
			after = l;
			g->lb[g->nlb++] = (struct lineblock){l.file, l.line, first[b] + seg, false};
		}
		for (size_t i = 0; i < blk->nlines; i++) {
			const struct roi_line *l = &blk->lines[i];
			bool decl = l->file == fn->file && l->line == fn->line && b == 0;
			size_t k;

			for (k = l0; k < g->nlb && (g->lb[k].file != l->file || g->lb[k].line != l->line); k++)
				;
			if (k < g->nlb)
				continue;
			g->lb[g->nlb++] = (struct lineblock){l->file, l->line, decl ? first[b] : first[b] + seg, false};
		}
		if (b == entry && gone[0])
			g->lb[g->nlb++] = (struct lineblock){fn->file, fn->line, first[b], false};
		for (size_t i = 0; i <= seg; i++) {
			if (i)
				add_arc(g, g->nn - 1, g->nn, bc);
			g->count[g->nn++] = bc;
		}
		lastn[b] = g->nn - 1;
	}

	/* A label block's lines go to the first piece of the block it heads (duplicates go below). */
	for (size_t h = 1; h < n; h++)
		for (size_t i = 0; into[h] && i < fn->blocks[h].nlines; i++)
			g->lb[g->nlb++] = (struct lineblock){fn->blocks[h].lines[i].file, fn->blocks[h].lines[i].line,
							     first[into[h]], false};

	/* Arcs between blocks; those to the exit touch no line. Then the entry's arcs. */
	inflow[entry] = calls;
	for (size_t b = 0; b < n; b++) {
		if (gone[b])
			continue;
		for (size_t k = 0; k < fn->blocks[b].nsucc; k++) {
			int t = fn->blocks[b].succ[k];

			for (size_t steps = 0; t >= 0 && gone[t] && steps < n; steps++)
				t = fn->blocks[t].succ[0];
			if (t < 0 || gone[t])
				continue;
			add_arc(g, lastn[b], first[t], ec[eoff[b] + k]);
			inflow[t] += ec[eoff[b] + k];
		}
	}
	if (!gone[entry])
		add_arc(g, g->nn, first[entry], calls);
	for (size_t b = 0; b < n; b++) {
		int64_t more = (int64_t)roi_block_count(counts, fn, b) - inflow[b];

		if (!gone[b] && more > 0) {
			add_arc(g, g->nn, first[b], more);
			g->arrivals += more;
		}
	}
	sort(g->arcs, g->narcs, sizeof *g->arcs, by_arc);
	g->out = zalloc(g->nn + 2, sizeof *g->out);
	for (size_t i = 0, v = 0; v <= g->nn + 1; v++) {
		while (i < g->narcs && g->arcs[i].src < v)
			i++;
		g->out[v] = i;
	}

	/* Which line each node is on. */
	sort(g->lb, g->nlb, sizeof *g->lb, by_node_line);
	size_t m = 0;
	for (size_t i = 0; i < g->nlb; i++)
		if (!m || by_node_line(&g->lb[m - 1], &g->lb[i]) != 0)
			g->lb[m++] = g->lb[i];
	g->nlb = m;
	for (size_t i = 0; i < g->nlb; i++)
		g->lb[i].on = g->lb[i].node != lastn[last] &&
			      (i + 1 == g->nlb || g->lb[i + 1].node != g->lb[i].node || g->lb[i + 1].file != g->lb[i].file);
	sort(g->lb, g->nlb, sizeof *g->lb, by_line_node);

	free(ec);
	free(inflow);
	free(into);
	free(gone);
	free(lastn);
	free(first);
	free(eoff);
	free(npred);
}

/* ---- lines: gcov's algorithm on that view ---- */

struct cycles {
	struct arc *arcs;
	const size_t *out;
	const bool *on;
	size_t start;
	size_t *path, npath;                    /* arc indices */
	bool *blocked;
	size_t **list, *nlist, *caplist;        /* nodes to unblock with node v */
	int64_t count;
};

static bool arc_usable(const struct cycles *cy, const struct arc *a)
{
	return a->dst >= cy->start && a->cs > 0 && cy->on[a->dst];
}

static void unblock(struct cycles *cy, size_t u)
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
static bool circuit(struct cycles *cy, size_t v)
{
	bool found = false;

	cy->blocked[v] = true;
	cy->nlist[v] = 0;
	for (size_t i = cy->out[v]; i < cy->out[v + 1]; i++) {
		const struct arc *a = &cy->arcs[i];
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
			cy->list[w] = grow(cy->list[w], cy->nlist[w], &cy->caplist[w], sizeof **cy->list);
			cy->list[w][cy->nlist[w]++] = v;
		}
	}
	return false;
}

/* Whether another function of fn's unit starts on fn's line: gcov then counts fn's lines apart. */
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
	struct fgraph g;
	int64_t n;

	build_graph(counts, fn, &g);
	n = g.arrivals;
	fgraph_free(&g);
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
	struct fgraph g;
	struct cycles cy = {0};
	unsigned own_last = fn->line;
	bool *on, group = in_group(fn);

	build_graph(counts, fn, &g);
	on = zalloc(g.nn + 1, sizeof *on);
	cy.arcs = g.arcs;
	cy.out = g.out;
	cy.on = on;
	cy.path = zalloc(g.narcs + 1, sizeof *cy.path);
	cy.blocked = zalloc(g.nn + 1, sizeof *cy.blocked);
	cy.list = zalloc(g.nn + 1, sizeof *cy.list);
	cy.nlist = zalloc(g.nn + 1, sizeof *cy.nlist);
	cy.caplist = zalloc(g.nn + 1, sizeof *cy.caplist);
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
			cy.count = 0;
			for (size_t k = i; k < j; k++) {
				if (!g.lb[k].on)
					continue;
				memset(cy.blocked, 0, (g.nn + 1) * sizeof *cy.blocked);
				cy.start = g.lb[k].node;
				cy.npath = 0;
				circuit(&cy, cy.start);
			}
			count += cy.count;
		}
		for (size_t k = i; k < j; k++)
			on[g.lb[k].node] = false;
		out->v = grow(out->v, out->n, &out->cap, sizeof *out->v);
		out->v[out->n++] = (struct roi_gcov_line){
			g.lb[i].file, g.lb[i].line, any, any ? count : sum,
			group && g.lb[i].file == fn->file && g.lb[i].line >= fn->line && g.lb[i].line <= own_last
				? fn->gindex + 1 : 0};
	}

	size_t undetermined = g.undetermined;
	for (size_t v = 0; v <= g.nn; v++)
		free(cy.list[v]);
	free(cy.list);
	free(cy.nlist);
	free(cy.caplist);
	free(cy.blocked);
	free(cy.path);
	free(on);
	fgraph_free(&g);
	return undetermined;
}

void roi_gcov_unit_lines(struct roi_gcov_lines *fl, roi_gcov_emit *emit, void *ctx)
{
	sort(fl->v, fl->n, sizeof *fl->v, by_line);
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
