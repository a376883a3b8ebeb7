/* roi-counters.h — the block and value counters and their updates
 * (roi-counters.cc).  */
#ifndef ROI_COUNTERS_H
#define ROI_COUNTERS_H

#include "gcc-common.h"

/* Whether the current function's counters must count right under threads
   (with -fplugin-arg-roi-atomic, and always in a function several threads
   run at once: roi_runs_in_threads) and are per thread: on a host, each
   thread counts in a copy of its own that libroi adds up (roi_counter_ref_at,
   roi_counters_thread_entry; runtime/roi-threads.c).  */
bool roi_counters_per_thread (void);
/* Whether they must and are updated with relaxed atomic adds: where there
   is no thread-local storage or no runtime (runtime=none).  */
bool roi_counters_atomic (void);
/* COUNTERS[IDX] as code before GSI reaches it: the array's element, or the
   calling thread's copy of it (a thread-local load of its base before GSI).  */
tree roi_counter_ref_at (gimple_stmt_iterator *gsi, tree counters, unsigned idx);
/* With counters per thread, the test at the function's start that gives a
   thread its copy of the unit's counters.  */
void roi_counters_thread_entry (function *fun);
/* The type of a counter, and COUNTERS[IDX].  */
tree roi_counter_type (void);
tree roi_counter_ref (tree counters, unsigned idx);
/* Where an update goes in BB: after its labels, or at its end (AT_END) before
   the statement that leaves it.  */
gimple_stmt_iterator roi_update_point (basic_block bb, bool at_end);
/* The N counters of the FN_INDEXth counted function: __roi_c_UNIT_INDEX.  */
tree roi_counters_create (unsigned fn_index, unsigned n);
/* COUNTERS[IDX] += 1 at the start of BB, or at its end (AT_END: before the
   statement that leaves it).  */
void roi_counter_increment (basic_block bb, bool at_end, tree counters, unsigned idx);
/* COUNTERS[IDX] += RUNS (+ 1 where PLUS_ONE) before GSI, at once what as
   many increments add (roi-trips.cc).  */
void roi_counter_add_count (gimple_stmt_iterator *gsi, tree counters, unsigned idx, tree runs,
			    bool plus_one);
/* COUNTERS[IDX] += AMOUNT, the value of the value site STMT.  */
void roi_counter_add (roi_stmt stmt, tree counters, unsigned idx, tree amount);

#endif /* ROI_COUNTERS_H */
