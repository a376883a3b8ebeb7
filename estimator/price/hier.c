/* price/hier.c — the function → loop → line hierarchy of a run, see hier.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "price/hier.h"

static void add_sum(struct roi_cost_sum *a, const struct roi_cost_sum *b)
{
	a->ops += b->ops;
	a->cycles += b->cycles;
	a->energy_j += b->energy_j;
}

static void add_scaled(struct roi_cost_sum *a, const struct roi_cost_sum *b, double k)
{
	a->ops += b->ops * k;
	a->cycles += b->cycles * k;
	a->energy_j += b->energy_j * k;
}

double roi_hier_weight(const struct roi_hier *h, const struct roi_cost_sum *c)
{
	return h->e->model ? c->cycles : c->ops;
}

double roi_hier_scope_weight(const struct roi_hier *h, const struct roi_node *n)
{
	return roi_hier_weight(h, n->parent ? &n->parent->cost : &h->total);
}

const char *roi_node_kind_name(enum roi_node_kind kind)
{
	return kind == ROI_NODE_FUNCTION ? "function" : kind == ROI_NODE_LOOP ? "loop" : "line";
}

/* ---- the call graph: callees by name, recursion as strongly connected components ---- */

struct builder {
	struct roi_hier *h;
	const struct roi_program *p;
	const struct roi_function **by_name;    /* every counted function, sorted by name */
	size_t nfns;
	/* per function, by gindex */
	const struct roi_function **fn;
	int *scc, *index, *low;
	bool *on_stack;
	struct roi_cost_sum *self;
	/* per strongly connected component, in the order Tarjan completes them (callees first) */
	struct roi_cost_sum *per_call;
	int nscc, counter;
	size_t *stack, depth;
	struct roi_node **fnode;                /* function nodes, by gindex */
	struct roi_node ***lnode;               /* loop nodes of each function, by gindex */
	struct roi_node **all;                  /* every node, for the children pass */
	size_t nall, capall;
};

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct roi_function *const *)a)->name, (*(const struct roi_function *const *)b)->name);
}

/* The counted function a direct call names: the caller's unit's own first (a static function or a
 * global one defined there), else the global one of another unit. */
static const struct roi_function *callee_of(const struct builder *b, const struct roi_function *caller,
					    const struct roi_op_row *row)
{
	const struct roi_op *op = &caller->unit->ops[row->op];
	const struct roi_function *found = NULL;
	struct roi_function key = {.name = op->callee};
	const struct roi_function *kp = &key, **lo;

	if (strcmp(op->kind, "call") != 0 || !op->callee || !op->direct || op->builtin || op->internal)
		return NULL;
	lo = bsearch(&kp, b->by_name, b->nfns, sizeof *b->by_name, by_name);
	if (!lo)
		return NULL;
	while (lo > b->by_name && strcmp(lo[-1]->name, op->callee) == 0)
		lo--;
	for (; lo < b->by_name + b->nfns && strcmp((*lo)->name, op->callee) == 0; lo++) {
		if ((*lo)->unit == caller->unit)
			return *lo;
		if (!(*lo)->is_static && !found)
			found = *lo;
	}
	return found;
}

static void row_total(const struct builder *b, const struct roi_function *fn, size_t blk, size_t r,
		      struct roi_cost_sum *out)
{
	struct roi_row_total t;

	roi_estimate_row(b->h->e, fn, blk, r, &t);
	*out = (struct roi_cost_sum){(double)t.count, t.cycles, t.energy_j};
}

