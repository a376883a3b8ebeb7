/* growth/fit.c — the runs of roi fit loaded, priced and fitted row by row, and the profile
 * predicted at --at; see fit.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "base/path.h"
#include "growth/fit.h"
#include "input/flow.h"
#include "input/checks.h"

const char *const roi_fit_qnames[ROI_FIT_NQ] = {"calls", "ops", "cycles", "energy_j"};

static void add_child(struct roi_fit_row ***list, size_t *n, size_t *cap, struct roi_fit_row *r)
{
	if (*n == *cap)
		*list = roi_xrealloc(*list, *cap = *cap ? 2 * *cap : 8, sizeof **list);
	(*list)[(*n)++] = r;
}

static void init_row(struct roi_fit *f, struct roi_fit_row *r, bool calls)
{
	for (int q = 0; q < ROI_FIT_NQ; q++) {
		r->q[q].has = q == ROI_FIT_OPS || (q == ROI_FIT_CALLS && calls) ||
			      ((q == ROI_FIT_CYCLES || q == ROI_FIT_ENERGY) && f->has_model);
		r->q[q].whole = q == ROI_FIT_OPS || q == ROI_FIT_CALLS;
		r->q[q].y = roi_arena_array(&f->arena, f->npts, sizeof *r->q[q].y);
	}
}

/* What names a function or loop in every build of the same sources, so that builds at different
 * compile-time sizes line up: the unit's source file (its name: builds may compile copies in
 * directories of their own), which of the units of that name, the function's name, the loop's
 * place in its nest. */
static const char *row_key(struct roi_arena *a, const struct roi_program *p, const struct roi_node *n)
{
	const struct roi_unit *u = n->fn->unit;
	const char *file = roi_base_name(u->source);
	size_t nth = 0;

	for (const struct roi_unit *v = p->units; v < u; v++)
		nth += strcmp(roi_base_name(v->source), file) == 0;
	return roi_arena_printf(a, "%s\x1f%zu\x1f%s\x1f%d", file, nth, n->fn->name, n->kind == ROI_NODE_LOOP ? n->loop : -1);
}

static struct roi_fit_row *row_of(struct roi_fit *f, size_t p, const struct roi_node *n, struct roi_fit_row *parent)
{
	const char *key = row_key(&f->arena, f->pts[p].prog, n);

	for (size_t i = 0; i < f->nrows; i++)
		if (strcmp(f->rows[i]->key, key) == 0)
			return f->rows[i];
	struct roi_fit_row *r = roi_arena_alloc(&f->arena, sizeof *r);
	add_child(&f->rows, &f->nrows, &f->caprows, r);
	r->key = key;
	r->id = n->id;
	r->kind = n->kind == ROI_NODE_FUNCTION ? "function" : "loop";
	r->fn = n->fn;
	r->loop = n->kind == ROI_NODE_LOOP ? n->loop : -1;
	r->parent = parent;
	init_row(f, r, true);
	if (parent)
		add_child(&parent->children, &parent->nchildren, &parent->cap, r);
	else
		add_child(&f->roots, &f->nroots, &f->caproots, r);
	return r;
}

/* The functions and loops of point p's run under n: their figures per run. Lines are left to
 * roi report; a region's node of its own (a function not counted, a loop not in the nest) has no
 * estimate. */
static void gather(struct roi_fit *f, size_t p, const struct roi_node *n, struct roi_fit_row *parent)
{
	double runs = f->pts[p].in.counts.runs ? (double)f->pts[p].in.counts.runs : 1;

	if (!n->fn || n->kind == ROI_NODE_LINE || (n->kind == ROI_NODE_FUNCTION && n->parent) ||
	    (n->kind == ROI_NODE_LOOP && n->loop < 0))
		return;
	struct roi_fit_row *r = row_of(f, p, n, parent);
	r->q[ROI_FIT_CALLS].y[p] = (double)n->calls / runs;
	r->q[ROI_FIT_OPS].y[p] = n->cost.ops / runs;
	r->q[ROI_FIT_CYCLES].y[p] = n->cost.cycles / runs;
	r->q[ROI_FIT_ENERGY].y[p] = n->cost.energy_j / runs;
	for (size_t i = 0; i < n->nchildren; i++)
		gather(f, p, n->children[i], r);
}

