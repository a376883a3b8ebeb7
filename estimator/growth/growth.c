/* growth/growth.c — forms of growth fitted to counts at several input sizes, see growth.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growth/growth.h"

/* Below this share of its own length, what is left of a column after the columns before it is
 * no direction of its own: the sizes do not tell that term apart. */
#define COLLINEAR 1e-9

/* A point's scale for relative errors: |y|, but not below this share of the largest |y|, so a
 * zero count is weighed heavily without dividing by zero. */
#define FLOOR 1e-6

static const char *term_name(struct roi_arena *a, enum roi_growth_fn fn, const char *n, const char *m)
{
	switch (fn) {
	case ROI_GROWTH_ONE: return "1";
	case ROI_GROWTH_LOG: return roi_arena_printf(a, "log2(%s)", n);
	case ROI_GROWTH_LIN: return n;
	case ROI_GROWTH_NLOG: return roi_arena_printf(a, "%s*log2(%s)", n, n);
	case ROI_GROWTH_SQ: return roi_arena_printf(a, "%s^2", n);
	case ROI_GROWTH_CUBE: return roi_arena_printf(a, "%s^3", n);
	case ROI_GROWTH_EXP: return roi_arena_printf(a, "2^%s", n);
	case ROI_GROWTH_PROD: return roi_arena_printf(a, "%s*%s", n, m);
	}
	return "?";
}

static struct roi_growth_term term(struct roi_growth_family *f, enum roi_growth_fn fn, int p, int q)
{
	return (struct roi_growth_term){fn, p, q, term_name(&f->arena, fn, f->params[p], f->params[q])};
}

/* Adds a form of the given terms, lowest first; its name is the last one's, or for a sum of two
 * parameters "n+m". */
static void add(struct roi_growth_family *f, size_t *cap, const char *name, size_t n,
		const struct roi_growth_term *terms)
{
	if (f->nforms == *cap)
		f->forms = roi_xrealloc(f->forms, *cap = *cap ? 2 * *cap : 16, sizeof *f->forms);
	struct roi_growth_form *form = &f->forms[f->nforms++];
	form->nterms = n;
	memcpy(form->terms, terms, n * sizeof *terms);
	form->name = name ? name : terms[n - 1].name;
}

void roi_growth_family_init(struct roi_growth_family *f, const char *const *params, size_t nparams)
{
	size_t cap = 0;

	memset(f, 0, sizeof *f);
	f->params = params;
	f->nparams = nparams;
	/* by number of coefficients, then as growth.h lists them */
	for (size_t k = 1; k <= ROI_GROWTH_MAXTERMS; k++) {
		if (k == 1) {
			struct roi_growth_term t[] = {term(f, ROI_GROWTH_ONE, 0, 0)};
			add(f, &cap, NULL, 1, t);
		}
		for (int p = 0; p < (int)nparams; p++) {
			struct roi_growth_term one = term(f, ROI_GROWTH_ONE, p, p), lin = term(f, ROI_GROWTH_LIN, p, p);
			if (k == 2) {
				struct roi_growth_term lg[] = {one, term(f, ROI_GROWTH_LOG, p, p)}, li[] = {one, lin},
						       ex[] = {one, term(f, ROI_GROWTH_EXP, p, p)};
				add(f, &cap, NULL, 2, lg);
				add(f, &cap, NULL, 2, li);
				add(f, &cap, NULL, 2, ex);
			} else if (k == 3) {
				struct roi_growth_term nl[] = {one, lin, term(f, ROI_GROWTH_NLOG, p, p)},
						       sq[] = {one, lin, term(f, ROI_GROWTH_SQ, p, p)};
				add(f, &cap, NULL, 3, nl);
				add(f, &cap, NULL, 3, sq);
			} else if (k == 4) {
				struct roi_growth_term cu[] = {one, lin, term(f, ROI_GROWTH_SQ, p, p),
							       term(f, ROI_GROWTH_CUBE, p, p)};
				add(f, &cap, NULL, 4, cu);
			}
		}
		for (int p = 0; p < (int)nparams; p++)
			for (int q = p + 1; q < (int)nparams; q++) {
				struct roi_growth_term one = term(f, ROI_GROWTH_ONE, p, p), n = term(f, ROI_GROWTH_LIN, p, p),
						       m = term(f, ROI_GROWTH_LIN, q, q);
				if (k == 3) {
					struct roi_growth_term s[] = {one, n, m};
					add(f, &cap, roi_arena_printf(&f->arena, "%s+%s", params[p], params[q]), 3, s);
				} else if (k == 4) {
					struct roi_growth_term pr[] = {one, n, m, term(f, ROI_GROWTH_PROD, p, q)};
					add(f, &cap, NULL, 4, pr);
				}
			}
	}
}

