/* roi-trips.h — a loop's counter added once per entry, where GCC computes
 * how often its latch runs (roi-trips.cc).  */
#ifndef ROI_TRIPS_H
#define ROI_TRIPS_H

#include "gcc-common.h"
#include "roi-edges.h"

/* Per block index of FUN, into ONCE: whether a counter updated in that
   block could be added once per entry of its loop instead (roi_trips_add),
   and into ENTRY, for those, the loop's way in.  Call before anything is
   inserted into the blocks, with the loops found.  */
void roi_trips_find (function *fun, vec<bool> *once, vec<edge> *entry);

/* COUNTERS[i] += its count per entry of a loop, on the way in, for every
   counted edge COUNTED[i] not DONE whose count per trip of the loop GCC's
   number of iterations gives; DONE[i] set for those.  */
void roi_trips_add (function *fun, tree counters, const vec<roi_counted_edge> &counted,
		    vec<bool> *done);

#endif /* ROI_TRIPS_H */
