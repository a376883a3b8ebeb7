/* roi-jumps.h — the control transfers RTL expansion adds to a counted block
 * (roi-jumps.cc).  */
#ifndef ROI_JUMPS_H
#define ROI_JUMPS_H

#include "gcc-common.h"
#include "roi-util.h"

/* The current function's unconditional jumps, as the "jumps" rows
   [block, file, line, n], and the blocks whose switch became a jump table,
   as "tables" (docs/formats.md).  */
void roi_jumps_describe (unsigned nblocks, struct roi_buf *tables, struct roi_buf *jumps);

#endif /* ROI_JUMPS_H */
