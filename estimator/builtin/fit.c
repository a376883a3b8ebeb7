/* builtin/fit.c — "roi fit" (docs/fit.md): profiles of one program at several input sizes; the whole
 * run's, each function's and each loop's calls, operations, cycles and energy fitted to a form of
 * growth.h, how well the form predicts the sizes left out of its fit, and (--at) what each costs
 * at another size. --write-profile writes the counts predicted for that size as a profile, which
 * roi budget check, roi report and every other command read as they read a run's. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "input/checks.h"
#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/counts.h"
#include "price/estimate.h"
#include "base/fmt.h"
#include "growth/growth.h"
#include "price/hier.h"
#include "input/model.h"
#include "base/path.h"
#include "input/profile.h"
#include "input/session.h"
#include "report/report.h"
#include "base/table.h"

static const char usage[] =
	"usage: roi fit [--model FILE] [--json] [--region ID] [--at SIZES] [--max-error PCT]\n"
	"               [--write-profile FILE] [PROGRAM] SIZES:PROFILE SIZES:PROFILE...\n"
	"\n"
	"How the cost of a program grows with its input: each PROFILE is a run at the SIZES given\n"
	"before it (n=64, or n=64,m=8 for two size parameters), of PROGRAM, or without PROGRAM of the\n"
	"build its \"program\" line names (one build per size, for sizes fixed at compile time). The\n"
	"whole run's, every function's and every loop's calls, operations (and, with a cost model,\n"
	"cycles and energy) are fitted to the form that best predicts each size from the others: 1,\n"
	"log2(n), n, 2^n, n*log2(n), n^2, n^3, n+m, n*m, each with its lower terms (docs/fit.md).\n"
	"With --at, what each costs at SIZES, where its form predicted the sizes measured within\n"
	"--max-error. Exit status 3 when --at was given and the total (or --region's figures) could\n"
	"not be predicted, or --write-profile not written for that reason; 1 for bad input, 2 for a\n"
	"usage error, else 0.\n"
	"\n"
	"  -m, --model FILE        cost model (JSON, see models/README.md): cycles and energy too\n"
	"      --json              one JSON document on stdout (see docs/fit.md)\n"
	"  -r, --region ID         only that function or loop and the loops inside it: a function's\n"
	"                          name or a loop's FUNCTION:LINE, as roi report names them\n"
	"      --at SIZES          predict at these sizes (n=1000, or n=1000,m=64)\n"
	"      --max-error PCT     predict only from forms whose held-out error is at most PCT\n"
	"                          percent (default 2)\n"
	"      --write-profile FILE  with --at and one PROGRAM: every counter predicted at SIZES,\n"
	"                          written as a profile of one run (for roi budget check, roi report)\n"
	"  -h, --help              this help\n";

enum { EXIT_NOT_PREDICTED = 3, MAXPOINTS = 256, MAXPARAMS = 8 };

#define CELL 96

enum quantity { Q_CALLS, Q_OPS, Q_CYCLES, Q_ENERGY, NQ };
static const char *const qnames[NQ] = {"calls", "ops", "cycles", "energy_j"};

struct point {
	const char *spec;               /* as given: "n=8:isort-8.roi" */
	const char *path;
	double x[MAXPARAMS];            /* in the order of fit.params */
	struct roi_session in;          /* the profile, and PROGRAM or the one its "program" line names */
	const struct roi_program *prog; /* &in.prog */
	struct roi_estimate est;
	struct roi_hier h;
	bool computed;
};

/* One quantity of one row at every size, and what is made of it. */
struct fitted {
	bool has;
	bool whole;                     /* a count: predicted as a whole number */
	double *y;                      /* per point, per run */
	struct roi_growth_fit fit;
	bool predictable;               /* a form predicts the held-out sizes within --max-error */
	bool predicted;                 /* --at: and it gave a figure */
	double prediction;
	const char *why;                /* why not predictable, or not predicted */
};

struct row {
	const char *key;                /* the same in every build of the sources (row_key) */
	const char *id, *kind;          /* "total" "program"; "main" "function"; "main:12" "loop" */
	const struct roi_function *fn;  /* NULL: the whole run */
	int loop;                       /* -1: not a loop */
	struct row *parent;
	struct row **children;
	size_t nchildren, cap;
	struct fitted q[NQ];
};