static void fit_quantity(struct roi_fit *f, struct roi_fit_quantity *q)
{
	roi_growth_fit(&f->fam, f->x, q->y, f->npts, &q->fit);
	q->predictable = q->fit.form && q->fit.error <= f->max_error;
	if (!q->fit.form) {
		q->why = "no form could be fitted";
	} else if (!q->predictable) {
		q->why = roi_arena_printf(&f->arena, "held-out error %s > %g%%",
					  isfinite(q->fit.error) ? roi_arena_printf(&f->arena, "%.2f%%", 100 * q->fit.error)
								 : "unbounded", 100 * f->max_error);
		if (q->fit.max_terms < ROI_GROWTH_MAXTERMS)
			q->why = roi_arena_printf(&f->arena, "%s; %zu sizes fit forms of at most %zu coefficient%s", q->why,
						  f->npts, q->fit.max_terms, q->fit.max_terms == 1 ? "" : "s");
	}
	if (!f->has_at || !q->predictable)
		return;
	q->prediction = roi_growth_eval(&q->fit, f->at);
	double big = 0;
	for (size_t i = 0; i < f->npts; i++)
		big = fmax(big, fabs(q->y[i]));
	if (!isfinite(q->prediction))
		q->why = "too large to predict";
	else if (q->prediction < -1e-6 * big)
		q->why = roi_arena_printf(&f->arena, "predicts %.6g, below 0", q->prediction);
	else
		q->predicted = true;
	if (q->predicted && q->prediction < 0)
		q->prediction = 0;      /* rounding around a count of 0 */
	if (q->predicted && q->whole)
		q->prediction = round(q->prediction);
}

static void fit_row(struct roi_fit *f, struct roi_fit_row *r)
{
	for (int q = 0; q < ROI_FIT_NQ; q++)
		if (r->q[q].has)
			fit_quantity(f, &r->q[q]);
	for (size_t i = 0; i < r->nchildren; i++)
		fit_row(f, r->children[i]);
}

static void find_rows(struct roi_fit *f, struct roi_fit_row *r)
{
	if (strcmp(r->id, f->region) == 0) {
		f->focus = roi_xrealloc(f->focus, f->nfocus + 1, sizeof *f->focus);
		f->focus[f->nfocus++] = r;
	}
	for (size_t i = 0; i < r->nchildren; i++)
		find_rows(f, r->children[i]);
}

int roi_fit_build(struct roi_fit *f, struct roi_err *err)
{
	size_t biggest = 0;

	if (f->model_path && roi_model_load(f->model_path, &f->model, err) != 0)
		return -1;
	f->has_model = f->model_path != NULL;
	for (size_t i = 0; i < f->npts; i++) {
		struct roi_fit_point *pt = &f->pts[i];
		bool first = true;

		if (roi_session_load(&pt->in, &(struct roi_session_args){f->program_path, pt->path, NULL, false, NULL}, err) != 0)
			return -1;
		pt->prog = &pt->in.prog;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(f->pts[j].in.program_path, pt->in.program_path) != 0;
		f->nprogs += first;
		/* a program's warnings (the model, the filter) once; each profile's own (missing
		 * functions, saturated counters) for each */
		roi_check_inputs(pt->prog, &pt->in.counts, pt->path, first && f->has_model ? &f->model : NULL);
		pt->computed = true;    /* freed whatever the two leave behind */
		if (roi_estimate_compute(&pt->est, pt->prog, &pt->in.counts, f->has_model ? &f->model : NULL, err) != 0 ||
		    roi_hier_build(&pt->h, &pt->est, err) != 0)
			return -1;
		if (roi_hier_weight(&pt->h, &pt->h.total) > roi_hier_weight(&f->pts[biggest].h, &f->pts[biggest].h.total))
			biggest = i;
	}
	f->prog = f->nprogs == 1 ? f->pts[0].prog : NULL;

	f->total.id = "total";
	f->total.kind = "program";
	f->total.loop = -1;
	init_row(f, &f->total, false);
	/* the largest run first: its order (by cost) is the rows' order */
	for (size_t k = 0; k < f->npts; k++) {
		size_t i = k == 0 ? biggest : k <= biggest ? k - 1 : k;
		const struct roi_hier *h = &f->pts[i].h;
		double runs = f->pts[i].in.counts.runs ? (double)f->pts[i].in.counts.runs : 1;

		f->total.q[ROI_FIT_OPS].y[i] = h->total.ops / runs;
		f->total.q[ROI_FIT_CYCLES].y[i] = h->total.cycles / runs;
		f->total.q[ROI_FIT_ENERGY].y[i] = h->total.energy_j / runs;
		for (size_t r = 0; r < h->nroots; r++)
			gather(f, i, h->roots[r], NULL);
	}
	roi_growth_family_init(&f->fam, f->params, f->nparams);
	fit_row(f, &f->total);
	for (size_t r = 0; r < f->nroots; r++)
		fit_row(f, f->roots[r]);
	if (f->region) {
		for (size_t r = 0; r < f->nroots; r++)
			find_rows(f, f->roots[r]);
		if (!f->nfocus)
			return roi_err_set(err, "%s has no function or loop '%s' that ran in these profiles (a function's "
					   "name, a loop's FUNCTION:LINE, as roi report names them)", f->pts[biggest].prog->path,
					   f->region);
	}
	return 0;
}

