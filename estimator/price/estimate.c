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
	double routine;         /* ROI_LIBCALL_ROUTINE: the routine's cycles per call */
};

const char *roi_libcall_how_name(enum roi_libcall_how how)
{
	switch (how) {
	case ROI_LIBCALL_MODEL: return "model";
	case ROI_LIBCALL_ROUTINE: return "routine";
	case ROI_LIBCALL_CALL: return "call";
	case ROI_LIBCALL_NONE: break;
	}
	return NULL;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of the program's functions, sorted: a call to another name runs code without metadata. */
static const char **function_names(const struct roi_program *p, size_t *n)
{
	const char **names = roi_xrealloc(NULL, 2 * p->nfunctions + 1, sizeof *names);

	*n = 0;
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			names[(*n)++] = p->units[u].functions[f].name;
			names[(*n)++] = p->units[u].functions[f].asm_name;
		}
	qsort(names, *n, sizeof *names, by_str);
	return names;
}

/* Whether op is a direct call into code without metadata: not a function of the program, not one
 * of GCC's internal functions (expanded inline), not through a pointer (whose target is unknown). */
static bool is_libcall(const struct roi_op *op, const char *const *names, size_t nnames)
{
	return strcmp(op->kind, "call") == 0 && op->callee && op->direct && !op->internal &&
	       strcmp(op->callee, "*indirect") != 0 &&
	       !bsearch(&op->callee, names, nnames, sizeof *names, by_str);
}

/* How a call into code without metadata is priced (t->cost: the call's entry, looked up by k), and
 * the routine's cycles it adds per call. A callee the model has its own call entry for is priced
 * by it (memcpy: the call, its bytes by their rows; GCC's __builtin_memmove, which loop
 * distribution makes, by memmove's); else the call's entry is the bare call instruction, and the
 * model's routines (measured per call in simavr, the table --price machine prices with) add what
 * the routine costs. A routine whose cost the model's entries of its value counter already price
 * by the value (a memory routine's bytes) adds only its cost per call less the typical value's,
 * not the value twice. */
static enum roi_libcall_how price_libcall(const struct roi_model *m, const struct roi_opkey *k,
					  struct roi_op_total *t, double *routine)
{
	const char *name = t->d.callee;
	const struct roi_routine_cost *r;
	bool fb;

	*routine = 0;
	if (strncmp(name, "__builtin_", 10) == 0) {
		struct roi_opkey lib = *k;
		const struct roi_cost *c;

		name += 10;
		lib.callee = name;
		if ((!t->cost || !t->cost->callee) && (c = roi_model_lookup(m, &lib, &fb)) && c->callee) {
			t->cost = c;
			t->fallback = fb;
		}
	}
	if (!t->cost)
		return ROI_LIBCALL_NONE;        /* an unmodelled operation, said as one */
	if (t->cost->callee)
		return ROI_LIBCALL_MODEL;
	r = roi_model_routine(m, name);
	if (!r)
		return ROI_LIBCALL_CALL;
	*routine = r->cycles;
	if (r->value_kind) {
		struct roi_opkey vk = {r->value_kind, r->value_type, NULL, r->value_callee, r->value_from, NULL, 0};

		/* only by the value's own entry: a fallback's (a "bytes" of no callee) says nothing of
		 * what this routine does per unit */
		if (roi_model_lookup(m, &vk, &fb) && !fb)
			*routine = fmax(0, r->cycles - r->per_value * r->typical_value);
	}
	return ROI_LIBCALL_ROUTINE;
}

void roi_estimate_row(const struct roi_estimate *e, const struct roi_function *fn, size_t b, size_t r,
		      struct roi_row_total *out)
{
	const struct roi_op_row *row = &fn->blocks[b].ops[r];
	const struct roi_op_unit_cost *c = &e->op_cost[fn->unit - e->prog->units][row->op];

	out->count = c->measure_only ? 0 : roi_block_count(e->counts, fn, b) * row->n;
	out->cycles = (double)out->count * c->cycles;
	out->energy_j = (double)out->count * c->energy_j;
}

/* A value counter's row that a routine of the model takes (strtol's characters), where the model
 * has no entry of its own for it: in this mode the call is priced at the routine's typical
 * operands (price_libcall), which the value must not add to again. An entry of no cycles that
 * says so, or NULL. */
