/* roi-filter.h — the filter file: which functions are counted, which functions and
 * loops get region hooks (roi-filter.cc; syntax: docs/regions.md).  */
#ifndef ROI_FILTER_H
#define ROI_FILTER_H

#include "gcc-common.h"
#include "roi-util.h"

/* Reads the filter file PATH; false after an error naming the file, line and
   column.  */
bool roi_filter_load (const char *path);
/* Whether a filter file was given.  */
bool roi_filter_active (void);
/* Whether FNDECL is counted, and *RULE_LINE the line of the rule that
   decided (0: none did).  */
bool roi_filter_counts (tree fndecl, unsigned *rule_line);
/* Whether FNDECL, or the loop at FILE:LINE, gets region hooks.  */
bool roi_filter_hooks_function (tree fndecl);
bool roi_filter_hooks_loop (const char *file, unsigned line);
/* A warning for each rule naming a function that matched nothing in this
   unit, where a name of the unit is one or two letters from it (a typo).  */
void roi_filter_check_unmatched (void);
/* The filter as the metadata's "filter" member (its rules, each matched or
   not), appended to B.  */
void roi_filter_describe (struct roi_buf *b);

#endif /* ROI_FILTER_H */
