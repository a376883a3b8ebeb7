/* machine/price.h — a run priced from the firmware's own instructions (roi estimate --price
 * machine, docs/machine.md).
 *
 * Each counted function's instructions in the plain firmware run as often as flow.h works out
 * from the block counts, and cost what the core's timing table says (isa.h): AVR exactly as the
 * instruction set manual, Cortex-M4 as its TRM (no cycle-exact simulator checks it; the
 * instruction count is checked against QEMU's). A call into code without metadata (libgcc,
 * avr-libc, newlib) costs its routine's entry in the model (measured on typical operands, and by
 * the calling block's value counters where they measure what decides it), else its own
 * instructions when it has no branch, else nothing: it is then "unpriced", and said so. */
#ifndef ROI_MACHINE_PRICE_H
#define ROI_MACHINE_PRICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/counts.h"
#include "input/meta.h"
#include "input/model.h"
#include "machine/code.h"
#include "machine/flow.h"

/* How a routine's calls were priced. */
enum roi_mhow {
	ROI_MHOW_TABLE,         /* the model's entry, typical operands */
	ROI_MHOW_VALUE,         /* the model's entry and the calling blocks' value counters */
	ROI_MHOW_WALK,          /* its own instructions: no branch in it */
	ROI_MHOW_UNPRICED,      /* nothing: no entry, and branches */
};

struct roi_mroutine {
	const char *name;
	enum roi_mhow how;
	double calls;           /* calls and tail jumps into it */
	double cycles, instructions;
	double value;           /* the value counters' sum, with ROI_MHOW_VALUE */
	const char *value_kind;
};

struct roi_mfn_total {
	const struct roi_function *fn;
	struct roi_mfunc code;
	double calls;
	double cycles, instructions;            /* its own instructions */
	double routine_cycles, routine_instructions;    /* routines it calls */
};

struct roi_mline_total {
	const char *file;
	unsigned line;
	double cycles, instructions;            /* routines included, at the line of their call */
};

struct roi_machine_estimate {
	const struct roi_program *prog;
	const struct roi_model *model;          /* may be NULL: cycles and instructions only */
	const char *plain_path, *blocks_path;
	enum roi_march arch;
	const char *core;                       /* the timing table's name */
	const char *device;
	struct roi_mfn_total *fns;              /* counted functions, by cycles descending */
	size_t nfns;
	struct roi_mroutine *routines;          /* by cycles descending, unpriced last */
	size_t nroutines;
	struct roi_mline_total *lines;          /* by file, then line */
	size_t nlines;
	double exit_cycles, exit_instructions;  /* main's return to the stop (avr-libc's exit) */
	double cycles, instructions, seconds, energy_j;
	double unpriced_calls;
	size_t guessed, loops_counted, loops_guessed, off;      /* flow.h, over all functions */
	size_t branches_counted;
	size_t shared;          /* flow.h: machine edges into code shared between blocks */
	bool aligned;                           /* some function's block-lines code was aligned */
	struct roi_arena arena;
};

/* Prices prog's run (counts) from the instructions of the firmware at plain, with the counted
 * blocks the block-lines build at blocks names. model: clock, energy and routine prices; NULL
 * for cycles alone. Errors: the ELFs' (machine/code.h), a part or architecture other than the
 * model's ("MODEL: a model of ATmega32U4 (avr), PLAIN is for atmega328p"), and flow.h's. */
int roi_machine_estimate(struct roi_machine_estimate *e, const struct roi_program *prog,
			 const struct roi_counts *counts, const struct roi_model *model, const char *plain,
			 const char *blocks, struct roi_err *err);
void roi_machine_estimate_free(struct roi_machine_estimate *e);

/* "table", "table + value counters", "its instructions", "unpriced". */
const char *roi_mhow_name(enum roi_mhow how);

#endif
