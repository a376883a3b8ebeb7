/* budget/eval.c — budgets against one program and profile, see budget/eval.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget/eval.h"
#include "input/checks.h"
#include "input/filter.h"
#include "price/estimate.h"

const char *roi_budget_status_name(enum roi_budget_status s)
{
	return s == ROI_BUDGET_PASS ? "PASS" : s == ROI_BUDGET_WARN ? "WARN" : "FAIL";
}

const char *roi_budget_overall(const struct roi_budget_eval *ev)
{
	return ev->nfail ? "FAIL" : ev->nwarn ? "WARN" : "PASS";
}

bool roi_budget_moved(const struct roi_budget_result *o, const struct roi_budget_result *n)
{
	if (!o->present || !n->present)
		return o->present != n->present;
	double scale = fmax(fabs(o->value), fabs(n->value));
	return fabs(n->value - o->value) > 1e-9 * scale || o->status != n->status;
}

/* ---- models ---- */

static int compute(struct roi_budget_eval *ev, struct roi_budget_model *m, struct roi_err *err)
{
	if (roi_estimate_compute(&m->est, &ev->in->prog, &ev->in->counts, m->path ? &m->model : NULL, err) != 0 ||
	    roi_hier_build(&m->h, &m->est, err) != 0)
		return -1;
	return 0;
}

/* The context of a model path (NULL: none), loading it the first time. NULL when it cannot be
 * loaded (err says why). */
static struct roi_budget_model *model_for(struct roi_budget_eval *ev, const char *path, struct roi_err *err)
{
	for (size_t i = 0; i < ev->nmodels; i++)
		if (path ? ev->models[i]->path && strcmp(ev->models[i]->path, path) == 0 : !ev->models[i]->path)
			return ev->models[i];
	struct roi_budget_model *m = roi_xrealloc(NULL, 1, sizeof *m);
	memset(m, 0, sizeof *m);
	m->path = path;
	if (path && roi_model_load(path, &m->model, err) != 0) {
		roi_model_free(&m->model);
		free(m);
		return NULL;
	}
	if (compute(ev, m, err) != 0) {
		roi_hier_free(&m->h);
		roi_estimate_free(&m->est);
		roi_model_free(&m->model);
		free(m);
		return NULL;
	}
	ev->models = roi_xrealloc(ev->models, ev->nmodels + 1, sizeof *ev->models);
	ev->models[ev->nmodels++] = m;
	return m;
}

static struct roi_budget_kind_view *kind_view_for(struct roi_budget_eval *ev, struct roi_budget_model *m, const char *kind,
				       const char *type, struct roi_err *err)
{
	const struct roi_program *p = &ev->in->prog;

	for (size_t i = 0; i < m->nkinds; i++)
		if (strcmp(m->kinds[i]->kind, kind) == 0 &&
		    (type ? m->kinds[i]->type && strcmp(m->kinds[i]->type, type) == 0 : !m->kinds[i]->type))
			return m->kinds[i];
	struct roi_budget_kind_view *k = roi_xrealloc(NULL, 1, sizeof *k);
	memset(k, 0, sizeof *k);
	k->kind = kind;
	k->type = type;
	k->est = m->est;
	struct roi_op_unit_cost **w = roi_arena_array(&ev->arena, p->nunits, sizeof *w);
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];
		bool mapped = roi_unit_mapped(unit, m->path ? &m->model : NULL);

		w[u] = roi_arena_array(&ev->arena, unit->nops ? unit->nops : 1, sizeof **w);
		for (size_t i = 0; i < unit->nops; i++) {
			struct roi_opdesc d;

			/* the type as roi estimate reports it: mapped through the model's ABI */
			roi_opdesc_of(&d, &unit->ops[i], mapped ? &m->model.abi : NULL);
			if (strcmp(d.kind, kind) == 0 && (!type || (d.type && strcmp(d.type, type) == 0)))
				w[u][i].cycles = 1;
		}
	}
	k->est.op_cost = (const struct roi_op_unit_cost *const *)w;
	/* hier.c takes a function's own cost from estimate.fns: weigh those too */
	struct roi_fn_total *fns = roi_arena_array(&ev->arena, m->est.nfns ? m->est.nfns : 1, sizeof *fns);
	for (size_t i = 0; i < m->est.nfns; i++) {
		const struct roi_function *fn = m->est.fns[i].fn;

		fns[i] = m->est.fns[i];
		fns[i].cycles = fns[i].energy_j = 0;
		for (size_t blk = 0; blk < fn->nblocks; blk++)
			for (size_t r = 0; r < fn->blocks[blk].nops; r++) {
				struct roi_row_total t;

				roi_estimate_row(&k->est, fn, blk, r, &t);
				fns[i].cycles += t.cycles;
			}
	}
	k->est.fns = fns;
	if (roi_hier_build(&k->h, &k->est, err) != 0) {
		roi_hier_free(&k->h);
		free(k);
		return NULL;
	}
	m->kinds = roi_xrealloc(m->kinds, m->nkinds + 1, sizeof *m->kinds);
	m->kinds[m->nkinds++] = k;
	return k;
}

