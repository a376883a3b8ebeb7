/* roi-counters-avr.h — AVR's counter updates by inline asms that take no
 * register (roi-counters-avr.cc).  */
#ifndef ROI_COUNTERS_AVR_H
#define ROI_COUNTERS_AVR_H

#include "gcc-common.h"

/* Whether counters are updated by AVR's asms, which take no register (or
   only the amount's), at every width: not atomic ones.  */
bool roi_avr_counters (void);
/* Whether counters[idx] += 1 is an asm (roi_avr_increment), at every width:
   not atomic counters.  */
bool roi_avr_increments (void);
/* counters[idx] += 1 by an asm before GSI; REF is the counter; a 16-bit one
   saturates at 65535.  */
void roi_avr_increment (gimple_stmt_iterator *gsi, tree ref);
/* counters[idx] += AMOUNT, + 1 where PLUS_ONE, by an asm before GSI:
   AMOUNT an unsigned value of 8 or 16 bits, REF the counter, of any width;
   a 16-bit one saturates at 65535.  */
void roi_avr_add_count (gimple_stmt_iterator *gsi, tree ref, tree amount, bool plus_one);
/* counters[idx] += the alignment passes of a float add of A and B, by an
   asm before GSI.  */
void roi_avr_float_passes (gimple_stmt_iterator *gsi, tree ref, tree a, tree b);
/* counters[idx] += the normalisation passes of a conversion between a
   single and an integer by an asm before GSI: X the integer, of 8, 16 or
   32 bits (TO_FLOAT), or the single's top 16 bits.  */
void roi_avr_conversion_passes (gimple_stmt_iterator *gsi, tree ref, tree x, bool to_float);
/* Whether a division's steps are those the division routines count
   (roi-divide.cc), and the asm that adds them after the division STMT.  */
bool roi_avr_division_steps_counted (void);
void roi_avr_division_steps (roi_stmt stmt, tree ref, tree quotient);
/* counters[idx] += *AMOUNT before GSI, the value counter of STMT, by an asm
   where it takes the amount; false where it does not, *AMOUNT then what the
   plain update adds.  */
bool roi_avr_add (gimple_stmt_iterator *gsi, roi_stmt stmt, tree ref, tree *amount);
/* The routines that carry into a counter's higher bytes which the unit's
   asms call, to the assembler output (at the end of the unit).  */
void roi_avr_emit_carry_routines (void);

/* counters[idx] += 1 where X < Y (a "taken" value site: the second
   operand of a minimum or maximum wins, a dividend is negative), by an asm
   before GSI that takes no register but theirs; false where X is wider
   than 4 bytes.  */
bool roi_avr_taken (gimple_stmt_iterator *gsi, tree ref, tree x, tree y);
#endif /* ROI_COUNTERS_AVR_H */
