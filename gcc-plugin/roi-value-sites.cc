/* roi-value-sites.cc — the statements whose cost grows with a run-time value,
 * and the value: a shift or rotate by a variable amount (an AVR loop per
 * bit), a single-precision add or subtract (the alignment of its operands'
 * mantissas), a conversion between a single and an integer (the
 * normalisation's passes), a 16- or 32-bit division (its quotient's 1 bits),
 * memcpy, memmove, memset or memcmp of a length, strlen (the length it
 * returns), strtol and strtoul (the characters they took, where they say),
 * strchr (the characters it read); and the statements whose machine code
 * branches inside their block, and how often the branch's arm ran: a minimum
 * or maximum, a signed division or remainder by a power of two.  Each such
 * site gets a counter of its own after the block counters, which adds the
 * value up (roi-counters.cc; docs/formats.md, "Value counters").  */
#include "roi-value-sites.h"
#include "roi-classify.h"
#include "roi-op.h"
#include "roi-plugin.h"
#include "roi-types.h"
#include "roi-meta.h"
#include "roi-util.h"

/* The biased exponent of the IEEE single X, as an 8-bit unsigned value: the
   top half of its bits shifted by 7, truncated (a 32-bit shift by 23 is a
   long sequence on an 8-bit core, at -O0 for every float add counted).  */
static tree
single_exponent (tree x, tree u8)
{
  tree u32 = build_nonstandard_integer_type (32, 1), u16 = build_nonstandard_integer_type (16, 1);
  tree bits = fold_build1 (VIEW_CONVERT_EXPR, u32, x);
  tree high = fold_build1 (NOP_EXPR, u16, fold_build2 (RSHIFT_EXPR, u32, bits,
						       build_int_cst (u32, 16)));
  return fold_build1 (NOP_EXPR, u8, fold_build2 (RSHIFT_EXPR, u16, high, build_int_cst (u16, 7)));
}

/* A single-precision add or subtract in software (avr-libc's __addsf3,
   __subsf3) aligns the smaller operand's mantissa to the larger one's
   exponent before it adds: whole bytes first, then single bits, about eight
   cycles each; operands more than 32 binary orders apart take a short cut
   (simavr, x + y with y = x / 2^d: d = 7 costs 51 cycles more than d = 0,
   d = 8 two, d = 33 none).  The passes, d / 8 + d % 8 for d = |ea - eb| up
   to 32, else 0: an expression of the operands, on every target.  */
static tree
float_alignment_passes (tree a, tree b)
{
  /* (8 bits hold d, at most 255, and the passes, at most 38: the counted code
     stays small where the counter's own arithmetic is 8-bit) */
  tree u8 = build_nonstandard_integer_type (8, 1), i16 = build_nonstandard_integer_type (16, 0);
  tree ea = single_exponent (a, u8), eb = single_exponent (b, u8);
  /* |ea - eb|, computed once (a SAVE_EXPR) for the three uses below */
  tree d = save_expr (fold_build1 (NOP_EXPR, u8, fold_build1 (ABS_EXPR, i16,
	fold_build2 (MINUS_EXPR, i16, fold_build1 (NOP_EXPR, i16, ea),
		     fold_build1 (NOP_EXPR, i16, eb)))));
  tree passes = fold_build2 (PLUS_EXPR, u8,
			     fold_build2 (RSHIFT_EXPR, u8, d, build_int_cst (u8, 3)),
			     fold_build2 (BIT_AND_EXPR, u8, d, build_int_cst (u8, 7)));
  /* (a mask of the comparison, not a COND_EXPR: no new blocks; nor a
     product, a library call on a core without a multiplier) */
  tree near = fold_build1 (NOP_EXPR, u8,
			   fold_build2 (LE_EXPR, boolean_type_node, d, build_int_cst (u8, 32)));
  return fold_build2 (BIT_AND_EXPR, u8, passes, fold_build1 (NEGATE_EXPR, u8, near));
}