/* ---- subjects ---- */

/* A loop of a function. */
struct loop_ref {
	const struct roi_function *fn;
	size_t loop;
};

static const struct roi_node *find_node(const struct roi_node *n, const struct roi_function *fn, int loop)
{
	if (n->fn == fn && ((loop < 0 && n->kind == ROI_NODE_FUNCTION && n->parent == NULL) ||
			    (loop >= 0 && n->kind == ROI_NODE_LOOP && n->loop == loop)))
		return n;
	for (size_t i = 0; i < n->nchildren; i++) {
		const struct roi_node *r = find_node(n->children[i], fn, loop);
		if (r)
			return r;
	}
	return NULL;
}

/* The node of a function (loop -1) or of one of its loops; NULL when it never ran. */
static const struct roi_node *node_of(const struct roi_hier *h, const struct roi_function *fn, int loop)
{
	for (size_t i = 0; i < h->nroots; i++) {
		if (h->roots[i]->fn != fn)
			continue;
		const struct roi_node *n = find_node(h->roots[i], fn, loop);
		if (n)
			return n;
	}
	return NULL;
}

/* Whether FILE as written in a budget names file index f of a unit: as the compiler was given it,
 * or as the absolute path of that (the unit's directory is what source_abs adds to source). */
static bool file_matches(const struct roi_unit *u, unsigned f, const char *file, size_t len)
{
	const char *name = u->files[f];
	size_t nlen = strlen(name);

	if (strlen(name) == len && strncmp(name, file, len) == 0)
		return true;
	if (name[0] == '/' || !u->source_abs || u->source[0] == '/')
		return false;
	size_t sl = strlen(u->source), al = strlen(u->source_abs);
	if (al <= sl || strcmp(u->source_abs + al - sl, u->source) != 0 || u->source_abs[al - sl - 1] != '/')
		return false;
	size_t dir = al - sl;   /* with its slash */
	return len == dir + nlen && strncmp(file, u->source_abs, dir) == 0 && strncmp(file + dir, name, nlen) == 0;
}

static void add_loop(struct loop_ref *refs, size_t *n, size_t max, const struct roi_function *fn, size_t k)
{
	for (size_t i = 0; i < *n; i++)
		if (refs[i].fn == fn && refs[i].loop == k)
			return;
	if (*n < max)
		refs[(*n)++] = (struct loop_ref){fn, k};
}

/* The loops a region ID names: FUNCTION:LINE or FILE:LINE, as roi report names a loop (its
 * header's line) or as the filter rule that hooked it did (the region's name, file and line). */
static size_t loops_named(const struct roi_program *p, const char *id, struct loop_ref *refs, size_t max)
{
	const char *colon = strrchr(id, ':');
	size_t xlen = (size_t)(colon - id), n = 0;
	unsigned line = (unsigned)strtoul(colon + 1, NULL, 10);

	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];
			bool by_name = strlen(fn->name) == xlen && strncmp(fn->name, id, xlen) == 0;

			for (size_t k = 0; k < fn->nloops; k++)
				if (fn->loops[k].line == line &&
				    (by_name || file_matches(unit, fn->loops[k].file, id, xlen)))
					add_loop(refs, &n, max, fn, k);
		}
		for (size_t r = 0; r < unit->nregions; r++) {
			const struct roi_region *reg = &unit->regions[r];

			if (reg->kind != ROI_REGION_LOOP || reg->function < 0)
				continue;
			if (strcmp(reg->name, id) != 0 && !(reg->line == line && file_matches(unit, reg->file, id, xlen)))
				continue;
			const struct roi_function *fn = &unit->functions[reg->function];
			for (size_t k = 0; k < fn->nloops; k++)
				if ((long)fn->loops[k].header == reg->header)
					add_loop(refs, &n, max, fn, k);
		}
	}
	return n;
}

