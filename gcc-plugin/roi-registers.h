/* roi-registers.h — the counted edges' updates, a loop's in registers while
 * it runs (roi-registers.cc).  */
#ifndef ROI_REGISTERS_H
#define ROI_REGISTERS_H

#include "gcc-common.h"
#include "roi-edges.h"

/* COUNTERS[i] += 1 where COUNTED[i] says, for every counted edge of FUN not
   DONE already (roi-trips.cc): optimising, in a register while an innermost
   loop runs, loaded before it and stored on every way out, where that is
   exact.  */
void roi_registers_increment (function *fun, tree counters, const vec<roi_counted_edge> &counted,
			      vec<bool> *done);

#endif /* ROI_REGISTERS_H */
