/* input/model.h — cost models (models/README.md): loading, and looking an operation's cost up. */
#ifndef ROI_MODEL_H
#define ROI_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/types.h"

struct roi_cost {
	const char *kind;
	const char *type, *cls, *access, *callee, *from, *operand;  /* match fields, NULL when absent */
	long long subscripts;   /* match field, 0 when absent */
	double cycles;
	double energy_j;        /* per execution; valid when has_energy */
	bool has_energy;
	const char *note;
	int specificity;        /* type 2, class 1, access, callee, from, operand, subscripts 1 each */
	size_t index;           /* position in costs[] */
};

/* A library routine's cost for machine pricing (models/README.md, "routines"): a call, from the
 * routine's first instruction to its return, at typical operands; where a value counter of the
 * calling block measures what decides it (a division's quotient bits, a float add's alignment
 * passes, a memory routine's bytes), per_value times the value instead of typical_value per call. */
struct roi_routine_cost {
	const char *routine;
	double cycles;
	double instructions;            /* executed (ARM, QEMU's count); < 0 when not given */
	const char *value_kind, *value_type, *value_callee;    /* NULL: no value decides it */
	const char *value_from;         /* the counter's source type (a conversion's "norm": "f32" for float
					 * to integer, apart from integer to float's); NULL: any */
	long long value_width;          /* the counter's type of that many bits (64-bit shifts: i64, u64); 0 */
	long long value_register;       /* AVR: the register a constant amount is loaded into before the call
					 * (libgcc's 64-bit shifts: r16), its passes then the value; -1 */
	double per_value, per_value_instructions, typical_value;
	const char *note;
};

struct roi_model {
	const char *path;
	const char *part, *arch, *core, *compiler, *opt;    /* core, compiler, opt may be NULL */
	const char *mcu;        /* the part as -mmcu names it ("atmega32u4"); may be NULL */
	double clock_hz, supply_v, energy_per_cycle_j;
	struct roi_abi abi;
	const struct roi_cost *costs;
	size_t ncosts;
	const struct roi_routine_cost *routines;        /* (optional field) */
	size_t nroutines;
	double flash_wait_states;       /* ARM: wait states of a fetch after a taken branch (optional; 0) */
	struct roi_arena arena;
};

/* The routine's entry of that name, or NULL. */
const struct roi_routine_cost *roi_model_routine(const struct roi_model *m, const char *name);

/* What a lookup matches against; type and from are already mapped to the target. */
struct roi_opkey {
	const char *kind, *type, *access, *callee, *from, *operand;
	long long subscripts;   /* 0: not a multi-dimensional array access */
};

/* Errors: "PATH:LINE:COL: malformed JSON" (column in bytes, from 1) and the others of jv_parse (a
 * key twice, a NUL byte), schema errors naming the field ("PATH: costs[3]: missing 'cycles'"), two
 * entries with the same match fields ("PATH: costs[7]: the same operation as costs[3] (...)").
 * Free with roi_model_free even on failure. */
int roi_model_load(const char *path, struct roi_model *m, struct roi_err *err);
int roi_model_parse(const char *path, const char *text, size_t len, struct roi_model *m, struct roi_err *err);
void roi_model_free(struct roi_model *m);

/* The most specific entry of the op's kind whose match fields all agree with it (the first of
 * equally specific ones), or NULL: unmodelled. *fallback tells whether the entry leaves out a
 * field the operation has (a type other than void, access, callee, from). */
const struct roi_cost *roi_model_lookup(const struct roi_model *m, const struct roi_opkey *op, bool *fallback);

/* Joules per execution: the entry's energy_j, else cycles x energy_per_cycle_j. */
double roi_cost_energy(const struct roi_model *m, const struct roi_cost *c);

/* "load type=u16": the entry's kind and match fields, to name a fallback. */
const char *roi_cost_describe(const struct roi_cost *c, char *buf, size_t size);

/* Whether a program compiled for `target` (a triple) runs on the model's arch: the triple starts
 * with the arch ("arm-none-eabi" and "arm"). When it does not, ops are mapped through m->abi. */
bool roi_model_matches_target(const struct roi_model *m, const char *target);

#endif
