/* roi-exec.h — fork and the exec family, redirected to the host runtime's
 * wrappers (roi-exec.cc).  */
#ifndef ROI_EXEC_H
#define ROI_EXEC_H

#include "gcc-common.h"

/* The unit registers with libroi (it has something to count, runtime=host).  */
void roi_exec_unit_registers (void);
/* The RTL pass, just before the assembly is written, that makes the unit's
   calls of fork and the exec family call libroi's wrappers, if it registers.  */
opt_pass *make_roi_exec_pass (void);

#endif /* ROI_EXEC_H */