static void tarjan(struct builder *b, size_t v)
{
	const struct roi_function *fn = b->fn[v];

	b->index[v] = b->low[v] = b->counter++;
	b->stack[b->depth++] = v;
	b->on_stack[v] = true;
	for (size_t blk = 0; blk < fn->nblocks; blk++)
		for (size_t r = 0; r < fn->blocks[blk].nops; r++) {
			const struct roi_function *g = callee_of(b, fn, &fn->blocks[blk].ops[r]);
			size_t w;

			if (!g)
				continue;
			w = g->gindex;
			if (b->index[w] < 0) {
				tarjan(b, w);
				if (b->low[w] < b->low[v])
					b->low[v] = b->low[w];
			} else if (b->on_stack[w] && b->index[w] < b->low[v]) {
				b->low[v] = b->index[w];
			}
		}
	if (b->low[v] != b->index[v])
		return;
	/* v roots a component: its members are on the stack above it. Its callees outside it are
	 * complete, so the component's cost per call from outside follows now. */
	int c = b->nscc++;
	size_t first = b->depth;
	do
		b->scc[b->stack[--first]] = c;
	while (b->stack[first] != v);

	struct roi_cost_sum total = {0, 0, 0};
	double calls = 0;
	for (size_t i = first; i < b->depth; i++) {
		const struct roi_function *m = b->fn[b->stack[i]];

		add_sum(&total, &b->self[m->gindex]);
		calls += (double)roi_block_count(b->h->e->counts, m, 0);
		for (size_t blk = 0; blk < m->nblocks; blk++)
			for (size_t r = 0; r < m->blocks[blk].nops; r++) {
				const struct roi_function *g = callee_of(b, m, &m->blocks[blk].ops[r]);
				struct roi_cost_sum t;

				if (!g)
					continue;
				row_total(b, m, blk, r, &t);
				if (b->scc[g->gindex] == c)
					calls -= t.ops;         /* a call inside the recursion */
				else
					add_scaled(&total, &b->per_call[b->scc[g->gindex]], t.ops);
			}
	}
	for (size_t i = first; i < b->depth; i++)
		b->on_stack[b->stack[i]] = false;
	b->depth = first;
	memset(&b->per_call[c], 0, sizeof b->per_call[c]);
	if (calls > 0)
		add_scaled(&b->per_call[c], &total, 1 / calls);
}

/* What a call row carries from its callee: nothing inside a recursion (the callee's cost is already
 * counted where it runs), else the executions times the callee's cost per call. */
static void callee_share(const struct builder *b, const struct roi_function *caller, const struct roi_function *g,
			 double executions, struct roi_cost_sum *out)
{
	if (b->scc[g->gindex] != b->scc[caller->gindex])
		add_scaled(out, &b->per_call[b->scc[g->gindex]], executions);
}

/* Functions a filter left uncounted: a call to one may still be hooked. */
static bool excluded(const struct roi_program *p, const char *name)
{
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nexcluded; i++)
			if (strcmp(p->units[u].excluded[i].name, name) == 0)
				return true;
	return false;
}

/* The function a call row names, when it is counted or excluded by the filter: a function of this
 * program, which hooks could measure. */
static const char *program_callee(const struct builder *b, const struct roi_function *fn, const struct roi_op_row *row,
				  const struct roi_function *counted)
{
	const struct roi_op *op = &fn->unit->ops[row->op];

	if (counted)
		return counted->name;
	if (strcmp(op->kind, "call") == 0 && op->callee && op->direct && !op->builtin && !op->internal &&
	    excluded(b->p, op->callee))
		return op->callee;
	return NULL;
}

/* ---- nodes ---- */

static struct roi_node *new_node(struct builder *b, enum roi_node_kind kind, struct roi_node *parent)
{
	struct roi_node *n = roi_arena_alloc(&b->h->arena, sizeof *n);

	n->kind = kind;
	n->parent = parent;
	n->loop = -1;
	if (b->nall == b->capall)
		b->all = roi_xrealloc(b->all, b->capall = b->capall ? 2 * b->capall : 256, sizeof *b->all);
	b->all[b->nall++] = n;
	return n;
}

/* Executions of the edges entering loop l from outside it (formats.md §1: an edge out of a block
 * with one successor carries that block's count, any other its target's). */
static uint64_t loop_entries(const struct roi_estimate *e, const struct roi_function *fn, const struct roi_loop *l,
			     const bool *in_loop)
{
	uint64_t n = 0;

	for (size_t blk = 0; blk < fn->nblocks; blk++) {
		if (in_loop[blk])
			continue;
		for (size_t s = 0; s < fn->blocks[blk].nsucc; s++)
			if (fn->blocks[blk].succ[s] == (int)l->header)
				n += roi_block_count(e->counts, fn, fn->blocks[blk].nsucc == 1 ? blk : l->header);
	}
	return n;
}

