/* roi-edges.h — which edges of a function carry a counter (roi-edges.cc):
 * those off a spanning tree, as gcov's, the rest solved by the estimator
 * from flow conservation (docs/formats.md §1, "Counted edges").  */
#ifndef ROI_EDGES_H
#define ROI_EDGES_H

#include "gcc-common.h"

/* A counted edge: the SUCC-th normal successor of the counted block FROM
   (in the order of its "succ"), or, FROM -1, the entries of block SUCC
   (of block 0: the function's calls).  Its counter is updated at the start
   of AT, or at its end before the statement that leaves it when AT_END.  */
struct roi_counted_edge
{
  int from, succ;
  basic_block at;
  bool at_end;
};

struct roi_edge_plan
{
  /* Counters on every block as before (counter i = block i): the function
     has abnormal or EH edges, calls setjmp, or -fplugin-arg-roi-block-counters
     asked for it.  Then COUNTED and FAKE are empty.  */
  bool per_block;
  /* Per counted block: whether it may leave the function other than by its
     successors (a call or asm that may not return, with a successor that is
     a block; or no successor at all): gcov's fake edge to the exit.  */
  auto_vec<bool> fake;
  /* The counted edges, in counter order.  */
  auto_vec<roi_counted_edge> counted;
};

/* Whether STMT may leave the function without coming back to its block: a
   call that may not return, an asm that may stop the core.  */
bool roi_may_not_return (roi_stmt stmt);

/* The plan for FUN, whose counted blocks are ORDER (COUNTER_OF maps a
   block's index to its position there).  Call before anything is inserted
   into the blocks: it reads their statements.  */
void roi_edges_plan (function *fun, const vec<basic_block> &order, const int *counter_of,
		     struct roi_edge_plan *plan);

#endif /* ROI_EDGES_H */
