/* report/measured.h — a measured profile (input/measured.h) for people: the tables "roi run
 * --measured" prints. */
#ifndef ROI_REPORT_MEASURED_H
#define ROI_REPORT_MEASURED_H

#include <stddef.h>
#include <stdio.h>

#include "input/measured.h"
#include "input/meta.h"
#include "price/hier.h"

/* Its total and where it went; then its functions, call sites, library routines by line, lines
 * (in order, or the top costliest), regions, blocks and the stack. top 0: every row. */
void roi_measured_text(FILE *out, const struct roi_measured *m, size_t top);

/* Its stack: the peak, the RAM margin, the depth of each function; nothing when main never ran. */
void roi_measured_stack_text(FILE *out, const struct roi_measured *m, size_t top);

/* What the measured profile says of a node of roi report's hierarchy: a function's inclusive cycles
 * and calls, a loop's cycles from entry to exit and its entries (with blocks), a line's inclusive
 * cycles (its own and those of the calls made on it; calls 0). false when it does not measure it. */
bool roi_measured_node(const struct roi_measured *m, const struct roi_node *n, uint64_t *cycles, uint64_t *calls);

/* The calls made on file:line to the function callee (an assembler name), summed over the call
 * instructions there: false when there are none. */
bool roi_measured_calls_at(const struct roi_measured *m, const char *file, unsigned line, const char *callee,
			   uint64_t *calls, uint64_t *inclusive);

/* The program's file name a measured line's file is (as the metadata gives it), else the measured
 * path itself. */
const char *roi_measured_short_file(const struct roi_program *p, const char *file);

/* "measured  N cycles from main's first instruction to its end (simavr, ...)", after an estimate's
 * total. */
void roi_measured_total_text(FILE *out, const struct roi_measured *m);

#endif