static size_t functions_named(const struct roi_program *p, const char *name, const struct roi_function **out,
			      size_t max)
{
	size_t n = 0;

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++)
			if (strcmp(p->units[u].functions[f].name, name) == 0) {
				if (n < max)
					out[n] = &p->units[u].functions[f];
				n++;
			}
	return n;
}

/* "; GCC's clones of it: f.constprop, f.part" for a message, or "": a clone is a function of its
 * own name (NAME.SUFFIX), as roi report shows it. */
static const char *clones_of(struct roi_arena *a, const struct roi_program *p, const char *name)
{
	size_t len = strlen(name);
	const char *s = "";

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const char *n = p->units[u].functions[f].name;

			if (strncmp(n, name, len) == 0 && n[len] == '.' && !strstr(s, n))
				s = roi_arena_printf(a, "%s%s%s", s, *s ? ", " : "; GCC's clones of it: ", n);
		}
	return s;
}

/* The loop lines of functions named X, for a message: "26, 28". */
static const char *loop_lines(struct roi_arena *a, const struct roi_program *p, const char *id)
{
	const char *colon = strrchr(id, ':');
	char *s = roi_arena_strdup(a, "");
	const struct roi_function *fns[16];
	char *name = roi_arena_printf(a, "%.*s", (int)(colon - id), id);
	size_t n = functions_named(p, name, fns, 16);

	for (size_t i = 0; i < n && i < 16; i++)
		for (size_t k = 0; k < fns[i]->nloops; k++)
			s = roi_arena_printf(a, "%s%s%s:%u", s, *s ? ", " : "", name, fns[i]->loops[k].line);
	return *s ? s : NULL;
}

/* ---- figures ---- */

struct subject {
	const char *id;
	const struct roi_function *fn;  /* NULL: total */
	int loop;                       /* -1: the function */
};

static double quantity_of(const struct roi_budget *b, const struct roi_budget_model *m, const struct roi_cost_sum *c,
			  const struct roi_cost_sum *kind)
{
	switch (b->quantity) {
	case ROI_BUDGET_CYCLES: return c->cycles;
	case ROI_BUDGET_TIME: return c->cycles / m->model.clock_hz;
	case ROI_BUDGET_ENERGY: return c->energy_j;
	default: return b->kind ? kind->cycles : c->ops;
	}
}

/* A measured amount (region net time in unit) as the budget's quantity; NULL, or why not. */
static const char *measured_as(const struct roi_budget *b, const struct roi_budget_model *m, const char *unit,
			       double v, double *out)
{
	if (b->quantity == ROI_BUDGET_OPS)
		return "operations are counted, not measured";
	if (strcmp(unit, "cycles") == 0) {
		*out = b->quantity == ROI_BUDGET_CYCLES ? v
		       : b->quantity == ROI_BUDGET_TIME ? v / m->model.clock_hz : v * m->model.energy_per_cycle_j;
		return NULL;
	}
	if (b->quantity != ROI_BUDGET_TIME)
		return "measured in ns, not cycles";
	if (m->est.mapped)
		return "measured on the host (ns), not on the model's part";
	*out = v * 1e-9;
	return NULL;
}

/* The measured profile's figure of a budget's subject (main's inclusive cycles for the whole run, a
 * function's inclusive, a loop's from entry to exit), per run or per its calls: false, and
 * r->unmeasured when nothing else measures it, when the profile has no such figure. */
