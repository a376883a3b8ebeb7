/* calibrate/calib_model.c — the cost structure "roi calibrate" fits (calib_model.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lsq.h"
#include "calibrate/calib_model.h"
#include "input/types.h"

#define MAX_TERMS 12

struct term {
	size_t param;
	double v;
};

struct params {
	char **names;
	size_t n, cap;
};

/* The parameter called name; created when create is set, else (size_t)-1 when there is none. */
static size_t param(struct params *ps, bool create, const char *fmt, const char *a, const char *b)
{
	char name[512];

	snprintf(name, sizeof name, fmt, a, b ? b : "");
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->names[i], name) == 0)
			return i;
	if (!create)
		return (size_t)-1;
	if (ps->n == ps->cap)
		ps->names = roi_xrealloc(ps->names, ps->cap = ps->cap ? 2 * ps->cap : 64, sizeof *ps->names);
	ps->names[ps->n] = strdup(name);
	if (!ps->names[ps->n])
		abort();
	return ps->n++;
}

static double bytes_of(const char *type, const struct roi_abi *abi)
{
	if (!type)
		return 0;
	if (strcmp(type, "ptr") == 0)
		return abi->pointer_bits / 8.0;
	if (strcmp(type, "bool") == 0)
		return 1;
	if (roi_type_valid(type) && (type[0] == 'i' || type[0] == 'u' || type[0] == 'f' || type[0] == 'q')) {
		double b = atoi(type + 1) / 8.0;
		return b < 1 ? 1 : b;
	}
	return 0;
}

static const char *class_of(const char *type)
{
	const char *c = type ? roi_class_name(roi_type_class(type)) : NULL;
	return c ? c : "none";
}

/* The terms of key's cost. Without create, a parameter that does not exist makes it fail (-1). */
static int terms_of(struct params *ps, const struct roi_calib_key *k, const struct roi_abi *abi, bool create,
		    struct term *t)
{
	int n = 0;
	double bytes = bytes_of(k->type, abi);
	const char *cls = class_of(k->type);
#define TERM(value, fmt, a, b)                                              \
	do {                                                                \
		size_t p_ = param(ps, create, fmt, a, b);                   \
		if (p_ == (size_t)-1)                                       \
			return -1;                                          \
		t[n++] = (struct term){p_, (value)};                        \
	} while (0)

	if (strcmp(k->kind, "conv") == 0 && k->from) {
		char pair[64];
		double fb = bytes_of(k->from, abi);

		snprintf(pair, sizeof pair, "%s>%s", class_of(k->from), cls);
		TERM(1, "K conv %s%s", pair, NULL);
		if (bytes > 0)
			TERM(bytes, "B conv %s%s", pair, NULL);
		if (fb > 0)
			TERM(fb, "F conv %s%s", pair, NULL);
		if (k->from[0] == 'i' && bytes > fb)
			TERM(1, "S conv%s%s", "", NULL);
	} else if (k->callee) {
		/* a library routine: its own cost, shared with nothing (a call of the program's own
		 * functions has no callee in its key) */
		TERM(1, "C %s%s", k->callee, NULL);
	} else {
		TERM(1, "K %s %s", k->kind, cls);
		if (bytes > 0)
			TERM(bytes, "B %s %s", k->kind, cls);
		if (bytes > 0 && roi_kind_is(k->kind, "mul", "div", "mod"))
			TERM(bytes * bytes, "Q %s %s", k->kind, cls);
		if (k->type && k->type[0] == 'i' && strcmp(cls, "int") == 0)
			TERM(1, "S %s%s", k->kind, NULL);
		/* the operand kind: an immediate form, a shift's own sequence per amount, a frame
		 * offset or a symbol */
		if (k->operand)
			TERM(1, "O %s %s", k->kind, k->operand);
		if (k->subscripts)
			TERM((double)(k->subscripts - 1), "D %s%s", k->kind, NULL);
		if (k->access) {
			TERM(1, "A %s %s", k->kind, k->access);
			if (bytes > 0)
				TERM(bytes, "AB %s %s", k->kind, k->access);
		}
	}
#undef TERM
	return n;
}

