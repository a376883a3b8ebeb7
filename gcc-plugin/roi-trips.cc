/* roi-trips.cc — a loop's counter added once per entry, where GCC computes
 * how often its latch runs.
 *
 * The edges off the spanning tree (roi-edges.cc) leave a counter on every
 * loop's cycle.  Where GCC's analysis of the number of iterations (tree-ssa-
 * loop-niter: number_of_iterations_exit) gives an exact expression for the
 * latch's runs per entry, N, a block that runs once in every trip of the
 * loop runs N + 1 times per entry when it comes before the exit test, N
 * times after it; its counter is then added that count on the loop's way
 * in, once, and the loop carries no update of it.  The counts stay exact
 * where the count is only read after the loop has run to its exit: a loop
 * left by its one exit alone, without a statement that may leave it
 * otherwise (a call that may not return or that writes the profile in the
 * middle, an asm that may stop the core: roi_may_not_return), as for the
 * counters kept in registers (roi-registers.cc).
 *
 * Exact also means: the latch's runs are known on the way in, not bounded
 * (no assumption left), and the count is computed there without a branch or
 * a division (a division would take the steps the AVR division routines
 * count for the program's: roi-divide.cc), from values the way in has; a
 * number that is none where a test holds (may_be_zero) is masked by the
 * test's value, where a comparison sets a register.  The analysis wants the loops in the shape GCC's loop
 * optimisers give them, a preheader and one latch each; after the split of
 * critical edges (roi-pass.cc) they have it where every loop has one latch
 * and is entered by one edge.  It changes nothing of the function: the
 * state it needs is set for its time and restored after.  */
#include "roi-trips.h"
#include "roi-counters.h"
#include "roi-counters-avr.h"
#include "roi-plugin.h"
#include "roi-util.h"

/* A loop whose latch runs RUNS times per entry, entered by ENTRY and left
   by EXIT alone.  */
struct trip_loop
{
  loop_p loop;
  edge entry, exit;
  tree runs;	/* of an unsigned type */
};

/* Whether every loop of FUN has one latch that leads to its header alone
   and one way in, from a block that leads nowhere else: what GCC's loop
   optimisers would make of them (loop_optimizer_init (LOOPS_NORMAL)),
   there already.  */
static bool
loops_in_shape (function *fun)
{
  ROI_FOR_EACH_LOOP (loop, fun, 0)
    {
      if (!loop->latch || loop->latch == loop->header || !single_succ_p (loop->latch))
	return false;
      unsigned entries = 0;
      edge e, entry = NULL;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, loop->header->preds)
	if (e->src != loop->latch)
	  {
	    entries++;
	    entry = e;
	  }
      if (entries != 1 || entry->src == ENTRY_BLOCK_PTR_FOR_FN (fun)
	  || (entry->flags & EDGE_COMPLEX) || !single_succ_p (entry->src))
	return false;
    }
  return true;
}

/* What the analysis changed, to restore.  */
struct analysis
{
  unsigned state;
  bool had_dominators;
};

/* Sets up the analysis of FUN's loops: false where they are not in shape.  */
static bool
analysis_begin (function *fun, struct analysis *a)
{
  if (!loops_for_fn (fun) || !loops_in_shape (fun))
    return false;
  a->state = loops_for_fn (fun)->state;
  a->had_dominators = dom_info_available_p (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  /* (a block of an irreducible region may run twice in one trip) */
  mark_irreducible_loops ();
  loops_state_clear (LOOPS_MAY_HAVE_MULTIPLE_LATCHES);
  loops_state_set (LOOPS_HAVE_PREHEADERS | LOOPS_HAVE_SIMPLE_LATCHES);
  /* (the exits recorded: the analysis then knows a loop's only exit) */
  if (!loops_state_satisfies_p (LOOPS_HAVE_RECORDED_EXITS))
    record_loop_exits ();
  scev_initialize ();
  return true;
}

static void
analysis_end (function *fun, const struct analysis *a)
{
  scev_finalize ();
  if (!(a->state & LOOPS_HAVE_RECORDED_EXITS))
    roi_release_recorded_exits (fun);
  loops_for_fn (fun)->state = a->state;
  if (!a->had_dominators)
    free_dominance_info (CDI_DOMINATORS);
}

/* Where LOOP is in the source, for a note: its exit test's location, else
   its header's first located statement's, else the function's.  */
static location_t
loop_location (loop_p loop)
{
  edge exit = single_exit (loop);
  if (exit && last_stmt (exit->src)
      && !RESERVED_LOCATION_P (gimple_location (last_stmt (exit->src))))
    return gimple_location (last_stmt (exit->src));
  for (gimple_stmt_iterator gsi = gsi_start_bb (loop->header); !gsi_end_p (gsi); gsi_next (&gsi))
    if (!is_gimple_debug (gsi_stmt (gsi))
	&& !RESERVED_LOCATION_P (gimple_location (gsi_stmt (gsi))))
      return gimple_location (gsi_stmt (gsi));
  return DECL_SOURCE_LOCATION (current_function_decl);
}

/* The one exit of LOOP, where nothing in it leaves it otherwise and no
   block of it is in an irreducible region; else NULL.  */
static edge
only_exit (loop_p loop)
{
  edge exit = NULL;
  bool ok = true;
  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes && ok; i++)
    {
      if (body[i]->flags & BB_IRREDUCIBLE_LOOP)
	ok = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]); !gsi_end_p (gsi) && ok;
	   gsi_next (&gsi))
	ok = !roi_may_not_return (gsi_stmt (gsi));
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, body[i]->succs)
	if (!roi_normal_edge_p (e))
	  ok = false;
	else if (!flow_bb_inside_loop_p (loop, e->dest))
	  {
	    ok = ok && !exit;
	    exit = e;
	  }
    }
  free (body);
  return ok ? exit : NULL;
}

