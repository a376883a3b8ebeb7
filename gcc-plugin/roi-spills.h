/* roi-spills.h — the register allocator's spill traffic per counted block
 * (roi-spills.cc).  */
#ifndef ROI_SPILLS_H
#define ROI_SPILLS_H

#include "gcc-common.h"
#include "roi-util.h"

/* The current function's spill-slot traffic after reload as the JSON array
   of its "spills" rows [block, file, line, bytes], its frame accesses out
   of the displacement's reach as its "far" rows [block, file, line, n], and
   the moves of a base register without displacement around its accesses as
   its "adjust" rows [block, file, line, n] (docs/formats.md); NBLOCKS are its
   counted blocks.  */
void roi_spills_describe (unsigned nblocks, struct roi_buf *spills, struct roi_buf *far,
			  struct roi_buf *adjust);

#endif /* ROI_SPILLS_H */