void roi_growth_family_free(struct roi_growth_family *f)
{
	free(f->forms);
	roi_arena_free(&f->arena);
	memset(f, 0, sizeof *f);
}

double roi_growth_term_value(const struct roi_growth_term *t, const double *x)
{
	double n = x[t->p];

	switch (t->fn) {
	case ROI_GROWTH_ONE: return 1;
	case ROI_GROWTH_LOG: return log2(n);
	case ROI_GROWTH_LIN: return n;
	case ROI_GROWTH_NLOG: return n * log2(n);
	case ROI_GROWTH_SQ: return n * n;
	case ROI_GROWTH_CUBE: return n * n * n;
	case ROI_GROWTH_EXP: return exp2(n);
	case ROI_GROWTH_PROD: return n * x[t->q];
	}
	return NAN;
}

static double value(const struct roi_growth_form *form, const double *coef, const double *x)
{
	double v = 0;

	for (size_t j = 0; j < form->nterms; j++)
		v += coef[j] * roi_growth_term_value(&form->terms[j], x);
	return v;
}

/* Weighted least squares of the rows not skipped: minimises sum ((A c - y) / s)^2 by Householder
 * QR, each column scaled to 1 first. a: npoints x k scratch. -1 when the rows do not determine
 * every coefficient. */
static int solve(const struct roi_growth_form *form, size_t nparams, const double *x, const double *y,
		 const double *s, size_t npoints, long skip, double *a, double *b, double *coef)
{
	size_t k = form->nterms, m = 0;
	double scale[ROI_GROWTH_MAXTERMS], len[ROI_GROWTH_MAXTERMS];

	for (size_t i = 0; i < npoints; i++) {
		if ((long)i == skip)
			continue;
		for (size_t j = 0; j < k; j++)
			a[m * k + j] = roi_growth_term_value(&form->terms[j], x + i * nparams) / s[i];
		b[m++] = y[i] / s[i];
	}
	if (m < k)
		return -1;
	for (size_t j = 0; j < k; j++) {
		scale[j] = 0;
		for (size_t i = 0; i < m; i++)
			scale[j] = fmax(scale[j], fabs(a[i * k + j]));
		if (scale[j] == 0 || !isfinite(scale[j]))
			return -1;
		len[j] = 0;
		for (size_t i = 0; i < m; i++) {
			a[i * k + j] /= scale[j];
			len[j] += a[i * k + j] * a[i * k + j];
		}
		len[j] = sqrt(len[j]);
	}
	for (size_t j = 0; j < k; j++) {
		double norm = 0, alpha, vv = 0;

		for (size_t i = j; i < m; i++)
			norm += a[i * k + j] * a[i * k + j];
		norm = sqrt(norm);
		if (norm <= COLLINEAR * len[j])
			return -1;
		alpha = a[j * k + j] > 0 ? -norm : norm;
		/* v = column j below the diagonal, minus alpha e_j; kept in place */
		a[j * k + j] -= alpha;
		for (size_t i = j; i < m; i++)
			vv += a[i * k + j] * a[i * k + j];
		for (size_t c = j + 1; c <= k; c++) {
			double dot = 0;

			for (size_t i = j; i < m; i++)
				dot += a[i * k + j] * (c < k ? a[i * k + c] : b[i]);
			dot *= 2 / vv;
			for (size_t i = j; i < m; i++) {
				if (c < k)
					a[i * k + c] -= dot * a[i * k + j];
				else
					b[i] -= dot * a[i * k + j];
			}
		}
		a[j * k + j] = alpha;
	}
	for (size_t j = k; j-- > 0;) {
		double v = b[j];

		for (size_t c = j + 1; c < k; c++)
			v -= a[j * k + c] * coef[c];
		coef[j] = v / a[j * k + j];
	}
	for (size_t j = 0; j < k; j++)
		coef[j] /= scale[j];
	return 0;
}