struct fit {
	const char *program_path, *model_path, *region, *at_spec, *write_profile;
	bool json;
	double max_error;               /* a fraction */
	size_t nprogs;                  /* programs the profiles are of (by path) */
	const struct roi_program *prog; /* the one program of every profile; NULL: several builds */
	struct roi_model model;
	bool has_model;
	struct point *pts;
	size_t npts;
	const char *params[MAXPARAMS];
	size_t nparams;
	double at[MAXPARAMS];
	bool has_at;
	struct roi_growth_family fam;
	double *x;                      /* npts x nparams */
	struct row total;
	struct row **roots;             /* function rows, the largest run's order first */
	size_t nroots, caproots;
	struct row **rows;              /* every row but the total, for lookups by key */
	size_t nrows, caprows;
	struct row **focus;             /* --region's rows */
	size_t nfocus;
	struct roi_arena arena;
};

/* ---- sizes ---- */

/* "n=8,m=4" up to the end or a ':' (whose position goes to *rest). Names are C identifiers, values
 * positive numbers. Returns the number of parameters, or -1 with msg set. */
static int parse_sizes(const char *s, bool until_colon, const char **names, double *x, const char **rest,
		       struct roi_arena *a, char *msg, size_t size)
{
	int n = 0;
	const char *p = s;

	for (;;) {
		const char *name = p, *eq;
		char *end;

		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p == name || isdigit((unsigned char)*name) || *p != '=') {
			snprintf(msg, size, "'%s' is not %s", s, until_colon ? "SIZES:PROFILE (n=8:prof.roi, n=8,m=4:prof.roi)"
									      : "SIZES (n=1000, n=1000,m=64)");
			return -1;
		}
		eq = p;
		double v = strtod(eq + 1, &end);
		if (*end == ':' && !until_colon) {
			snprintf(msg, size, "'%s' is not SIZES (n=1000, n=1000,m=64)", s);
			return -1;
		}
		if (end == eq + 1 || !isfinite(v) || v <= 0 || (*end && *end != ',' && *end != ':')) {
			snprintf(msg, size, "in '%s', %.*s must be a positive number, got '%.*s'", s, (int)(eq - name), name,
				 (int)strcspn(eq + 1, ",:"), eq + 1);
			return -1;
		}
		if (n == MAXPARAMS) {
			snprintf(msg, size, "'%s' has more than %d size parameters", s, MAXPARAMS);
			return -1;
		}
		names[n] = roi_arena_printf(a, "%.*s", (int)(eq - name), name);
		for (int i = 0; i < n; i++)
			if (strcmp(names[i], names[n]) == 0) {
				snprintf(msg, size, "'%s' gives %s twice", s, names[n]);
				return -1;
			}
		x[n++] = v;
		p = end;
		if (*p == ',') {
			p++;
			continue;
		}
		if (until_colon && *p != ':') {
			snprintf(msg, size, "'%s' is not SIZES:PROFILE: no ':' before the profile", s);
			return -1;
		}
		if (until_colon && !p[1]) {
			snprintf(msg, size, "'%s' names no profile after the ':'", s);
			return -1;
		}
		*rest = p;
		return n;
	}
}

static const char *names_list(struct roi_arena *a, const char *const *names, size_t n)
{
	const char *s = "";

	for (size_t i = 0; i < n; i++)
		s = roi_arena_printf(a, "%s%s%s", s, i ? ", " : "", names[i]);
	return s;
}

/* Puts the values of names[] in the order of f->params; -1 when the sets differ. */
static int order_sizes(const struct fit *f, const char *const *names, const double *v, size_t n, double *x)
{
	if (n != f->nparams)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < f->nparams && strcmp(f->params[k], names[i]) != 0)
			k++;
		if (k == f->nparams)
			return -1;
		x[k] = v[i];
	}
	return 0;
}

/* "n=1000,m=64" in the parameters' order */
static const char *sizes_text(const struct fit *f, const double *x, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < f->nparams && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%.15g", i ? "," : "", f->params[i], x[i]);
	return buf;
}

