/* roi-divide.cc — AVR's division routines that count their steps.
 *
 * avr-gcc divides 16 and 32 bits by calling libgcc's __udivmodhi4 and
 * __udivmodsi4 (the signed __divmodhi4 and __divmodsi4 call them on the
 * magnitudes): a loop of one step per bit, and a step that subtracts the
 * divisor, a 1 bit of the quotient, takes 1 cycle more at 16 bits and 3 at
 * 32.  u32 0xffffffff / 1 costs 96 cycles more than 1 / 2.  A counted unit
 * that divides carries copies of the routines of the widths it divides, each
 * in a COMDAT group of its own so that one copy is linked and libgcc's are
 * not (and no copy of the width the program never divides: 58 or 92 bytes
 * of flash where a kernel divides at one width only): libgcc's code instruction for
 * instruction, the same registers in and out and the same clobbered, but a
 * step that subtracts also increments a byte (__roi_div16_steps,
 * __roi_div32_steps; through r16, saved around it; the carry, clear after
 * the subtraction, stays so).  An asm after a division site adds the byte of
 * its width to the site's counter and clears it (roi-counters-avr.cc,
 * roi_avr_division_steps); the caller's code is the uncounted build's.  The copies' own cycles are the counted build's
 * only: calibration and estimates price the uncounted firmware.  Plain `mov`
 * pairs stand for libgcc's `movw`, which the smallest cores lack.  */
#include "roi-divide.h"
#include "output.h"

unsigned roi_divide_routines_used;

static const char routine16[] =
  "\t.pushsection .text.__roi_divmod16,\"axG\",@progbits,__roi_divmod16,comdat\n"
  "\t.global __udivmodhi4\n"
  "\t.type __udivmodhi4,@function\n"
  "__udivmodhi4:\n"
  "\tsub r26,r26\n\tsub r27,r27\n\tldi r21,17\n\trjmp 2f\n"
  "1:\tadc r26,r26\n\tadc r27,r27\n\tcp r26,r22\n\tcpc r27,r23\n\tbrcs 2f\n"
  "\tsub r26,r22\n\tsbc r27,r23\n"
  "\tpush r16\n\tlds r16," ROI_DIVISION_STEPS_16 "\n\tinc r16\n\tsts " ROI_DIVISION_STEPS_16 ",r16\n\tpop r16\n"
  "2:\tadc r24,r24\n\tadc r25,r25\n\tdec r21\n\tbrne 1b\n"
  "\tcom r24\n\tcom r25\n"
  "\tmov r22,r24\n\tmov r23,r25\n\tmov r24,r26\n\tmov r25,r27\n\tret\n"
  "\t.size __udivmodhi4,.-__udivmodhi4\n"
  "\t.popsection\n"
  "\t.comm " ROI_DIVISION_STEPS_16 ",1,1\n";

static const char routine32[] =
  "\t.pushsection .text.__roi_divmod32,\"axG\",@progbits,__roi_divmod32,comdat\n"
  "\t.global __udivmodsi4\n"
  "\t.type __udivmodsi4,@function\n"
  "__udivmodsi4:\n"
  "\tldi r26,33\n\tmov r1,r26\n\tsub r26,r26\n\tsub r27,r27\n\tmov r30,r26\n\tmov r31,r27\n"
  "\trjmp 2f\n"
  "1:\tadc r26,r26\n\tadc r27,r27\n\tadc r30,r30\n\tadc r31,r31\n"
  "\tcp r26,r18\n\tcpc r27,r19\n\tcpc r30,r20\n\tcpc r31,r21\n\tbrcs 2f\n"
  "\tsub r26,r18\n\tsbc r27,r19\n\tsbc r30,r20\n\tsbc r31,r21\n"
  "\tpush r16\n\tlds r16," ROI_DIVISION_STEPS_32 "\n\tinc r16\n\tsts " ROI_DIVISION_STEPS_32 ",r16\n\tpop r16\n"
  "2:\tadc r22,r22\n\tadc r23,r23\n\tadc r24,r24\n\tadc r25,r25\n\tdec r1\n\tbrne 1b\n"
  "\tcom r22\n\tcom r23\n\tcom r24\n\tcom r25\n"
  "\tmov r18,r22\n\tmov r19,r23\n\tmov r20,r24\n\tmov r21,r25\n"
  "\tmov r22,r26\n\tmov r23,r27\n\tmov r24,r30\n\tmov r25,r31\n\tret\n"
  "\t.size __udivmodsi4,.-__udivmodsi4\n"
  "\t.popsection\n"
  "\t.comm " ROI_DIVISION_STEPS_32 ",1,1\n";

void
roi_divide_emit_routines (void)
{
  if (roi_divide_routines_used & ROI_DIVIDE_16)
    fputs (routine16, asm_out_file);
  if (roi_divide_routines_used & ROI_DIVIDE_32)
    fputs (routine32, asm_out_file);
}
