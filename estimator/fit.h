/* fit.h — per-operation costs from measured programs: non-negative least squares on relative
 * errors, pulled gently towards a prior where the data cannot tell the costs apart.
 *
 * Program p ran x[p][j] executions of operation j and measured y[p] (cycles, or joules). The fit
 * minimises
 *     sum_p ((y[p] - sum_j x[p][j] c[j]) / y[p])^2  +  ridge * sum_j d[j] (c[j] - prior[j])^2
 * over c >= 0, where d[j] is the data's own weight on c[j] (the diagonal of the first term), so
 * ridge is relative: 1e-3 lets the prior count for a thousandth of what the corpus says about an
 * operation. An operation no program ran keeps its prior. */
#ifndef ROI_FIT_H
#define ROI_FIT_H

#include <stddef.h>

struct roi_fit {
	size_t nrows, ncols;
	const double *x;        /* nrows x ncols, row-major */
	const double *y;        /* nrows, all > 0 */
	const double *prior;    /* ncols, >= 0 */
	const unsigned char *skip;  /* nrows or NULL: rows left out (leave-one-out) */
	double ridge;
};

/* Fills c[ncols]. Returns the number of sweeps the solver took. */
unsigned roi_fit_nnls(const struct roi_fit *f, double *c);

#endif
