/* fit.c — bounded least squares by cyclic coordinate descent on the normal equations.
 *
 * The problems are small (tens of programs, a few hundred parameters) and the ridge terms keep
 * every diagonal element positive, so exact coordinate minimisation with projection onto the
 * bounds converges to the unique minimum of the strictly convex objective (fit.h) without
 * factorising anything. The gradient is kept up to date, so a sweep costs one pass over A. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

unsigned roi_fit_solve(const struct roi_fit *f, double *t)
{
	size_t n = f->ncols;
	double *a = calloc(n * n + 1, sizeof *a), *b = calloc(n + 1, sizeof *b), *g = calloc(n + 1, sizeof *g);
	unsigned sweep;

	if (!a || !b || !g)
		abort();
	/* Normal equations of the weighted rows: A = Z'WZ, b = Z'Wy with W = 1/y^2. */
	for (size_t p = 0; p < f->nrows; p++) {
		const double *row = &f->z[p * n];
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

		t[j] = f->prior[j];
		if (d == 0) {
			/* no program exercises it: the prior stands, and nothing else depends on it */
			a[j * n + j] = 1;
			b[j] = f->prior[j];
			continue;
		}
		a[j * n + j] += f->ridge[j] * d;
		b[j] += f->ridge[j] * d * f->prior[j];
	}
	/* g = A t - b */
	for (size_t j = 0; j < n; j++) {
		g[j] = -b[j];
		for (size_t k = 0; k < n; k++)
			g[j] += a[j * n + k] * t[k];
	}
	for (sweep = 1; sweep <= 100000; sweep++) {
		double moved = 0, size = 0;

		for (size_t j = 0; j < n; j++) {
			double next = t[j] - g[j] / a[j * n + j];

			if (next < f->lower[j])
				next = f->lower[j];
			double delta = next - t[j];
			if (delta != 0) {
				for (size_t k = 0; k < n; k++)
					g[k] += a[k * n + j] * delta;
				t[j] = next;
			}
			moved = fmax(moved, fabs(delta));
			size = fmax(size, fabs(next));
		}
		if (moved <= 1e-9 * fmax(size, 1))
			break;
	}
	free(a);
	free(b);
	free(g);
	return sweep;
}