static bool measured_profile(const struct roi_measured *mp, const struct roi_budget *b,
			     const struct roi_budget_model *m, const struct subject *s, struct roi_budget_result *r)
{
	uint64_t cycles = 0, calls = 0;
	bool found = false;

	if (!s->fn) {
		cycles = roi_measured_main_cycles(mp);
		calls = 1;
		found = true;
	} else if (s->loop < 0) {
		const struct roi_mfunction *f = roi_measured_function(mp, s->fn->asm_name);

		if ((found = f && f->calls)) {
			cycles = f->inclusive;
			calls = f->calls;
		}
	} else {
		const struct roi_mloop *l = roi_measured_loop(mp, s->fn, (size_t)s->loop);

		if ((found = l && l->entries)) {
			cycles = l->cycles;
			calls = l->entries;
		}
	}
	if (!found) {
		r->unmeasured = s->loop < 0 ? "not in the measured profile (inlined, or never called)"
			: "not in the measured profile (loops need its blocks: roi run --measured --blocks)";
		return false;
	}
	if ((r->unmeasured = measured_as(b, m, "cycles", (double)cycles, &r->measured)))
		return true;
	r->has_measured = true;
	r->measured_calls = (double)calls;
	r->measured /= b->per == ROI_BUDGET_PER_CALL ? (double)calls : 1;
	return true;
}

static int evaluate(struct roi_budget_eval *ev, struct roi_budget_result *r, struct roi_budget_model *m,
		    const struct subject *s, const struct roi_budget_options *opt, struct roi_err *err)
{
	const struct roi_budget *b = r->b;
	const struct roi_node *node = s->fn ? node_of(&m->h, s->fn, s->loop) : NULL;
	struct roi_budget_kind_view *kv = NULL;

	if (b->quantity == ROI_BUDGET_OPS && b->kind && !(kv = kind_view_for(ev, m, b->kind, b->type, err)))
		return -1;
	const struct roi_node *knode = kv && s->fn ? node_of(&kv->h, s->fn, s->loop) : NULL;
	struct roi_cost_sum zero = {0, 0, 0};
	const struct roi_cost_sum *cost = s->fn ? (node ? &node->cost : &zero) : &m->h.total;
	const struct roi_cost_sum *kcost = kv ? (s->fn ? (knode ? &knode->cost : &zero) : &kv->h.total) : NULL;
	double runs = ev->in->counts.runs ? (double)ev->in->counts.runs : 1;

	r->id = s->id;
	r->present = true;
	r->divisor = b->per == ROI_BUDGET_PER_CALL ? (node ? (double)node->calls : 0) : runs;
	r->estimate = quantity_of(b, m, cost, kcost) / r->divisor;

	const struct roi_region_result *res = node ? node->measured : NULL;
	const char *not_in_profile = NULL;
	if (ev->in->meas && measured_profile(ev->in->meas, b, m, s, r)) {
		res = NULL;     /* exact, and no hooks' cost in it: the measured profile's figure */
	} else {
		not_in_profile = r->unmeasured;
		if (!s->fn)
			r->unmeasured = "the whole run is no region";
		else if (!node || !node->region)
			r->unmeasured = "no hooks";
		else if (!res)
			r->unmeasured = "its hooks did not run";
		else
			r->unmeasured = measured_as(b, m, ev->in->counts.time_unit ? ev->in->counts.time_unit : "ns",
						    node->net, &r->measured);
	}
	if (res && !r->unmeasured) {
		r->has_measured = true;
		r->measured_calls = (double)res->calls;
		r->measured /= b->per == ROI_BUDGET_PER_CALL ? (double)res->calls : runs;
	} else if (not_in_profile && !r->has_measured && b->quantity != ROI_BUDGET_OPS) {
		r->unmeasured = not_in_profile;
	}
	r->used_measured = opt->measured && r->has_measured;
	r->value = r->used_measured ? r->measured : r->estimate;
	r->margin_pct = b->limit > 0 ? 100 * (b->limit - r->value) / b->limit : NAN;
	r->status = r->value > b->limit ? ROI_BUDGET_FAIL
		    : b->has_warn && r->value > b->warn_at ? ROI_BUDGET_WARN : ROI_BUDGET_PASS;
	return 0;
}

/* ---- static budgets: stack and ram-margin ---- */

#define LOWER_BOUND (ROI_STACK_RECURSIVE | ROI_STACK_INDIRECT | ROI_STACK_UNKNOWN | ROI_STACK_DYNAMIC | \
		     ROI_STACK_NESTING)

