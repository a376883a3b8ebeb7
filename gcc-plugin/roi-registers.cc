/* roi-registers.cc — a loop's counters kept in registers while it runs.
 *
 * What GCC's store motion (tree-ssa-loop-im.cc) does for gcov's counters at
 * -O2: a counter updated in a loop is loaded once before the loop, counted in
 * a register, and stored on every way out.  roi counts after the tree
 * optimisers, so it does it itself, in SSA: the value a block starts with is
 * a PHI where control joins (the loop's header, a join after an if), else
 * what its one predecessor ended with; an update adds to it.  Where it is
 * exact only: an innermost loop entered by one edge from a block that leads
 * nowhere else (after the split of critical edges, every loop entered once),
 * left by at least one edge, without a statement that may leave it otherwise
 * (a call that may not return, or that writes the profile in the middle, an
 * asm that may stop the core: roi_may_not_return), so that every count the
 * register holds reaches memory before anything reads it.  Counters on the
 * host and ARM, where registers are many: AVR's asms update memory without
 * taking one, which at -Os keeps the program's values where the plain build
 * has them.  Not atomic counters, which threads share; per-thread ones
 * (roi-counters.cc) are a thread's own.  */
#include "roi-registers.h"
#include "roi-counters.h"
#include "roi-plugin.h"
#include "roi-util.h"

/* A loop keeps at most this many counters in registers.  */
#define MAX_IN_REGISTERS 4

/* Whether LOOP can keep counters in registers; its entry edge then in
   *ENTRY and its exits in EXITS.  */
static bool
qualifies (loop_p loop, edge *entry, vec<edge> *exits)
{
  if (loop->inner || !loop_outer (loop))
    return false;
  *entry = NULL;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, loop->header->preds)
    if (!flow_bb_inside_loop_p (loop, e->src))
      {
	if (*entry)
	  return false;
	*entry = e;
      }
  if (!*entry || !single_succ_p ((*entry)->src)
      || (*entry)->src == ENTRY_BLOCK_PTR_FOR_FN (cfun) || !roi_normal_edge_p (*entry))
    return false;
  basic_block *body = get_loop_body (loop);
  bool ok = true;
  for (unsigned i = 0; i < loop->num_nodes && ok; i++)
    {
      for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]); !gsi_end_p (gsi) && ok;
	   gsi_next (&gsi))
	ok = !roi_may_not_return (gsi_stmt (gsi));
      FOR_EACH_EDGE (e, ei, body[i]->succs)
	if (!roi_normal_edge_p (e))
	  ok = false;
	else if (!flow_bb_inside_loop_p (loop, e->dest))
	  exits->safe_push (e);
    }
  free (body);
  return ok && !exits->is_empty ();
}

/* V + 1 before GSI, in the counter type; a 16-bit counter saturates at
   65535, as in memory.  */
static tree
add_one (gimple_stmt_iterator *gsi, tree v)
{
  tree type = roi_counter_type ();
  tree step = build_int_cst (type, 1);
  if (roi_opts.counter_bits == 16)
    {
      tree below_max = make_ssa_name (boolean_type_node);
      gsi_insert_before (gsi, gimple_build_assign (below_max, NE_EXPR, v, TYPE_MAX_VALUE (type)),
			 GSI_SAME_STMT);
      step = make_ssa_name (type);
      gsi_insert_before (gsi, gimple_build_assign (step, NOP_EXPR, below_max), GSI_SAME_STMT);
    }
  tree sum = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (sum, PLUS_EXPR, v, step), GSI_SAME_STMT);
  return sum;
}

/* COUNTERS[IDX], updated at the start or the end of blocks of LOOP (SITE's
   members with this index), in a register from ENTRY to EXITS.  */