bool
roi_float_add_operands (roi_stmt stmt, tree *a, tree *b)
{
  if (!is_gimple_assign (stmt))
    return false;
  enum tree_code code = gimple_assign_rhs_code (stmt);
  tree type = TREE_TYPE (gimple_assign_lhs (stmt));
  if ((code != PLUS_EXPR && code != MINUS_EXPR) || !SCALAR_FLOAT_TYPE_P (type)
      || DECIMAL_FLOAT_TYPE_P (type) || TYPE_PRECISION (type) != 32
      || TYPE_PRECISION (TREE_TYPE (gimple_assign_rhs1 (stmt))) != 32
      || TYPE_PRECISION (TREE_TYPE (gimple_assign_rhs2 (stmt))) != 32)
    return false;
  *a = gimple_assign_rhs1 (stmt);
  *b = gimple_assign_rhs2 (stmt);
  return true;
}

/* A conversion between a single-precision float and an integer of at most
   32 bits (int to float: FLOAT_EXPR, avr-libc's __floatsisf and
   __floatunsisf; float to int: FIX_TRUNC_EXPR, __fixsfsi and __fixunssfsi),
   its operand in *X and in *TO_FLOAT which way.  Not of a constant, which
   GCC folds, nor of 64 bits (other routines, __floatdisf, __fixsfdi).  */
bool
roi_float_conversion (roi_stmt stmt, tree *x, bool *to_float)
{
  if (!is_gimple_assign (stmt))
    return false;
  enum tree_code code = gimple_assign_rhs_code (stmt);
  if (code != FLOAT_EXPR && code != FIX_TRUNC_EXPR)
    return false;
  tree to = TREE_TYPE (gimple_assign_lhs (stmt)), from = TREE_TYPE (gimple_assign_rhs1 (stmt));
  tree f = code == FLOAT_EXPR ? to : from, i = code == FLOAT_EXPR ? from : to;
  if (!SCALAR_FLOAT_TYPE_P (f) || DECIMAL_FLOAT_TYPE_P (f) || TYPE_PRECISION (f) != 32
      || !INTEGRAL_TYPE_P (i) || TYPE_PRECISION (i) > 32
      || TREE_CODE (gimple_assign_rhs1 (stmt)) != SSA_NAME)
    return false;
  *x = gimple_assign_rhs1 (stmt);
  *to_float = code == FLOAT_EXPR;
  return true;
}

/* The magnitude of the integer X (at most 32 bits) as an unsigned 32-bit
   value, what __floatsisf normalises: ABSU_EXPR where GCC has it (x86-64:
   mov, neg, cmov), else |x| by (x ^ s) - s with s the sign spread over the
   bits, in unsigned arithmetic; INT32_MIN is 0x80000000 either way.  */
tree
roi_int_magnitude (tree x)
{
  tree u32 = build_nonstandard_integer_type (32, 1), i32 = build_nonstandard_integer_type (32, 0);
  if (TYPE_UNSIGNED (TREE_TYPE (x)))
    return fold_convert (u32, x);
  tree wide = save_expr (fold_convert (i32, x));
  if (ROI_HAVE_ABSU)
    return fold_build1 (ABSU_EXPR, u32, wide);
  tree sign = save_expr (fold_convert (u32, fold_build2 (RSHIFT_EXPR, i32, wide,
							 build_int_cst (i32, 31))));
  return fold_build2 (MINUS_EXPR, u32, fold_build2 (BIT_XOR_EXPR, u32, fold_convert (u32, wide),
						    sign), sign);
}

/* A table of a conversion's normalisation passes, a byte an entry, read
   only: __roi_norm_int by the significant bits of an integer's magnitude
   (33 bytes), __roi_norm_float by a single's biased exponent (256 bytes),
   the values in int_float_passes' and float_int_passes' comments below.
   One copy in a program (COMDAT, hidden), made on a unit's first use.  A
   lookup where the passes' arithmetic took some 20 instructions a
   conversion on x86-64 (micro-float-conv's counted host build ran 3.9
   times the instructions of its plain build at -O2, 1.8 times without the
   passes; with the tables 2.2 times).  On AVR the asms count without a
   table (roi-counters-avr.cc).  */