/* The figure of a stack or ram-margin budget: false with a diagnostic (or r->missing) when the
 * program has no such function, no main or no RAM size. */
static bool evaluate_static(struct roi_budget_eval *ev, const struct roi_budget_file *bf, struct roi_budget_result *r,
			    const struct roi_budget_options *opt, struct roi_diags *diags)
{
	const struct roi_budget *b = r->b;
	const struct roi_stack *s = &ev->stack;
	const struct roi_measured *mp = ev->in->meas;
	const struct roi_mstack *ms = mp && mp->has_stack ? &mp->stack : NULL;
	const char *why = NULL, *unmeasured = NULL;
	double v = 0, mv = 0;
	bool has_mv = false;

	r->id = b->name ? b->name : "total";
	if (b->quantity == ROI_BUDGET_RAM_MARGIN) {
		if (!s->ram.known)
			why = roi_arena_printf(&ev->arena, "no RAM size in %s (roi reads it from an AVR ELF's "
					       ".note.gnu.avr.deviceinfo or a Cortex-M vector table)", s->path);
		v = (double)s->ram.margin;
		r->stack_flags = s->worst_below & LOWER_BOUND;
		if ((has_mv = ms && ms->has_ram))
			mv = (double)ms->margin;
		else if (ms)
			unmeasured = "no RAM figures in the measured profile";
	} else if (b->subject == ROI_BUDGET_TOTAL) {
		if (s->main_root < 0)
			why = roi_arena_printf(&ev->arena, "no main in %s: no worst case", s->path);
		v = (double)s->worst_depth;
		r->stack_flags = s->worst_below & LOWER_BOUND;
		if ((has_mv = ms != NULL))
			mv = (double)ms->peak;
	} else {
		bool ambiguous;
		const struct roi_stack_fn *f = roi_stack_find(s, b->name, &ambiguous);

		if (!f)
			why = roi_arena_printf(&ev->arena, "no function '%s' in %s (names match exactly)", b->name, s->path);
		else if (ambiguous)
			why = roi_arena_printf(&ev->arena, "function '%s' is ambiguous in %s: several functions of that "
					       "name", b->name, s->path);
		else {
			size_t k = (size_t)(f - s->fns);
			v = (double)f->depth;
			r->stack_flags = f->below & LOWER_BOUND;
			/* a handler's: with what the interrupt pushed before it (a Cortex-M's exception frame) */
			long long entry = 0;
			for (size_t i = 0; i < s->nroots; i++)
				if (s->roots[i].fn == k) {
					v = (double)s->roots[i].depth;
					entry = s->roots[i].entry;
				}
			const struct roi_mstack_fn *mf = ms ? roi_measured_stack_fn(mp, f->symbol ? f->symbol : f->name) : NULL;
			if ((has_mv = mf != NULL))
				mv = (double)(entry + (long long)mf->depth);
			else if (ms)
				unmeasured = "it did not run in the measured profile: the static figure checked";
		}
	}
	if (why) {
		if (opt->allow_missing) {
			r->missing = why;
			ev->nmissing++;
		} else {
			roi_diag(diags, bf->path, b->line, b->subject_col, "%s", why);
		}
		return false;
	}
	r->present = true;
	r->divisor = 1;
	r->estimate = r->value = v;
	r->unmeasured = unmeasured ? unmeasured : mp ? "no stack figures in the measured profile (main never ran)"
			: "a static figure (--measured-profile checks a run's)";
	/* a measured profile's figure is checked: exact for that run, where the static one is a bound */
	if (has_mv) {
		r->has_measured = r->used_measured = true;
		r->measured = r->value = v = mv;
	}
	if (b->limit > 0)
		r->margin_pct = 100 * (b->floor ? v - b->limit : b->limit - v) / b->limit;
	else
		r->margin_pct = NAN;
	if ((r->stack_flags && !r->used_measured) || (b->floor ? v < b->limit : v > b->limit))
		r->status = ROI_BUDGET_FAIL;
	else if (b->has_warn && (b->floor ? v < b->warn_at : v > b->warn_at))
		r->status = ROI_BUDGET_WARN;
	else
		r->status = ROI_BUDGET_PASS;
	return true;
}

/* Finds what a budget is about. false when it is not in the program: then a diagnostic, or with
 * allow_missing, r->missing. */