static void key_text(struct roi_arena *a, struct roi_calib_key *k)
{
	k->text = roi_calib_key_text(a, k);
}

static bool known(const struct roi_calib_fit *f, const char *text)
{
	for (size_t i = 0; i < f->nentries; i++)
		if (strcmp(f->entries[i].key.text, text) == 0)
			return true;
	return false;
}

static const char *const int_types[] = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", NULL};
static const char *const float_types[] = {"f32", "f64", NULL};
static const char *const ptr_types[] = {"ptr", NULL};

static const char *const *types_of_class(const char *cls)
{
	return strcmp(cls, "int") == 0 ? int_types : strcmp(cls, "float") == 0 ? float_types
		: strcmp(cls, "ptr") == 0 ? ptr_types : NULL;
}

/* Costs key from the fitted parameters; false when the structure cannot (a parameter is missing,
 * or no fitted program exercised it). */
static bool structure_cost(struct params *ps, const struct roi_calib_key *k, const struct roi_abi *abi,
			   const double *theta, const bool *exercised, double *cost)
{
	struct term t[MAX_TERMS];
	int n = terms_of(ps, k, abi, false, t);

	if (n < 0)
		return false;
	*cost = 0;
	for (int i = 0; i < n; i++) {
		if (!exercised[t[i].param])
			return false;
		*cost += t[i].v * theta[t[i].param];
	}
	if (*cost < 0)
		*cost = 0;
	return true;
}

static void add_entry(struct roi_calib_fit *f, const struct roi_calib_entry *e, size_t *cap)
{
	if (f->nentries == *cap)
		f->entries = roi_xrealloc(f->entries, *cap = *cap ? 2 * *cap : 128, sizeof *f->entries);
	f->entries[f->nentries++] = *e;
}

/* The base model's cost of key (from a less specific entry when fallback is set), or -1. */
static double base_cost_of(const struct roi_model *base, const struct roi_calib_key *k, bool energy, bool fallback)
{
	bool fb;
	const struct roi_cost *c = roi_model_lookup(base, &(struct roi_opkey){k->kind, k->type, k->access,
		k->callee, k->from, k->operand, k->subscripts}, &fb);

	if (!c || (fb && !fallback))
		return -1;
	return energy ? roi_cost_energy(base, c) : c->cycles;
}

/* Whether a key the structure would add can occur: an amount operand (a shift's or rotate's bits,
 * the N of a division by 2^N) must fit its type (a u8 rotated by 29 cannot occur, and the structure
 * would price it like the u32 one), and quotient bits are counted of 16- and 32-bit divisions only
 * (docs/formats.md), so a "qbits u8" would be a row no profile ever asks for. */
static bool can_occur(const struct roi_calib_key *k, const struct roi_abi *abi)
{
	if (strcmp(k->kind, "qbits") == 0)
		return k->type && (strcmp(k->type, "u16") == 0 || strcmp(k->type, "u32") == 0);
	if (!k->operand || strspn(k->operand, "0123456789") != strlen(k->operand))
		return true;
	return atoi(k->operand) < 8 * bytes_of(k->type, abi);
}

/* Every other combination of a fitted kind with the types of its class (and accesses seen), where
 * the base model has no entry of its own for it (the model keeps the base model's entry then). */
