/* roi-edges.cc — which edges of a function carry a counter.
 *
 * Counts obey flow conservation: a block is entered as often as it is left.
 * So, as gcov does (GCC's profile.c: find_spanning_tree), the counters go on
 * the edges off a spanning tree of the function's graph, the function's
 * entry and exit taken as one vertex; the estimator solves the tree's edges,
 * and every block's count, from them (estimator/input/counts.c).  A function
 * of B blocks and E edges has E - B + 1 counters instead of B, and the tree
 * takes the edges that run most (GCC's estimated frequencies, at -O0 a guess
 * from the loops): a loop's exit is counted, not its back edge; of an if,
 * the arm that runs less.
 *
 * Conservation fails where a block is entered and not left: a call that
 * does not return (exit, longjmp, a profile written in the middle: roi_dump,
 * fork and exec), an asm that stops the core, a tail call (a jump out of the
 * function, ends_in_tail_call).  As gcov does, such a block
 * gets a fake edge to the exit, always on the tree (nothing can count it),
 * whose count, solved, says how often the block was left that way; the
 * counts stay exact.  A block whose only successor is the exit needs none:
 * both of its ways out lead to the same vertex.  Abnormal and EH edges,
 * which no counter can be put on, and setjmp's returns, which enter a block
 * again without an edge, keep the function on a counter per block.
 *
 * Edges to the exit are on the tree too, as in gcov: no counter between a
 * tail call or the return value and the return.  Critical edges were split
 * (roi-pass.cc), so a counted edge either enters a block with one
 * predecessor, whose start counts it, or leaves a block with one successor,
 * whose end counts it; an uncounted split block stays empty and GCC removes
 * it again.  A counter in such a block would keep it and its jump: where a
 * loop is one block whose back edge was split, it costs less to count the
 * block's entries at its start.  So each block is two vertices, its way in
 * and its way out, joined by an edge that stands for its entries, which the
 * tree may leave out like any other; a counter that needs a block of its own
 * costs more (OWN_BLOCK_COST).  */
#include "roi-edges.h"
#include "roi-plugin.h"
#include "roi-trips.h"
#include "roi-util.h"

/* Whether STMT may leave the function without returning to its block: a
   call, unless it is to a built-in function that cannot throw or return
   twice, or to a const or pure one that cannot loop (GCC's own test for
   gcov's fake edges, need_fake_edge_p); or an asm that is volatile or has no
   operands.  fork and the exec family are built-ins that return, but not to
   the same counts: libroi writes the profile in them and counts from zero
   after.  */
bool
roi_may_not_return (roi_stmt stmt)
{
  if (is_gimple_call (stmt))
    {
      if (gimple_call_internal_p (stmt))
	return false;
      tree fndecl = gimple_call_fndecl (stmt);
      int flags = gimple_call_flags (stmt);
      if (fndecl && fndecl_built_in_p_compat (fndecl) && (flags & ECF_NOTHROW)
	  && !(flags & ECF_RETURNS_TWICE))
	{
	  if (DECL_BUILT_IN_CLASS (fndecl) != BUILT_IN_NORMAL)
	    return false;
	  switch (DECL_FUNCTION_CODE (fndecl))
	    {
	    case BUILT_IN_FORK:
	    case BUILT_IN_EXECL:
	    case BUILT_IN_EXECLP:
	    case BUILT_IN_EXECLE:
	    case BUILT_IN_EXECV:
	    case BUILT_IN_EXECVP:
	    case BUILT_IN_EXECVE:
	    /* the checking variants call __chk_fail when the check fails,
	       which a program may make leave by longjmp (torture's
	       builtins/vsprintf-chk.c at -O2, counted 0 calls of 5) */
	    case BUILT_IN_MEMCPY_CHK:
	    case BUILT_IN_MEMMOVE_CHK:
	    case BUILT_IN_MEMPCPY_CHK:
	    case BUILT_IN_MEMSET_CHK:
	    case BUILT_IN_STPCPY_CHK:
	    case BUILT_IN_STPNCPY_CHK:
	    case BUILT_IN_STRCAT_CHK:
	    case BUILT_IN_STRCPY_CHK:
	    case BUILT_IN_STRNCAT_CHK:
	    case BUILT_IN_STRNCPY_CHK:
	    case BUILT_IN_SNPRINTF_CHK:
	    case BUILT_IN_SPRINTF_CHK:
	    case BUILT_IN_VSNPRINTF_CHK:
	    case BUILT_IN_VSPRINTF_CHK:
	    case BUILT_IN_FPRINTF_CHK:
	    case BUILT_IN_PRINTF_CHK:
	    case BUILT_IN_VFPRINTF_CHK:
	    case BUILT_IN_VPRINTF_CHK:
	      return true;
	    default:
	      return false;
	    }
	}
      if ((flags & (ECF_CONST | ECF_PURE)) && !(flags & ECF_LOOPING_CONST_OR_PURE))
	return false;
      return true;
    }
  if (gimple_code (stmt) == GIMPLE_ASM)
    {
      gasm *a = as_a <gasm *> (stmt);
      return gimple_asm_volatile_p (a) || gimple_asm_input_p (a);
    }
  return false;
}