/* The worst relative error of each point predicted from the others; HUGE_VAL when one of those
 * fits is not determined. */
static double held_out(const struct roi_growth_form *form, size_t nparams, const double *x, const double *y,
		       const double *s, size_t npoints, double *a, double *b)
{
	double worst = 0, coef[ROI_GROWTH_MAXTERMS];

	for (size_t i = 0; i < npoints; i++) {
		if (solve(form, nparams, x, y, s, npoints, (long)i, a, b, coef) != 0)
			return HUGE_VAL;
		double e = fabs(value(form, coef, x + i * nparams) - y[i]) / s[i];
		worst = fmax(worst, isnan(e) ? HUGE_VAL : e);
	}
	return worst;
}

void roi_growth_fit(const struct roi_growth_family *f, const double *x, const double *y, size_t npoints,
		    struct roi_growth_fit *out)
{
	double big = 0, *s = roi_xrealloc(NULL, npoints ? npoints : 1, sizeof *s);
	double *a = roi_xrealloc(NULL, npoints ? npoints * ROI_GROWTH_MAXTERMS : 1, sizeof *a);
	double *b = roi_xrealloc(NULL, npoints ? npoints : 1, sizeof *b);
	double *err = roi_xrealloc(NULL, f->nforms, sizeof *err), best = HUGE_VAL;

	memset(out, 0, sizeof *out);
	out->error = out->residual = HUGE_VAL;
	out->max_terms = npoints > 1 ? npoints - 1 : 0;
	for (size_t i = 0; i < npoints; i++)
		big = fmax(big, fabs(y[i]));
	if (big == 0) {
		/* nothing ran at any size: the constant 0, exactly */
		out->form = npoints > 1 ? &f->forms[0] : NULL;
		out->error = out->residual = out->form ? 0 : HUGE_VAL;
		goto done;
	}
	for (size_t i = 0; i < npoints; i++)
		s[i] = fmax(fabs(y[i]), FLOOR * big);
	for (size_t k = 0; k < f->nforms; k++) {
		err[k] = f->forms[k].nterms < npoints ? held_out(&f->forms[k], f->nparams, x, y, s, npoints, a, b)
						      : HUGE_VAL;
		best = fmin(best, err[k]);
	}
	if (best == HUGE_VAL)
		goto done;
	for (size_t k = 0; k < f->nforms && !out->form; k++)
		if (err[k] <= best + ROI_GROWTH_TIE)
			out->form = &f->forms[k];
	out->error = err[out->form - f->forms];
	if (solve(out->form, f->nparams, x, y, s, npoints, -1, a, b, out->coef) != 0) {
		out->form = NULL;       /* every point determines it when each point less does */
		goto done;
	}
	out->residual = 0;
	for (size_t i = 0; i < npoints; i++)
		out->residual = fmax(out->residual, fabs(value(out->form, out->coef, x + i * f->nparams) - y[i]) / s[i]);
done:
	free(s);
	free(a);
	free(b);
	free(err);
}

double roi_growth_eval(const struct roi_growth_fit *fit, const double *x)
{
	return fit->form ? value(fit->form, fit->coef, x) : NAN;
}

const char *roi_growth_formula(const struct roi_growth_fit *fit, const double *x_big, double y_big, char *buf,
			       size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (!fit->form) {
		snprintf(buf, size, "-");
		return buf;
	}
	for (size_t j = fit->form->nterms; j-- > 0 && len < size;) {
		const struct roi_growth_term *t = &fit->form->terms[j];
		double c = fit->coef[j], mag = fabs(c * roi_growth_term_value(t, x_big));
		char num[32];

		if (c == 0 || mag < 1e-9 * fabs(y_big))
			continue;
		snprintf(num, sizeof num, "%.6g", fabs(c));
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s", len ? (c < 0 ? " - " : " + ") : c < 0 ? "-" : "",
					t->fn != ROI_GROWTH_ONE && strcmp(num, "1") == 0 ? "" : num,
					t->fn != ROI_GROWTH_ONE && strcmp(num, "1") != 0 ? "*" : "",
					t->fn == ROI_GROWTH_ONE ? "" : t->name);
	}
	if (!buf[0])
		snprintf(buf, size, "0");
	return buf;
}
