/* gcov/graph.c — gcov's view of a roi function's graph, see graph.h. */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "gcov/graph.h"

static void add_arc(struct roi_gcov_graph *g, size_t src, size_t dst, int64_t count)
{
	g->arcs = roi_xgrow(g->arcs, g->narcs, &g->cap, sizeof *g->arcs);
	g->arcs[g->narcs++] = (struct roi_gcov_arc){src, dst, count, 0};
}

static int by_arc(const void *a, const void *b)
{
	const struct roi_gcov_arc *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static int by_node_line(const void *a, const void *b)
{
	const struct roi_gcov_lineblock *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int by_line_node(const void *a, const void *b)
{
	const struct roi_gcov_lineblock *x = a, *y = b;

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

void roi_gcov_graph_free(struct roi_gcov_graph *g)
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
	int64_t *ec = roi_xzalloc(eoff[fn->nblocks], sizeof *ec);

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

void roi_gcov_graph_build(const struct roi_counts *counts, const struct roi_function *fn, struct roi_gcov_graph *g)
{
	const struct roi_unit *u = fn->unit;
	const struct roi_block *b0 = &fn->blocks[0];
	size_t n = fn->nblocks, nedges = 0, entry = 0, last = 0, nl = 2, maxn = n + 1;
	size_t *npred = roi_xzalloc(n, sizeof *npred), *eoff = roi_xzalloc(n + 1, sizeof *eoff);
	size_t *first = roi_xzalloc(n, sizeof *first), *lastn = roi_xzalloc(n, sizeof *lastn);
	bool *gone = roi_xzalloc(n, sizeof *gone);
	size_t *into = roi_xzalloc(n, sizeof *into);        /* a label block's: the block it heads, else 0 */
	int64_t *ec, *inflow = roi_xzalloc(n, sizeof *inflow);
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
	g->count = roi_xzalloc(maxn, sizeof *g->count);
	g->lb = roi_xzalloc(nl, sizeof *g->lb);
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
			g->lb[g->nlb++] = (struct roi_gcov_lineblock){l.file, l.line, first[b] + seg, false};
		}
		for (size_t i = 0; i < blk->nlines; i++) {
			const struct roi_line *l = &blk->lines[i];
			bool decl = l->file == fn->file && l->line == fn->line && b == 0;
			size_t k;

			for (k = l0; k < g->nlb && (g->lb[k].file != l->file || g->lb[k].line != l->line); k++)
				;
			if (k < g->nlb)
				continue;
			g->lb[g->nlb++] = (struct roi_gcov_lineblock){l->file, l->line, decl ? first[b] : first[b] + seg, false};
		}
		if (b == entry && gone[0])
			g->lb[g->nlb++] = (struct roi_gcov_lineblock){fn->file, fn->line, first[b], false};
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
			g->lb[g->nlb++] = (struct roi_gcov_lineblock){fn->blocks[h].lines[i].file, fn->blocks[h].lines[i].line,
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
	roi_sort(g->arcs, g->narcs, sizeof *g->arcs, by_arc);
	g->out = roi_xzalloc(g->nn + 2, sizeof *g->out);
	for (size_t i = 0, v = 0; v <= g->nn + 1; v++) {
		while (i < g->narcs && g->arcs[i].src < v)
			i++;
		g->out[v] = i;
	}

	/* Which line each node is on. */
	roi_sort(g->lb, g->nlb, sizeof *g->lb, by_node_line);
	size_t m = 0;
	for (size_t i = 0; i < g->nlb; i++)
		if (!m || by_node_line(&g->lb[m - 1], &g->lb[i]) != 0)
			g->lb[m++] = g->lb[i];
	g->nlb = m;
	for (size_t i = 0; i < g->nlb; i++)
		g->lb[i].on = g->lb[i].node != lastn[last] &&
			      (i + 1 == g->nlb || g->lb[i + 1].node != g->lb[i].node || g->lb[i + 1].file != g->lb[i].file);
	roi_sort(g->lb, g->nlb, sizeof *g->lb, by_line_node);

	free(ec);
	free(inflow);
	free(into);
	free(gone);
	free(lastn);
	free(first);
	free(eoff);
	free(npred);
}