static tree
passes_table (bool to_float)
{
  tree *slot = &roi_gc[to_float ? ROI_GC_NORM_INT : ROI_GC_NORM_FLOAT];
  if (*slot)
    return *slot;
  unsigned n = to_float ? 33 : 256;
  tree u8 = build_nonstandard_integer_type (8, 1);
  tree type = build_array_type_nelts (build_qualified_type (u8, TYPE_QUAL_CONST), n);
  tree var = roi_static_var (to_float ? "__roi_norm_int" : "__roi_norm_float", type);
  TREE_READONLY (var) = 1;
  TREE_PUBLIC (var) = 1;
  DECL_VISIBILITY (var) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (var) = 1;
  vec<constructor_elt, va_gc> *elts = NULL;
  for (unsigned k = 0; k < n; k++)
    {
      unsigned p;
      if (to_float)
	/* k significant bits */
	p = k > 24 ? k - 24 : -k & 7;
      else
	/* a biased exponent of k */
	p = k < 127 ? 0 : k <= 150 ? (150 - k) / 8 + (150 - k) % 8 : k <= 158 ? k - 150 : 0;
      CONSTRUCTOR_APPEND_ELT (elts, build_int_cst (sizetype, k), build_int_cst (u8, p));
    }
  DECL_INITIAL (var) = build_constructor (type, elts);
  make_decl_one_only (var, DECL_ASSEMBLER_NAME (var));
  varpool_node::finalize_decl (var);
  return *slot = var;
}

/* TABLE[IDX], a byte.  */
static tree
table_ref (tree table, tree idx)
{
  return build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (table)), table, fold_convert (sizetype, idx),
		 NULL_TREE, NULL_TREE);
}

/* Whether the target counts leading zeros in one instruction: ARM from
   v5T in ARM state and every Thumb-2 core (Cortex-M3, M4), not Thumb-1
   (Cortex-M0+), whose __builtin_clz is a libgcc call that reads a 256-byte
   table; any other core of 32 bits or more (x86-64's bsr); not an 8-bit one,
   whose clzsi2 is a libgcc call too.  By the target's own flags, because the
   plugin's headers lack the generated insn-opinit.h that optab_handler
   needs to ask the back end.  */
#ifdef TARGET_THUMB1
/* Weak: an ARM plugin loaded into another compiler by mistake is refused
   by plugin_init's version check, with its message, not by the dynamic
   loader for a back end's variable that compiler lacks.  */
#pragma weak arm_arch_thumb2
#pragma weak arm_arch5t
#endif

static bool
target_has_clz (void)
{
#ifdef TARGET_THUMB1
  return !TARGET_THUMB1 && arm_arch5t;
#else
  return BITS_PER_WORD >= 32;
#endif
}

/* The significant bits of the unsigned 32-bit M, 0 for 0.  A 64-bit core:
   63 ^ clzll (2m + 1), which x86-64 makes one bsr after a lea; a 32-bit one
   with clz: 32 - clz (m | 1) - (m == 0); else (Cortex-M0+) a binary search
   of five comparisons, each a shift of its truth value, no branch (no new
   blocks).  */