/* Whether BB ends in a call the tail-call pass marked (it has run: -O2).
   expand makes it a jump out of the function and drops what follows it in
   the block: control leaves the function there, and a counter after the call
   counts only the times expand could not make it a jump (torture's
   920501-9.c: both arms of an if end in a sprintf, whose block counts, from
   the counters after them, came out 0).  */
static bool
ends_in_tail_call (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_last_nondebug_bb (bb);
  if (gsi_end_p (gsi))
    return false;
  gcall *call = dyn_cast <gcall *> (gsi_stmt (gsi));
  return call && gimple_call_tail_p (call);
}

/* Whether BB's count may differ from the counts of the edges that leave it
   towards other blocks (see the head of this file).  */
static bool
needs_fake_edge (basic_block bb)
{
  bool to_block = false, any = false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (roi_normal_edge_p (e))
      {
	any = true;
	to_block |= e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun);
      }
  if (!any)
    return true;
  if (!to_block)
    return false;
  if (ends_in_tail_call (bb))
    return true;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
    if (roi_may_not_return (gsi_stmt (gsi)))
      return true;
  return false;
}

/* Why FUN keeps a counter per block, or NULL.  */
static const char *
per_block_reason (function *fun)
{
  if (roi_opts.block_counters)
    return "-fplugin-arg-roi-block-counters";
  if (fun->calls_setjmp)
    return "it calls setjmp";
  basic_block bb;
  FOR_ALL_BB_FN (bb, fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
	  return "it has abnormal or EH edges";
    }
  return NULL;
}

/* An edge of the graph the tree spans.  Each block is two vertices, its
   way in and its way out, joined by an edge that counts its entries; the
   entry and exit of the function is one vertex, the root, and block 0's way
   in.  */
struct graph_edge
{
  int from, succ;		/* as roi_counted_edge */
  unsigned src, dst;		/* vertices */
  double cost;			/* what counting it costs: how often it runs, more
				   where it needs a block of its own */
  basic_block at;		/* where its counter goes */
  bool at_end;
};

/* How many times a loop is guessed to run per entry, where GCC has not
   estimated it (-O0).  */
#define GUESSED_TRIPS 8

/* How often each edge of FUN runs per call, as GCC guessed it when
   optimising; at -O0, where GCC guesses nothing, by the loops alone: a
   loop runs GUESSED_TRIPS times per entry, leaves by each exit once per
   entry and splits the rest among its other ways, and a branch splits
   evenly.  Into FREQ by edge.  */
