/* roi-counters.cc — the block and value counters and their updates.
 *
 * Counters are local zero-initialised arrays, one per function, so they live
 * in .bss (zeroed by any C start-up code, on a host or a microcontroller) and
 * static functions of equal names in two units never share one.  On a host
 * the runtime finds them through their descriptors (roi-descriptor.cc).  On
 * AVR the updates are asms that take no register (roi-counters-avr.cc).  */
#include "roi-counters.h"
#include "roi-counters-avr.h"
#include "roi-instrumentable.h"
#include "roi-meta.h"
#include "roi-plugin.h"
#include "roi-util.h"
#include "roi-value-sites.h"

tree
roi_counter_type (void)
{
  switch (roi_opts.counter_bits)
    {
    case 16: return uint16_type_node;
    case 64: return uint64_type_node;
    default: return uint32_type_node;	/* not unsigned_type_node: 16 bits on AVR */
    }
}

tree
roi_counters_create (unsigned fn_index, unsigned n)
{
  char name[64];
  snprintf (name, sizeof name, "__roi_c_%s_%u", roi_unit_id (), fn_index);
  tree var = roi_static_var (name, build_array_type_nelts (roi_counter_type (), n));
  varpool_node::finalize_decl (var);
  return var;
}

tree
roi_counter_ref (tree counters, unsigned idx)
{
  return build4 (ARRAY_REF, roi_counter_type (), counters,
		 build_int_cst (integer_type_node, idx), NULL_TREE, NULL_TREE);
}

bool
roi_counters_atomic (void)
{
  return roi_opts.atomic || roi_runs_in_threads (current_function_decl);
}

/* Before GSI, all ones of TYPE where SUM, OLD_VALUE plus an amount,
   wrapped (it is below OLD_VALUE), else 0: what a 16-bit counter ORs in to
   saturate.  */
static tree
wrap_mask (gimple_stmt_iterator *gsi, tree type, tree sum, tree old_value)
{
  tree wrapped = make_ssa_name (boolean_type_node);
  gsi_insert_before (gsi, gimple_build_assign (wrapped, LT_EXPR, sum, old_value), GSI_SAME_STMT);
  tree one = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (one, NOP_EXPR, wrapped), GSI_SAME_STMT);
  tree mask = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (mask, NEGATE_EXPR, one), GSI_SAME_STMT);
  return mask;
}

/* __atomic_fetch_add (&REF, VALUE, __ATOMIC_RELAXED) before GSI.  A 16-bit
   counter saturates as the plain update does: an add that wrapped then ORs
   all ones into it, which leaves 65535 whatever other threads added in
   between (an outlined OpenMP body's; -fplugin-arg-roi-atomic itself wants
   32 or 64 bits).  */
static void
insert_atomic_add (gimple_stmt_iterator *gsi, tree ref, tree value)
{
  enum built_in_function code
    = roi_opts.counter_bits == 64 ? BUILT_IN_ATOMIC_FETCH_ADD_8
    : roi_opts.counter_bits == 16 ? BUILT_IN_ATOMIC_FETCH_ADD_2
    : BUILT_IN_ATOMIC_FETCH_ADD_4;
  tree relaxed = build_int_cst (integer_type_node, MEMMODEL_RELAXED);
  tree fetch_add = builtin_decl_explicit (code);
  gcall *call = gimple_build_call (fetch_add, 3, build_fold_addr_expr (ref), value, relaxed);
  gsi_insert_before (gsi, call, GSI_SAME_STMT);
  if (roi_opts.counter_bits != 16)
    return;

  tree type = roi_counter_type ();
  tree fetched = make_ssa_name (TREE_TYPE (TREE_TYPE (fetch_add)));
  gimple_call_set_lhs (call, fetched);
  tree old_value = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (old_value, NOP_EXPR, fetched), GSI_SAME_STMT);
  tree sum = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (sum, PLUS_EXPR, old_value, value), GSI_SAME_STMT);
  tree mask = wrap_mask (gsi, type, sum, old_value);
  gsi_insert_before (gsi, gimple_build_call (builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_OR_2),
					     3, build_fold_addr_expr (unshare_expr (ref)), mask,
					     relaxed),
		     GSI_SAME_STMT);
}

/* Where an update at the start of BB goes, after its labels, or at its end
   (AT_END): before the statement that leaves it (a branch, a return), else
   after its last statement.  */
gimple_stmt_iterator
roi_update_point (basic_block bb, bool at_end)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  if (!at_end || gsi_end_p (gsi))
    return gsi_after_labels (bb);
  roi_stmt last = gsi_stmt (gsi);
  if (!is_ctrl_stmt (last) && !stmt_ends_bb_p (last))
    gsi_next (&gsi);	/* the end: what goes before it is appended */
  return gsi;
}

/* counters[idx] += 1 at the start of BB, after its labels, or at its end
   (AT_END, roi_update_point).  A plain load-add-store unless the counters are
   atomic (roi_counters_atomic): a relaxed atomic add; 16-bit counters
   saturate at 65535 instead of wrapping, so the estimator can report an
   overflow rather than a small wrong count.  */
