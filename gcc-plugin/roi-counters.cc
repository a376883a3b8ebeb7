/* roi-counters.cc — the block and value counters and their updates.
 *
 * Counters are local zero-initialised arrays, one per function, so they live
 * in .bss (zeroed by any C start-up code, on a host or a microcontroller) and
 * static functions of equal names in two units never share one.  On a host
 * the runtime finds them through their descriptors (roi-descriptor.cc).  On
 * AVR the updates are asms that take no register (roi-counters-avr.cc).  */
#include "roi-counters.h"
#include "roi-counters-avr.h"
#include "roi-descriptor.h"
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

/* Where the current function's counters start in a thread's copy of the
   unit's (roi_counters_per_thread): the counters of the functions before it,
   in index order, as libroi lays them out (runtime/roi-threads.c).  */
static unsigned unit_counters, thread_offset;

tree
roi_counters_create (unsigned fn_index, unsigned n)
{
  thread_offset = unit_counters;
  unit_counters += n;
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

/* Whether the current function's counters must count right when threads
   run it at once: with -fplugin-arg-roi-atomic, and where threads may
   (roi_runs_in_threads).  */
static bool
thread_safe (void)
{
  return roi_opts.atomic || roi_runs_in_threads (current_function_decl);
}

bool
roi_counters_per_thread (void)
{
  return thread_safe () && roi_opts.runtime == ROI_RUNTIME_HOST && targetm.have_tls;
}

bool
roi_counters_atomic (void)
{
  return thread_safe () && !roi_counters_per_thread ();
}

/* __roi_t_<unit>: a thread-local pointer to the calling thread's copy of
   the unit's counters, which libroi allocates when the thread first enters
   one of the unit's functions (roi_counters_thread_entry).  */
static tree
thread_base (void)
{
  if (!roi_gc[ROI_GC_THREAD_BASE])
    {
      char name[64];
      snprintf (name, sizeof name, "__roi_t_%s", roi_unit_id ());
      tree var = roi_static_var (name, build_pointer_type (roi_counter_type ()));
      set_decl_tls_model (var, decl_default_tls_model (var));
      varpool_node::finalize_decl (var);
      roi_gc[ROI_GC_THREAD_BASE] = var;
    }
  return roi_gc[ROI_GC_THREAD_BASE];
}

tree
roi_counter_ref_at (gimple_stmt_iterator *gsi, tree counters, unsigned idx)
{
  if (!roi_counters_per_thread ())
    return roi_counter_ref (counters, idx);
  tree type = roi_counter_type ();
  tree base = make_ssa_name (build_pointer_type (type));
  gsi_insert_before (gsi, gimple_build_assign (base, thread_base ()), GSI_SAME_STMT);
  unsigned HOST_WIDE_INT offset = (unsigned HOST_WIDE_INT) (thread_offset + idx)
				  * (roi_opts.counter_bits / BITS_PER_UNIT);
  return build2 (MEM_REF, type, base, build_int_cst (build_pointer_type (type), offset));
}

/* Before the function's first block: where this thread has no copy of the
   unit's counters yet, __roi_thread_unit (&__roi_t_<unit>, the unit's
   descriptors) makes one.  A load, a test and a branch per call, in blocks
   of their own that the metadata does not describe (the RTL pass charges
   them to block 0, which runs as often).  */
void
roi_counters_thread_entry (function *fun)
{
  if (!roi_counters_per_thread ())
    return;
  if (!roi_gc[ROI_GC_THREAD_UNIT])
    {
      tree fntype = build_function_type_list (ptr_type_node, ptr_type_node, const_ptr_type_node,
					      const_ptr_type_node, NULL_TREE);
      tree fn = build_fn_decl ("__roi_thread_unit", fntype);
      DECL_EXTERNAL (fn) = 1;
      TREE_PUBLIC (fn) = 1;
      TREE_NOTHROW (fn) = 1;
      roi_gc[ROI_GC_THREAD_UNIT] = fn;
      roi_gc[ROI_GC_SECTION_START] = roi_descriptor_section_bound ("__start_");
      roi_gc[ROI_GC_SECTION_STOP] = roi_descriptor_section_bound ("__stop_");
    }
  basic_block first = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  basic_block test = split_edge (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)));
  tree type = build_pointer_type (roi_counter_type ());
  tree base = make_ssa_name (type);
  gimple_stmt_iterator gsi = gsi_last_bb (test);
  gsi_insert_after (&gsi, gimple_build_assign (base, thread_base ()), GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_cond (EQ_EXPR, base, build_int_cst (type, 0), NULL_TREE,
					     NULL_TREE), GSI_NEW_STMT);
  edge have = single_succ_edge (test);
  have->flags = EDGE_FALSE_VALUE;
  roi_set_probability (have, true);
  basic_block make = create_empty_bb (test);
  if (current_loops)
    add_bb_to_loop (make, test->loop_father);
  edge none = make_edge (test, make, EDGE_TRUE_VALUE);
  roi_set_probability (none, false);
  make_single_succ_edge (make, first, EDGE_FALLTHRU);
  gsi = gsi_start_bb (make);
  gsi_insert_after (&gsi, gimple_build_call (roi_gc[ROI_GC_THREAD_UNIT], 3,
					     build_fold_addr_expr (thread_base ()),
					     build_fold_addr_expr (roi_gc[ROI_GC_SECTION_START]),
					     build_fold_addr_expr (roi_gc[ROI_GC_SECTION_STOP])),
		    GSI_NEW_STMT);
  free_dominance_info (CDI_DOMINATORS);
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
  gimple_stmt_iterator gsi = roi_update_point (bb, at_end);
  tree ref = roi_counter_ref_at (&gsi, counters, idx);

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