static tree
significant_bits (tree m)
{
  tree u32 = TREE_TYPE (m);
  m = save_expr (m);
  if (target_has_clz () && BITS_PER_WORD >= 64
      && TYPE_PRECISION (long_long_unsigned_type_node) == 64)
    {
      tree u64 = long_long_unsigned_type_node;
      tree odd = fold_build2 (BIT_IOR_EXPR, u64, fold_build2 (LSHIFT_EXPR, u64, fold_convert (u64, m),
							      build_int_cst (u64, 1)),
			      build_int_cst (u64, 1));
      tree c = build_call_expr (builtin_decl_explicit (BUILT_IN_CLZLL), 1, odd);
      return fold_build2 (BIT_XOR_EXPR, u32, fold_convert (u32, c), build_int_cst (u32, 63));
    }
  enum built_in_function clz = TYPE_PRECISION (unsigned_type_node) == 32 ? BUILT_IN_CLZ
			       : TYPE_PRECISION (long_unsigned_type_node) == 32 ? BUILT_IN_CLZL
			       : END_BUILTINS;
  if (clz != END_BUILTINS && target_has_clz ())
    {
      tree arg_type = clz == BUILT_IN_CLZ ? unsigned_type_node : long_unsigned_type_node;
      tree c = build_call_expr (builtin_decl_explicit (clz), 1,
				fold_convert (arg_type, fold_build2 (BIT_IOR_EXPR, u32, m,
								     build_int_cst (u32, 1))));
      tree zero = fold_convert (u32, fold_build2 (EQ_EXPR, boolean_type_node, m,
						  build_int_cst (u32, 0)));
      return fold_build2 (MINUS_EXPR, u32, fold_build2 (MINUS_EXPR, u32, build_int_cst (u32, 32),
							fold_convert (u32, c)), zero);
    }
  tree n = build_int_cst (u32, 0);
  static const unsigned step[] = { 16, 8, 4, 2, 1 };
  for (size_t k = 0; k < ARRAY_SIZE (step); k++)
    {
      /* t = (m >= 2^step) * step, as a shift of the comparison's 0 or 1 */
      tree above = fold_convert (u32, fold_build2 (GT_EXPR, boolean_type_node, m,
						   build_int_cst (u32, (1u << step[k]) - 1)));
      tree t = save_expr (fold_build2 (LSHIFT_EXPR, u32, above,
				       build_int_cst (u32, exact_log2 (step[k]))));
      m = save_expr (fold_build2 (RSHIFT_EXPR, u32, m, t));
      n = fold_build2 (PLUS_EXPR, u32, n, t);
    }
  /* (m is now 0 or 1: the top bit itself) */
  return fold_build2 (PLUS_EXPR, u32, n, m);
}

/* The normalisation passes of an integer-to-float conversion of X in
   software (avr-libc's __floatsisf, __floatunsisf, simavr): of |x| with n
   significant bits, n - 24 one-bit shifts right for n above 24 (about 9
   cycles each), else 24 - n, 16 - n or 8 - n one-bit shifts left after
   moving whole bytes to the top (6 cycles each): n above 24 ? n - 24 :
   -n & 7; 0 for 0.  An expression of the operand, on every target: the
   table's entry for n.  */
static tree
int_float_passes (tree x)
{
  return table_ref (passes_table (true), significant_bits (roi_int_magnitude (x)));
}

/* The normalisation passes of a float-to-integer conversion of the single X
   in software (avr-libc's __fixunssfsi, which __fixsfsi calls; simavr):
   of a biased exponent e, for 127 <= e <= 150 the mantissa moves right by
   d = 150 - e, whole bytes first, then single bits, d / 8 + d % 8 passes (8
   and 6 cycles); from 151 to 158 e - 150 one-bit shifts left; below 127
   none, the result is 0; none above 158 either, where the result is out of
   the range of 32 bits (undefined in C).  An expression of the operand, on
   every target: the table's entry for e.  */
static tree
float_int_passes (tree x)
{
  return table_ref (passes_table (false), single_exponent (x, build_nonstandard_integer_type (8, 1)));
}

/* A division of 16 or 32 bits is a loop of one step per bit on an 8-bit
   core (avr's __udivmodhi4 and __udivmodsi4, which the signed ones call),
   and a step that subtracts, one that makes a 1 bit of the quotient, costs
   more than one that does not: in simavr 1 cycle at 16 bits, 3 at 32 (u32
   0xffffffff / 1 takes 96 cycles more than 1 / 2, 100 / 7 nine).  Not a
   division by a power of two (a shift), nor the second of a quotient and
   remainder of the same operands (the first's call returns both).  8-bit
   divisions cost the same whatever their operands; a 64-bit one (avr's
   __udivmod64) skips the quotient's leading zero bytes, then takes 34 cycles
   a bit, 8 more for a 1: its magnitude more than its 1 bits.  */