/* Whether EXPR can be computed at the end of block AT without a branch, a
   division or a load: arithmetic and comparisons on constants and on
   values AT has.  */
static bool
computable_at (tree expr, basic_block at)
{
  switch (TREE_CODE (expr))
    {
    case INTEGER_CST:
      return true;
    case SSA_NAME:
      {
	if (SSA_NAME_IS_DEFAULT_DEF (expr))
	  return true;
	basic_block def = gimple_bb (SSA_NAME_DEF_STMT (expr));
	return def && dominated_by_p (CDI_DOMINATORS, at, def);
      }
    case ADDR_EXPR:
      return is_gimple_min_invariant (expr);
    CASE_CONVERT:
    case NEGATE_EXPR:
    case BIT_NOT_EXPR:
    case TRUTH_NOT_EXPR:
      return computable_at (TREE_OPERAND (expr, 0), at);
    /* (a value, not a branch: may_be_zero where find_trips takes it) */
    case LT_EXPR:
    case LE_EXPR:
    case GT_EXPR:
    case GE_EXPR:
    case EQ_EXPR:
    case NE_EXPR:
    case TRUTH_AND_EXPR:
    case TRUTH_OR_EXPR:
    case TRUTH_XOR_EXPR:
    case PLUS_EXPR:
    case MINUS_EXPR:
    case POINTER_PLUS_EXPR:
    case POINTER_DIFF_EXPR:
    case BIT_AND_EXPR:
    case BIT_IOR_EXPR:
    case BIT_XOR_EXPR:
      return computable_at (TREE_OPERAND (expr, 0), at)
	     && computable_at (TREE_OPERAND (expr, 1), at);
    case MULT_EXPR:
    case LSHIFT_EXPR:
    case RSHIFT_EXPR:
      return TREE_CODE (TREE_OPERAND (expr, 1)) == INTEGER_CST
	     && computable_at (TREE_OPERAND (expr, 0), at);
    case TRUNC_DIV_EXPR:
    case EXACT_DIV_EXPR:
      /* by a power of two, unsigned: a shift */
      return TYPE_UNSIGNED (TREE_TYPE (expr)) && TREE_CODE (TREE_OPERAND (expr, 1)) == INTEGER_CST
	     && integer_pow2p (TREE_OPERAND (expr, 1))
	     && computable_at (TREE_OPERAND (expr, 0), at);
    default:
      return false;
    }
}

/* Whether a count of RUNS + 1 can be added to a counter by the update
   roi_counter_add_count makes: on AVR its asm takes an amount of 8 or 16
   bits, and a 16-bit counter saturates, which needs a comparison where the
   amount may be wider (a constant is clamped when compiled).  */
static bool
addable (tree runs)
{
  if (TREE_CODE (runs) == INTEGER_CST)
    return !roi_avr_increments ()
	   || wi::ltu_p (wi::to_widest (runs), 65535) || roi_opts.counter_bits == 16;
  unsigned bits = TYPE_PRECISION (TREE_TYPE (runs));
  if (roi_avr_increments ())
    return bits <= 16;
  return roi_opts.counter_bits != 16 || bits < 16;
}

/* How often LOOP's latch runs per entry, exactly, as an expression its way
   in can compute, with the loop's ways in and out into T; else NULL, and
   why not.  */