static void
estimate (function *fun, hash_map<edge, double> *freq)
{
  if (optimize && profile_status_for_fn (fun) != PROFILE_ABSENT)
    {
      basic_block bb;
      FOR_ALL_BB_FN (bb, fun)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, bb->succs)
	    freq->put (e, EDGE_FREQUENCY (e));
	}
      return;
    }
  int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (fun));
  int n = pre_and_rev_post_order_compute (NULL, rpo, false);
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, ENTRY_BLOCK_PTR_FOR_FN (fun)->succs)
    freq->put (e, 1);
  for (int i = 0; i < n; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (fun, rpo[i]);
      bool header = bb->loop_father && bb->loop_father->header == bb;
      double f = 0;
      FOR_EACH_EDGE (e, ei, bb->preds)
	{
	  double *pf = freq->get (e);
	  /* (a back edge comes from a block not reached yet: none) */
	  if (pf && !(header && flow_bb_inside_loop_p (bb->loop_father, e->src)))
	    f += *pf;
	}
      if (header)
	f *= GUESSED_TRIPS;
      unsigned exits = 0, others = 0;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (e->dest != EXIT_BLOCK_PTR_FOR_FN (fun)
	    && !flow_bb_inside_loop_p (bb->loop_father, e->dest))
	  exits++;
	else
	  others++;
      double per_exit = exits && others ? f / GUESSED_TRIPS : f / (exits + others);
      double per_other = others ? (f - per_exit * exits) / others : 0;
      FOR_EACH_EDGE (e, ei, bb->succs)
	freq->put (e, e->dest != EXIT_BLOCK_PTR_FOR_FN (fun)
			 && !flow_bb_inside_loop_p (bb->loop_father, e->dest)
		      ? per_exit : per_other);
    }
  XDELETEVEC (rpo);
}

static int
find_root (vec<unsigned> &parent, unsigned v)
{
  while (parent[v] != v)
    {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
  return (int) v;
}

/* Joins the trees of A and B; false when they are one already (the edge
   would close a cycle).  */
static bool
join (vec<unsigned> &parent, unsigned a, unsigned b)
{
  int ra = find_root (parent, a), rb = find_root (parent, b);
  if (ra == rb)
    return false;
  parent[ra] = (unsigned) rb;
  return true;
}

/* The edges that cost most to count first, into the tree; else in block
   order.  */
static int
compare_heaviest (const void *pa, const void *pb)
{
  const graph_edge *a = (const graph_edge *) pa, *b = (const graph_edge *) pb;
  if (a->cost != b->cost)
    return a->cost > b->cost ? -1 : 1;
  if (a->from != b->from)
    return a->from < b->from ? -1 : 1;
  return a->succ < b->succ ? -1 : a->succ > b->succ;
}

static bool
has_statements (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
    if (!is_gimple_debug (gsi_stmt (gsi)) && gimple_code (gsi_stmt (gsi)) != GIMPLE_LABEL)
      return true;
  return false;
}

/* Where the counter of the edge E goes: the start of its destination when
   it is that block's one way in, else the end of its source, which E is
   then the one way out of (critical edges are split).  False for neither.  */
static bool
place (edge e, basic_block *at, bool *at_end)
{
  if (e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun) && single_pred_p (e->dest))
    {
      *at = e->dest;
      *at_end = false;
      return true;
    }
  if (single_succ_p (e->src))
    {
      *at = e->src;
      *at_end = true;
      return true;
    }
  return false;
}

/* A counter in a block of no statement of its own (a split edge, an empty
   latch) keeps a block that GCC would remove, and its jump: it costs this
   much more than one in a block that stays anyway.  */
#define OWN_BLOCK_COST 1.5

/* A counter in a block that runs once in every trip of a loop whose trips
   GCC computes is added once on the loop's way in (roi-trips.cc): it costs
   this many increments per entry of the loop, not one per trip.  */
#define TRIP_ADD_COST 2

/* G's cost where its counter would be added on its loop's way in: ONCE and
   ENTRY by block, as roi_trips_find gives them.  Not with 16-bit counters:
   such a counter counts all of the loop's trips, where the tree would have
   left the count to the sides of a branch in it, each below 65535 when the
   sum is not (it saturates; the sides solve it exactly).  */
static void
trip_cost (graph_edge *g, const vec<bool> &once, const vec<edge> &entry,
	   hash_map<edge, double> &freq)
{
  if (roi_opts.counter_bits == 16 || !once[g->at->index])
    return;
  double *f = freq.get (entry[g->at->index]);
  double cost = TRIP_ADD_COST * (f ? *f : 0);
  if (cost < g->cost)
    g->cost = cost;
}