bool
roi_division_quotient (roi_stmt stmt, tree *quotient, bool *before)
{
  tree lhs, type, a, b;
  *before = false;
  if (roi_divmod_call_p (stmt) && (lhs = gimple_call_lhs (stmt))
      && TREE_CODE (TREE_TYPE (lhs)) == COMPLEX_TYPE)
    {
      /* GCC 7 on: a quotient and remainder in one internal call
	 (roi-classify.cc, classify_call), the quotient its result's real part */
      type = TREE_TYPE (TREE_TYPE (lhs));
      a = gimple_call_arg (stmt, 0);
      b = gimple_call_arg (stmt, 1);
      *quotient = fold_build1 (REALPART_EXPR, type, lhs);
    }
  else if (is_gimple_assign (stmt)
	   && (gimple_assign_rhs_code (stmt) == TRUNC_DIV_EXPR
	       || gimple_assign_rhs_code (stmt) == TRUNC_MOD_EXPR))
    {
      lhs = gimple_assign_lhs (stmt);
      type = TREE_TYPE (lhs);
      a = gimple_assign_rhs1 (stmt);
      b = gimple_assign_rhs2 (stmt);
      if (roi_divmod_paired (stmt))
	return false;
      /* a remainder's quotient computed just before it, as a program's own
	 quotient and remainder are written, which GCC computes with the same
	 call or instruction */
      *before = gimple_assign_rhs_code (stmt) == TRUNC_MOD_EXPR;
      *quotient = *before ? fold_build2 (TRUNC_DIV_EXPR, type, a, b) : lhs;
    }
  else
    return false;
  return INTEGRAL_TYPE_P (type) && TYPE_PRECISION (type) >= 16 && TYPE_PRECISION (type) <= 32
	 && !roi_multiplier_log2 (b) && !(TREE_CODE (b) == INTEGER_CST && roi_is_negative_pow2 (b))
	 && TREE_CODE (lhs) == SSA_NAME && !stmt_ends_bb_p (stmt)
	 && !(TREE_CODE (a) == INTEGER_CST && TREE_CODE (b) == INTEGER_CST);
}

tree
roi_quotient_magnitude (tree quotient)
{
  tree type = TREE_TYPE (quotient);
  if (!TYPE_UNSIGNED (type))
    quotient = fold_build1 (ABS_EXPR, type, quotient);
  return fold_convert (unsigned_type_for (type), quotient);
}

/* The name of the library function STMT calls directly with NARGS
   arguments, GCC's __builtin_ prefix left off, where the block goes on after
   the call (its value is counted there); else NULL.  */
static const char *
counted_after_call (roi_stmt stmt, unsigned nargs)
{
  if (!is_gimple_call (stmt) || gimple_call_internal_p (stmt) || !gimple_call_fndecl (stmt)
      || !DECL_NAME (gimple_call_fndecl (stmt)) || gimple_call_num_args (stmt) != nargs
      || stmt_ends_bb_p (stmt))
    return NULL;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (gimple_call_fndecl (stmt)));
  return strncmp (name, "__builtin_", 10) ? name : name + 10;
}

/* strtol and strtoul take a multiplication and 113 cycles a digit they read
   (avr-libc: 254.75 + 113 n cycles for n digits; 566 a call on an NMEA
   sentence's 2.8-digit fields, 816 on 5-digit numbers): where the call
   stores its end in a variable, the digits it took, *END - NPTR less a
   sign, read back once the call is done (roi_counter_add).  Without an end
   pointer (NULL, or atoi) nothing says where the number stopped: the
   model's typical operands price it.  */
tree
roi_number_chars (roi_stmt stmt)
{
  const char *name = counted_after_call (stmt, 3);
  if (!name || (strcmp (name, "strtol") && strcmp (name, "strtoul")))
    return NULL_TREE;
  tree nptr = gimple_call_arg (stmt, 0), end = gimple_call_arg (stmt, 1);
  if (TREE_CODE (end) != ADDR_EXPR)
    return NULL_TREE;
  tree var = TREE_OPERAND (end, 0);
  if ((TREE_CODE (var) != VAR_DECL && TREE_CODE (var) != PARM_DECL) || TREE_THIS_VOLATILE (var)
      || TYPE_VOLATILE (TREE_TYPE (var)) || !POINTER_TYPE_P (TREE_TYPE (var))
      || !POINTER_TYPE_P (TREE_TYPE (nptr)))
    return NULL_TREE;
  /* the pointers as unsigned integers of their width (GCC 5 has no
     POINTER_DIFF_EXPR): their difference is the characters taken, less a
     sign at the start of a number (6 cycles, not a digit's 113: "-5" costs
     what "5" does); no number taken, END is NPTR and the count 0 */
  tree u = build_nonstandard_integer_type (TYPE_PRECISION (TREE_TYPE (nptr)), 1);
  tree diff = fold_build2 (MINUS_EXPR, u, fold_convert (u, var), fold_convert (u, nptr));
  tree c = build_simple_mem_ref (nptr);
  tree sign = fold_build2 (BIT_IOR_EXPR, boolean_type_node,
			   fold_build2 (EQ_EXPR, boolean_type_node, c, build_int_cst (TREE_TYPE (c), '-')),
			   fold_build2 (EQ_EXPR, boolean_type_node, c, build_int_cst (TREE_TYPE (c), '+')));
  tree taken = fold_build2 (NE_EXPR, boolean_type_node, fold_convert (u, var), fold_convert (u, nptr));
  tree first = fold_build2 (BIT_AND_EXPR, boolean_type_node, sign, taken);
  return fold_build2 (MINUS_EXPR, u, diff, fold_convert (u, first));
}