static void add_generic(struct roi_calib_fit *f, size_t *cap, const struct roi_calib_set *set, struct params *ps,
			const struct roi_model *base, const double *theta, const bool *exercised)
{
	const struct roi_abi *abi = &base->abi;

	for (size_t i = 0; i < set->nkeys; i++) {
		const struct roi_calib_key *s = &set->keys[i];
		const char *const *types = types_of_class(class_of(s->type));
		const char *const *froms = s->from ? types_of_class(class_of(s->from)) : NULL;

		if (!types || s->callee)
			continue;
		for (size_t t = 0; types[t]; t++)
			for (size_t u = 0; froms ? froms[u] != NULL : u == 0; u++) {
				struct roi_calib_entry e = {.key = {s->kind, types[t], s->access, NULL,
								    froms ? froms[u] : NULL, s->operand, s->subscripts,
								    NULL}};
				if ((e.key.from && strcmp(e.key.from, e.key.type) == 0) || !can_occur(&e.key, abi))
					continue;
				key_text(&f->arena, &e.key);
				if (known(f, e.key.text) || base_cost_of(base, &e.key, false, false) >= 0 ||
				    !structure_cost(ps, &e.key, abi, theta, exercised, &e.cost))
					continue;
				add_entry(f, &e, cap);
			}
	}
}

#define ROBUST_ROUNDS 5

/* A key that one fitted program alone runs can take whatever cost its few lines ask (a 64-bit add
 * that one other program runs 48 times took 47 cycles where its instructions take 24): the base
 * model's pull on it is this many times the others'. Leave-one-out at -O0: max 12 % -> 7 %. */
#define ONE_PROGRAM_PULL 10

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* w[r] = w0[r] x Huber's weight of the row's residual under cost, scaled by the residuals'
 * median absolute deviation: 1 for the ordinary rows, less the further one lies off. */
static void huber_weights(const struct roi_calib_rows *rows, const double *w0, const unsigned char *rskip,
			  size_t nk, const double *cost, double *w)
{
	size_t nr = rows->n, m = 0;
	double *s = roi_xrealloc(NULL, nr + 1, sizeof *s), *sorted = roi_xrealloc(NULL, nr + 1, sizeof *sorted);

	for (size_t r = 0; r < nr; r++) {
		double est = 0;

		for (size_t k = 0; k < nk; k++)
			est += rows->x[r * nk + k] * cost[k];
		s[r] = fabs(est - rows->y[r]) * sqrt(w0[r]);
		if (!rskip[r])
			sorted[m++] = s[r];
	}
	qsort(sorted, m, sizeof *sorted, by_value);
	double c = 1.345 * 1.4826 * (m ? sorted[m / 2] : 0);
	for (size_t r = 0; r < nr; r++)
		w[r] = w0[r] * (c > 0 && s[r] > c ? c / s[r] : 1);
	free(s);
	free(sorted);
}

/* The median over the keys of a key's weight in the rows (the diagonal of the normal equations):
 * the scale of an absolute pull that is strong for a key seen a few times and weak for a common
 * one. */
static double median_weight(const struct roi_calib_rows *rows, const double *w, const unsigned char *rskip,
			    size_t nk)
{
	double *d = calloc(nk + 1, sizeof *d), *sorted = calloc(nk + 1, sizeof *sorted), med;
	size_t m = 0;

	if (!d || !sorted)
		abort();
	for (size_t r = 0; r < rows->n; r++)
		if (!rskip[r])
			for (size_t k = 0; k < nk; k++)
				d[k] += w[r] * rows->x[r * nk + k] * rows->x[r * nk + k];
	for (size_t k = 0; k < nk; k++)
		if (d[k] > 0)
			sorted[m++] = d[k];
	qsort(sorted, m, sizeof *sorted, by_value);
	med = m ? sorted[m / 2] : 0;
	free(d);
	free(sorted);
	return med;
}