static int parse_points(struct fit *f, const char *cmd, const char *const *pos, int npos)
{
	char msg[512];

	f->npts = (size_t)npos;
	f->pts = roi_arena_array(&f->arena, f->npts, sizeof *f->pts);
	for (size_t i = 0; i < f->npts; i++) {
		struct point *pt = &f->pts[i];
		const char *names[MAXPARAMS], *rest;
		double v[MAXPARAMS];
		int n = parse_sizes(pos[i], true, names, v, &rest, &f->arena, msg, sizeof msg);

		if (n < 0)
			return roi_usage_error(cmd, "%s", msg);
		pt->spec = pos[i];
		pt->path = rest + 1;
		if (i == 0) {
			f->nparams = (size_t)n;
			memcpy(f->params, names, (size_t)n * sizeof *names);
		}
		if (order_sizes(f, names, v, (size_t)n, pt->x) != 0)
			return roi_usage_error(cmd, "every profile is at the same size parameters: '%s' gives %s, '%s' %s",
					       pos[0], names_list(&f->arena, f->params, f->nparams), pos[i],
					       names_list(&f->arena, names, (size_t)n));
		for (size_t j = 0; j < i; j++)
			if (memcmp(f->pts[j].x, pt->x, f->nparams * sizeof *pt->x) == 0)
				return roi_usage_error(cmd, "'%s' and '%s' are at the same sizes: one profile per size (a "
						       "profile adds up the runs written into it)", f->pts[j].spec, pt->spec);
	}
	if (f->npts < 2)
		return roi_usage_error(cmd, "a fit needs profiles at 2 sizes or more (3 for anything but a constant)");
	f->x = roi_arena_array(&f->arena, f->npts * f->nparams, sizeof *f->x);
	for (size_t i = 0; i < f->npts; i++)
		memcpy(f->x + i * f->nparams, f->pts[i].x, f->nparams * sizeof *f->x);
	if (f->at_spec) {
		const char *names[MAXPARAMS], *rest;
		double v[MAXPARAMS];
		int n = parse_sizes(f->at_spec, false, names, v, &rest, &f->arena, msg, sizeof msg);

		if (n < 0)
			return roi_usage_error(cmd, "--at: %s", msg);
		if (order_sizes(f, names, v, (size_t)n, f->at) != 0)
			return roi_usage_error(cmd, "--at gives %s; the profiles are at sizes of %s",
					       names_list(&f->arena, names, (size_t)n),
					       names_list(&f->arena, f->params, f->nparams));
		f->has_at = true;
	}
	return 0;
}

/* Whether a command-line argument is SIZES:PROFILE rather than PROGRAM: it starts "NAME=". */
static bool is_point(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n > 0 && !isdigit((unsigned char)s[0]) && s[n] == '=';
}

/* ---- rows ---- */

static void add_child(struct row ***list, size_t *n, size_t *cap, struct row *r)
{
	if (*n == *cap)
		*list = roi_xrealloc(*list, *cap = *cap ? 2 * *cap : 8, sizeof **list);
	(*list)[(*n)++] = r;
}