/* strchr reads the string up to the character it finds, or to its end: a
   loop a character (avr-libc: 236 cycles a call on a 64-character table).
   The characters it read, counted after the call: RESULT - S + 1 where it
   found one, else strlen (S) + 1, taken branch-free as the smaller of the two
   (no match leaves RESULT 0, and 0 - S + 1 wraps above any string's length),
   strlen called in the counted build alone.  */
tree
roi_scan_chars (roi_stmt stmt)
{
  const char *name = counted_after_call (stmt, 2);
  if (!name)
    return NULL_TREE;
  tree lhs = gimple_call_lhs (stmt), s = gimple_call_arg (stmt, 0);
  if (strcmp (name, "strchr") || !lhs || TREE_CODE (lhs) != SSA_NAME || !POINTER_TYPE_P (TREE_TYPE (s))
      || !builtin_decl_explicit (BUILT_IN_STRLEN))
    return NULL_TREE;
  tree u = build_nonstandard_integer_type (TYPE_PRECISION (TREE_TYPE (s)), 1);
  tree one = build_int_cst (u, 1);
  tree found = fold_build2 (PLUS_EXPR, u, fold_build2 (MINUS_EXPR, u, fold_convert (u, lhs),
							fold_convert (u, s)), one);
  tree len = build_call_expr (builtin_decl_explicit (BUILT_IN_STRLEN), 1, s);
  tree all = fold_build2 (PLUS_EXPR, u, fold_convert (u, len), one);
  return fold_build2 (MIN_EXPR, u, found, all);
}

/* Whether SSA name A is an argument of the PHI that defines B, or B of A's:
   a loop's accumulator, m = MIN (v, m), which out-of-SSA puts in one
   register.  */
static bool
phi_linked (tree a, tree b)
{
  if (TREE_CODE (a) != SSA_NAME || TREE_CODE (b) != SSA_NAME)
    return false;
  for (int k = 0; k < 2; k++)
    {
      roi_stmt def = SSA_NAME_DEF_STMT (k ? a : b);
      if (gimple_code (def) != GIMPLE_PHI)
	continue;
      for (unsigned i = 0; i < gimple_phi_num_args (def); i++)
	if (gimple_phi_arg_def (def, i) == (k ? b : a))
	  return true;
    }
  return false;
}

/* Whether SSA names A and B are one user variable's.  */
static bool
same_variable (tree a, tree b)
{
  return TREE_CODE (a) == SSA_NAME && TREE_CODE (b) == SSA_NAME && SSA_NAME_VAR (a)
	 && SSA_NAME_VAR (a) == SSA_NAME_VAR (b);
}

/* Whether the result LHS of a minimum or maximum of A and B will likely
   share B's register rather than A's: joined by a PHI, else one user
   variable's (GCC's copies may give another variable's name to a value:
   kernel-pcm-convert's peak_33 = MAX_EXPR <peak_6, peak_10>, its mag as
   peak_10, peak_6 the loop's).  */
static bool
result_in_second (tree lhs, tree a, tree b)
{
  if (phi_linked (lhs, a) || phi_linked (lhs, b))
    return !phi_linked (lhs, a);
  return same_variable (lhs, b) && !same_variable (lhs, a);
}

