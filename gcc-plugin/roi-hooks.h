/* roi-hooks.h — region enter/exit hooks around the functions and loops the
 * filter selects, and the loop nest as metadata (roi-hooks.cc).  */
#ifndef ROI_HOOKS_H
#define ROI_HOOKS_H

#include "gcc-common.h"
#include "roi-util.h"
#include "roi-value-sites.h"

/* Hooks into FUN, the FN_INDEXth counted function (-1: not counted), around
   what the filter selects; COUNTER_OF: each block's counter, or NULL.  */
void roi_hooks_insert (function *fun, int fn_index, const int *counter_of);
/* FUN's loops as the JSON member ,"loops":[...] appended to OUT: each loop's
   header, parent, line and blocks, the value counters of SITES among them.  */
void roi_loops_describe (function *fun, const int *counter_of,
			 const vec<roi_value_site> &sites, struct roi_buf *out);

#endif /* ROI_HOOKS_H */