static const char *
find_trips (loop_p loop, struct trip_loop *t)
{
  t->loop = loop;
  t->exit = only_exit (loop);
  /* (a test that runs in every trip: GCC 12 checks that too, GCC 5's
     analysis may not) */
  if (!t->exit || !dominated_by_p (CDI_DOMINATORS, loop->latch, t->exit->src))
    return "it has more than one way out, or one not tested in every trip";
  t->entry = loop_preheader_edge (loop);
  tree_niter_desc desc;
  if (!number_of_iterations_exit (loop, t->exit, &desc, false) || !desc.niter
      || !INTEGRAL_TYPE_P (TREE_TYPE (desc.niter)) || !TYPE_UNSIGNED (TREE_TYPE (desc.niter)))
    return "GCC does not know its trips";
  /* (may_be_zero: the latch does not run at all) */
  tree type = TREE_TYPE (desc.niter);
  if (integer_nonzerop (desc.may_be_zero))
    t->runs = build_int_cst (type, 0);
  else if (integer_zerop (desc.may_be_zero))
    t->runs = desc.niter;
  /* Else none where it holds: the number masked by all ones where it does
     not, a comparison that sets a register where the target has one (not
     AVR, where it is a branch).  */
  else if (!roi_opts.avr_asm_increment)
    {
      tree runs = fold_convert (type, fold_build1 (TRUTH_NOT_EXPR, boolean_type_node,
						   desc.may_be_zero));
      t->runs = fold_build2 (BIT_AND_EXPR, type, desc.niter, fold_build1 (NEGATE_EXPR, type, runs));
    }
  else
    return "its trips are a number or none, by a test";
  if (!computable_at (t->runs, t->entry->src))
    return "its trips take a branch, a division or a load to compute";
  if (!addable (t->runs))
    return "its trips are wider than the counter update takes";
  return NULL;
}

/* How often BB runs per trip of T's loop beyond the latch's runs: 1 for a
   block before the exit test, 0 for one after it, -1 for a block that runs
   other than once in every trip (in an inner loop, on one side of a
   branch).  A block that dominates the latch, of the loop itself and of no
   irreducible region in it, runs once in every trip.  */
static int
runs_beyond_latch (basic_block bb, const struct trip_loop &t)
{
  if (bb->loop_father != t.loop || !dominated_by_p (CDI_DOMINATORS, t.loop->latch, bb))
    return -1;
  return dominated_by_p (CDI_DOMINATORS, t.exit->src, bb) ? 1 : 0;
}

/* The loops of FUN whose trips are found, into TRIPS; with VERBOSE, a note
   for each of the others.  */
static void
find_all (function *fun, vec<trip_loop> *trips, bool verbose)
{
  ROI_FOR_EACH_LOOP (loop, fun, 0)
    {
      struct trip_loop t;
      const char *why = find_trips (loop, &t);
      if (!why)
	trips->safe_push (t);
      else if (verbose)
	inform (loop_location (loop), "roi: the counter of a loop in %qD stays in it: %s",
		fun->decl, why);
    }
}

void
roi_trips_find (function *fun, vec<bool> *once, vec<edge> *entry)
{
  once->truncate (0);
  entry->truncate (0);
  once->safe_grow_cleared (last_basic_block_for_fn (fun));
  entry->safe_grow_cleared (last_basic_block_for_fn (fun));
  struct analysis a;
  if (!analysis_begin (fun, &a))
    return;
  auto_vec<trip_loop> trips;
  find_all (fun, &trips, false);
  for (unsigned i = 0; i < trips.length (); i++)
    {
      basic_block *body = get_loop_body (trips[i].loop);
      for (unsigned j = 0; j < trips[i].loop->num_nodes; j++)
	if (runs_beyond_latch (body[j], trips[i]) >= 0)
	  {
	    (*once)[body[j]->index] = true;
	    (*entry)[body[j]->index] = trips[i].entry;
	  }
      free (body);
    }
  analysis_end (fun, &a);
}

void
roi_trips_add (function *fun, tree counters, const vec<roi_counted_edge> &counted,
	       vec<bool> *done)
{
  /* (the region hooks may have split edges since the loops were found) */
  loop_optimizer_init (AVOID_CFG_MODIFICATIONS);
  struct analysis a;
  if (!analysis_begin (fun, &a))
    {
      if (roi_opts.verbose && number_of_loops (fun) > 1)
	inform (DECL_SOURCE_LOCATION (fun->decl), "roi: the counters of the loops in %qD stay in them:"
		" a loop has more than one latch or way in", fun->decl);
    }
  else
    {
      /* All found first: an update inserted on an inner loop's way in is
	 in the outer loop, where an AVR asm would read as one that may stop
	 the core.  */
      auto_vec<trip_loop> trips;
      find_all (fun, &trips, roi_opts.verbose);
      for (unsigned i = 0; i < trips.length (); i++)
	for (unsigned j = 0; j < counted.length (); j++)
	  {
	    int beyond = (*done)[j] ? -1 : runs_beyond_latch (counted[j].at, trips[i]);
	    if (beyond < 0)
	      continue;
	    gimple_stmt_iterator gsi = roi_update_point (trips[i].entry->src, true);
	    roi_counter_add_count (&gsi, counters, j, trips[i].runs, beyond == 1);
	    (*done)[j] = true;
	    if (roi_opts.verbose)
	      inform (loop_location (trips[i].loop),
		      "roi: counter %u of %qD added once per entry of the loop: %s%E",
		      j, fun->decl, beyond ? "1 + " : "", trips[i].runs);
	  }
      analysis_end (fun, &a);
    }
  loop_optimizer_finalize ();
}
