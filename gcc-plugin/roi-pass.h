/* roi-pass.h — the GIMPLE pass that counts every basic block of every
 * function (roi-pass.cc).  */
#ifndef ROI_PASS_H
#define ROI_PASS_H

#include "gcc-common.h"

opt_pass *make_roi_pass (void);

#endif /* ROI_PASS_H */
