/* budget/eval.h — a budget file's figures for one program and profile (docs/budgets.md).
 *
 * Each budget's subject is looked up in the program's metadata (a subject that is not there is
 * an error, never a pass), its cost taken from roi report's hierarchy (hier.h: inclusive of
 * callees), divided by the runs or the calls, and, with --measured, set beside what the region
 * hooks measured. Stack and RAM-margin budgets are the program's static figures (stack.h): no run
 * is needed for them, and a figure roi can only bound from one side (recursion, an indirect
 * call, a frame it cannot tell) fails, as it cannot be shown to hold. */
#ifndef ROI_BUDGET_EVAL_H
#define ROI_BUDGET_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"
#include "budget/budget.h"
#include "input/counts.h"
#include "input/meta.h"
#include "input/model.h"
#include "input/profile.h"
#include "input/session.h"
#include "price/estimate.h"
#include "price/hier.h"
#include "stack/stack.h"

enum roi_budget_status { ROI_BUDGET_PASS, ROI_BUDGET_WARN, ROI_BUDGET_FAIL };


struct roi_budget_options {
	const char *model;              /* --model; NULL: none */
	bool measured;                  /* check measured figures where there are some */
	bool allow_missing;             /* a missing subject is a result, not an error (roi budget diff) */
};

/* The hierarchy of one run weighed for operations of one kind (and type): every such operation
 * costs one "cycle", every other none, so a node's cycles are its inclusive count of them. hier.c
 * costs every row through estimate.op_cost, so swapping that table is all it takes. */
struct roi_budget_kind_view {
	const char *kind, *type;
	struct roi_estimate est;        /* a copy of the model's estimate with op_cost replaced */
	struct roi_hier h;
};

struct roi_budget_model {
	const char *path;               /* NULL: without a model */
	struct roi_model model;
	struct roi_estimate est;
	struct roi_hier h;
	struct roi_budget_kind_view **kinds;       /* each allocated once: a hierarchy points to its estimate */
	size_t nkinds;
};

struct roi_budget_result {
	const struct roi_budget *b;
	bool present;                   /* the subject exists and, per call, ran (only false with
					 * allow_missing: otherwise that is a diagnostic) */
	const char *missing;            /* why not present */
	const char *id;                 /* the subject as roi report names it: "total", "fir", "fir:26" */
	const struct roi_budget_model *model;   /* the model used; NULL before evaluation */
	double divisor;                 /* runs (per run) or calls (per call) */
	double estimate;                /* per run or per call, in the quantity's base unit */
	bool has_measured;
	double measured;                /* likewise, from the region hooks */
	double measured_calls;          /* entries the hooks counted */
	const char *unmeasured;         /* why there is no measured figure */
	bool used_measured;             /* value is the measured figure */
	double value;                   /* the figure checked */
	double margin_pct;              /* (limit - value) / limit x 100 (value - limit for a floor);
					 * NAN for a limit of 0 */
	unsigned stack_flags;           /* stack, ram-margin: why the figure is only a bound (stack.h's
					 * ROI_STACK_*); 0 when it is complete */
	enum roi_budget_status status;
};

/* One program and profile with every budget evaluated. */
struct roi_budget_eval {
	const struct roi_session *in;           /* the program, the profile and their counts (no
						 * profile when every budget is static) */
	bool have_stack;
	struct roi_stack stack;                 /* for stack and ram-margin budgets */
	struct roi_budget_model **models;       /* one per model path, and the first without a model */
	size_t nmodels;
	struct roi_budget_result *results;      /* one per budget, in file order */
	size_t nresults;
	size_t npass, nwarn, nfail, nmissing;
	struct roi_arena arena;
};

/* Loads the models and evaluates every budget of bf against the run of in (loaded by the caller,
 * kept while ev is used). Returns -1 with err set when --model cannot be loaded or priced;
 * mistakes in budgets (unknown subjects, a model a line names that cannot be read, a quantity
 * without a model) go to diags. Warnings about the inputs (roi_check_inputs) are printed. Free
 * with roi_budget_eval_free, also on failure. */
int roi_budget_evaluate(struct roi_budget_eval *ev, const struct roi_budget_file *bf, const struct roi_session *in,
			const struct roi_budget_options *opt, struct roi_diags *diags, struct roi_err *err);
void roi_budget_eval_free(struct roi_budget_eval *ev);

const char *roi_budget_status_name(enum roi_budget_status s);   /* "PASS", "WARN", "FAIL" */
/* The run's status as a whole: "FAIL" when a budget failed, else "WARN" when one warned, else "PASS". */
const char *roi_budget_overall(const struct roi_budget_eval *ev);
/* Whether a budget's figure moved between two runs (o, n): it came, went, changed by more than
 * rounding, or changed status. */
bool roi_budget_moved(const struct roi_budget_result *o, const struct roi_budget_result *n);

#endif