static int
compare_counted (const void *pa, const void *pb)
{
  const roi_counted_edge *a = (const roi_counted_edge *) pa, *b = (const roi_counted_edge *) pb;
  if (a->from != b->from)
    return a->from < b->from ? -1 : 1;
  return a->succ < b->succ ? -1 : a->succ > b->succ;
}

void
roi_edges_plan (function *fun, const vec<basic_block> &order, const int *counter_of,
		struct roi_edge_plan *plan)
{
  plan->counted.truncate (0);
  plan->fake.truncate (0);
  const char *why = per_block_reason (fun);
  plan->per_block = why != NULL;
  if (why)
    {
      if (roi_opts.verbose && !roi_opts.block_counters)
	inform (DECL_SOURCE_LOCATION (fun->decl), "roi: a counter per block in %qD: %s",
		fun->decl, why);
      return;
    }

  unsigned n = order.length (), root = 2 * n;
  hash_map<edge, double> freq;
  estimate (fun, &freq);
  auto_vec<bool> once;
  auto_vec<edge> trip_entry;
  roi_trips_find (fun, &once, &trip_entry);
  auto_vec<graph_edge> edges;
  auto_vec<double> entries;
  entries.safe_grow_cleared (n);
  for (unsigned i = 0; i < n; i++)
    {
      plan->fake.safe_push (needs_fake_edge (order[i]));
      edge e;
      edge_iterator ei;
      int k = 0;
      FOR_EACH_EDGE (e, ei, order[i]->succs)
	if (roi_normal_edge_p (e))
	  {
	    bool to_exit = e->dest == EXIT_BLOCK_PTR_FOR_FN (fun);
	    double *f = freq.get (e);
	    graph_edge g = { (int) i, k++, 2 * i + 1,
			     to_exit ? root : 2 * (unsigned) counter_of[e->dest->index],
			     f ? *f : 0, NULL, false };
	    if (!to_exit)
	      entries[counter_of[e->dest->index]] += g.cost;
	    /* (an edge both critical and left unsplit cannot be, but a counter
	       per block is always right) */
	    if (!place (e, &g.at, &g.at_end))
	      {
		plan->per_block = true;
		plan->fake.truncate (0);
		return;
	      }
	    if (!has_statements (g.at))
	      g.cost *= OWN_BLOCK_COST;
	    trip_cost (&g, once, trip_entry, freq);
	    edges.safe_push (g);
	  }
    }
  /* Each block's entries: block 0's way in is the root, its entries the
     function's calls.  */
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  double *calls = freq.get (entry);
  entries[0] = calls ? *calls : 1;
  for (unsigned i = 0; i < n; i++)
    {
      graph_edge g = { -1, (int) i, i ? 2 * i : root, 2 * i + 1, entries[i], order[i], false };
      if (!has_statements (order[i]))
	g.cost *= OWN_BLOCK_COST;
      trip_cost (&g, once, trip_entry, freq);
      edges.safe_push (g);
    }

  auto_vec<unsigned> parent;
  for (unsigned v = 0; v <= root; v++)
    parent.safe_push (v);
  /* On the tree first what no counter can stand on, then the edges to the
     exit: the fake edges and the returns all leave distinct blocks for the
     root, so none of them closes a cycle.  */
  for (unsigned i = 0; i < n; i++)
    if (plan->fake[i])
      join (parent, 2 * i + 1, root);
  for (unsigned i = 0; i < edges.length (); i++)
    if (edges[i].dst == root)
      join (parent, edges[i].src, root);
  edges.qsort (compare_heaviest);
  for (unsigned i = 0; i < edges.length (); i++)
    {
      if (edges[i].dst == root || join (parent, edges[i].src, edges[i].dst))
	continue;
      roi_counted_edge c = { edges[i].from, edges[i].succ, edges[i].at, edges[i].at_end };
      plan->counted.safe_push (c);
    }
  plan->counted.qsort (compare_counted);
}