/* One line of one scope while rows are gathered. */
struct pending_line {
	struct roi_node *scope;
	unsigned file, line;
	size_t order;                   /* the row's position, to keep sorting stable */
	struct roi_cost_sum self, cost;
	const char *callee;             /* counted function called by this row, or NULL */
	const struct roi_function *counted;     /* the callee, when it is counted */
	bool recursive;                 /* that call is inside a recursion */
};

/* A call row's calls and the cost they carry from the callee, into its line's sites. */
static void add_site(struct builder *b, struct roi_node *n, const struct pending_line *row)
{
	struct roi_call_site *s = NULL;
	struct roi_cost_sum share = row->cost;

	for (size_t k = 0; k < n->nsites && !s; k++)
		if (n->sites[k].callee == row->counted)
			s = (struct roi_call_site *)&n->sites[k];
	if (!s) {
		struct roi_call_site *v = roi_arena_array(&b->h->arena, n->nsites + 1, sizeof *v);

		if (n->nsites)
			memcpy(v, n->sites, n->nsites * sizeof *v);
		s = &v[n->nsites++];
		*s = (struct roi_call_site){.callee = row->counted, .recursive = row->recursive};
		n->sites = v;
	}
	add_scaled(&share, &row->self, -1);
	s->calls += (uint64_t)row->self.ops;
	add_sum(&s->cost, &share);
}