/* counters[idx] += VALUE, of the counter type, before GSI: a relaxed atomic
   add where the counters are atomic, else a load-add-store; a 16-bit counter
   saturates at 65535.  */
static void
add_value (gimple_stmt_iterator *gsi, tree counters, unsigned idx, tree value)
{
  tree type = roi_counter_type ();
  tree ref = roi_counter_ref_at (gsi, counters, idx);
  if (roi_counters_atomic ())
    {
      insert_atomic_add (gsi, ref, value);
      return;
    }
  tree old_value = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (old_value, ref), GSI_SAME_STMT);
  tree new_value = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (new_value, PLUS_EXPR, old_value, value),
		     GSI_SAME_STMT);
  if (roi_opts.counter_bits == 16)
    {
      /* a sum below the old value wrapped: all ones instead */
      tree mask = wrap_mask (gsi, type, new_value, old_value);
      tree saturated = make_ssa_name (type);
      gsi_insert_before (gsi, gimple_build_assign (saturated, BIT_IOR_EXPR, new_value, mask),
			 GSI_SAME_STMT);
      new_value = saturated;
    }
  gsi_insert_before (gsi, gimple_build_assign (unshare_expr (ref), new_value), GSI_SAME_STMT);
}

/* counters[idx] += AMOUNT just before STMT: a value counter adds up what
   its site ran with (the bits a shift moved, the bytes memcpy copied), so it
   wraps or, 16 bits wide, saturates like a block counter.  An AMOUNT that is
   the call's own result (the length strlen returned) is added just after it,
   read from its variable first where it is one in memory (-O0), and so are
   the characters strtol took, from the end pointer it stored, and strchr
   read.  On AVR a float add's passes, a float conversion's, a branch's taken
   count and an 8- or 16-bit amount are added by an asm.  */
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
  tree x, y;
  if (roi_opts.machine_values && roi_avr_counters () && roi_taken_operands (stmt, &x, &y)
      && roi_avr_taken (&gsi, ref, x, y))
    return;
  bool to_float;
  if (roi_opts.machine_values && roi_avr_counters () && roi_float_conversion (stmt, &a, &to_float))
    {
      /* An integer in its own width, rounded up to 8, 16 or 32 bits (a
	 bit-field's, a bool's); a single's top half, the bytes of its
	 exponent: the fewer registers the asm takes, the fewer of the
	 program's values are spilled around it.  */
      tree type = TREE_TYPE (a);
      unsigned bits = TYPE_PRECISION (type);
      if (to_float)
	{
	  bits = bits <= 8 ? 8 : bits <= 16 ? 16 : 32;
	  if (TYPE_PRECISION (type) != bits || TREE_CODE (type) != INTEGER_TYPE)
	    a = fold_convert (build_nonstandard_integer_type (bits, TYPE_UNSIGNED (type)), a);
	}
      else
	{
	  tree u32 = build_nonstandard_integer_type (32, 1), u16 = build_nonstandard_integer_type (16, 1);
	  a = fold_convert (u16, fold_build2 (RSHIFT_EXPR, u32,
					      fold_build1 (VIEW_CONVERT_EXPR, u32, a),
					      build_int_cst (u32, 16)));
	}
      a = force_gimple_operand_gsi (&gsi, a, true, NULL_TREE, true, GSI_SAME_STMT);
      roi_avr_conversion_passes (&gsi, ref, a, to_float);
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
  else if (roi_number_chars (stmt) || roi_scan_chars (stmt))
    /* (the end pointer the call stores, read back after it) */
    gsi_next (&gsi);
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
  add_value (&gsi, counters, idx, value);
}

