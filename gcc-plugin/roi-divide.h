/* roi-divide.h — AVR's division routines that count their steps
 * (roi-divide.cc).  */
#ifndef ROI_DIVIDE_H
#define ROI_DIVIDE_H

#include "gcc-common.h"

/* The bytes AVR's counting division routines add their subtracting steps
   to: __udivmodhi4's, __udivmodsi4's (the signed ones call them).  */
#define ROI_DIVISION_STEPS_16 "__roi_div16_steps"
#define ROI_DIVISION_STEPS_32 "__roi_div32_steps"
/* Which counting routines the division sites of this unit take: a 16-bit
   quotient's (__udivmodhi4), a 32-bit one's (__udivmodsi4).  */
enum
{
  ROI_DIVIDE_16 = 1,
  ROI_DIVIDE_32 = 2
};
extern unsigned roi_divide_routines_used;
/* Their text into the unit's assembly, once each, for the widths used.  */
void roi_divide_emit_routines (void);

#endif /* ROI_DIVIDE_H */