static void
in_register (loop_p loop, edge entry, const vec<edge> &exits, tree counters, unsigned idx,
	     const vec<roi_counted_edge> &counted, const int *rpo, int nrpo)
{
  tree type = roi_counter_type ();
  gimple_stmt_iterator gsi = roi_update_point (entry->src, true);
  tree loaded = make_ssa_name (type);
  tree ref = roi_counter_ref_at (&gsi, counters, idx);
  gsi_insert_before (&gsi, gimple_build_assign (loaded, ref), GSI_SAME_STMT);

  /* The loop's blocks in reverse postorder: a block's one predecessor,
     which dominates it, comes first.  */
  hash_map<basic_block, tree> out;
  auto_vec<gphi *> phis;
  for (int i = 0; i < nrpo; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, rpo[i]);
      if (!flow_bb_inside_loop_p (loop, bb))
	continue;
      tree v;
      if (bb == loop->header || !single_pred_p (bb))
	{
	  gphi *phi = create_phi_node (make_ssa_name (type), bb);
	  phis.safe_push (phi);
	  v = gimple_phi_result (phi);
	}
      else
	v = *out.get (single_pred (bb));
      if (counted[idx].at == bb && !counted[idx].at_end)
	{
	  gimple_stmt_iterator at = roi_update_point (bb, false);
	  v = add_one (&at, v);
	}
      if (counted[idx].at == bb && counted[idx].at_end)
	{
	  gimple_stmt_iterator at = roi_update_point (bb, true);
	  v = add_one (&at, v);
	}
      out.put (bb, v);
    }
  for (unsigned i = 0; i < phis.length (); i++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (phis[i])->preds)
	add_phi_arg (phis[i], e == entry ? loaded : *out.get (e->src), e, UNKNOWN_LOCATION);
    }
  /* On every way out, where it is taken alone: the start of a block entered
     by it alone, else the end of the block it leaves, which leads nowhere
     else (critical edges are split).  */
  for (unsigned i = 0; i < exits.length (); i++)
    {
      edge e = exits[i];
      bool at_dest = e->dest != EXIT_BLOCK_PTR_FOR_FN (cfun) && single_pred_p (e->dest);
      gimple_stmt_iterator at = roi_update_point (at_dest ? e->dest : e->src, !at_dest);
      tree ref = roi_counter_ref_at (&at, counters, idx);
      gsi_insert_before (&at, gimple_build_assign (ref, *out.get (e->src)), GSI_SAME_STMT);
    }
}

/* Whether every exit of a loop can take a store alone (see in_register).  */
static bool
exits_placeable (const vec<edge> &exits)
{
  for (unsigned i = 0; i < exits.length (); i++)
    if (!(exits[i]->dest != EXIT_BLOCK_PTR_FOR_FN (cfun) && single_pred_p (exits[i]->dest))
	&& !single_succ_p (exits[i]->src))
      return false;
  return true;
}

void
roi_registers_increment (function *fun, tree counters, const vec<roi_counted_edge> &counted,
			 vec<bool> *done)
{
  if (optimize && !roi_opts.avr_asm_increment && !roi_counters_atomic ())
    {
      /* (the region hooks may have split edges since the loops were found) */
      loop_optimizer_init (AVOID_CFG_MODIFICATIONS);
      /* Not get_loop_body_in_dom_order, which needs the loop's one latch: a
	 header entered by two back edges has none (torture's 20181120-1.c at
	 -O2: an if's two arms both go back).  Placing counters changes no
	 edge, so one order serves every loop.  */
      int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (fun));
      int nrpo = pre_and_rev_post_order_compute (NULL, rpo, false);
      ROI_FOR_EACH_LOOP (loop, fun, LI_ONLY_INNERMOST)
	{
	  edge entry;
	  auto_vec<edge> exits;
	  if (!qualifies (loop, &entry, &exits) || !exits_placeable (exits))
	    continue;
	  unsigned n = 0;
	  for (unsigned i = 0; i < counted.length () && n < MAX_IN_REGISTERS; i++)
	    if (!(*done)[i] && flow_bb_inside_loop_p (loop, counted[i].at))
	      {
		in_register (loop, entry, exits, counters, i, counted, rpo, nrpo);
		(*done)[i] = true;
		n++;
	      }
	}
      free (rpo);
      loop_optimizer_finalize ();
    }
  for (unsigned i = 0; i < counted.length (); i++)
    if (!(*done)[i])
      roi_counter_increment (counted[i].at, counted[i].at_end, counters, i);
}
