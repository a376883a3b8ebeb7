/* calibrate/calibrate.h — the measurements "roi calibrate" fits a model to: each corpus program built twice
 * with the same compiler and flags, with the plugin (what ran: operation counts) and without it
 * (the truth: simavr's exact cycles for the firmware as it ships). */
#ifndef ROI_CALIBRATE_H
#define ROI_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

/* How the corpus is built and run. */
struct roi_calib_build {
	const char *cc;                 /* "avr-gcc" */
	const char *mcu;                /* "atmega32u4": -mmcu= and simavr's core */
	const char *opt;                /* "-O0" */
	const char *plugin;             /* the plugin roi.so for cc */
	const char *work;               /* where the ELF files go */
	uint32_t freq_hz;
	uint64_t max_cycles;
};

/* An operation key the fit gives one cost: the match fields of a model entry (NULL: absent). */
struct roi_calib_key {
	const char *kind, *type, *access, *callee, *from, *operand;
	long long subscripts;
	const char *text;               /* "load type=u16 access=array": unique, for lookups and notes */
};

/* The cycles of one source line of a program, or of one counted block, and the operations the
 * plugin put there: what separates the costs of operations that always run together in a whole
 * program. The lines of a function that have cycles but no operations or the reverse (the prologue
 * and epilogue on the function's first and last line, a return value moved on another line than
 * the return) make up one row of their own per function. */
struct roi_calib_row {
	unsigned line;                  /* the source line; a function's row: its first line (0: none) */
	const char *block;              /* a block's row: "FUNCTION#COUNTER" (the line is then its first
					 * operation's); NULL for a line's */
	double y;                       /* cycles simavr spent in the line's instructions */
	double *x;                      /* executions per key ... */
	size_t nx;                      /* ... of the nx keys there were when it was made */
};

struct roi_calib_program {
	const char *name;               /* file name without .c */
	const char *source;
	uint64_t cycles;                /* plain firmware: from main's first instruction to the stop */
	uint64_t startup;               /* plain firmware: cycles before main (not estimated by roi) */
	double *x;                      /* executions per key ... */
	size_t nx;                      /* ... of the nx keys there were when it was added */
	struct roi_calib_row *rows;     /* the same split by source line or block: their sums are
					 * cycles, x */
	size_t nrows;
	bool by_block;                  /* rows of blocks: the block-lines build (the plugin's
					 * block-lines, NAME-blocks.elf) is the plain one, byte for byte */
};

struct roi_calib_set {
	struct roi_calib_program *programs;
	size_t nprograms;
	struct roi_calib_key *keys;
	size_t nkeys, keys_cap;
	struct roi_arena arena;
};

/* Builds and runs one program (build->work/NAME-count.elf, NAME-plain.elf and NAME-blocks.elf) and
 * adds it to set,
 * with new keys for operations no earlier program ran. Errors: "SRC: avr-gcc -O0 failed (exit
 * status 1)", the runners' ("ELF: no stop after N cycles ..."), "SRC: the plain firmware never
 * reached main". */
int roi_calib_add(struct roi_calib_set *set, const struct roi_calib_build *build, const char *source,
		  struct roi_err *err);

/* "load type=u16 access=array operand=local subscripts=2": a key's match fields as text. */
char *roi_calib_key_text(struct roi_arena *a, const struct roi_calib_key *k);

/* x[p][k] as a dense row-major matrix (nprograms x nkeys), malloc'd. */
double *roi_calib_matrix(const struct roi_calib_set *set);

/* Every program's line rows as one dense matrix (*nrows x nkeys), their cycles in *y and their
 * program in *program; all malloc'd. */
double *roi_calib_line_matrix(const struct roi_calib_set *set, size_t *nrows, double **y, size_t **program);

void roi_calib_free(struct roi_calib_set *set);

#endif
