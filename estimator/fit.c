/* fit.c — non-negative least squares by cyclic coordinate descent on the normal equations.
 *
 * The problems are small (tens of programs, a hundred or two operations) and the ridge term keeps
 * every diagonal element positive, so exact coordinate minimisation with projection onto c >= 0
 * converges to the unique minimum of the strictly convex objective (fit.h) without factorising
 * anything. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

unsigned roi_fit_nnls(const struct roi_fit *f, double *c)
{
	size_t n = f->ncols;
	double *a = calloc(n * n + 1, sizeof *a), *b = calloc(n + 1, sizeof *b);
	unsigned sweep = 0;

	if (!a || !b)
		abort();
	/* Normal equations of the weighted rows: A = X'WX, b = X'Wy with W = 1/y^2. */
	for (size_t p = 0; p < f->nrows; p++) {
		const double *row = &f->x[p * n];
		double w = 1 / (f->y[p] * f->y[p]);

		if (f->skip && f->skip[p])
			continue;
		for (size_t j = 0; j < n; j++) {
			if (row[j] == 0)
				continue;
			b[j] += w * row[j] * f->y[p];
			for (size_t k = 0; k < n; k++)
				a[j * n + k] += w * row[j] * row[k];
		}
	}
	for (size_t j = 0; j < n; j++) {
		double d = a[j * n + j];

		c[j] = f->prior[j];
		if (d == 0) {
			/* no program ran it: the prior stands, and nothing else depends on it */
			a[j * n + j] = 1;
			b[j] = f->prior[j];
			continue;
		}
		a[j * n + j] += f->ridge * d;
		b[j] += f->ridge * d * f->prior[j];
	}
	for (sweep = 1; sweep <= 200000; sweep++) {
		double moved = 0, size = 0;

		for (size_t j = 0; j < n; j++) {
			double g = b[j];

			for (size_t k = 0; k < n; k++)
				g -= a[j * n + k] * c[k];
			double next = c[j] + g / a[j * n + j];
			if (next < 0)
				next = 0;
			moved = fmax(moved, fabs(next - c[j]));
			size = fmax(size, fabs(next));
			c[j] = next;
		}
		if (moved <= 1e-10 * fmax(size, 1))
			break;
	}
	free(a);
	free(b);
	return sweep;
}
