/* price/compare.c — two runs matched operation by operation and function by function, see
 * compare.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/path.h"
#include "price/compare.h"

/* The matching key of an operation: what it does in C, without its width. */
static void op_key(const struct roi_opdesc *d, char *buf, size_t size)
{
	snprintf(buf, size, "%s|%s|%s|%s|%s|%d", d->kind, d->ctype ? d->ctype : "",
		 d->access ? d->access : "", d->callee ? d->callee : "", d->from_ctype ? d->from_ctype : "",
		 d->is_volatile);
}

static void fn_key(const struct roi_function *fn, char *buf, size_t size)
{
	snprintf(buf, size, "%s|%s", fn->name, roi_base_name(fn->unit->files[fn->file]));
}

static struct roi_compare_row *row_for(struct roi_compare_rows *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].key, key) == 0)
			return &r->v[i];
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->v = roi_xrealloc(r->v, r->cap, sizeof *r->v);
	}
	struct roi_compare_row *row = &r->v[r->n++];
	memset(row, 0, sizeof *row);
	snprintf(row->key, sizeof row->key, "%s", key);
	return row;
}

static void collect_ops(struct roi_compare_rows *r, const struct roi_estimate *e, bool is_b)
{
	char key[512];

	for (size_t i = 0; i < e->nops; i++) {
		const struct roi_op_total *t = &e->ops[i];
		op_key(&t->d, key, sizeof key);
		struct roi_compare_row *row = row_for(r, key);
		if (!row->label) {
			row->label = t->d.kind;
			row->d = &t->d;
		}
		if (is_b) {
			row->b += t->count;
			row->type_b = t->d.type;
		} else {
			row->a += t->count;
			row->type_a = t->d.type;
		}
	}
}

static void collect_fns(struct roi_compare_rows *calls, struct roi_compare_rows *ops, const struct roi_estimate *e,
			bool is_b)
{
	char key[512];

	for (size_t i = 0; i < e->nfns; i++) {
		const struct roi_fn_total *t = &e->fns[i];
		fn_key(t->fn, key, sizeof key);
		struct roi_compare_row *c = row_for(calls, key), *o = row_for(ops, key);
		c->label = o->label = t->fn->name;
		*(is_b ? &c->b : &c->a) += t->calls;
		*(is_b ? &o->b : &o->a) += t->ops;
	}
}

void roi_compare(struct roi_compare *c, const struct roi_estimate *a, const struct roi_estimate *b)
{
	memset(c, 0, sizeof *c);
	collect_ops(&c->ops, a, false);
	collect_ops(&c->ops, b, true);
	collect_fns(&c->calls, &c->fops, a, false);
	collect_fns(&c->calls, &c->fops, b, true);
}

void roi_compare_free(struct roi_compare *c)
{
	free(c->ops.v);
	free(c->calls.v);
	free(c->fops.v);
	memset(c, 0, sizeof *c);
}
