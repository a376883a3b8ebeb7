/* growth/fit.h — roi fit (docs/fit.md): profiles of one program at several input sizes; the whole
 * run's, each function's and each loop's calls, operations, cycles and energy fitted to a form of
 * growth.h, how well the form predicts the sizes left out of its fit, and (--at) what each costs
 * at another size; and every counter predicted at that size, written as a profile that roi budget
 * check, roi report and every other command read as they read a run's.
 *
 * The command's arguments are read by sizes.c (SIZES:PROFILE, --at SIZES), the runs loaded, priced
 * and fitted by fit.c, shown by report/fit_text.c and report/fit_json.c (report/fit.h). */
#ifndef ROI_FIT_H
#define ROI_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"
#include "growth/growth.h"
#include "input/model.h"
#include "input/session.h"
#include "price/estimate.h"
#include "price/hier.h"

enum { ROI_FIT_MAXPOINTS = 256, ROI_FIT_MAXPARAMS = 8 };

/* The quantities fitted, and their names in the outputs. */
enum { ROI_FIT_CALLS, ROI_FIT_OPS, ROI_FIT_CYCLES, ROI_FIT_ENERGY, ROI_FIT_NQ };
extern const char *const roi_fit_qnames[ROI_FIT_NQ];

/* A profile at one size: SIZES:PROFILE. */
struct roi_fit_point {
	const char *spec;               /* as given: "n=8:isort-8.roi" */
	const char *path;
	double x[ROI_FIT_MAXPARAMS];    /* in the order of roi_fit.params */
	struct roi_session in;          /* the profile, and PROGRAM or the one its "program" line names */
	const struct roi_program *prog; /* &in.prog */
	struct roi_estimate est;
	struct roi_hier h;
	bool computed;
};

/* One quantity of one row at every size, and what is made of it. */
struct roi_fit_quantity {
	bool has;
	bool whole;                     /* a count: predicted as a whole number */
	double *y;                      /* per point, per run */
	struct roi_growth_fit fit;
	bool predictable;               /* a form predicts the held-out sizes within --max-error */
	bool predicted;                 /* --at: and it gave a figure */
	double prediction;
	const char *why;                /* why not predictable, or not predicted */
};

/* The whole run, a function or a loop: its quantities fitted. */
struct roi_fit_row {
	const char *key;                /* the same in every build of the sources (row_key) */
	const char *id, *kind;          /* "total" "program"; "main" "function"; "main:12" "loop" */
	const struct roi_function *fn;  /* NULL: the whole run */
	int loop;                       /* -1: not a loop */
	struct roi_fit_row *parent;
	struct roi_fit_row **children;
	size_t nchildren, cap;
	struct roi_fit_quantity q[ROI_FIT_NQ];
};

struct roi_fit {
	/* what the command was given */
	const char *program_path;       /* PROGRAM; NULL: each profile's "program" line */
	const char *model_path, *region, *at_spec, *write_profile;     /* --model, --region, --at, --write-profile */
	double max_error;               /* --max-error, a fraction */
	/* what is made of it */
	size_t nprogs;                  /* programs the profiles are of (by path) */
	const struct roi_program *prog; /* the one program of every profile; NULL: several builds */
	struct roi_model model;
	bool has_model;
	struct roi_fit_point *pts;
	size_t npts;
	const char *params[ROI_FIT_MAXPARAMS];
	size_t nparams;
	double at[ROI_FIT_MAXPARAMS];
	bool has_at;
	struct roi_growth_family fam;
	double *x;                      /* npts x nparams */
	struct roi_fit_row total;
	struct roi_fit_row **roots;     /* function rows, the largest run's order first */
	size_t nroots, caproots;
	struct roi_fit_row **rows;      /* every row but the total, for lookups by key */
	size_t nrows, caprows;
	struct roi_fit_row **focus;     /* --region's rows */
	size_t nfocus;
	struct roi_arena arena;
};

/* Whether a command-line argument is SIZES:PROFILE rather than PROGRAM: it starts "NAME=". */
bool roi_fit_is_point(const char *s);
/* The points from npos SIZES:PROFILE arguments, and --at (f->at_spec). Returns 0, or -1 with a usage
 * message in msg ("'n8:x.roi' is not SIZES:PROFILE ...", "a fit needs profiles at 2 sizes or
 * more ..."). */
int roi_fit_points(struct roi_fit *f, const char *const *pos, int npos, char *msg, size_t size);
/* "n=1000,m=64": sizes x in the parameters' order. */
const char *roi_fit_sizes_text(const struct roi_fit *f, const double *x, char *buf, size_t size);

/* Loads every profile and its program (and --model), prices each run and its hierarchy, and fits
 * every row. Returns -1 with err set when an input cannot be read or priced, or --region names
 * nothing that ran. Warnings about the inputs are printed, each program's once. */
int roi_fit_build(struct roi_fit *f, struct roi_err *err);
/* Whether the figures asked for — the total's, or --region's rows' — were all predicted; if not,
 * which quantity (*what) was not, and why. */
bool roi_fit_headline_predicted(const struct roi_fit *f, const char **why, const char **what);
/* q's formula, its coefficients rounded as the size where |y| is largest makes them matter. */
const char *roi_fit_formula(const struct roi_fit *f, const struct roi_fit_quantity *q, char *buf, size_t size);

/* Every counter of the one program fitted and predicted at --at, written to --write-profile as a
 * profile of one run. Returns 0; 1 with err set when not every counter could be predicted (nothing
 * is written: a budget checked on guessed counters would check a guess); -1 with err set when the
 * file cannot be written. */
int roi_fit_write_profile(struct roi_fit *f, struct roi_err *err);

void roi_fit_free(struct roi_fit *f);

#endif
