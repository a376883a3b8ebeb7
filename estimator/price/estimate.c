/* price/estimate.c — aggregation of executed operations by kind/type, function and line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "price/estimate.h"

void roi_opdesc_of(struct roi_opdesc *d, const struct roi_op *op, const struct roi_abi *abi)
{
	memset(d, 0, sizeof *d);
	d->kind = op->kind;
	d->ctype = op->ctype;
	d->access = op->access;
	d->callee = op->callee;
	d->from_ctype = op->from_ctype;
	d->code = op->code;
	d->operand = op->operand;
	d->subscripts = op->subscripts;
	d->is_volatile = op->is_volatile;
	d->type = abi ? roi_type_to_target(op->type, op->ctype, (int)op->promoted, abi) : op->type;
	d->from = abi ? roi_type_to_target(op->from, op->from_ctype, 0, abi) : op->from;
	if (d->type != op->type && (!d->type || !op->type || strcmp(d->type, op->type) != 0))
		d->host_type = op->type;
	if (d->from != op->from && (!d->from || !op->from || strcmp(d->from, op->from) != 0))
		d->host_from = op->from;
}

bool roi_unit_mapped(const struct roi_unit *u, const struct roi_model *model)
{
	return model && !roi_model_matches_target(model, u->target);
}

/* Per entry of a unit's op table: its description and executed count (its cost per execution is
 * in roi_estimate.op_cost). */
struct uop {
	struct roi_op_total t;
	char *key;              /* identity for merging equal descriptions across units */
};

void roi_estimate_row(const struct roi_estimate *e, const struct roi_function *fn, size_t b, size_t r,
		      struct roi_row_total *out)
{
	const struct roi_op_row *row = &fn->blocks[b].ops[r];
	const struct roi_op_unit_cost *c = &e->op_cost[fn->unit - e->prog->units][row->op];

	out->count = roi_block_count(e->counts, fn, b) * row->n;
	out->cycles = (double)out->count * c->cycles;
	out->energy_j = (double)out->count * c->energy_j;
}

static char *key_of(struct roi_arena *a, const struct roi_opdesc *d)
{
#define F(s) ((s) ? (s) : "\x01")
	return roi_arena_printf(a, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%d", F(d->kind),
				F(d->type), F(d->ctype), F(d->access), F(d->callee), F(d->from), F(d->from_ctype),
				F(d->code), F(d->host_type), F(d->host_from), d->is_volatile);
#undef F
}

static int by_key(const void *a, const void *b)
{
	return strcmp((*(const struct uop *const *)a)->key, (*(const struct uop *const *)b)->key);
}

static int by_cost(const void *a, const void *b)
{
	const struct roi_op_total *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->d.kind, y->d.kind);
}

static int fn_by_cost(const void *a, const void *b)
{
	const struct roi_fn_total *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if (x->ops != y->ops)
		return x->ops > y->ops ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->fn->gindex < y->fn->gindex ? -1 : x->fn->gindex > y->fn->gindex;
}

static int by_line(const void *a, const void *b)
{
	const struct roi_line_total *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

static void compute_ops(struct roi_estimate *e, struct uop **unit_ops)
{
	const struct roi_program *p = e->prog;
	const struct roi_model *m = e->model;
	size_t nall = 0, nexec = 0;

	for (size_t u = 0; u < p->nunits; u++)
		nall += p->units[u].nops;
	struct uop **exec = roi_xrealloc(NULL, nall, sizeof *exec);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nops; i++)
			if (unit_ops[u][i].t.count)
				exec[nexec++] = &unit_ops[u][i];
	qsort(exec, nexec, sizeof *exec, by_key);
	e->ops = roi_arena_array(&e->arena, nexec, sizeof *e->ops);
	for (size_t i = 0; i < nexec; i++) {
		struct roi_op_total *t = &exec[i]->t;

		if (e->nops && strcmp(exec[i]->key, exec[i - 1]->key) == 0) {
			e->ops[e->nops - 1].count += t->count;
			e->ops[e->nops - 1].cycles += t->cycles;
			e->ops[e->nops - 1].energy_j += t->energy_j;
		} else {
			e->ops[e->nops++] = *t;
		}
		if (m && !t->cost)
			e->unmodelled_ops += t->count;
	}
	free(exec);
	qsort(e->ops, e->nops, sizeof *e->ops, by_cost);
}

