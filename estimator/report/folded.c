/* report/folded.c — folded stacks for flame graphs (docs/report.md, "folded"): one line per call
 * path, "main;fir;mac 1234", with the cycles (operations without a model) the last function of the
 * path spent itself on that path.
 *
 * roi counts calls per call site, not per path, so a function's own cost is shared among the paths
 * that reach it in proportion to the calls each brings, as gprof does (and as roi report charges
 * callees to call sites, hier.h). Functions calling each other recursively are one group: each
 * entry into the group from outside carries the whole group, every member once along one path; a
 * group's entries no counted caller explains (main, interrupt handlers, calls through pointers)
 * start a stack of their own. Values are whole numbers, rounded cumulatively, so the file adds up
 * to the program's total rounded once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/formats.h"

/* Paths written before the rest of a subtree is charged to its entry (a call graph with many
 * paths); the totals stay exact. */
#define MAX_STACKS 200000

struct ffn {
	const struct roi_node *node;    /* NULL: never ran */
	struct roi_call_site *out;      /* calls made, by callee */
	size_t nout;
	size_t group;                   /* union-find parent: functions calling each other */
	double entries;                 /* entries (block 0) */
	double inside;                  /* of them, calls from its own group */
	double counted;                 /* of them, calls from counted functions outside its group */
	unsigned long mark;             /* the entry into its group it was last visited in */
	/* as the root of its group (find): */
	double group_entries;           /* the group's entries from outside: from counted callers, or
					 * more when other callers (or none roi knows) entered it too */
	double group_counted;           /* of them, from counted callers */
	size_t first;                   /* the member entered most often by no counted caller */
};

struct folded {
	FILE *out;
	const struct roi_hier *h;
	struct ffn *f;                  /* by gindex */
	const struct roi_function **path;
	size_t depth;
	unsigned long serial;
	size_t stacks;
	double sum;
	long long written;
};

static size_t find(struct ffn *f, size_t i)
{
	while (f[i].group != i)
		i = f[i].group = f[f[i].group].group;
	return i;
}

static void emit(struct folded *w, const struct roi_function *last, double value)
{
	long long total, v;

	w->sum += value;
	total = llround(w->sum);
	v = total - w->written;
	w->written = total;
	w->stacks++;
	if (v <= 0)
		return;
	for (size_t i = 0; i < w->depth; i++)
		fprintf(w->out, "%s;", w->path[i]->name);
	fprintf(w->out, "%s %lld\n", last->name, v);
}

static void visit(struct folded *w, const struct roi_function *fn, double share)
{
	struct ffn *f = &w->f[fn->gindex];

	if (!f->node)
		return;
	emit(w, fn, share * roi_hier_weight(w->h, &f->node->self));
	w->path[w->depth++] = fn;
	for (size_t i = 0; i < f->nout; i++) {
		const struct roi_call_site *s = &f->out[i];
		struct ffn *g = &w->f[s->callee->gindex];

		if (s->recursive) {
			/* the group's other members, once each on this entry */
			if (g->mark == f->mark)
				continue;
			g->mark = f->mark;
			visit(w, s->callee, share);
		} else if (w->stacks >= MAX_STACKS) {
			emit(w, s->callee, share * roi_hier_weight(w->h, &s->cost));
		} else {
			double d = w->f[find(w->f, s->callee->gindex)].group_entries;

			if (d <= 0)
				continue;
			g->mark = ++w->serial;
			visit(w, s->callee, share * (double)s->calls / d);
		}
	}
	w->depth--;
}

static void gather(struct folded *w, struct ffn *f, const struct roi_node *n)
{
	for (size_t k = 0; n->kind == ROI_NODE_LINE && k < n->nsites; k++) {
		const struct roi_call_site *s = &n->sites[k];
		size_t j;

		for (j = 0; j < f->nout && f->out[j].callee != s->callee; j++)
			;
		if (j == f->nout) {
			f->out = roi_xrealloc(f->out, f->nout + 1, sizeof *f->out);
			f->out[f->nout++] = *s;
		} else {
			f->out[j].calls += s->calls;
			f->out[j].cost.ops += s->cost.ops;
			f->out[j].cost.cycles += s->cost.cycles;
			f->out[j].cost.energy_j += s->cost.energy_j;
		}
		if (s->recursive) {
			size_t a = find(w->f, f->node->fn->gindex), b = find(w->f, s->callee->gindex);

			w->f[a].group = b;
		}
	}
	for (size_t i = 0; i < n->nchildren; i++)
		gather(w, f, n->children[i]);
}

void roi_write_folded(FILE *out, const struct roi_hier *h)
{
	const struct roi_program *p = h->e->prog;
	size_t nf = p->nfunctions;
	struct folded w = {.out = out, .h = h};

	w.f = roi_xrealloc(NULL, nf ? nf : 1, sizeof *w.f);
	w.path = roi_xrealloc(NULL, nf ? nf : 1, sizeof *w.path);
	memset(w.f, 0, (nf ? nf : 1) * sizeof *w.f);
	for (size_t i = 0; i < nf; i++)
		w.f[i].group = i;
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nfunctions; i++) {
			const struct roi_function *fn = &p->units[u].functions[i];

			w.f[fn->gindex].entries = (double)roi_block_count(h->e->counts, fn, 0);
		}
	for (size_t i = 0; i < h->nroots; i++) {
		const struct roi_node *r = h->roots[i];

		if (r->kind == ROI_NODE_FUNCTION && r->fn && !w.f[r->fn->gindex].node) {
			w.f[r->fn->gindex].node = r;
			gather(&w, &w.f[r->fn->gindex], r);
		}
	}
	for (size_t i = 0; i < nf; i++)
		for (size_t k = 0; k < w.f[i].nout; k++) {
			const struct roi_call_site *s = &w.f[i].out[k];

			if (s->recursive)
				w.f[s->callee->gindex].inside += (double)s->calls;
			else
				w.f[s->callee->gindex].counted += (double)s->calls;
		}

	for (size_t i = 0; i < nf; i++) {
		struct ffn *g = &w.f[find(w.f, i)];

		g->group_entries += w.f[i].entries - w.f[i].inside;
		g->group_counted += w.f[i].counted;
	}
	for (size_t i = 0; i < nf; i++) {
		struct ffn *g = &w.f[find(w.f, i)];
		const struct ffn *x = &w.f[i], *b = &w.f[g->first];

		if (find(w.f, g->first) != find(w.f, i) ||
		    x->entries - x->inside - x->counted > b->entries - b->inside - b->counted)
			g->first = i;
	}
	for (size_t i = 0; i < nf; i++)
		if (w.f[i].group_entries < w.f[i].group_counted)
			w.f[i].group_entries = w.f[i].group_counted;

	/* A stack of its own for each group's entries no counted caller explains, from the member
	 * entered most often that way; groups in the report's order. */
	for (size_t i = 0; i < h->nroots; i++) {
		const struct roi_node *r = h->roots[i];
		const struct ffn *g;
		double share;

		if (r->kind != ROI_NODE_FUNCTION || !r->fn || w.f[r->fn->gindex].node != r)
			continue;
		g = &w.f[find(w.f, r->fn->gindex)];
		if (g->first != r->fn->gindex)
			continue;       /* the group starts from another member */
		share = g->group_entries > 0 ? (g->group_entries - g->group_counted) / g->group_entries : 1;
		if (share <= 0)
			continue;
		w.f[r->fn->gindex].mark = ++w.serial;
		visit(&w, r->fn, share);
	}
	for (size_t i = 0; i < nf; i++)
		free(w.f[i].out);
	free(w.f);
	free(w.path);
}
