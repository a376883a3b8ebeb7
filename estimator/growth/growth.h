/* growth/growth.h — how a count grows with the input size: the form, of a small documented family, that
 * best predicts the sizes measured, and what it predicts at another size (roi fit, docs/fit.md).
 *
 * A form is a sum of terms, each with a coefficient; its last term, the one that grows fastest,
 * names it. For each size parameter n (and each pair n, m):
 *
 *     1            a                         log2(n)      a + b log2(n)
 *     n            a + b n                   2^n          a + b 2^n
 *     n*log2(n)    a + b n + c n log2(n)     n^2          a + b n + c n^2
 *     n^3          a + b n + c n^2 + d n^3   n+m          a + b n + c m
 *     n*m          a + b n + c m + d n m
 *
 * The lower terms are there because a program's counts have them: an insertion sort of n reversed
 * numbers runs its inner loop n(n-1)/2 times and its outer loop n - 1 times. The family is ordered
 * by the number of coefficients, then as listed (the parameters in their order).
 *
 * Fitting: least squares on relative errors (point i weighted by 1 / |y_i|), by Householder QR on
 * scaled columns. Goodness: every point predicted by the form fitted to the other points (leave
 * one out), the worst relative error of those predictions. A form takes part only when each such
 * fit is determined: one size more than it has coefficients, and sizes that tell its terms apart.
 * Choice: the least held-out error; among forms within ROI_GROWTH_TIE of it, the first in the
 * family's order. On exact counts the true form predicts every held-out point exactly, and so do
 * the larger forms containing it; the tie rule keeps the smallest. */
#ifndef ROI_GROWTH_H
#define ROI_GROWTH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

#define ROI_GROWTH_MAXTERMS 4

/* Held-out errors (fractions) closer than this to the least one count as ties: rounding, not
 * evidence. */
#define ROI_GROWTH_TIE 1e-6

enum roi_growth_fn {
	ROI_GROWTH_ONE, ROI_GROWTH_LOG, ROI_GROWTH_LIN, ROI_GROWTH_NLOG, ROI_GROWTH_SQ, ROI_GROWTH_CUBE,
	ROI_GROWTH_EXP, ROI_GROWTH_PROD
};

struct roi_growth_term {
	enum roi_growth_fn fn;
	int p, q;                       /* the parameter; q: the second one of a product */
	const char *name;               /* "1", "log2(n)", "n^2", "n*m" */
};

struct roi_growth_form {
	const char *name;               /* its leading term's */
	size_t nterms;
	struct roi_growth_term terms[ROI_GROWTH_MAXTERMS];     /* lowest first */
};

struct roi_growth_family {
	const char *const *params;
	size_t nparams;
	struct roi_growth_form *forms;
	size_t nforms;
	struct roi_arena arena;
};

struct roi_growth_fit {
	const struct roi_growth_form *form;     /* NULL: no form could take part (one point) */
	double coef[ROI_GROWTH_MAXTERMS];
	double error;                   /* worst relative held-out error (fraction) */
	double residual;                /* worst relative residual of the fit to every point */
	size_t max_terms;               /* the most coefficients a form may have with this many points */
};

/* The family for these parameter names (which must outlive it). */
void roi_growth_family_init(struct roi_growth_family *f, const char *const *params, size_t nparams);
void roi_growth_family_free(struct roi_growth_family *f);

/* A term's value at sizes x[nparams]. */
double roi_growth_term_value(const struct roi_growth_term *t, const double *x);

/* Fits y[i], measured at sizes x[i * nparams ...], i < npoints, to every form that can take part,
 * and chooses one as above. Sizes must be positive. */
void roi_growth_fit(const struct roi_growth_family *f, const double *x, const double *y, size_t npoints,
		    struct roi_growth_fit *out);

/* The fitted form's value at sizes x (NaN without a form). */
double roi_growth_eval(const struct roi_growth_fit *fit, const double *x);

/* "4.5*n^2 + 20.5*n + 37": coefficients to 6 significant digits, leading term first; a term whose
 * share of the largest |y| at the sizes x_big is below 1e-9 is left out (rounding noise). */
const char *roi_growth_formula(const struct roi_growth_fit *fit, const double *x_big, double y_big, char *buf,
			       size_t size);

#endif