static const struct roi_cost *in_routine(struct roi_arena *a, const struct roi_model *m, const struct roi_opdesc *d)
{
	const struct roi_routine_cost *r = d->callee ? roi_model_routine(m, d->callee) : NULL;

	if (!r || !r->value_kind || strcmp(r->value_kind, d->kind) != 0 || !r->value_callee ||
	    strcmp(r->value_callee, d->callee) != 0)
		return NULL;
	struct roi_cost *c = roi_arena_array(a, 1, sizeof *c);
	c->kind = d->kind;
	c->callee = d->callee;
	c->note = roi_arena_printf(a, "in %s's price at typical operands (the model's routines)", d->callee);
	return c;
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

		t->routine_cycles = (double)t->count * exec[i]->routine;
		if (e->nops && strcmp(exec[i]->key, exec[i - 1]->key) == 0) {
			e->ops[e->nops - 1].count += t->count;
			e->ops[e->nops - 1].cycles += t->cycles;
			e->ops[e->nops - 1].energy_j += t->energy_j;
			e->ops[e->nops - 1].routine_cycles += t->routine_cycles;
		} else {
			e->ops[e->nops++] = *t;
		}
		if (m && !t->cost)
			e->unmodelled_ops += t->count;
	}
	free(exec);
	qsort(e->ops, e->nops, sizeof *e->ops, by_cost);
}

static int libcall_by_cost(const void *a, const void *b)
{
	const struct roi_libcall_total *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->callee, y->callee);
}

/* The executed calls into code without metadata, by callee: one callee's rows differ by their
 * result's type, and are priced alike. */
static void compute_libcalls(struct roi_estimate *e)
{
	e->libcalls = roi_arena_array(&e->arena, e->nops, sizeof *e->libcalls);
	for (size_t i = 0; i < e->nops; i++) {
		const struct roi_op_total *o = &e->ops[i];
		struct roi_libcall_total *l = NULL;

		if (o->libcall == ROI_LIBCALL_NONE || !o->count)
			continue;
		for (size_t k = 0; k < e->nlibcalls && !l; k++)
			if (strcmp(e->libcalls[k].callee, o->d.callee) == 0)
				l = &e->libcalls[k];
		if (!l) {
			l = &e->libcalls[e->nlibcalls++];
			*l = (struct roi_libcall_total){.callee = o->d.callee, .how = o->libcall};
		}
		l->calls += o->count;
		l->cycles += o->cycles;
		l->energy_j += o->energy_j;
		l->routine_cycles += o->routine_cycles;
		e->libcall_calls += o->count;
		e->libcall_cycles += o->cycles;
		if (o->libcall == ROI_LIBCALL_CALL)
			e->fallback_calls += o->count;
	}
	qsort(e->libcalls, e->nlibcalls, sizeof *e->libcalls, libcall_by_cost);
}

int roi_estimate_compute(struct roi_estimate *e, const struct roi_program *p, const struct roi_counts *counts,
			 const struct roi_model *m, struct roi_err *err)
{
	struct roi_line_total *lines = NULL;
	size_t nlines = 0, cap = 0, nnames = 0;
	const char **names = m ? function_names(p, &nnames) : NULL;

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
			/* (the conversion itself is its conv row, priced with its routine on typical
			 * operands; the passes only refine the machine mode's routine price) */
			op_cost[u][i].measure_only = strcmp(o->t.d.kind, "norm") == 0;
			if (!m)
				continue;
			struct roi_opkey k = {o->t.d.kind, o->t.d.type, o->t.d.access, o->t.d.callee, o->t.d.from,
					      o->t.d.operand, o->t.d.subscripts};
			o->t.cost = roi_model_lookup(m, &k, &o->t.fallback);
			const struct roi_cost *rc;
			if ((!o->t.cost || o->t.fallback) && (rc = in_routine(&e->arena, m, &o->t.d))) {
				o->t.cost = rc;
				o->t.fallback = false;
			}
			if (is_libcall(&unit->ops[i], names, nnames))
				o->t.libcall = price_libcall(m, &k, &o->t, &o->routine);
			if (o->t.cost)
				op_cost[u][i].measure_only = false;
			if (o->t.cost) {
				op_cost[u][i].cycles = o->t.cost->cycles + o->routine;
				op_cost[u][i].energy_j = roi_cost_energy(m, o->t.cost) + o->routine * m->energy_per_cycle_j;
			}
		}
	}
	free(names);

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
	compute_libcalls(e);
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
