/* base/lsq.h — parameters from measurements, as roi calibrate (costs from programs' cycles) and roi
 * transfer (block counts from source locations' evaluations) both need them: least squares on
 * relative errors, each parameter bounded below and pulled towards a prior by its own ridge weight.
 *
 * Row p has features z[p][j], measured y[p] (cycles, or joules) and weight w[p]. The fit minimises
 *     sum_p w[p] (y[p] - sum_j z[p][j] t[j])^2  +  sum_j ridge[j] d[j] (t[j] - prior[j])^2
 * over t[j] >= lower[j], where d[j] is the data's own weight on t[j] (the diagonal of the first
 * term), so a ridge is relative: 1e-3 lets the prior count for a thousandth of what the programs
 * say about t[j]. A parameter no program exercises keeps its prior. */
#ifndef ROI_LSQ_H
#define ROI_LSQ_H

#include <stddef.h>

struct roi_lsq {
	size_t nrows, ncols;
	const double *z;            /* nrows x ncols, row-major */
	const double *y;            /* nrows */
	const double *w;            /* nrows: each row's weight; NULL: 1 / y^2 (all y > 0) */
	const double *prior;        /* ncols */
	const double *ridge;        /* ncols, > 0 */
	const double *lower;        /* ncols: 0 for a cost, -HUGE_VAL for a signed correction */
	const unsigned char *skip;  /* nrows or NULL: rows left out (leave-one-out) */
	const double *ridge_abs;    /* ncols or NULL: absolute, the same whatever the column's weight */
};

/* Fills t[ncols]. Returns the number of active-set iterations the solver took. */
unsigned roi_lsq_solve(const struct roi_lsq *f, double *t);

#endif