void
roi_counter_increment (basic_block bb, bool at_end, tree counters, unsigned idx)
{
  tree type = roi_counter_type ();
  tree ref = roi_counter_ref (counters, idx);
  gimple_stmt_iterator gsi = roi_update_point (bb, at_end);

  if (roi_counters_atomic ())
    {
      insert_atomic_add (&gsi, ref, build_int_cst (type, 1));
      return;
    }

  if (roi_avr_increments ())
    {
      roi_avr_increment (&gsi, ref);
      return;
    }

  tree old_value = make_ssa_name (type);
  gsi_insert_before (&gsi, gimple_build_assign (old_value, ref), GSI_SAME_STMT);
  tree step = build_int_cst (type, 1);
  if (roi_opts.counter_bits == 16)
    {
      tree below_max = make_ssa_name (boolean_type_node);
      gsi_insert_before (&gsi, gimple_build_assign (below_max, NE_EXPR, old_value,
						    TYPE_MAX_VALUE (type)),
			 GSI_SAME_STMT);
      step = make_ssa_name (type);
      gsi_insert_before (&gsi, gimple_build_assign (step, NOP_EXPR, below_max),
			 GSI_SAME_STMT);
    }
  tree new_value = make_ssa_name (type);
  gsi_insert_before (&gsi, gimple_build_assign (new_value, PLUS_EXPR, old_value, step),
		     GSI_SAME_STMT);
  gsi_insert_before (&gsi, gimple_build_assign (unshare_expr (ref), new_value),
		     GSI_SAME_STMT);
}

/* counters[idx] += AMOUNT just before STMT: a value counter adds up what
   its site ran with (the bits a shift moved, the bytes memcpy copied), so it
   wraps or, 16 bits wide, saturates like a block counter.  An AMOUNT that is
   the call's own result (the length strlen returned) is added just after it,
   read from its variable first where it is one in memory (-O0).  On AVR a
   float add's passes and an 8- or 16-bit amount are added by an asm.  */
void
roi_counter_add (roi_stmt stmt, tree counters, unsigned idx, tree amount)
{
  tree type = roi_counter_type ();
  tree ref = roi_counter_ref (counters, idx);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  tree a, b;
  if (roi_avr_counters () && roi_float_add_operands (stmt, &a, &b))
    {
      roi_avr_float_passes (&gsi, ref, a, b);
      return;
    }
  tree quotient;
  bool before;
  if (roi_division_quotient (stmt, &quotient, &before))
    {
      if (roi_avr_division_steps_counted ())
	{
	  roi_avr_division_steps (stmt, ref, quotient);
	  return;
	}
      /* Elsewhere the popcount of the quotient's magnitude, after STMT.  */
      if (before)
	quotient = force_gimple_operand_gsi (&gsi, quotient, true, NULL_TREE, true,
					     GSI_SAME_STMT);
      gsi_next (&gsi);
      quotient = force_gimple_operand_gsi (&gsi, roi_quotient_magnitude (quotient), true,
					   NULL_TREE, true, GSI_SAME_STMT);
      amount = build_call_expr (builtin_decl_explicit (BUILT_IN_POPCOUNTL), 1,
				fold_convert (long_unsigned_type_node, quotient));
    }
  else if (is_gimple_call (stmt) && amount == gimple_call_lhs (stmt))
    {
      gsi_next (&gsi);
      if (!is_gimple_val (amount))
	{
	  tree loaded = make_ssa_name (TREE_TYPE (amount));
	  gsi_insert_before (&gsi, gimple_build_assign (loaded, unshare_expr (amount)),
			     GSI_SAME_STMT);
	  amount = loaded;
	}
    }

  /* (a 64-bit shift's passes: an expression of its amount) */
  if (!is_gimple_val (amount))
    amount = force_gimple_operand_gsi (&gsi, amount, true, NULL_TREE, true, GSI_SAME_STMT);
  if (roi_avr_counters () && roi_avr_add (&gsi, stmt, ref, &amount))
    return;
  tree value = make_ssa_name (type);
  gsi_insert_before (&gsi, gimple_build_assign (value, NOP_EXPR, amount), GSI_SAME_STMT);
  if (roi_counters_atomic ())
    {
      insert_atomic_add (&gsi, ref, value);
      return;
    }
  tree old_value = make_ssa_name (type);
  gsi_insert_before (&gsi, gimple_build_assign (old_value, ref), GSI_SAME_STMT);
  tree new_value = make_ssa_name (type);
  gsi_insert_before (&gsi, gimple_build_assign (new_value, PLUS_EXPR, old_value, value),
		     GSI_SAME_STMT);
  if (roi_opts.counter_bits == 16)
    {
      /* a sum below the old value wrapped: all ones instead */
      tree mask = wrap_mask (&gsi, type, new_value, old_value);
      tree saturated = make_ssa_name (type);
      gsi_insert_before (&gsi, gimple_build_assign (saturated, BIT_IOR_EXPR, new_value, mask),
			 GSI_SAME_STMT);
      new_value = saturated;
    }
  gsi_insert_before (&gsi, gimple_build_assign (unshare_expr (ref), new_value),
		     GSI_SAME_STMT);
}