void roi_calib_fit(const struct roi_calib_set *set, const double *x, const struct roi_calib_rows *rows,
		   const unsigned char *skip, const struct roi_model *base, bool energy, double ridge,
		   double base_weight, struct roi_calib_fit *out)
{
	struct params ps = {0};
	size_t nk = set->nkeys, nr = rows->n, np, cap = 0;
	struct term *terms = roi_xrealloc(NULL, nk * MAX_TERMS + 1, sizeof *terms);
	int *nterms = roi_xrealloc(NULL, nk + 1, sizeof *nterms);

	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < nk; k++)
		nterms[k] = terms_of(&ps, &set->keys[k], &base->abi, true, &terms[k * MAX_TERMS]);
	np = ps.n;

	unsigned char *rskip = calloc(nr + 1, 1);
	bool *exercised = calloc(np + 1, sizeof *exercised), *ran = calloc(nk + 1, sizeof *ran);
	size_t nmax = np > nk ? np : nk;
	double *z = calloc(nr * np + 1, sizeof *z), *prior = calloc(nmax + 1, sizeof *prior);
	double *rdg = calloc(nmax + 1, sizeof *rdg), *lower = calloc(nmax + 1, sizeof *lower);
	double *theta = calloc(np + 1, sizeof *theta), *structure = calloc(nk + 1, sizeof *structure);
	double *cost = calloc(nk + 1, sizeof *cost), *rabs = calloc(nk + 1, sizeof *rabs);
	double *base_cost = calloc(nk + 1, sizeof *base_cost);
	bool *has_structure = calloc(nk + 1, sizeof *has_structure);
	if (!rskip || !exercised || !ran || !z || !prior || !rdg || !lower || !theta || !structure || !cost ||
	    !rabs || !base_cost || !has_structure)
		abort();
	/* what the base model says of each key (derived from the instructions the compiler emits) */
	for (size_t k = 0; k < nk; k++)
		base_cost[k] = base_cost_of(base, &set->keys[k], energy, true);
	for (size_t r = 0; r < nr; r++)
		rskip[r] = skip && skip[rows->program[r]];
	/* how many fitted programs run each key, and how often */
	size_t *nprog = calloc(nk + 1, sizeof *nprog);
	double *nexec = calloc(nk + 1, sizeof *nexec);
	if (!nprog || !nexec)
		abort();
	for (size_t p = 0; p < set->nprograms; p++)
		for (size_t k = 0; k < nk; k++)
			if (!(skip && skip[p]) && x[p * nk + k] > 0) {
				nprog[k]++;
				nexec[k] += x[p * nk + k];
			}

	/* 1. the shared structure: z = x phi, what each row ran per parameter, every cost >= 0 */
	for (size_t r = 0; r < nr; r++)
		for (size_t k = 0; k < nk; k++) {
			double n = rows->x[r * nk + k];

			if (n == 0)
				continue;
			if (!rskip[r])
				ran[k] = true;
			for (int i = 0; i < nterms[k]; i++) {
				const struct term *t = &terms[k * MAX_TERMS + i];
				z[r * np + t->param] += n * t->v;
				if (!rskip[r])
					exercised[t->param] = true;
			}
		}
	/* Both stages are fitted robustly (iteratively reweighted, Huber): a row far off the others
	 * is most likely one whose instructions the compiler moved to another line (cross-jumping
	 * shares one library call among several lines at -Os), and must not drag costs with it. */
	double *w = roi_xrealloc(NULL, nr + 1, sizeof *w), *w0 = roi_xrealloc(NULL, nr + 1, sizeof *w0);
	for (size_t r = 0; r < nr; r++)
		w0[r] = w[r] = rows->w ? rows->w[r] : 1 / (rows->y[r] * rows->y[r]);
	for (int round = 0; round < ROBUST_ROUNDS; round++) {
		for (size_t j = 0; j < np; j++) {
			prior[j] = 0;
			rdg[j] = 1e-6;
			lower[j] = 0;
		}
		roi_lsq_solve(&(struct roi_lsq){nr, np, z, rows->y, w, prior, rdg, lower, rskip, NULL}, theta);
		for (size_t k = 0; k < nk; k++)
			has_structure[k] = structure_cost(&ps, &set->keys[k], &base->abi, theta, exercised,
							  &structure[k]);

		/* 2. each key's own cost, >= 0, shrunk towards a prior: the base model's cost where it
		 * has one, else the structure. The ridge pulls in proportion to what the rows say of the
		 * key; the base weight pulls the same for every key, so a key seen a few times on one
		 * line (which can then take any cost the line asks for) stays near the instruction
		 * sequence's cost, and a key the rows say much of gets its own. */
		double pull = base_weight * median_weight(rows, w, rskip, nk);
		for (size_t k = 0; k < nk; k++) {
			prior[k] = base_cost[k] >= 0 ? base_cost[k] : has_structure[k] ? structure[k] : 0;
			rdg[k] = ridge;
			lower[k] = 0;
			rabs[k] = base_cost[k] >= 0 ? pull * (nprog[k] == 1 ? ONE_PROGRAM_PULL : 1) : 0;
		}
		roi_lsq_solve(&(struct roi_lsq){nr, nk, rows->x, rows->y, w, prior, rdg, lower, rskip, rabs}, cost);
		if (round + 1 < ROBUST_ROUNDS)
			huber_weights(rows, w0, rskip, nk, cost, w);
	}
	free(w);
	free(w0);

	for (size_t k = 0; k < nk; k++) {
		struct roi_calib_entry e = {.key = set->keys[k], .programs = nprog[k], .executions = nexec[k]};

		/* a key no fitted program ran: the base model's cost, which reads the instructions, is
		 * a better guess than the structure, which extrapolates from other keys */
		if (ran[k]) {
			e.cost = cost[k];
		} else if (base_cost[k] < 0 && has_structure[k]) {
			e.cost = structure[k];
		} else {
			e.from_base = true;
			e.cost = base_cost[k] >= 0 ? base_cost[k] : 0;
		}
		add_entry(out, &e, &cap);
	}
	add_generic(out, &cap, set, &ps, base, theta, exercised);

	for (size_t j = 0; j < ps.n; j++)
		free(ps.names[j]);
	free(ps.names);
	free(rskip);
	free(exercised);
	free(ran);
	free(z);
	free(prior);
	free(rdg);
	free(lower);
	free(theta);
	free(structure);
	free(cost);
	free(rabs);
	free(base_cost);
	free(has_structure);
	free(nprog);
	free(nexec);
	free(terms);
	free(nterms);
}