static int by_scope_line(const void *a, const void *b)
{
	const struct pending_line *x = a, *y = b;

	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void function_tree(struct builder *b, const struct roi_function *fn)
{
	const struct roi_estimate *e = b->h->e;
	struct roi_node *f = new_node(b, ROI_NODE_FUNCTION, NULL);
	struct roi_node **loops = roi_arena_array(&b->h->arena, fn->nloops ? fn->nloops : 1, sizeof *loops);
	int *innermost = roi_xrealloc(NULL, fn->nblocks, sizeof *innermost);
	bool *in_loop = roi_xrealloc(NULL, fn->nblocks, sizeof *in_loop);
	struct pending_line *rows = NULL;
	size_t nrows = 0, cap = 0;

	f->fn = fn;
	f->id = fn->name;
	f->file = fn->unit->files[fn->file];
	f->line = fn->line;
	f->calls = roi_block_count(e->counts, fn, 0);
	b->fnode[fn->gindex] = f;
	b->lnode[fn->gindex] = loops;

	/* A block belongs to the innermost loop that has it: the one with the fewest blocks. */
	for (size_t blk = 0; blk < fn->nblocks; blk++)
		innermost[blk] = -1;
	for (size_t k = 0; k < fn->nloops; k++)
		for (size_t i = 0; i < fn->loops[k].nblocks; i++) {
			int *in = &innermost[fn->loops[k].blocks[i]];
			if (*in < 0 || fn->loops[*in].nblocks > fn->loops[k].nblocks)
				*in = (int)k;
		}
	for (size_t k = 0; k < fn->nloops; k++) {
		const struct roi_loop *l = &fn->loops[k];
		struct roi_node *n = loops[k] = new_node(b, ROI_NODE_LOOP, NULL);

		n->fn = fn;
		n->loop = (int)k;
		n->id = roi_arena_printf(&b->h->arena, "%s:%u", fn->name, l->line);
		n->file = fn->unit->files[l->file];
		n->line = l->line;
		n->iterations = roi_block_count(e->counts, fn, l->header);
		memset(in_loop, 0, fn->nblocks * sizeof *in_loop);
		for (size_t i = 0; i < l->nblocks; i++)
			in_loop[l->blocks[i]] = true;
		n->calls = loop_entries(e, fn, l, in_loop);
	}
	for (size_t k = 0; k < fn->nloops; k++)
		loops[k]->parent = fn->loops[k].parent >= 0 ? loops[fn->loops[k].parent] : f;

	for (size_t blk = 0; blk < fn->nblocks; blk++)
		for (size_t r = 0; r < fn->blocks[blk].nops; r++) {
			const struct roi_op_row *row = &fn->blocks[blk].ops[r];
			const struct roi_function *g = callee_of(b, fn, row);
			struct pending_line *p;

			if (nrows == cap)
				rows = roi_xrealloc(rows, cap = cap ? 2 * cap : 64, sizeof *rows);
			p = &rows[nrows];
			*p = (struct pending_line){.scope = innermost[blk] >= 0 ? loops[innermost[blk]] : f,
						   .file = row->file, .line = row->line, .order = nrows,
						   .callee = program_callee(b, fn, row, g), .counted = g};
			row_total(b, fn, blk, r, &p->self);
			if (p->self.ops == 0)
				continue;
			p->cost = p->self;
			if (g) {
				callee_share(b, fn, g, p->self.ops, &p->cost);
				p->recursive = b->scc[g->gindex] == b->scc[fn->gindex];
			}
			nrows++;
		}
	qsort(rows, nrows, sizeof *rows, by_scope_line);
	for (size_t i = 0; i < nrows;) {
		size_t j = i;
		struct roi_node *n = new_node(b, ROI_NODE_LINE, rows[i].scope);

		n->fn = fn;
		n->file = fn->unit->files[rows[i].file];
		n->line = rows[i].line;
		n->id = roi_arena_printf(&b->h->arena, "%s:%u", n->file, n->line);
		for (; j < nrows && rows[j].scope == rows[i].scope && rows[j].file == rows[i].file &&
		       rows[j].line == rows[i].line; j++) {
			add_sum(&n->self, &rows[j].self);
			add_sum(&n->cost, &rows[j].cost);
			if (rows[j].callee) {
				bool seen = false;
				for (size_t k = 0; k < n->ncallees && !seen; k++)
					seen = strcmp(n->callees[k], rows[j].callee) == 0;
				if (!seen) {
					const char **c = roi_arena_array(&b->h->arena, n->ncallees + 1, sizeof *c);
					if (n->ncallees)
						memcpy(c, n->callees, n->ncallees * sizeof *c);
					c[n->ncallees++] = rows[j].callee;
					n->callees = c;
				}
			}
			if (rows[j].counted)
				add_site(b, n, &rows[j]);
		}
		i = j;
	}
	free(rows);
	free(innermost);
	free(in_loop);
}

/* A region's node: its function's, or the loop with its header (else its line); a node of its own
 * when neither is known. */
static void attach_region(struct builder *b, const struct roi_region *r, const struct roi_counts *c)
{
	const struct roi_function *fn = r->function >= 0 ? &r->unit->functions[r->function] : NULL;
	const struct roi_region_result *res = c->region[r->gindex].ran ? &c->region[r->gindex] : NULL;
	struct roi_node *n = NULL;

	if (fn && r->kind == ROI_REGION_FUNCTION) {
		n = b->fnode[fn->gindex];
	} else if (fn) {
		for (size_t k = 0; k < fn->nloops && !n; k++)
			if ((long)fn->loops[k].header == r->header)
				n = b->lnode[fn->gindex][k];
		for (size_t k = 0; k < fn->nloops && !n; k++)
			if (fn->loops[k].line == r->line)
				n = b->lnode[fn->gindex][k];
	}
	if (!n || n->region) {
		n = new_node(b, r->kind == ROI_REGION_LOOP ? ROI_NODE_LOOP : ROI_NODE_FUNCTION,
			     fn ? b->fnode[fn->gindex] : NULL);
		n->fn = fn;
		n->id = r->name;
		n->file = r->unit->files[r->file];
		n->line = r->line;
	}
	n->region = r;
	n->measured = res;
	if (res)
		b->h->nmeasured++;
}

static int by_weight(const void *a, const void *b, void *h)
{
	/* qsort_r's order: by cost, then ops, then measured time, then line */
	const struct roi_node *x = *(const struct roi_node *const *)a, *y = *(const struct roi_node *const *)b;
	double wx = roi_hier_weight(h, &x->cost), wy = roi_hier_weight(h, &y->cost);

	if (wx != wy)
		return wx > wy ? -1 : 1;
	if (x->cost.ops != y->cost.ops)
		return x->cost.ops > y->cost.ops ? -1 : 1;
	if (x->measured && y->measured && x->measured->total != y->measured->total)
		return x->measured->total > y->measured->total ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* A node stays when it ran or was measured. */
static bool shown(const struct roi_node *n)
{
	return n->cost.ops > 0 || n->self.ops > 0 || n->measured || n->calls > 0;
}

/* Bottom-up: sums of the children, hook pairs, overhead; children sorted, those that never ran
 * left out. */
static void finish(struct roi_hier *h, struct roi_node *n)
{
	const struct roi_counts *c = h->e->counts;
	size_t k = 0;

	for (size_t i = 0; i < n->nchildren; i++) {
		struct roi_node *ch = n->children[i];

		finish(h, ch);
		if (n->kind != ROI_NODE_LINE) {
			add_sum(&n->self, &ch->self);
			add_sum(&n->cost, &ch->cost);
		}
		n->hook_pairs += ch->hook_pairs;
		if (shown(ch))
			n->children[k++] = ch;
	}
	n->nchildren = k;
	if (n->measured)
		n->hook_pairs += n->measured->calls;
	if (n->measured && c->has_hook_cost) {
		/* Pairs nested inside count whole; of its own pair, a region times only a part. The
		 * runtime counts the pairs inside (callees' too); older profiles do not, and then only
		 * the hooked loops nested in it are known to run inside. */
		uint64_t inner = n->measured->has_inner ? n->measured->inner : n->hook_pairs - n->measured->calls;

		n->overhead = (double)inner * c->hook_cost + (double)n->measured->calls * c->hook_inside;
	}
	if (n->measured) {
		n->net = (double)n->measured->total - n->overhead;
		if (n->net < 0)
			n->net = 0;     /* the calibration's noise is larger than what it measured */
	}
	qsort_r(n->children, n->nchildren, sizeof *n->children, by_weight, h);
}

static bool finite_sum(const struct roi_cost_sum *c)
{
	return isfinite(c->ops) && isfinite(c->cycles) && isfinite(c->energy_j);
}

/* The first node whose cost with its callees is not finite: calls counted far more often than
 * their callees were entered (an edited profile), along a chain of calls, multiply the callees'
 * costs past what a double holds. A function before its loops and lines, which it includes. */
static const struct roi_node *not_finite(struct roi_node *const *all, size_t n)
{
	const struct roi_node *found = NULL;

	for (size_t i = 0; i < n; i++)
		if ((!finite_sum(&all[i]->cost) || !finite_sum(&all[i]->self)) &&
		    (!found || (all[i]->kind == ROI_NODE_FUNCTION && found->kind != ROI_NODE_FUNCTION)))
			found = all[i];
	return found;
}

int roi_hier_build(struct roi_hier *h, const struct roi_estimate *e, struct roi_err *err)
{
	const struct roi_program *p = e->prog;
	struct builder b = {.h = h, .p = p};
	size_t nf = p->nfunctions;

	memset(h, 0, sizeof *h);
	h->e = e;
	b.fn = roi_xrealloc(NULL, nf ? nf : 1, sizeof *b.fn);
	b.by_name = roi_xrealloc(NULL, nf ? nf : 1, sizeof *b.by_name);
	b.scc = roi_xrealloc(NULL, nf ? nf : 1, sizeof *b.scc);
	b.index = roi_xrealloc(NULL, nf ? nf : 1, sizeof *b.index);
	b.low = roi_xrealloc(NULL, nf ? nf : 1, sizeof *b.low);
	b.on_stack = roi_xzalloc(nf, sizeof *b.on_stack);
	b.self = roi_xzalloc(nf, sizeof *b.self);
	b.per_call = roi_xzalloc(nf, sizeof *b.per_call);
	b.stack = roi_xrealloc(NULL, nf ? nf : 1, sizeof *b.stack);
	b.fnode = roi_xzalloc(nf, sizeof *b.fnode);
	b.lnode = roi_xzalloc(nf, sizeof *b.lnode);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nfunctions; i++) {
			const struct roi_function *fn = &p->units[u].functions[i];

			b.fn[fn->gindex] = b.by_name[fn->gindex] = fn;
			b.index[fn->gindex] = -1;
		}
	b.nfns = nf;
	qsort(b.by_name, nf, sizeof *b.by_name, by_name);
	for (size_t i = 0; i < e->nfns; i++) {
		b.self[e->fns[i].fn->gindex] = (struct roi_cost_sum){(double)e->fns[i].ops, e->fns[i].cycles,
								     e->fns[i].energy_j};
		add_sum(&h->total, &b.self[e->fns[i].fn->gindex]);
	}
	for (size_t v = 0; v < nf; v++)
		if (b.index[v] < 0)
			tarjan(&b, v);

	for (size_t v = 0; v < nf; v++)
		function_tree(&b, b.fn[v]);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nregions; i++)
			attach_region(&b, &p->units[u].regions[i], e->counts);
	for (size_t i = 0; i < p->nregions; i++)
		h->hook_pairs += e->counts->region[i].calls;

	/* Children arrays, now that every node exists. */
	size_t nroots = 0;
	for (size_t i = 0; i < b.nall; i++)
		if (b.all[i]->parent)
			b.all[i]->parent->nchildren++;
		else
			nroots++;
	for (size_t i = 0; i < b.nall; i++) {
		struct roi_node *n = b.all[i];
		n->children = roi_arena_array(&h->arena, n->nchildren ? n->nchildren : 1, sizeof *n->children);
		n->nchildren = 0;
	}
	h->roots = roi_arena_array(&h->arena, nroots ? nroots : 1, sizeof *h->roots);
	for (size_t i = 0; i < b.nall; i++) {
		struct roi_node *n = b.all[i];
		if (n->parent)
			n->parent->children[n->parent->nchildren++] = n;
		else
			h->roots[h->nroots++] = n;
	}
	size_t k = 0;
	for (size_t i = 0; i < h->nroots; i++) {
		finish(h, h->roots[i]);
		if (shown(h->roots[i]))
			h->roots[k++] = h->roots[i];
		else if (h->roots[i]->fn)
			h->nnever++;
	}
	h->nroots = k;
	qsort_r(h->roots, h->nroots, sizeof *h->roots, by_weight, h);

	free(b.fn);
	free(b.by_name);
	free(b.scc);
	free(b.index);
	free(b.low);
	free(b.on_stack);
	free(b.self);
	free(b.per_call);
	free(b.stack);
	free(b.fnode);
	free(b.lnode);
	const struct roi_node *bad = not_finite(b.all, b.nall);
	free(b.all);
	if (bad)
		return roi_err_set(err, "%s: %s %s: the cost with its callees is not a finite number (calls counted far "
				   "more often than their callees were entered: an edited profile?)",
				   e->counts->profile ? e->counts->profile : p->path,
				   roi_node_kind_name(bad->kind),
				   bad->id);
	return 0;
}

