/* calibrate/calib_model.h — what "roi calibrate" fits: not one free cost per operation key, but a cost built
 * from a few shared parameters, so that an operation seen in one program only, or in none, is
 * still costed from what the others say (docs/calibration.md, "The cost structure"):
 *
 *   cost(kind, type, access, callee, from) =
 *        K[kind,class] + B[kind,class] x bytes + Q[kind,class] x bytes^2 (mul, div, mod)
 *      + S[kind] (signed integers)
 *      + O[kind,operand] (a constant second operand; a shift's amount)
 *      + D[kind] x (subscripts - 1) (a multi-dimensional array element's address)
 *      + A[kind,access] + AB[kind,access] x bytes (loads and stores)
 *      + C[callee] for a call of a library function, instead of all of the above
 *      + X[key]: a correction of this very key, shrunk towards 0 by the ridge
 *
 * Conversions have K, B (bytes of the result) and F (bytes of the source) per pair of classes.
 * Every parameter but X is a non-negative cost. */
#ifndef ROI_CALIB_MODEL_H
#define ROI_CALIB_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "calibrate/calibrate.h"
#include "input/model.h"

/* One cost entry of the fitted model. */
struct roi_calib_entry {
	struct roi_calib_key key;
	double cost;
	size_t programs;        /* programs fitted on that ran it (0: from the structure alone) */
	double executions;      /* over those programs */
	bool from_base;         /* the structure had no data for it: the base model's cost */
};

struct roi_calib_fit {
	struct roi_calib_entry *entries;        /* the keys of the set, then every other combination of
						 * kind, type and access the structure can cost */
	size_t nentries;
	struct roi_arena arena;
};

/* What the fit matches: n rows of executions per key (x, n x nkeys) and measured y (cycles of a
 * source line, or joules of a program), each of one program; a row's squared error weighs
 * w[r] (builtin/calibrate.c: 1 / its program's total squared, or 1 / its own cycles with --weights
 * line; NULL: 1 / y[r] squared). */
struct roi_calib_rows {
	size_t n;
	const double *x, *y, *w;
	const size_t *program;
};

/* Fits costs to rows over the programs not in skip (may be NULL); x (nprograms x nkeys) says
 * which programs ran each key. A key's cost is pulled towards the base model's (energy: its
 * energy when energy is set), else towards the structure: by ridge x what the rows say of the key,
 * and by base_weight x what they say of the median key (ten times that for a key one fitted
 * program alone runs). base costs what no fitted program ran. */
void roi_calib_fit(const struct roi_calib_set *set, const double *x, const struct roi_calib_rows *rows,
		   const unsigned char *skip, const struct roi_model *base, bool energy, double ridge,
		   double base_weight, struct roi_calib_fit *out);
void roi_calib_fit_free(struct roi_calib_fit *f);

/* How the costs are fitted: the pulls of roi_calib_fit, and how each row's error counts (by_line:
 * relative to the row's own cycles, else to its program's). */
struct roi_calib_fit_opts {
	double ridge, base_weight;
	bool by_line;
};

/* Fits cycles (and energy when y_energy) with the programs in skip left out. Cycles are fitted to
 * every program's source lines, which tell apart operations that always run together in a whole
 * program; a line's error counts relative to its own cycles (fo->by_line: at -O0, where a line's
 * cycles are its own, the big lines decide and one run twice in start-up code does not) or to its
 * program's total. Energy, measured per program only, is fitted to the programs, each error
 * relative to its program's energy. */
void roi_calib_fit_all(const struct roi_calib_set *set, const double *x, const double *y_energy,
		       const struct roi_model *base, const unsigned char *skip, const struct roi_calib_fit_opts *fo,
		       struct roi_calib_fit *cyc, struct roi_calib_fit *en);

#endif