static void init_row(struct fit *f, struct row *r, bool calls)
{
	for (int q = 0; q < NQ; q++) {
		r->q[q].has = q == Q_OPS || (q == Q_CALLS && calls) || ((q == Q_CYCLES || q == Q_ENERGY) && f->has_model);
		r->q[q].whole = q == Q_OPS || q == Q_CALLS;
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

static struct row *row_of(struct fit *f, size_t p, const struct roi_node *n, struct row *parent)
{
	const char *key = row_key(&f->arena, f->pts[p].prog, n);

	for (size_t i = 0; i < f->nrows; i++)
		if (strcmp(f->rows[i]->key, key) == 0)
			return f->rows[i];
	struct row *r = roi_arena_alloc(&f->arena, sizeof *r);
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
static void gather(struct fit *f, size_t p, const struct roi_node *n, struct row *parent)
{
	double runs = f->pts[p].in.counts.runs ? (double)f->pts[p].in.counts.runs : 1;

	if (!n->fn || n->kind == ROI_NODE_LINE || (n->kind == ROI_NODE_FUNCTION && n->parent) ||
	    (n->kind == ROI_NODE_LOOP && n->loop < 0))
		return;
	struct row *r = row_of(f, p, n, parent);
	r->q[Q_CALLS].y[p] = (double)n->calls / runs;
	r->q[Q_OPS].y[p] = n->cost.ops / runs;
	r->q[Q_CYCLES].y[p] = n->cost.cycles / runs;
	r->q[Q_ENERGY].y[p] = n->cost.energy_j / runs;
	for (size_t i = 0; i < n->nchildren; i++)
		gather(f, p, n->children[i], r);
}

static void fit_quantity(struct fit *f, struct fitted *q)
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

static void fit_row(struct fit *f, struct row *r)
{
	for (int q = 0; q < NQ; q++)
		if (r->q[q].has)
			fit_quantity(f, &r->q[q]);
	for (size_t i = 0; i < r->nchildren; i++)
		fit_row(f, r->children[i]);
}

static void find_rows(struct fit *f, struct row *r)
{
	if (strcmp(r->id, f->region) == 0) {
		f->focus = roi_xrealloc(f->focus, f->nfocus + 1, sizeof *f->focus);
		f->focus[f->nfocus++] = r;
	}
	for (size_t i = 0; i < r->nchildren; i++)
		find_rows(f, r->children[i]);
}

/* Loads every profile and its program, computes its estimate and hierarchy, and fits every row. */
static int build(struct fit *f)
{
	struct roi_err err;
	size_t biggest = 0;

	if (f->model_path && roi_model_load(f->model_path, &f->model, &err) != 0)
		return roi_data_error(&err);
	f->has_model = f->model_path != NULL;
	for (size_t i = 0; i < f->npts; i++) {
		struct point *pt = &f->pts[i];
		bool first = true;

		if (roi_session_load(&pt->in, &(struct roi_session_args){f->program_path, pt->path, NULL, false}, &err) != 0)
			return roi_data_error(&err);
		pt->prog = &pt->in.prog;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(f->pts[j].in.program_path, pt->in.program_path) != 0;
		f->nprogs += first;
		/* a program's warnings (the model, the filter) once; each profile's own (missing
		 * functions, saturated counters) for each */
		roi_check_inputs(pt->prog, &pt->in.counts, pt->path, first && f->has_model ? &f->model : NULL);
		pt->computed = true;    /* freed whatever the two leave behind */
		if (roi_estimate_compute(&pt->est, pt->prog, &pt->in.counts, f->has_model ? &f->model : NULL, &err) != 0 ||
		    roi_hier_build(&pt->h, &pt->est, &err) != 0)
			return roi_data_error(&err);
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

		f->total.q[Q_OPS].y[i] = h->total.ops / runs;
		f->total.q[Q_CYCLES].y[i] = h->total.cycles / runs;
		f->total.q[Q_ENERGY].y[i] = h->total.energy_j / runs;
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
		if (!f->nfocus) {
			fprintf(stderr, "roi: %s has no function or loop '%s' that ran in these profiles (a function's "
				"name, a loop's FUNCTION:LINE, as roi report names them)\n", f->pts[biggest].prog->path,
				f->region);
			return ROI_EXIT_DATA;
		}
	}
	return ROI_EXIT_OK;
}

static void free_children(struct row *r)
{
	for (size_t i = 0; i < r->nchildren; i++)
		free_children(r->children[i]);
	free(r->children);
}

/* Whether the figures asked for — the total's, or --region's rows' — were all predicted. */
static bool headline_predicted(const struct fit *f, const char **why, const char **what)
{
	const struct row *const total = &f->total;
	const struct row *const *rows = f->nfocus ? (const struct row *const *)f->focus : &total;
	size_t n = f->nfocus ? f->nfocus : 1;

	for (size_t i = 0; i < n; i++)
		for (int q = 0; q < NQ; q++)
			if (rows[i]->q[q].has && !rows[i]->q[q].predicted) {
				*why = rows[i]->q[q].why;
				*what = qnames[q];
				return false;
			}
	return true;
}

/* The point where |y| is largest: the formula leaves out what is noise beside it. */
static size_t largest(const struct fit *f, const struct fitted *q)
{
	size_t k = 0;

	for (size_t i = 1; i < f->npts; i++)
		if (fabs(q->y[i]) > fabs(q->y[k]))
			k = i;
	return k;
}

static const char *fmt_value(int q, double v, char *buf, size_t size)
{
	if (q == Q_CYCLES)
		return roi_fmt_num(round(100 * v) / 100, buf, size);
	if (q == Q_ENERGY)
		return roi_fmt_si(v, "J", buf, size);
	snprintf(buf, size, "%.0f", v);
	return buf;
}

/* ---- text ---- */

static void text_rows(const struct fit *f, struct roi_table *t, const struct row *r, int depth)
{
	bool first = true;

	for (int q = 0; q <= Q_CYCLES; q++) {
		const struct fitted *v = &r->q[q];
		char id[512] = "", formula[256], err[CELL], pred[CELL] = "", note[512] = "";

		if (!v->has)
			continue;
		if (first)
			snprintf(id, sizeof id, "%*s%s", 2 * depth, "", r->id);
		size_t k = largest(f, v);
		roi_growth_formula(&v->fit, f->x + k * f->nparams, v->y[k], formula, sizeof formula);
		if (isfinite(v->fit.error))
			snprintf(err, sizeof err, "%.2f%%", 100 * v->fit.error);
		else
			snprintf(err, sizeof err, "-");
		if (v->predicted)
			fmt_value(q, v->prediction, pred, sizeof pred);
		else if (f->has_at)
			snprintf(pred, sizeof pred, "-");
		if (v->why)
			snprintf(note, sizeof note, "%s: %s", f->has_at ? "not predicted" : "not for extrapolation", v->why);
		if (f->has_at)
			roi_table_row(t, id, first ? r->kind : "", qnames[q], v->fit.form ? v->fit.form->name : "-", formula,
				      err, pred, note);
		else
			roi_table_row(t, id, first ? r->kind : "", qnames[q], v->fit.form ? v->fit.form->name : "-", formula,
				      err, note);
		first = false;
	}
	for (size_t i = 0; i < r->nchildren; i++)
		text_rows(f, t, r->children[i], depth + 1);
}

static void fit_text(FILE *out, const struct fit *f)
{
	struct roi_table t;
	char hz[CELL], at[256], col[300];
	bool same_runs = true;

	if (f->prog) {
		fprintf(out, "program   %s\n", f->prog->path);
	} else {
		fprintf(out, "programs  each profile's own (its program line), %zu builds\n", f->nprogs);
	}
	fprintf(out, "profiles  ");
	for (size_t i = 0; i < f->npts; i++) {
		fprintf(out, "%s%s", i ? ", " : "", f->pts[i].spec);
		same_runs &= f->pts[i].in.counts.runs == f->pts[0].in.counts.runs;
	}
	if (same_runs)
		fprintf(out, " (%llu run%s each)\n", (unsigned long long)f->pts[0].in.counts.runs,
			f->pts[0].in.counts.runs == 1 ? "" : "s");
	else
		fprintf(out, " (figures per run)\n");
	if (f->has_model)
		fprintf(out, "model     %s (%s) at %s [%s]%s\n", f->model.part, f->model.arch,
			roi_fmt_si(f->model.clock_hz, "Hz", hz, sizeof hz), f->model.path,
			f->pts[0].est.mapped ? ", host ABI mapped" : "");
	else
		fprintf(out, "model     none: calls and operations only (--model FILE adds cycles and energy)\n");
	fprintf(out, "forms     ");
	for (size_t i = 0; i < f->fam.nforms; i++)
		fprintf(out, "%s%s", i ? ", " : "", f->fam.forms[i].name);
	fprintf(out, " (with lower terms); the least held-out error, the simplest of ties; extrapolated within %g%%\n",
		100 * f->max_error);
	if (f->region)
		fprintf(out, "region    %s\n", f->region);

	roi_table_init(&t, f->has_at ? "lllllrrl" : "lllllrl");
	if (f->has_at) {
		snprintf(col, sizeof col, "at %s", sizes_text(f, f->at, at, sizeof at));
		roi_table_row(&t, "identifier", "class", "quantity", "form", "formula", "error", col, "note");
	} else {
		roi_table_row(&t, "identifier", "class", "quantity", "form", "formula", "error", "note");
	}
	if (f->nfocus) {
		for (size_t i = 0; i < f->nfocus; i++)
			text_rows(f, &t, f->focus[i], 0);
	} else {
		text_rows(f, &t, &f->total, 0);
		for (size_t i = 0; i < f->nroots; i++)
			text_rows(f, &t, f->roots[i], 0);
	}
	fputc('\n', out);
	roi_table_print(&t, out, "  ");
	if (!f->has_at)
		return;

	const char *why, *what;
	const struct row *const total = &f->total;
	const struct row *const *rows = f->nfocus ? (const struct row *const *)f->focus : &total;
	size_t n = f->nfocus ? f->nfocus : 1;
	fputc('\n', out);
	if (!headline_predicted(f, &why, &what)) {
		fprintf(out, "at        %s: %s not predicted (%s: %s)\n", sizes_text(f, f->at, at, sizeof at),
			f->nfocus ? f->region : "the total", what, why);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fitted *q = rows[i]->q;
		char ops[CELL], cyc[CELL], sec[CELL], ej[CELL];

		fprintf(out, "at        %s: %s %s ops", sizes_text(f, f->at, at, sizeof at), rows[i]->id,
			fmt_value(Q_OPS, q[Q_OPS].prediction, ops, sizeof ops));
		if (f->has_model)
			fprintf(out, ", %s cycles, %s, %s", fmt_value(Q_CYCLES, q[Q_CYCLES].prediction, cyc, sizeof cyc),
				roi_fmt_si(q[Q_CYCLES].prediction / f->model.clock_hz, "s", sec, sizeof sec),
				roi_fmt_si(q[Q_ENERGY].prediction, "J", ej, sizeof ej));
		if (q[Q_CALLS].has)
			fprintf(out, " in %.0f call%s", q[Q_CALLS].prediction, q[Q_CALLS].prediction == 1 ? "" : "s");
		fputc('\n', out);
	}
}

/* ---- JSON ---- */

static cJSON *sizes_json(const struct fit *f, const double *x)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < f->nparams; i++)
		cJSON_AddNumberToObject(o, f->params[i], x[i]);
	return o;
}

static cJSON *fitted_json(const struct fit *f, const struct fitted *v)
{
	cJSON *o = cJSON_CreateObject(), *a;
	char formula[256];
	size_t k = largest(f, v);

	a = cJSON_AddArrayToObject(o, "values");
	for (size_t i = 0; i < f->npts; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v->y[i]));
	if (v->fit.form) {
		cJSON_AddStringToObject(o, "form", v->fit.form->name);
		a = cJSON_AddArrayToObject(o, "terms");
		for (size_t j = 0; j < v->fit.form->nterms; j++) {
			cJSON *t = cJSON_CreateObject();

			cJSON_AddStringToObject(t, "term", v->fit.form->terms[j].name);
			cJSON_AddNumberToObject(t, "coef", v->fit.coef[j]);
			cJSON_AddItemToArray(a, t);
		}
		cJSON_AddStringToObject(o, "formula",
					roi_growth_formula(&v->fit, f->x + k * f->nparams, v->y[k], formula, sizeof formula));
	} else {
		cJSON_AddNullToObject(o, "form");
		cJSON_AddArrayToObject(o, "terms");
		cJSON_AddNullToObject(o, "formula");
	}
	roi_json_number_or_null(o, "error_pct", v->fit.form != NULL, 100 * v->fit.error);
	roi_json_number_or_null(o, "residual_pct", v->fit.form != NULL, 100 * v->fit.residual);
	cJSON_AddBoolToObject(o, "predictable", v->predictable);
	roi_json_number_or_null(o, "prediction", v->predicted, v->prediction);
	roi_json_string_or_null(o, "why", v->why);
	return o;
}