static bool resolve(struct roi_budget_eval *ev, const struct roi_budget_file *bf, struct roi_budget_result *r,
		    struct subject *s, const struct roi_budget_options *opt, struct roi_diags *diags)
{
	const struct roi_budget *b = r->b;
	const struct roi_program *p = &ev->in->prog;
	const char *why = NULL;

	*s = (struct subject){"total", NULL, -1};
	if (b->subject == ROI_BUDGET_FUNCTION) {
		const struct roi_function *fns[8];
		size_t n = functions_named(p, b->name, fns, 8);

		if (n == 1) {
			*s = (struct subject){fns[0]->name, fns[0], -1};
		} else if (n > 1) {
			why = roi_arena_printf(&ev->arena, "function '%s' is ambiguous in %s: %zu static functions of "
					       "that name (in %s and %s)", b->name, p->path, n, fns[0]->unit->source,
					       fns[1]->unit->source);
		} else {
			const struct roi_excluded *x[256];
			size_t nx = roi_filter_excluded(p, x, 256);
			bool excluded = false;

			for (size_t i = 0; i < nx && i < 256; i++)
				excluded |= strcmp(x[i]->name, b->name) == 0;
			why = excluded ? roi_arena_printf(&ev->arena, "function '%s' is not counted in %s (the filter "
							  "excluded it): no estimate", b->name, p->path)
				       : roi_arena_printf(&ev->arena, "no function '%s' in %s (names match exactly%s)",
							  b->name, p->path, clones_of(&ev->arena, p, b->name));
		}
	} else if (b->subject == ROI_BUDGET_REGION) {
		struct loop_ref refs[8];
		size_t n = loops_named(p, b->name, refs, 8);

		if (n == 1) {
			const struct roi_function *fn = refs[0].fn;
			*s = (struct subject){roi_arena_printf(&ev->arena, "%s:%u", fn->name, fn->loops[refs[0].loop].line),
					      fn, (int)refs[0].loop};
		} else if (n > 1) {
			char *list = roi_arena_strdup(&ev->arena, "");
			for (size_t i = 0; i < n; i++)
				list = roi_arena_printf(&ev->arena, "%s%s%s:%u", list, i ? ", " : "", refs[i].fn->name,
							refs[i].fn->loops[refs[i].loop].line);
			why = roi_arena_printf(&ev->arena, "region %s names %zu loops in %s (%s): name one as "
					       "FUNCTION:LINE", b->name, n, p->path, list);
		} else {
			const char *lines = loop_lines(&ev->arena, p, b->name);
			why = lines ? roi_arena_printf(&ev->arena, "no loop %s in %s (its loops: %s)", b->name, p->path, lines)
				    : roi_arena_printf(&ev->arena, "no loop %s in %s (a region is a loop's FUNCTION:LINE "
						       "or FILE:LINE, as roi report or the filter names it)", b->name,
						       p->path);
		}
	}
	if (!why && b->per == ROI_BUDGET_PER_CALL) {
		/* a per-call figure of something that never ran is not a pass */
		struct roi_budget_model *any = ev->models[0];
		const struct roi_node *node = node_of(&any->h, s->fn, s->loop);
		if (!node || node->calls == 0)
			why = roi_arena_printf(&ev->arena, "%s %s never ran in %s: no per-call figure",
					       s->loop < 0 ? "function" : "loop", s->id, ev->in->profile_path);
	}
	if (!why)
		return true;
	if (opt->allow_missing) {
		r->missing = why;
		r->id = s->id;
		ev->nmissing++;
	} else {
		roi_diag(diags, bf->path, b->line, b->subject_col, "%s", why);
	}
	return false;
}