void roi_calib_fit_free(struct roi_calib_fit *f)
{
	free(f->entries);
	roi_arena_free(&f->arena);
	memset(f, 0, sizeof *f);
}

void roi_calib_fit_all(const struct roi_calib_set *set, const double *x, const double *y_energy,
		       const struct roi_model *base, const unsigned char *skip, const struct roi_calib_fit_opts *fo,
		       struct roi_calib_fit *cyc, struct roi_calib_fit *en)
{
	size_t nlines, *line_program, np = set->nprograms;
	double *line_y, *line_x = roi_calib_line_matrix(set, &nlines, &line_y, &line_program);
	double *w = roi_xrealloc(NULL, nlines + 1, sizeof *w);
	size_t *program = roi_xrealloc(NULL, np + 1, sizeof *program);

	for (size_t r = 0; r < nlines; r++) {
		double total = (double)set->programs[line_program[r]].cycles;
		w[r] = fo->by_line ? (line_y[r] > 0 ? 1 / line_y[r] : 0) : 1 / (total * total);
	}
	roi_calib_fit(set, x, &(struct roi_calib_rows){nlines, line_x, line_y, w, line_program}, skip, base, false,
		      fo->ridge, fo->base_weight, cyc);
	if (y_energy) {
		for (size_t p = 0; p < np; p++)
			program[p] = p;
		roi_calib_fit(set, x, &(struct roi_calib_rows){np, x, y_energy, NULL, program}, skip, base, true,
			      fo->ridge, fo->base_weight, en);
	}
	free(line_x);
	free(line_y);
	free(line_program);
	free(w);
	free(program);
}