/* counters[idx] += RUNS, + 1 where PLUS_ONE, before GSI: the count of as
   many increments at once (roi-trips.cc).  RUNS is a constant or an
   unsigned expression the caller checked can be computed there (on AVR of
   8 or 16 bits, for a 16-bit counter narrower than it unless constant), its
   value what the increments add up to, wrapped like them or, 16 bits wide,
   saturated.  */
void
roi_counter_add_count (gimple_stmt_iterator *gsi, tree counters, unsigned idx, tree runs,
		       bool plus_one)
{
  tree type = roi_counter_type ();
  if (TREE_CODE (runs) == INTEGER_CST)
    {
      widest_int n = wi::to_widest (runs) + (plus_one ? 1 : 0);
      if (roi_opts.counter_bits == 16 && wi::gtu_p (n, 65535))
	n = 65535;
      if (n == 0)
	return;
      plus_one = false;
      if (roi_avr_increments ())
	runs = build_int_cstu (wi::ltu_p (n, 256) ? unsigned_char_type_node : uint16_type_node,
			       n.to_uhwi ());
      else
	runs = build_int_cstu (type, n.to_uhwi ());
    }
  else
    {
      runs = force_gimple_operand_gsi (gsi, unshare_expr (runs), true, NULL_TREE, true,
				       GSI_SAME_STMT);
      /* (the AVR asm takes a byte or two) */
      unsigned bits = TYPE_PRECISION (TREE_TYPE (runs));
      if (roi_avr_increments () && bits != 8 && bits != 16)
	{
	  tree wide = make_ssa_name (uint16_type_node);
	  gsi_insert_before (gsi, gimple_build_assign (wide, NOP_EXPR, runs), GSI_SAME_STMT);
	  runs = wide;
	}
    }
  if (roi_avr_increments ())
    {
      roi_avr_add_count (gsi, roi_counter_ref_at (gsi, counters, idx), runs, plus_one);
      return;
    }
  tree value = runs;
  if (!useless_type_conversion_p (type, TREE_TYPE (runs)))
    {
      value = make_ssa_name (type);
      gsi_insert_before (gsi, gimple_build_assign (value, NOP_EXPR, runs), GSI_SAME_STMT);
    }
  if (plus_one)
    {
      tree sum = make_ssa_name (type);
      gsi_insert_before (gsi, gimple_build_assign (sum, PLUS_EXPR, value, build_int_cst (type, 1)),
			 GSI_SAME_STMT);
      value = sum;
    }
  add_value (gsi, counters, idx, value);
}
