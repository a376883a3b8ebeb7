/* price/estimate.h — executed operations of a program, joined with a cost model.
 *
 * E = sum over executed operations of count x cost: counts come from block counts times the
 * ops rows' multiplicity; with a model each distinct operation is looked up once (after the
 * host-to-target ABI mapping when the program was not compiled for the model's arch). */
#ifndef ROI_ESTIMATE_H
#define ROI_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "input/counts.h"
#include "input/meta.h"
#include "input/model.h"

/* An operation as reported: the metadata's fields, types mapped to the target when mapping applies. */
struct roi_opdesc {
	const char *kind, *type, *ctype, *access, *callee, *from, *from_ctype, *code;
	const char *operand;                    /* costed apart, shown merged (roi_op.operand) */
	long long subscripts;                   /* the same (roi_op.subscripts) */
	const char *host_type, *host_from;      /* the unmapped types when mapping changed them, else NULL */
	bool is_volatile;
};

/* How a direct call into code without metadata (libgcc, avr-libc, newlib, a file compiled without
 * roi, a function the filter left out) is priced: its routine runs no counted block, so the call's
 * row must carry what the routine costs. */
enum roi_libcall_how {
	ROI_LIBCALL_NONE,               /* not such a call (or no model) */
	ROI_LIBCALL_MODEL,              /* the model's own entry for the callee (memcpy's call, with its
					 * bytes priced by their own rows) */
	ROI_LIBCALL_ROUTINE,            /* the call's entry plus the routine's measured cost per call, the
					 * model's routines (the table --price machine prices with) */
	ROI_LIBCALL_CALL,               /* fallback: the call's entry alone, the routine in no table */
};

struct roi_op_total {
	struct roi_opdesc d;
	uint64_t count;
	const struct roi_cost *cost;            /* NULL: no model, or unmodelled */
	bool fallback;                          /* cost is a less specific entry (see model.h) */
	double cycles, energy_j;                /* totals over count, the routine's part included */
	enum roi_libcall_how libcall;
	double routine_cycles;                  /* ROI_LIBCALL_ROUTINE: the routine's part of cycles */
};

/* The calls into code without metadata of one callee over the run (an unmodelled call, which no
 * entry prices at all, is among the unmodelled operations instead). */
struct roi_libcall_total {
	const char *callee;
	enum roi_libcall_how how;
	uint64_t calls;
	double cycles, energy_j;                /* the calls' whole cost, the routine's included */
	double routine_cycles;                  /* ROI_LIBCALL_ROUTINE: the routine's part of cycles */
};

struct roi_fn_total {
	const struct roi_function *fn;
	bool profiled;                          /* the profile had counts for it */
	uint64_t calls, ops;
	double cycles, energy_j;
};

struct roi_line_total {
	const char *file;
	unsigned line;
	uint64_t ops;
	double cycles, energy_j;
};

/* What one execution of an entry of a unit's op table costs (0 without a model or an entry); a call
 * into code without metadata priced by the model's routines includes the routine's cost. */
struct roi_op_unit_cost {
	double cycles, energy_j;
	bool measure_only;      /* a conversion's normalisation passes ("norm") the model has no entry for:
				 * what --price machine prices a routine by, not an operation (count 0) */
};

/* An ops row of a block over the whole run. */
struct roi_row_total {
	uint64_t count;                         /* block count x the row's n */
	double cycles, energy_j;
};

struct roi_estimate {
	const struct roi_program *prog;
	const struct roi_counts *counts;
	const struct roi_model *model;          /* may be NULL: counts only */
	const struct roi_op_unit_cost *const *op_cost;  /* [unit position][op index] */
	bool mapped;                            /* some unit's ops went through the model's ABI */
	struct roi_op_total *ops;               /* executed ops; by cycles, then count, descending */
	size_t nops;
	struct roi_fn_total *fns;               /* every function; by cycles, then ops, descending */
	size_t nfns;
	struct roi_line_total *lines;           /* lines with executed ops; by file name, then line */
	size_t nlines;
	struct roi_libcall_total *libcalls;     /* calls into code without metadata, by callee; by cycles,
						 * then calls, descending (with a model only) */
	size_t nlibcalls;
	uint64_t libcall_calls;                 /* over libcalls */
	uint64_t fallback_calls;                /* of them, ROI_LIBCALL_CALL: the routine's own cost is in
						 * no figure */
	double libcall_cycles;                  /* over libcalls */
	uint64_t total_ops, unmodelled_ops;
	double cycles, seconds, energy_j;
	struct roi_arena arena;
};

/* "model", "routine", "call" (the fallback): JSON's priced_by; NULL for ROI_LIBCALL_NONE. */
const char *roi_libcall_how_name(enum roi_libcall_how how);

/* How an entry of a unit's op table is reported: its types mapped through abi (NULL: as is). */
void roi_opdesc_of(struct roi_opdesc *d, const struct roi_op *op, const struct roi_abi *abi);

/* Whether the unit's ops go through the model's ABI: its target triple is not of the model's arch. */
bool roi_unit_mapped(const struct roi_unit *u, const struct roi_model *model);

/* Row r of block b of fn over the run, costed as roi_estimate_compute costs it: for reports that
 * group rows otherwise (by loop, by scope). */
void roi_estimate_row(const struct roi_estimate *e, const struct roi_function *fn, size_t b, size_t r,
		      struct roi_row_total *out);

/* Aggregates counts (and costs, when model is not NULL) into e; free with roi_estimate_free, also
 * on failure. Fails ("MODEL: the estimate of PROGRAM is not a finite number (...)") rather than
 * give a total of inf or nan. */
int roi_estimate_compute(struct roi_estimate *e, const struct roi_program *prog, const struct roi_counts *counts,
			 const struct roi_model *model, struct roi_err *err);
void roi_estimate_free(struct roi_estimate *e);

#endif
