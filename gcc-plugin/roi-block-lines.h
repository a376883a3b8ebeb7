/* roi-block-lines.h — a build whose line table names the counted blocks
 * (roi-block-lines.cc, -fplugin-arg-roi-block-lines).  */
#ifndef ROI_BLOCK_LINES_H
#define ROI_BLOCK_LINES_H

#include "gcc-common.h"

/* Every statement, PHI argument and jump of FUN's blocks ORDER (counter
   indices COUNTER_OF) gets the location "roi-block:ASM-NAME", line = the
   counter index + 1.  */
void roi_block_lines_mark (function *fun, const vec<basic_block> &order, const int *counter_of);
/* The RTL pass of that build: an insn with no location takes its neighbour's
   in its stretch of straight-line code (not the line table's previous row).  */
opt_pass *make_roi_block_lines_pass (void);

#endif /* ROI_BLOCK_LINES_H */