static cJSON *row_json(const struct fit *f, const struct row *r)
{
	cJSON *o = cJSON_CreateObject(), *q, *a;

	cJSON_AddStringToObject(o, "id", r->id);
	cJSON_AddStringToObject(o, "kind", r->kind);
	if (r->fn) {
		const struct roi_loop *l = r->loop >= 0 ? &r->fn->loops[r->loop] : NULL;

		cJSON_AddStringToObject(o, "function", r->fn->name);
		cJSON_AddStringToObject(o, "unit", r->fn->unit->id_hex);
		cJSON_AddStringToObject(o, "file", r->fn->unit->files[l ? l->file : r->fn->file]);
		cJSON_AddNumberToObject(o, "line", l ? l->line : r->fn->line);
	}
	q = cJSON_AddObjectToObject(o, "quantities");
	for (int i = 0; i < NQ; i++)
		if (r->q[i].has)
			cJSON_AddItemToObject(q, qnames[i], fitted_json(f, &r->q[i]));
		else if (i != Q_CALLS || r->fn)
			cJSON_AddNullToObject(q, qnames[i]);
	if (r->fn) {
		a = cJSON_AddArrayToObject(o, "children");
		for (size_t i = 0; i < r->nchildren; i++)
			cJSON_AddItemToArray(a, row_json(f, r->children[i]));
	}
	return o;
}

