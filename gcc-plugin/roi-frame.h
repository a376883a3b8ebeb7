/* roi-frame.h — the RTL pass that records what a call of each counted function
 * pays in its prologue and epilogue, and the spills and jumps inside it
 * (roi-frame.cc).  */
#ifndef ROI_FRAME_H
#define ROI_FRAME_H

#include "gcc-common.h"

opt_pass *make_roi_frame_pass (void);

/* Has GCC compute every function's stack use, which the pass records: called
   from plugin_init, before the unit's first function.  */
void roi_frame_register (const char *plugin_name);

#endif /* ROI_FRAME_H */