void roi_hier_free(struct roi_hier *h)
{
	roi_arena_free(&h->arena);
	memset(h, 0, sizeof *h);
}

static void find(struct roi_node *n, const char *id, struct roi_node **out, size_t max, size_t *k)
{
	if (strcmp(n->id, id) == 0) {
		if (*k < max)
			out[*k] = n;
		++*k;
	}
	for (size_t i = 0; i < n->nchildren; i++)
		find(n->children[i], id, out, max, k);
}

size_t roi_hier_find(const struct roi_hier *h, const char *id, struct roi_node **out, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < h->nroots; i++)
		find(h->roots[i], id, out, max, &k);
	return k;
}

/* ---- suggestions ---- */

static bool measured_node(const struct roi_node *n)
{
	return n && n->measured;
}

static const struct roi_node *function_node(const struct roi_hier *h, const char *name, const struct roi_node *near)
{
	const struct roi_node *found = NULL;

	for (size_t i = 0; i < h->nroots; i++) {
		const struct roi_node *r = h->roots[i];

		if (r->kind != ROI_NODE_FUNCTION || !r->fn || strcmp(r->fn->name, name) != 0)
			continue;
		if (near && near->fn && r->fn->unit == near->fn->unit)
			return r;
		if (!found && !r->fn->is_static)
			found = r;
	}
	return found;
}