static void free_children(struct roi_fit_row *r)
{
	for (size_t i = 0; i < r->nchildren; i++)
		free_children(r->children[i]);
	free(r->children);
}

bool roi_fit_headline_predicted(const struct roi_fit *f, const char **why, const char **what)
{
	const struct roi_fit_row *const total = &f->total;
	const struct roi_fit_row *const *rows = f->nfocus ? (const struct roi_fit_row *const *)f->focus : &total;
	size_t n = f->nfocus ? f->nfocus : 1;

	for (size_t i = 0; i < n; i++)
		for (int q = 0; q < ROI_FIT_NQ; q++)
			if (rows[i]->q[q].has && !rows[i]->q[q].predicted) {
				*why = rows[i]->q[q].why;
				*what = roi_fit_qnames[q];
				return false;
			}
	return true;
}

/* The point where |y| is largest: the formula leaves out what is noise beside it. */
static size_t largest(const struct roi_fit *f, const struct roi_fit_quantity *q)
{
	size_t k = 0;

	for (size_t i = 1; i < f->npts; i++)
		if (fabs(q->y[i]) > fabs(q->y[k]))
			k = i;
	return k;
}

const char *roi_fit_formula(const struct roi_fit *f, const struct roi_fit_quantity *q, char *buf, size_t size)
{
	size_t k = largest(f, q);

	return roi_growth_formula(&q->fit, f->x + k * f->nparams, q->y[k], buf, size);
}

int roi_fit_write_profile(struct roi_fit *f, struct roi_err *err)
{
	const struct roi_program *p = f->prog;
	struct roi_profile_fn *fns = roi_arena_array(&f->arena, p->nfunctions ? p->nfunctions : 1, sizeof *fns);
	double *y = roi_arena_array(&f->arena, f->npts, sizeof *y);
	size_t nfns = 0, nbad = 0, ncounters = 0;
	const char *first = NULL;
	char at[256];
	struct roi_err werr;
	struct roi_atomic out;

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nfunctions; i++) {
			const struct roi_function *fn = &p->units[u].functions[i];
			uint64_t *c = roi_arena_array(&f->arena, fn->nblocks, sizeof *c);

			for (size_t b = 0; b < fn->nblocks; b++) {
				struct roi_fit_quantity q = {.has = true, .whole = true, .y = y};

				for (size_t k = 0; k < f->npts; k++)
					y[k] = (double)roi_block_count(&f->pts[k].in.counts, fn, b) /
					       (f->pts[k].in.counts.runs ? (double)f->pts[k].in.counts.runs : 1);
				fit_quantity(f, &q);
				ncounters++;
				if (q.predicted && q.prediction < 1.8e19) {
					c[b] = (uint64_t)llround(q.prediction);
					continue;
				}
				if (!nbad++)
					first = roi_arena_printf(&f->arena, "%s block %zu: %s", fn->name, b,
								 q.why ? q.why : "too large for a counter");
			}
			/* the counters a run with these counts leaves, when they obey flow conservation;
			 * else a count per block (input/flow.h) */
			uint64_t *k = roi_arena_array(&f->arena, fn->ncounters ? fn->ncounters : 1, sizeof *k);
			bool edges = roi_flow_counters_from_blocks(fn, c, fn->unit->counter_bits == 16 ? 0xffff : 0, k);
			fns[nfns++] = (struct roi_profile_fn){
				{fn->unit->id, (uint32_t)fn->index, edges ? fn->checksum : fn->block_checksum,
				 (uint32_t)(edges ? fn->ncounters : fn->nblocks)}, edges ? k : c, 0};
		}
	if (nbad) {
		roi_err_set(err, "%s not written: %zu of %zu counters cannot be predicted at %s (first: %s)",
			    f->write_profile, nbad, ncounters, roi_fit_sizes_text(f, f->at, at, sizeof at), first);
		return 1;
	}
	if (roi_atomic_open(&out, f->write_profile, err) != 0)
		return -1;
	if (roi_profile_write(out.f, f->pts[0].in.prof.program, 1, NULL, fns, nfns, NULL, &werr) != 0) {
		roi_atomic_abort(&out);
		return roi_err_set(err, "%s: %s", f->write_profile, werr.msg);
	}
	return roi_atomic_commit(&out, "the profile", err);
}

void roi_fit_free(struct roi_fit *f)
{
	for (size_t i = 0; i < f->npts; i++) {
		struct roi_fit_point *pt = &f->pts[i];

		if (pt->computed) {
			roi_hier_free(&pt->h);
			roi_estimate_free(&pt->est);
		}
		roi_session_free(&pt->in);
	}
	for (size_t i = 0; i < f->nroots; i++)
		free_children(f->roots[i]);
	free(f->roots);
	free(f->total.children);
	free(f->focus);
	roi_growth_family_free(&f->fam);
	roi_model_free(&f->model);
	free(f->rows);
	roi_arena_free(&f->arena);
}
