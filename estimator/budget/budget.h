/* budget/budget.h — budget files (docs/budgets.md): what a run may cost, one limit per line.
 *
 *     function fir  cycles per call <= 160000cycles  warn 10%
 *     total         energy per run  <= 1.5mJ         model ../models/atmega32u4.json
 *     function main stack           <= 512bytes
 *     total         ram-margin      >= 256bytes      (a floor: the RAM left at the deepest)
 *
 * Parsing needs no program: syntax, units and duplicates are checked here; whether a subject
 * exists in the program is budget_eval's job. Every mistake is a diagnostic
 * "FILE:LINE:COL: what was expected", collected so that one run reports all of them, as a
 * compiler does. */
#ifndef ROI_BUDGET_H
#define ROI_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"

enum roi_budget_subject { ROI_BUDGET_TOTAL, ROI_BUDGET_FUNCTION, ROI_BUDGET_REGION };
/* STACK and RAM_MARGIN are static: read from the program (stack/stack.h), not from a run. */
enum roi_budget_quantity {
	ROI_BUDGET_CYCLES, ROI_BUDGET_TIME, ROI_BUDGET_ENERGY, ROI_BUDGET_OPS, ROI_BUDGET_STACK, ROI_BUDGET_RAM_MARGIN
};
enum roi_budget_per { ROI_BUDGET_PER_RUN, ROI_BUDGET_PER_CALL };

struct roi_budget {
	unsigned line;
	const char *text;               /* the line as written, without its comment and outer blanks */
	enum roi_budget_subject subject;
	const char *name;               /* function name or region ID; NULL for total */
	unsigned subject_col;           /* column of the name (of 'total'), for errors about the subject */
	enum roi_budget_quantity quantity;
	const char *kind, *type;        /* ops:KIND[:TYPE]; NULL: every operation (of every type) */
	unsigned quantity_col;
	enum roi_budget_per per;        /* default: per run; static quantities have none */
	bool floor;                     /* ">=": the figure must stay at least the limit (ram-margin) */
	double limit;                   /* in the quantity's base unit: cycles, s, J, ops, bytes */
	bool has_warn;
	double warn_pct;                /* > 0 when the margin was given in percent */
	double warn_at;                 /* WARN above this (below it for a floor; base unit); from
					 * warn_pct when given so */
	const char *model;              /* 'model FILE', relative paths taken from the budget file's
					 * directory; NULL: the command's --model */
	unsigned model_col;
};

struct roi_budget_file {
	const char *path;
	struct roi_budget *budgets;     /* in file order */
	size_t nbudgets;
	struct roi_arena arena;
};

/* Diagnostics, in the order found. */
struct roi_diags {
	char **msg;
	size_t n, cap;
	struct roi_arena arena;
};

void roi_diag(struct roi_diags *d, const char *path, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void roi_diags_free(struct roi_diags *d);

/* Reads and parses a budget file. Returns -1 with err set when it cannot be read; otherwise 0,
 * with every mistake in diags (the budgets parsed without one are in bf). A file without any
 * budget is a mistake too: a check that checks nothing must not pass. Free bf with
 * roi_budget_free in either case. */
int roi_budget_load(const char *path, struct roi_budget_file *bf, struct roi_diags *diags, struct roi_err *err);
/* Parses text[0, size); a NUL byte is a mistake ("FILE:LINE:COL: NUL byte"), the line it is on is
 * not read. */
void roi_budget_parse(const char *path, const char *text, size_t size, struct roi_budget_file *bf,
		      struct roi_diags *diags);
void roi_budget_free(struct roi_budget_file *bf);

/* Whether a budget's figure is read from the program alone: stack, ram-margin. */
bool roi_budget_is_static(const struct roi_budget *b);
/* Whether every budget of the file is: then no run is needed. */
bool roi_budget_file_static(const struct roi_budget_file *bf);
/* "function fir cycles per call", "function main stack", "total ram-margin" */
const char *roi_budget_describe(const struct roi_budget *b, char *buf, size_t size);

/* "cycles", "time", "energy", "ops", "ops:mul", "ops:mul:u16", "stack", "ram-margin" */
const char *roi_budget_quantity_name(const struct roi_budget *b, char *buf, size_t size);
/* The base unit a quantity is measured in: "cycles", "s", "J", "ops", "bytes". */
const char *roi_budget_unit(enum roi_budget_quantity q);
/* "total", "function fir", "region fir:26" */
const char *roi_budget_subject_name(const struct roi_budget *b, char *buf, size_t size);
/* "per call", "per run" */
const char *roi_budget_per_name(const struct roi_budget *b);
/* An amount of the budget's quantity for people: "160000 cycles", "1.5 mJ", "3 ms", "904 ops". */
const char *roi_budget_fmt(enum roi_budget_quantity q, double v, char *buf, size_t size);

#endif
