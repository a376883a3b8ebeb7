/* run/avr_measure.h — a firmware as it ships, measured cycle for cycle in simavr ("roi run
 * --measured", docs/run.md): every step of the run given to a source line, a function, the call
 * under way and, with the block-lines build, a counted block; a measured profile (input/measured.h)
 * made of it.
 *
 * The simulator reports each step (run/avr.h's tracer); a shadow call stack follows calls (call,
 * rcall, icall, eicall), returns (ret, reti), interrupts and jumps into other functions, so that
 * code without a line (libgcc, avr-libc, assembler) is charged to the line it was called from, and
 * every call site gets its own inclusive cycles. */
#ifndef ROI_RUN_AVR_MEASURE_H
#define ROI_RUN_AVR_MEASURE_H

#include "base/err.h"
#include "input/dwarf_lines.h"
#include "input/elffile.h"
#include "input/measured.h"
#include "input/meta.h"
#include "run/avr.h"

struct roi_measure;

/* What to measure in the run of elf's firmware: its source lines (lines, its own line table; NULL:
 * not measured), its counted blocks (blocks, a block-lines build's line table, whose code is the
 * firmware's, and prog, the counted build's metadata; NULL: not measured). main names the
 * function the start-up calls. The tables and prog must outlive the measure. */
int roi_measure_new(struct roi_measure **m, struct roi_elf *elf, const struct roi_line_table *lines,
		    const struct roi_line_table *blocks, const struct roi_program *prog, struct roi_err *err);

/* The tracer to give roi_avr_run. */
struct roi_avr_tracer *roi_measure_tracer(struct roi_measure *m);

/* Once the run has stopped: closes the calls still under way at its last cycle and fills out
 * (allocated in out->arena, which the caller has set up): the lines, functions, call sites and
 * library routines when lines were measured, the blocks, loops and regions when blocks were.
 * Errors: "the lines add up to N cycles, not the run's M" (a bug, never a profile with it). */
int roi_measure_finish(struct roi_measure *m, const struct roi_avr_run *run, struct roi_measured *out,
		       struct roi_err *err);

void roi_measure_free(struct roi_measure *m);

#endif