/* The next level of n: its loop children and the functions called on its own lines. */
struct level {
	const struct roi_node *loops[256];
	size_t nloops;
	const char *callees[256];
	size_t ncallees;
};

static void next_level(const struct roi_node *n, struct level *lv)
{
	lv->nloops = lv->ncallees = 0;
	for (size_t i = 0; i < n->nchildren; i++) {
		const struct roi_node *c = n->children[i];

		if (c->kind == ROI_NODE_LOOP && lv->nloops < 256)
			lv->loops[lv->nloops++] = c;
		for (size_t k = 0; c->kind == ROI_NODE_LINE && k < c->ncallees; k++) {
			bool seen = false;
			for (size_t j = 0; j < lv->ncallees && !seen; j++)
				seen = strcmp(lv->callees[j], c->callees[k]) == 0;
			if (!seen && lv->ncallees < 256)
				lv->callees[lv->ncallees++] = c->callees[k];
		}
	}
}

/* Whether the level below n is measured already (then n is not where to drill in). */
static bool level_measured(const struct roi_hier *h, const struct roi_node *n)
{
	struct level lv;

	next_level(n, &lv);
	for (size_t i = 0; i < lv.nloops; i++)
		if (measured_node(lv.loops[i]))
			return true;
	for (size_t i = 0; i < lv.ncallees; i++)
		if (measured_node(function_node(h, lv.callees[i], n)))
			return true;
	return false;
}