int roi_budget_evaluate(struct roi_budget_eval *ev, const struct roi_budget_file *bf, const struct roi_session *in,
			const struct roi_budget_options *opt, struct roi_diags *diags, struct roi_err *err)
{
	struct roi_budget_model *def;
	struct subject *subjects;

	memset(ev, 0, sizeof *ev);
	ev->in = in;
	if (!roi_budget_file_static(bf)) {
		/* the model-less view first: resolve() asks it whether a subject ran */
		if (!model_for(ev, NULL, err))
			return -1;
		def = opt->model ? model_for(ev, opt->model, err) : NULL;
		if (opt->model && !def)
			return -1;
		roi_check_inputs(&in->prog, &in->counts, in->profile_path, def ? &def->model : NULL);
	}
	for (size_t i = 0; i < bf->nbudgets && !ev->have_stack; i++)
		if (roi_budget_is_static(&bf->budgets[i])) {
			if (roi_stack_build(&ev->stack, &in->prog, err) != 0) {
				roi_stack_free(&ev->stack);
				return -1;
			}
			ev->have_stack = true;
		}

	ev->results = roi_arena_array(&ev->arena, bf->nbudgets ? bf->nbudgets : 1, sizeof *ev->results);
	subjects = roi_arena_array(&ev->arena, bf->nbudgets ? bf->nbudgets : 1, sizeof *subjects);
	ev->nresults = bf->nbudgets;
	for (size_t i = 0; i < bf->nbudgets; i++) {
		const struct roi_budget *b = &bf->budgets[i];
		struct roi_budget_result *r = &ev->results[i];
		const char *path = b->model ? b->model : opt->model;
		struct roi_budget_model *m;
		struct roi_err merr;

		r->b = b;
		if (roi_budget_is_static(b)) {
			if (evaluate_static(ev, bf, r, opt, diags)) {
				ev->npass += r->status == ROI_BUDGET_PASS;
				ev->nwarn += r->status == ROI_BUDGET_WARN;
				ev->nfail += r->status == ROI_BUDGET_FAIL;
			}
			continue;
		}
		if (!resolve(ev, bf, r, &subjects[i], opt, diags))
			continue;
		/* one budget per subject: fir.c:26 and fir:26 are the same loop */
		for (size_t j = 0; j < i; j++) {
			const struct roi_budget *o = &bf->budgets[j];
			char q1[128], q2[128];

			if (!ev->results[j].present || subjects[j].fn != subjects[i].fn || subjects[j].loop != subjects[i].loop ||
			    o->per != b->per || strcmp(roi_budget_quantity_name(o, q1, sizeof q1),
							roi_budget_quantity_name(b, q2, sizeof q2)) != 0 ||
			    strcmp(o->model ? o->model : "", b->model ? b->model : "") != 0)
				continue;
			roi_diag(diags, bf->path, b->line, b->subject_col, "duplicate budget: region %s is the loop %s, "
				 "whose %s %s line %u already limits", b->name, subjects[i].id, q2, roi_budget_per_name(b),
				 o->line);
			r->present = false;
			goto next;
		}
		if (!path && b->quantity != ROI_BUDGET_OPS) {
			char q[128];
			roi_diag(diags, bf->path, b->line, b->quantity_col, "a %s budget needs a cost model: --model FILE, "
				 "or 'model FILE' on the line", roi_budget_quantity_name(b, q, sizeof q));
			continue;
		}
		m = model_for(ev, path, &merr);
		if (!m) {
			roi_diag(diags, bf->path, b->line, b->model ? b->model_col : 1, "%s", merr.msg);
			continue;
		}
		r->model = m;
		if (evaluate(ev, r, m, &subjects[i], opt, &merr) != 0) {
			roi_diag(diags, bf->path, b->line, b->quantity_col, "%s", merr.msg);
			r->present = false;
			continue;
		}
		ev->npass += r->status == ROI_BUDGET_PASS;
		ev->nwarn += r->status == ROI_BUDGET_WARN;
		ev->nfail += r->status == ROI_BUDGET_FAIL;
next:;
	}
	return 0;
}

void roi_budget_eval_free(struct roi_budget_eval *ev)
{
	for (size_t i = 0; i < ev->nmodels; i++) {
		struct roi_budget_model *m = ev->models[i];

		for (size_t k = 0; k < m->nkinds; k++) {
			roi_hier_free(&m->kinds[k]->h);
			free(m->kinds[k]);
		}
		free(m->kinds);
		roi_hier_free(&m->h);
		roi_estimate_free(&m->est);
		roi_model_free(&m->model);
		free(m);
	}
	free(ev->models);
	if (ev->have_stack)
		roi_stack_free(&ev->stack);
	roi_arena_free(&ev->arena);
	memset(ev, 0, sizeof *ev);
}