/* GCC expands a MIN_EXPR or MAX_EXPR the target has no instruction for
   (AVR) as a compare and a jump over a move (expand_expr_real_2): the
   result's register holds the first operand and the second is moved in
   where it strictly wins, ties keeping the first; but where the result's
   register is the second operand's (result_in_second), the two trade
   places and the first is moved in where it strictly wins.  And a signed
   division or remainder by 2^k, where branches are cheap (AVR's branch
   cost is 0), as a jump over the fix-up a negative
   dividend needs (expand_sdiv_pow2: x + 2^k - 1 before the shift;
   expand_smod_pow2: the masked value, negative exactly when x is).  Which
   way that jump went no block count says: it is the branch's own.  */
bool
roi_taken_operands (roi_stmt stmt, tree *x, tree *y)
{
  if (!is_gimple_assign (stmt) || TREE_CODE (gimple_assign_lhs (stmt)) != SSA_NAME)
    return false;
  enum tree_code code = gimple_assign_rhs_code (stmt);
  tree a = gimple_assign_rhs1 (stmt), b = gimple_assign_rhs2 (stmt);
  tree type = TREE_TYPE (gimple_assign_lhs (stmt));
  if ((code == MIN_EXPR || code == MAX_EXPR)
      && (INTEGRAL_TYPE_P (type) || POINTER_TYPE_P (type)) && TYPE_PRECISION (type) <= 64
      && !(TREE_CODE (a) == INTEGER_CST && TREE_CODE (b) == INTEGER_CST))
    {
      /* the operand moved in wins: for a minimum moved < kept, for a
	 maximum kept < moved */
      tree moved = b, kept = a;
      if (result_in_second (gimple_assign_lhs (stmt), a, b))
	moved = a, kept = b;
      *x = code == MIN_EXPR ? moved : kept;
      *y = code == MIN_EXPR ? kept : moved;
      return true;
    }
  if ((code == TRUNC_DIV_EXPR || code == TRUNC_MOD_EXPR) && INTEGRAL_TYPE_P (type)
      && !TYPE_UNSIGNED (type) && TYPE_PRECISION (type) <= 64
      && TREE_CODE (a) == SSA_NAME && roi_multiplier_log2 (b))
    {
      /* the dividend is negative */
      *x = a;
      *y = build_zero_cst (TREE_TYPE (a));
      return true;
    }
  return false;
}

