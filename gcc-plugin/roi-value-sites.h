/* roi-value-sites.h — the statements whose cost grows with a run-time value,
 * and the value (roi-value-sites.cc).  */
#ifndef ROI_VALUE_SITES_H
#define ROI_VALUE_SITES_H

#include "gcc-common.h"
#include "roi-op.h"

/* A statement whose cost grows with a run-time value: a shift or rotate by a
   variable amount (an AVR loop per bit), a single-precision add or subtract
   (the alignment of its operands' mantissas), a conversion between a single
   and an integer (its normalisation passes), a division (its quotient's 1
   bits), memcpy, memmove, memset or memcmp of a length, strlen (the length
   it returns), strtol or strtoul (the characters they took), strchr (the
   characters it read); a minimum, a maximum or a signed division by 2^k
   (how often its branch was taken).  Fills OP ("steps", "qbits", "bytes",
   "taken" or "norm") and *AMOUNT, the
   value to add up in a counter of its own (docs/formats.md, "Value
   counters").  */
bool roi_find_value_site (roi_stmt stmt, struct roi_op *op, tree *amount);
/* Whether STMT's machine code may branch inside its block by a test of its
   operands no block count decides, and the test of its arm, the code it
   jumps over: the value site "taken" counts how often *X < *Y, the arm
   ran (a MIN_EXPR or MAX_EXPR: the operand GCC moves into the result's
   register strictly wins; a signed division or remainder by 2^k: the
   dividend is negative, its fix-up).  */
bool roi_taken_operands (roi_stmt stmt, tree *x, tree *y);
/* Whether STMT is a single-precision add or subtract (a value site: its
   alignment passes), and its operands.  */
bool roi_float_add_operands (roi_stmt stmt, tree *a, tree *b);
/* Whether STMT converts a single to an integer of at most 32 bits or back
   (a value site: the normalisation passes), *X its operand, *TO_FLOAT set
   for an integer to float.  */
bool roi_float_conversion (roi_stmt stmt, tree *x, bool *to_float);
/* The magnitude of an integer of at most 32 bits, unsigned 32-bit.  */
tree roi_int_magnitude (tree x);
/* Whether STMT is an integer division or remainder of 16 or 32 bits (a
   value site: its quotient's 1 bits, the steps of the division routine that
   subtract), and *QUOTIENT: an expression of STMT's result to evaluate after
   it, or, *BEFORE set, of its operands to evaluate just before it (a
   remainder's quotient).  */
bool roi_division_quotient (roi_stmt stmt, tree *quotient, bool *before);
/* Where STMT is a call of strtol or strtoul that stores its end in a
   variable, the characters it took (an expression to evaluate after the
   call), else NULL_TREE.  */
tree roi_number_chars (roi_stmt stmt);
/* Where STMT is a call of strchr whose result is a register, the characters
   it read (an expression to evaluate after the call), else NULL_TREE.  */
tree roi_scan_chars (roi_stmt stmt);
/* A quotient's magnitude, unsigned: its 1 bits are the steps that subtract.  */
tree roi_quotient_magnitude (tree quotient);

/* A value site of the function being instrumented and its counter.  */
struct roi_value_site
{
  roi_stmt stmt;
  tree amount;
  int bb;		/* its block's index */
  unsigned slot;	/* its entry of "blocks", after the blocks; its counter follows
			   the blocks' or the counted edges' */
  unsigned op, file, line;	/* its metadata row */
};

#endif /* ROI_VALUE_SITES_H */
