/* price/compare.h — two runs of the same sources side by side (roi compare, docs/compare.md): what
 * the cross compiler or the optimisation level changed, per function and per operation.
 *
 * Operations are matched by what they do in C — kind, C type, access or callee, source type,
 * volatile — not by their width, which differs between a host and a target build of the same
 * source by design (a host 'add i32 int' meets an AVR 'add i16 int'); functions by name and the
 * base name of their file. */
#ifndef ROI_COMPARE_H
#define ROI_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "price/estimate.h"

/* An operation or a function seen in A, B or both. */
struct roi_compare_row {
	char key[512];
	const char *label;              /* an operation's kind, a function's name */
	const struct roi_opdesc *d;     /* an operation as first seen (A's, else B's) */
	const char *type_a, *type_b;    /* an operation's type in A and in B; NULL where it did not run */
	uint64_t a, b;                  /* executions in A and in B */
};

struct roi_compare_rows {
	struct roi_compare_row *v;
	size_t n, cap;
};

struct roi_compare {
	struct roi_compare_rows ops;    /* operations, A's first */
	struct roi_compare_rows calls;  /* functions: calls ... */
	struct roi_compare_rows fops;   /* ... and operations, row i the same function in both */
};

/* Matches the executed operations and the functions of a and b; the rows point into both. */
void roi_compare(struct roi_compare *c, const struct roi_estimate *a, const struct roi_estimate *b);
void roi_compare_free(struct roi_compare *c);

#endif
