/* price/order.c — --sort and --top of the text outputs, see order.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "price/order.h"

int roi_order_options(const char *sort_arg, const char *top_arg, bool model, enum roi_sort *sort, size_t *top,
		      char *msg, size_t size)
{
	*sort = ROI_SORT_NONE;
	*top = 0;
	if (sort_arg) {
		if (strcmp(sort_arg, "cycles") == 0)
			*sort = ROI_SORT_CYCLES;
		else if (strcmp(sort_arg, "ops") == 0)
			*sort = ROI_SORT_OPS;
		else if (strcmp(sort_arg, "line") == 0)
			*sort = ROI_SORT_LINE;
		else {
			snprintf(msg, size, "--sort takes cycles, ops or line, not '%s'", sort_arg);
			return -1;
		}
		if (*sort == ROI_SORT_CYCLES && !model) {
			snprintf(msg, size, "--sort cycles needs a cost model (--model FILE); without one, --sort ops");
			return -1;
		}
	}
	if (top_arg) {
		char *end;
		unsigned long long n = strtoull(top_arg, &end, 10);

		if (!*top_arg || *end || top_arg[0] == '-' || n == 0 || n > 1000000000) {
			snprintf(msg, size, "--top takes a number of rows from 1, not '%s'", top_arg);
			return -1;
		}
		*top = (size_t)n;
		if (*sort == ROI_SORT_NONE)
			*sort = ROI_SORT_COST;
	}
	return 0;
}

/* Larger first; 0 when equal. */
static int desc(double x, double y)
{
	return x > y ? -1 : x < y;
}

static int place(const char *fx, unsigned lx, const char *fy, unsigned ly)
{
	int c = strcmp(fx, fy);

	return c ? c : lx < ly ? -1 : lx > ly;
}

static int fn_cmp(const void *a, const void *b, void *k)
{
	const struct roi_fn_total *x = a, *y = b;
	enum roi_sort key = *(const enum roi_sort *)k;
	int c = 0;

	if (key == ROI_SORT_LINE)
		c = place(x->fn->unit->files[x->fn->file], x->fn->line, y->fn->unit->files[y->fn->file], y->fn->line);
	else if (key == ROI_SORT_OPS)
		c = desc((double)x->ops, (double)y->ops);
	if (!c)
		c = desc(x->cycles, y->cycles);
	if (!c)
		c = desc((double)x->ops, (double)y->ops);
	return c ? c : x->fn->gindex < y->fn->gindex ? -1 : x->fn->gindex > y->fn->gindex;
}

static int line_cmp(const void *a, const void *b, void *k)
{
	const struct roi_line_total *x = a, *y = b;
	enum roi_sort key = *(const enum roi_sort *)k;
	int c = 0;

	if (key == ROI_SORT_OPS)
		c = desc((double)x->ops, (double)y->ops);
	else if (key != ROI_SORT_LINE)
		c = desc(x->cycles, y->cycles);
	if (!c && key != ROI_SORT_LINE)
		c = desc((double)x->ops, (double)y->ops);
	return c ? c : place(x->file, x->line, y->file, y->line);
}

void roi_estimate_order(struct roi_estimate *e, enum roi_sort key)
{
	if (key == ROI_SORT_NONE)
		return;
	/* without a model every cycle count is 0: by cost is then by operations */
	if (e->nfns)
		qsort_r(e->fns, e->nfns, sizeof *e->fns, fn_cmp, &key);
	if (e->nlines)
		qsort_r(e->lines, e->nlines, sizeof *e->lines, line_cmp, &key);
}

struct node_order {
	enum roi_sort key;
	const struct roi_hier *h;
};

static int node_cmp(const void *a, const void *b, void *k)
{
	const struct roi_node *x = *(const struct roi_node *const *)a, *y = *(const struct roi_node *const *)b;
	const struct node_order *o = k;
	int c = 0;

	if (o->key == ROI_SORT_LINE)
		c = place(x->file, x->line, y->file, y->line);
	else if (o->key == ROI_SORT_OPS)
		c = desc(x->cost.ops, y->cost.ops);
	else
		c = desc(roi_hier_weight(o->h, &x->cost), roi_hier_weight(o->h, &y->cost));
	if (!c)
		c = desc(x->cost.ops, y->cost.ops);
	if (!c)
		c = place(x->file, x->line, y->file, y->line);
	return c ? c : strcmp(x->id, y->id);
}

static void order_children(struct roi_node *n, struct node_order *o)
{
	if (n->nchildren)
		qsort_r(n->children, n->nchildren, sizeof *n->children, node_cmp, o);
	for (size_t i = 0; i < n->nchildren; i++)
		order_children(n->children[i], o);
}

void roi_hier_order(struct roi_hier *h, enum roi_sort key)
{
	struct node_order o = {key, h};

	if (key == ROI_SORT_NONE)
		return;
	if (h->nroots)
		qsort_r(h->roots, h->nroots, sizeof *h->roots, node_cmp, &o);
	for (size_t i = 0; i < h->nroots; i++)
		order_children(h->roots[i], &o);
}
