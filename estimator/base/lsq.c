/* base/lsq.c — bounded least squares: the active-set method of Lawson and Hanson ("Solving Least
 * Squares Problems", 1974, ch. 23), on the normal equations, with lower bounds instead of zero and
 * unbounded parameters always free.
 *
 * The problems are small (tens of programs, a few hundred parameters) and the ridge terms make the
 * normal matrix positive definite, so every free subproblem is one Cholesky factorisation. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/lsq.h"

/* Solves A[P,P] s = r for the m indices in P (A is n x n, symmetric positive definite); the work
 * space l holds m x m. Returns false when A[P,P] is not positive definite (never with ridges). */
static bool cholesky_solve(const double *a, size_t n, const size_t *P, size_t m, const double *r, double *s,
			   double *l)
{
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j <= i; j++) {
			double sum = a[P[i] * n + P[j]];

			for (size_t k = 0; k < j; k++)
				sum -= l[i * m + k] * l[j * m + k];
			if (i == j) {
				/* parameters that always run together make A[P,P] singular to rounding:
				 * a pivot that vanished takes a sliver of its diagonal, which picks one
				 * of the equally good solutions instead of failing */
				double floor_ = 1e-12 * a[P[i] * n + P[i]];
				if (!(floor_ > 0))
					return false;
				l[i * m + i] = sqrt(sum > floor_ ? sum : floor_);
			} else {
				l[i * m + j] = sum / l[j * m + j];
			}
		}
	for (size_t i = 0; i < m; i++) {        /* L y = r */
		double sum = r[i];
		for (size_t k = 0; k < i; k++)
			sum -= l[i * m + k] * s[k];
		s[i] = sum / l[i * m + i];
	}
	for (size_t i = m; i-- > 0;) {          /* L' s = y */
		double sum = s[i];
		for (size_t k = i + 1; k < m; k++)
			sum -= l[k * m + i] * s[k];
		s[i] = sum / l[i * m + i];
	}
	return true;
}

/* The minimum over the free parameters (free[j]) with the others at their bound: s[j] for j free. */
static void solve_free(const double *a, const double *b, size_t n, const bool *free_, const double *t, double *s,
		       size_t *P, double *r, double *sp, double *l)
{
	size_t m = 0;

	for (size_t j = 0; j < n; j++)
		if (free_[j])
			P[m++] = j;
	for (size_t i = 0; i < m; i++) {
		r[i] = b[P[i]];
		for (size_t k = 0; k < n; k++)
			if (!free_[k])
				r[i] -= a[P[i] * n + k] * t[k];
	}
	if (!cholesky_solve(a, n, P, m, r, sp, l))
		abort();
	memcpy(s, t, n * sizeof *s);
	for (size_t i = 0; i < m; i++)
		s[P[i]] = sp[i];
}

unsigned roi_lsq_solve(const struct roi_lsq *f, double *t)
{
	size_t n = f->ncols;
	double *a = calloc(n * n + 1, sizeof *a), *b = calloc(n + 1, sizeof *b);
	unsigned sweep;

	if (!a || !b)
		abort();
	/* Normal equations of the weighted rows: A = Z'WZ, b = Z'Wy. */
	for (size_t p = 0; p < f->nrows; p++) {
		const double *row = &f->z[p * n];
		double w = f->w ? f->w[p] : 1 / (f->y[p] * f->y[p]);

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
		double pen = f->ridge[j] * d + (f->ridge_abs ? f->ridge_abs[j] : 0);
		a[j * n + j] += pen;
		b[j] += pen * f->prior[j];
	}
	/* Lawson-Hanson: t feasible throughout; bounded parameters start at their bound, unbounded
	 * ones are always free. */
	bool *free_ = calloc(n + 1, sizeof *free_);
	double *s = calloc(n + 1, sizeof *s), *r = calloc(n + 1, sizeof *r), *sp = calloc(n + 1, sizeof *sp);
	double *l = calloc(n * n + 1, sizeof *l), scale = 0;
	size_t *P = calloc(n + 1, sizeof *P);

	if (!free_ || !s || !r || !sp || !l || !P)
		abort();
	/* Every parameter starts free, at its bound: the first solve says at once which ones the data
	 * push below it, and they are bound in one step. Most costs end up above their bound, so this
	 * takes a few factorisations where adding one parameter at a time takes one per parameter. */
	for (size_t j = 0; j < n; j++) {
		free_[j] = true;
		t[j] = isfinite(f->lower[j]) ? f->lower[j] : 0;
		scale = fmax(scale, fabs(b[j]));
	}
	for (sweep = 1; sweep <= 3 * n + 10; sweep++) {
		/* the free subproblem, stepping back to the bounds it crosses */
		for (;;) {
			double alpha = 1;

			solve_free(a, b, n, free_, t, s, P, r, sp, l);
			for (size_t j = 0; j < n; j++)
				if (free_[j] && isfinite(f->lower[j]) && s[j] <= f->lower[j] && t[j] > s[j])
					alpha = fmin(alpha, (t[j] - f->lower[j]) / (t[j] - s[j]));
			for (size_t j = 0; j < n; j++)
				t[j] += alpha * (s[j] - t[j]);
			if (alpha >= 1)
				break;
			/* bound: the free parameters that reached their bound on their way below it */
			for (size_t j = 0; j < n; j++)
				if (free_[j] && isfinite(f->lower[j]) && s[j] < t[j] &&
				    t[j] <= f->lower[j] + 1e-12 * fmax(1, fabs(f->lower[j]))) {
					t[j] = f->lower[j];
					free_[j] = false;
				}
		}
		/* the bound parameter that most wants to move up joins the free ones */
		size_t best = n;
		double most = 1e-11 * fmax(scale, 1e-300);
		for (size_t j = 0; j < n; j++) {
			if (free_[j])
				continue;
			double w = b[j];
			for (size_t k = 0; k < n; k++)
				w -= a[j * n + k] * t[k];
			if (w > most) {
				most = w;
				best = j;
			}
		}
		if (best == n)
			break;
		free_[best] = true;
	}
	free(free_);
	free(s);
	free(r);
	free(sp);
	free(l);
	free(P);
	free(a);
	free(b);
	return sweep;
}
