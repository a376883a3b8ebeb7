/* roi-counters.cc — block counters, their descriptors and the unit's
 * registration constructor.
 *
 * Counters are local zero-initialised arrays, one per function, so they live
 * in .bss (zeroed by any C start-up code, on a host or a microcontroller) and
 * static functions of equal names in two units never share one.  On a host,
 * each function also gets a descriptor in the section roi_fn_<unit>; the
 * unit's constructor hands that section's bounds to the runtime, the way
 * gcov's units call __gcov_init.  On AVR the updates are asms that take no
 * register (roi-counters-avr.cc).  */
#include "roi-plugin.h"

static tree counter_type (void)
{
  switch (roi_opts.counter_bits)
    {
    case 16: return uint16_type_node;
    case 64: return uint64_type_node;
    default: return uint32_type_node;	/* not unsigned_type_node: 16 bits on AVR */
    }
}

/* The constructor is artificial, so the pass never counts it.  */
static bool constructor_built;

static tree
new_static_var (const char *name, tree type)
{
  tree var = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (name), type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;	/* no debug info for our own objects */
  TREE_USED (var) = 1;
  TREE_ADDRESSABLE (var) = 1;
  return var;
}

tree
roi_counters_create (unsigned fn_index, unsigned n)
{
  char name[64];
  snprintf (name, sizeof name, "__roi_c_%s_%u", roi_unit_id (), fn_index);
  tree var = new_static_var (name, build_array_type_nelts (counter_type (), n));
  varpool_node::finalize_decl (var);
  return var;
}

static tree
counter_ref (tree counters, unsigned idx)
{
  return build4 (ARRAY_REF, counter_type (), counters,
		 build_int_cst (integer_type_node, idx), NULL_TREE, NULL_TREE);
}

bool
roi_counters_atomic (void)
{
  return roi_opts.atomic || roi_runs_in_threads (current_function_decl);
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

  tree type = counter_type ();
  tree fetched = make_ssa_name (TREE_TYPE (TREE_TYPE (fetch_add)));
  gimple_call_set_lhs (call, fetched);
  tree old_value = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (old_value, NOP_EXPR, fetched), GSI_SAME_STMT);
  tree sum = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (sum, PLUS_EXPR, old_value, value), GSI_SAME_STMT);
  tree wrapped = make_ssa_name (boolean_type_node);
  gsi_insert_before (gsi, gimple_build_assign (wrapped, LT_EXPR, sum, old_value), GSI_SAME_STMT);
  tree one = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (one, NOP_EXPR, wrapped), GSI_SAME_STMT);
  tree mask = make_ssa_name (type);
  gsi_insert_before (gsi, gimple_build_assign (mask, NEGATE_EXPR, one), GSI_SAME_STMT);
  gsi_insert_before (gsi, gimple_build_call (builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_OR_2),
					     3, build_fold_addr_expr (unshare_expr (ref)), mask,
					     relaxed),
		     GSI_SAME_STMT);
}

/* counters[idx] += 1 at the start of BB, after its labels.  A plain
   load-add-store unless the counters are atomic (roi_counters_atomic): a relaxed
   atomic add; 16-bit counters saturate at 65535 instead of wrapping, so the
   estimator can report an overflow rather than a small wrong count.  */
void
roi_counter_increment (basic_block bb, tree counters, unsigned idx)
{
  tree type = counter_type ();
  tree ref = counter_ref (counters, idx);
  gimple_stmt_iterator gsi = gsi_after_labels (bb);

  if (roi_counters_atomic ())
    {
      insert_atomic_add (&gsi, ref, build_int_cst (type, 1));
      return;
    }

  if (roi_avr_counters ())
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
  tree type = counter_type ();
  tree ref = counter_ref (counters, idx);
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
      tree wrapped = make_ssa_name (boolean_type_node);
      gsi_insert_before (&gsi, gimple_build_assign (wrapped, LT_EXPR, new_value, old_value),
			 GSI_SAME_STMT);
      tree one = make_ssa_name (type);
      gsi_insert_before (&gsi, gimple_build_assign (one, NOP_EXPR, wrapped), GSI_SAME_STMT);
      tree mask = make_ssa_name (type);
      gsi_insert_before (&gsi, gimple_build_assign (mask, NEGATE_EXPR, one), GSI_SAME_STMT);
      tree saturated = make_ssa_name (type);
      gsi_insert_before (&gsi, gimple_build_assign (saturated, BIT_IOR_EXPR, new_value, mask),
			 GSI_SAME_STMT);
      new_value = saturated;
    }
  gsi_insert_before (&gsi, gimple_build_assign (unshare_expr (ref), new_value),
		     GSI_SAME_STMT);
}