bool
roi_find_value_site (roi_stmt stmt, struct roi_op *op, tree *amount)
{
  memset (op, 0, sizeof *op);
  tree x, y;
  /* (opt-in: the counter's operands change the counted build's register
     allocation, whose spills the per-operation estimate prices; on the
     corpus its figures moved by up to 22 % on 27 of 332 programs and
     levels) */
  if (roi_opts.machine_values && roi_taken_operands (stmt, &x, &y))
    {
      op->kind = ROI_KIND (TAKEN);
      op->type = roi_named_variant (TREE_TYPE (gimple_assign_lhs (stmt)), stmt);
      /* which statement: an arm that moves (a minimum's or maximum's) or
	 that computes (a fix-up), for the estimator to tell its arms apart */
      op->code = get_tree_code_name (gimple_assign_rhs_code (stmt));
      *amount = fold_build2 (LT_EXPR, boolean_type_node, x, y);
      return true;
    }
  /* a division's quotient, whose 1 bits roi_counter_add counts; one routine
     per width for signed and unsigned alike, whatever the divisor: the key is
     the width's unsigned type */
  bool before;
  if (roi_division_quotient (stmt, amount, &before))
    {
      op->kind = ROI_KIND (QBITS);
      op->type = unsigned_type_for (TREE_TYPE (*amount));
      return true;
    }
  if (is_gimple_assign (stmt))
    {
      enum tree_code code = gimple_assign_rhs_code (stmt);
      tree lhs = gimple_assign_lhs (stmt);
      tree type = TREE_TYPE (lhs);
      tree a, b;
      bool to_float;
      if (roi_opts.machine_values && roi_float_conversion (stmt, &a, &to_float))
	{
	  op->kind = ROI_KIND (NORM);
	  op->type = type;
	  op->from = TREE_TYPE (a);
	  *amount = to_float ? int_float_passes (a) : float_int_passes (a);
	  return true;
	}
      if (roi_float_add_operands (stmt, &a, &b))
	{
	  op->kind = ROI_KIND (STEPS);
	  op->type = type;
	  *amount = float_alignment_passes (a, b);
	  /* two constants: folded, nothing to count at run time */
	  return TREE_CODE (*amount) != INTEGER_CST;
	}
      if ((code == LSHIFT_EXPR || code == RSHIFT_EXPR || code == LROTATE_EXPR
	   || code == RROTATE_EXPR)
	  && INTEGRAL_TYPE_P (TREE_TYPE (lhs))
	  && TREE_CODE (gimple_assign_rhs2 (stmt)) == SSA_NAME)
	{
	  op->kind = ROI_KIND (STEPS);
	  op->type = roi_named_variant (TREE_TYPE (lhs), stmt);
	  *amount = gimple_assign_rhs2 (stmt);
	  /* A 64-bit shift or rotate is a library routine on an 8-bit core
	     that moves whole bytes first, then single bits (avr's __ashldi3,
	     __lshrdi3, __ashrdi3, __rotldi3: 12 to 14 cycles a pass; a right
	     rotate by n is __rotldi3 by 64 - n): its steps are its passes,
	     n / 8 + n % 8, on every target, so that a host's counts mean what
	     a target's do.  */
	  if (TYPE_PRECISION (TREE_TYPE (lhs)) == 64)
	    {
	      tree n = *amount, t = TREE_TYPE (n);
	      if (code == RROTATE_EXPR)
		n = fold_build2 (MINUS_EXPR, t, build_int_cst (t, 64), n);
	      *amount = fold_build2 (PLUS_EXPR, t,
				     fold_build2 (RSHIFT_EXPR, t, n, build_int_cst (t, 3)),
				     fold_build2 (BIT_AND_EXPR, t, n, build_int_cst (t, 7)));
	    }
	  return true;
	}
      return false;
    }
  if (!is_gimple_call (stmt) || gimple_call_internal_p (stmt)
      || !gimple_call_fndecl (stmt) || !DECL_NAME (gimple_call_fndecl (stmt)))
    return false;
  static const char *const routines[] = { "memcpy", "memmove", "memset", "memcmp" };
  const char *name = IDENTIFIER_POINTER (DECL_NAME (gimple_call_fndecl (stmt)));
  if (!strncmp (name, "__builtin_", 10))
    name += 10;
  /* strlen walks the string to its end: the length it returns, counted
     once the call is done (roi_counter_add), where the block goes on; read
     back from where the call put it, so never from a volatile object  */
  tree lhs = gimple_call_lhs (stmt);
  if (!strcmp (name, "strlen") && gimple_call_num_args (stmt) == 1 && lhs
      && INTEGRAL_TYPE_P (TREE_TYPE (lhs)) && !TREE_THIS_VOLATILE (lhs)
      && !TYPE_VOLATILE (TREE_TYPE (lhs)) && !stmt_ends_bb_p (stmt))
    {
      op->kind = ROI_KIND (BYTES);
      op->callee = "strlen";
      op->direct = true;
      *amount = lhs;
      return true;
    }
  tree chars = roi_number_chars (stmt);
  if (chars)
    {
      op->kind = ROI_KIND (BYTES);
      op->callee = !strcmp (name, "strtol") ? "strtol" : "strtoul";
      op->direct = true;
      *amount = chars;
      return true;
    }
  if ((chars = roi_scan_chars (stmt)))
    {
      op->kind = ROI_KIND (BYTES);
      op->callee = "strchr";
      op->direct = true;
      *amount = chars;
      return true;
    }
  if (gimple_call_num_args (stmt) < 3)
    return false;
  for (size_t i = 0; i < ARRAY_SIZE (routines); i++)
    if (!strcmp (name, routines[i]))
      {
	tree len = gimple_call_arg (stmt, 2);
	if (!INTEGRAL_TYPE_P (TREE_TYPE (len)))
	  return false;
	op->kind = ROI_KIND (BYTES);
	op->callee = routines[i];
	op->direct = true;
	*amount = len;
	return true;
      }
  return false;
}