int roi_estimate_compute(struct roi_estimate *e, const struct roi_program *p, const struct roi_counts *counts,
			 const struct roi_model *m, struct roi_err *err)
{
	struct roi_line_total *lines = NULL;
	size_t nlines = 0, cap = 0;

	memset(e, 0, sizeof *e);
	e->prog = p;
	e->counts = counts;
	e->model = m;
	struct uop **unit_ops = roi_arena_array(&e->arena, p->nunits, sizeof *unit_ops);
	struct roi_op_unit_cost **op_cost = roi_arena_array(&e->arena, p->nunits, sizeof *op_cost);
	e->op_cost = (const struct roi_op_unit_cost *const *)op_cost;
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];
		bool mapped = roi_unit_mapped(unit, m);

		e->mapped |= mapped;
		unit_ops[u] = roi_arena_array(&e->arena, unit->nops, sizeof **unit_ops);
		op_cost[u] = roi_arena_array(&e->arena, unit->nops, sizeof **op_cost);
		for (size_t i = 0; i < unit->nops; i++) {
			struct uop *o = &unit_ops[u][i];

			roi_opdesc_of(&o->t.d, &unit->ops[i], mapped ? &m->abi : NULL);
			o->key = key_of(&e->arena, &o->t.d);
			if (!m)
				continue;
			struct roi_opkey k = {o->t.d.kind, o->t.d.type, o->t.d.access, o->t.d.callee, o->t.d.from,
					      o->t.d.operand, o->t.d.subscripts};
			o->t.cost = roi_model_lookup(m, &k, &o->t.fallback);
			if (o->t.cost) {
				op_cost[u][i].cycles = o->t.cost->cycles;
				op_cost[u][i].energy_j = roi_cost_energy(m, o->t.cost);
			}
		}
	}

	e->fns = roi_arena_array(&e->arena, p->nfunctions, sizeof *e->fns);
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];
			struct roi_fn_total *ft = &e->fns[e->nfns++];

			ft->fn = fn;
			ft->profiled = counts->present[fn->gindex];
			ft->calls = roi_block_count(counts, fn, 0);
			for (size_t b = 0; b < fn->nblocks; b++) {
				uint64_t bc = roi_block_count(counts, fn, b);

				for (size_t r = 0; bc && r < fn->blocks[b].nops; r++) {
					const struct roi_op_row *row = &fn->blocks[b].ops[r];
					struct uop *o = &unit_ops[u][row->op];
					struct roi_row_total t;

					roi_estimate_row(e, fn, b, r, &t);
					if (!t.count)
						continue;
					o->t.count += t.count;
					o->t.cycles += t.cycles;
					o->t.energy_j += t.energy_j;
					ft->ops += t.count;
					ft->cycles += t.cycles;
					ft->energy_j += t.energy_j;
					if (nlines == cap)
						lines = roi_xrealloc(lines, cap = cap ? 2 * cap : 256, sizeof *lines);
					lines[nlines++] = (struct roi_line_total){unit->files[row->file], row->line, t.count,
										  t.cycles, t.energy_j};
				}
			}
			e->total_ops += ft->ops;
			e->cycles += ft->cycles;
			e->energy_j += ft->energy_j;
		}
	}
	if (m)
		e->seconds = e->cycles / m->clock_hz;
	compute_ops(e, unit_ops);
	qsort(e->fns, e->nfns, sizeof *e->fns, fn_by_cost);

	/* no line ran (a counted function never called, main not counted): lines is NULL, which
	 * qsort must not get even for 0 elements (found by fuzz/meta.c) */
	if (nlines)
		qsort(lines, nlines, sizeof *lines, by_line);
	e->lines = roi_arena_array(&e->arena, nlines, sizeof *e->lines);
	for (size_t i = 0; i < nlines; i++) {
		struct roi_line_total *last = e->nlines ? &e->lines[e->nlines - 1] : NULL;

		if (last && last->line == lines[i].line && strcmp(last->file, lines[i].file) == 0) {
			last->ops += lines[i].ops;
			last->cycles += lines[i].cycles;
			last->energy_j += lines[i].energy_j;
		} else {
			e->lines[e->nlines++] = lines[i];
		}
	}
	free(lines);
	/* Every figure is a non-negative part of these: when they are finite, so is each of them (the
	 * model's bounds and roi_counts_join's see to it; this says so should either change). */
	if (!isfinite(e->cycles) || !isfinite(e->seconds) || !isfinite(e->energy_j))
		return roi_err_set(err, "%s: the estimate of %s is not a finite number (%g cycles, %g J)",
				   m ? m->path : "(no model)", p->path, e->cycles, e->energy_j);
	return 0;
}

void roi_estimate_free(struct roi_estimate *e)
{
	roi_arena_free(&e->arena);
	memset(e, 0, sizeof *e);
}