static cJSON *fit_json(const struct fit *f)
{
	cJSON *o = cJSON_CreateObject(), *a;
	const char *why, *what;

	cJSON_AddNumberToObject(o, "roi_fit", 1);
	roi_json_string_or_null(o, "program", f->prog ? f->prog->path : NULL);
	a = cJSON_AddArrayToObject(o, "parameters");
	for (size_t i = 0; i < f->nparams; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(f->params[i]));
	a = cJSON_AddArrayToObject(o, "points");
	for (size_t i = 0; i < f->npts; i++) {
		cJSON *p = cJSON_CreateObject();

		cJSON_AddItemToObject(p, "sizes", sizes_json(f, f->pts[i].x));
		cJSON_AddStringToObject(p, "profile", f->pts[i].path);
		cJSON_AddStringToObject(p, "program", f->pts[i].prog->path);
		cJSON_AddNumberToObject(p, "runs", (double)f->pts[i].in.counts.runs);
		roi_json_string_or_null(p, "transferred_from", f->pts[i].in.counts.transferred);
		cJSON_AddItemToArray(a, p);
	}
	cJSON_AddItemToObject(o, "model", roi_model_json(&f->pts[0].est));
	a = cJSON_AddArrayToObject(o, "forms");
	for (size_t i = 0; i < f->fam.nforms; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(f->fam.forms[i].name));
	cJSON_AddNumberToObject(o, "max_error_pct", 100 * f->max_error);
	if (f->has_at)
		cJSON_AddItemToObject(o, "at", sizes_json(f, f->at));
	else
		cJSON_AddNullToObject(o, "at");
	roi_json_string_or_null(o, "region", f->region);
	if (f->has_at)
		cJSON_AddBoolToObject(o, "predicted", headline_predicted(f, &why, &what));
	else
		cJSON_AddNullToObject(o, "predicted");
	cJSON_AddItemToObject(o, "total", row_json(f, &f->total));
	a = cJSON_AddArrayToObject(o, "tree");
	if (f->nfocus) {
		for (size_t i = 0; i < f->nfocus; i++)
			cJSON_AddItemToArray(a, row_json(f, f->focus[i]));
	} else {
		for (size_t i = 0; i < f->nroots; i++)
			cJSON_AddItemToArray(a, row_json(f, f->roots[i]));
	}
	return o;
}