/* struct roi_fn_desc of runtime/roi.h.  */
static tree
descriptor_type (void)
{
  if (!roi_gc[ROI_GC_DESC_TYPE])
    {
      static const char *const names[6] = {
	"unit", "index", "checksum", "ncounters", "counter_bits", "counters"
      };
      tree types[6] = { uint64_type_node, uint32_type_node, uint32_type_node,
			uint32_type_node, uint32_type_node, ptr_type_node };
      roi_gc[ROI_GC_DESC_TYPE] = roi_build_struct ("roi_fn_desc", names, types, 6);
    }
  return roi_gc[ROI_GC_DESC_TYPE];
}

static void
section_name (char *buf, size_t size)
{
  /* A C identifier, so the linker defines __start_ and __stop_ for it.  */
  snprintf (buf, size, "roi_fn_%s", roi_unit_id ());
}

void
roi_descriptor_create (unsigned fn_index, unsigned checksum, unsigned n,
		       tree counters)
{
  if (roi_opts.runtime != ROI_RUNTIME_HOST)
    return;
  tree type = descriptor_type ();
  unsigned long long unit = strtoull (roi_unit_id (), NULL, 16);
  tree values[6] = {
    build_int_cstu (uint64_type_node, unit),
    build_int_cst (uint32_type_node, fn_index),
    build_int_cst (uint32_type_node, checksum),
    build_int_cst (uint32_type_node, n),
    build_int_cst (uint32_type_node, roi_opts.counter_bits),
    fold_convert (ptr_type_node, build_fold_addr_expr (counters)),
  };
  vec<constructor_elt, va_gc> *elts = NULL;
  for (int i = 0; i < 6; i++)
    CONSTRUCTOR_APPEND_ELT (elts, roi_struct_field (type, i), values[i]);

  char name[64], section[64];
  snprintf (name, sizeof name, "__roi_d_%s_%u", roi_unit_id (), fn_index);
  tree var = new_static_var (name, type);
  DECL_INITIAL (var) = build_constructor (type, elts);
  /* The runtime walks the section as an array: no alignment beyond the
     type's own, or the target could pad between descriptors.  */
  SET_DECL_ALIGN_COMPAT (var, TYPE_ALIGN (type));
  DECL_USER_ALIGN (var) = 1;
  DECL_PRESERVE_P (var) = 1;
  section_name (section, sizeof section);
  set_decl_section_name (var, section);
  varpool_node::finalize_decl (var);
}

static tree
section_bound (const char *prefix)
{
  char name[96];
  snprintf (name, sizeof name, "%sroi_fn_%s", prefix, roi_unit_id ());
  tree var = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (name),
			 char_type_node);
  TREE_PUBLIC (var) = 1;
  DECL_EXTERNAL (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  /* Weak: if every instrumented function of the unit was optimised away the
     section is empty, the linker defines no bounds, and both are null.  */
  DECL_WEAK (var) = 1;
  DECL_VISIBILITY (var) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (var) = 1;
  return var;
}

/* Built before the IPA passes, the point where GCC builds gcov's own
   constructor, because functions added later would be compiled in the middle
   of another function's passes.  */
void
roi_constructor_create (void)
{
  if (roi_opts.runtime != ROI_RUNTIME_HOST || constructor_built || seen_error ())
    return;
  tree fntype = build_function_type_list (void_type_node, uint32_type_node,
					  const_ptr_type_node,
					  const_ptr_type_node, NULL_TREE);
  tree fn = build_fn_decl ("__roi_register_unit", fntype);
  DECL_EXTERNAL (fn) = 1;
  TREE_PUBLIC (fn) = 1;
  tree call = build_call_expr (fn, 3, build_int_cst (uint32_type_node, 1),
			       build_fold_addr_expr (section_bound ("__start_")),
			       build_fold_addr_expr (section_bound ("__stop_")));
  cgraph_build_static_cdtor ('I', call, DEFAULT_INIT_PRIORITY);
  constructor_built = true;
}