static void hottest_frontier(const struct roi_hier *h, const struct roi_node *n, const struct roi_node **best)
{
	if (n->measured && !level_measured(h, n) && (!*best || n->net > (*best)->net))
		*best = n;
	for (size_t i = 0; i < n->nchildren; i++)
		hottest_frontier(h, n->children[i], best);
}

const struct roi_node *roi_hier_suggest(struct roi_hier *h, const struct roi_node *from,
					struct roi_suggestion **out, size_t *n, enum roi_suggest_why *why)
{
	const struct roi_node *target = from;
	struct roi_suggestion *s;
	struct level lv;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	*why = from ? ROI_SUGGEST_REGION : ROI_SUGGEST_NONE;
	for (size_t i = 0; !target && i < h->nroots; i++)
		hottest_frontier(h, h->roots[i], &target);
	if (!from && target)
		*why = ROI_SUGGEST_MEASURED;
	if (!target) {
		/* Nothing measured: the function whose own operations cost most. */
		for (size_t i = 0; i < h->nroots; i++) {
			const struct roi_node *r = h->roots[i];
			if (r->fn && r->kind == ROI_NODE_FUNCTION &&
			    (!target || roi_hier_weight(h, &r->self) > roi_hier_weight(h, &target->self)))
				target = r;
		}
		if (!target || roi_hier_weight(h, &target->self) <= 0)
			return NULL;
		*why = ROI_SUGGEST_FUNCTION;
	}
	next_level(target, &lv);
	s = roi_arena_array(&h->arena, lv.nloops + lv.ncallees + 1, sizeof *s);
	if (*why == ROI_SUGGEST_FUNCTION && !target->region)
		s[k++] = (struct roi_suggestion){roi_arena_printf(&h->arena, "hooks include function %s", target->fn->name),
						 target, NULL};
	/* Loops are children, already by cost; callees follow by cost, those not counted last. */
	for (size_t i = 0; i < lv.nloops; i++)
		if (!lv.loops[i]->region && lv.loops[i]->loop >= 0 && lv.loops[i]->line > 0)
			s[k++] = (struct roi_suggestion){roi_arena_printf(&h->arena, "hooks include loop %s:%u",
									  lv.loops[i]->file, lv.loops[i]->line),
							 lv.loops[i], NULL};
	size_t first_callee = k;
	for (size_t i = 0; i < lv.ncallees; i++) {
		const struct roi_node *f = function_node(h, lv.callees[i], target);

		if (f && !f->region && f != target)
			s[k++] = (struct roi_suggestion){roi_arena_printf(&h->arena, "hooks include function %s",
									  lv.callees[i]), f, NULL};
	}
	for (size_t i = first_callee + 1; i < k; i++)
		for (size_t j = i; j > first_callee && by_weight(&s[j].node, &s[j - 1].node, h) < 0; j--) {
			struct roi_suggestion t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	/* Calls to functions the filter left uncounted: their cost is unknown, so they come last. */
	for (size_t i = 0; i < lv.ncallees; i++)
		if (!function_node(h, lv.callees[i], target) && excluded(h->e->prog, lv.callees[i]))
			s[k++] = (struct roi_suggestion){roi_arena_printf(&h->arena, "hooks include function %s",
									  lv.callees[i]), NULL, lv.callees[i]};
	*out = s;
	*n = k;
	return target;
}