/* ---- the predicted profile ---- */

/* Every counter of the program fitted and predicted at --at; written only when every one of them
 * could be (a budget checked on a profile with guessed counters would check a guess). */
static int write_profile(struct fit *f)
{
	const struct roi_program *p = f->prog;
	struct roi_profile_fn *fns = roi_arena_array(&f->arena, p->nfunctions ? p->nfunctions : 1, sizeof *fns);
	double *y = roi_arena_array(&f->arena, f->npts, sizeof *y);
	size_t nfns = 0, nbad = 0, ncounters = 0;
	const char *first = NULL;
	char at[256];
	struct roi_err err;
	FILE *out;

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nfunctions; i++) {
			const struct roi_function *fn = &p->units[u].functions[i];
			uint64_t *c = roi_arena_array(&f->arena, fn->nblocks, sizeof *c);

			for (size_t b = 0; b < fn->nblocks; b++) {
				struct fitted q = {.has = true, .whole = true, .y = y};

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
			fns[nfns++] = (struct roi_profile_fn){fn->unit->id, (uint32_t)fn->index, fn->checksum, fn->nblocks,
							      c, 0};
		}
	if (nbad) {
		fprintf(stderr, "roi: %s not written: %zu of %zu counters cannot be predicted at %s (first: %s)\n",
			f->write_profile, nbad, ncounters, sizes_text(f, f->at, at, sizeof at), first);
		return EXIT_NOT_PREDICTED;
	}
	out = fopen(f->write_profile, "w");
	if (!out) {
		fprintf(stderr, "roi: %s: %s\n", f->write_profile, strerror(errno));
		return ROI_EXIT_DATA;
	}
	int rc = roi_profile_write(out, f->pts[0].in.prof.program, 1, NULL, fns, nfns, NULL, &err);
	if (fclose(out) != 0 && rc == 0)
		rc = roi_err_set(&err, "cannot write the profile");
	if (rc != 0) {
		fprintf(stderr, "roi: %s: %s\n", f->write_profile, err.msg);
		return ROI_EXIT_DATA;
	}
	return ROI_EXIT_OK;
}

