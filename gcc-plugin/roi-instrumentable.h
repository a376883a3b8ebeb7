/* roi-instrumentable.h — which functions are counted, and which run in threads
 * (roi-instrumentable.cc).  */
#ifndef ROI_INSTRUMENTABLE_H
#define ROI_INSTRUMENTABLE_H

#include "gcc-common.h"

/* Why the function FNDECL is not counted ("no body", "artificial
   (compiler-generated)", "excluded by the filter"...), or NULL when it is.  */
const char *roi_why_not_counted (tree fndecl);
/* Whether several threads may run FNDECL at once: an outlined OpenMP body,
   or a function of the unit one calls.  Its counters are updated with atomic
   adds whatever the options.  */
bool roi_runs_in_threads (tree fndecl);
/* Finds those, once, when the first function reaches the pass: GCC has not
   expanded any yet, and expanding one removes its call edges.  */
void roi_find_threaded (void);

#endif /* ROI_INSTRUMENTABLE_H */