int cmd_fit(int argc, char **argv)
{
	const char *pos[MAXPOINTS + 1], *max_error = NULL, *why, *what;
	int npos, rc, status;
	struct fit f = {0};
	struct roi_option opts[] = {
		{.name = "model", .short_name = 'm', .value = &f.model_path},
		{.name = "json", .flag = &f.json},
		{.name = "region", .short_name = 'r', .value = &f.region},
		{.name = "at", .value = &f.at_spec},
		{.name = "max-error", .value = &max_error},
		{.name = "write-profile", .value = &f.write_profile},
	};

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, MAXPOINTS + 1, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing SIZES:PROFILE");
	if (f.region && !*f.region)
		return roi_usage_error(argv[0], "--region needs a function name or FUNCTION:LINE");
	f.max_error = 0.02;
	if (max_error) {
		char *end;
		double v = strtod(max_error, &end);

		if (end == max_error || *end || !(v > 0 && v < 100))
			return roi_usage_error(argv[0], "--max-error takes a percentage above 0 and below 100, got '%s'",
					       max_error);
		f.max_error = v / 100;
	}
	if (f.write_profile && !f.at_spec)
		return roi_usage_error(argv[0], "--write-profile needs --at: the sizes to predict the counters at");
	/* PROGRAM, unless the first argument is a point: then each profile names its own */
	f.program_path = is_point(pos[0]) ? NULL : pos[0];
	status = parse_points(&f, argv[0], pos + !!f.program_path, npos - !!f.program_path);
	if (status != 0)
		goto out;
	status = build(&f);
	if (status != 0)
		goto out;
	if (f.write_profile && !f.prog) {
		status = roi_usage_error(argv[0], "--write-profile needs one program for every profile; these name %zu "
					 "(give PROGRAM if they are runs of one build)", f.nprogs);
		goto out;
	}
	if (f.json) {
		roi_json_print(fit_json(&f));
	} else {
		fit_text(stdout, &f);
	}
	status = roi_output_status();
	if (status != ROI_EXIT_OK)
		goto out;
	if (f.has_at && !headline_predicted(&f, &why, &what))
		status = EXIT_NOT_PREDICTED;
	if (f.write_profile) {
		int w = write_profile(&f);
		if (w != ROI_EXIT_OK && (status == ROI_EXIT_OK || w == ROI_EXIT_DATA))
			status = w;
	}
out:
	for (size_t i = 0; i < f.npts; i++) {
		struct point *pt = &f.pts[i];

		if (pt->computed) {
			roi_hier_free(&pt->h);
			roi_estimate_free(&pt->est);
		}
		roi_session_free(&pt->in);
	}
	for (size_t i = 0; i < f.nroots; i++)
		free_children(f.roots[i]);
	free(f.roots);
	free(f.total.children);
	free(f.focus);
	roi_growth_family_free(&f.fam);
	roi_model_free(&f.model);
	free(f.rows);
	roi_arena_free(&f.arena);
	return status;
}
