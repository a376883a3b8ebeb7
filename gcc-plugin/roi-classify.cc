/* roi-classify.cc — one GIMPLE statement → its typed atomic operations.
 *
 * GIMPLE is three-address code: an assignment either moves data between a
 * register and memory (a load or a store) or computes one operator on
 * registers, so every statement maps to one operation, two for a
 * conditional (the comparison and the branch).  PHI nodes are never passed
 * here: they are copies out-of-SSA may or may not need, not operations.  */
#include "roi-classify.h"
#include "roi-op.h"
#include "roi-types.h"

/* An operation KIND in TYPE, with its OPERAND and its CODE (struct roi_op),
   either NULL where it has none.  */
static void
emit_op (roi_op_sink sink, void *ctx, const char *kind, const_tree type,
	 const char *operand, const char *code)
{
  struct roi_op op;
  memset (&op, 0, sizeof op);
  op.kind = kind;
  op.type = type;
  op.operand = operand;
  op.code = code;
  sink (ctx, &op);
}

static void
emit (roi_op_sink sink, void *ctx, const char *kind, const_tree type)
{
  emit_op (sink, ctx, kind, type, NULL, NULL);
}

/* A conversion to TYPE from FROM.  */
static void
emit_conv (roi_op_sink sink, void *ctx, const_tree type, const_tree from)
{
  struct roi_op op;
  memset (&op, 0, sizeof op);
  op.kind = ROI_KIND (CONV);
  op.type = type;
  op.from = from;
  sink (ctx, &op);
}

/* Kind of a binary or unary operator, or NULL.  */
static const char *
operator_kind (enum tree_code code)
{
  switch (code)
    {
    case PLUS_EXPR: return ROI_KIND (ADD);
    case MINUS_EXPR: return ROI_KIND (SUB);
    case MULT_EXPR: case WIDEN_MULT_EXPR: case MULT_HIGHPART_EXPR: return ROI_KIND (MUL);
    case TRUNC_DIV_EXPR: case CEIL_DIV_EXPR: case FLOOR_DIV_EXPR:
    case ROUND_DIV_EXPR: case EXACT_DIV_EXPR: case RDIV_EXPR: return ROI_KIND (DIV);
    case TRUNC_MOD_EXPR: case CEIL_MOD_EXPR: case FLOOR_MOD_EXPR:
    case ROUND_MOD_EXPR: return ROI_KIND (MOD);
    case NEGATE_EXPR: return ROI_KIND (NEG);
    case ABS_EXPR: return ROI_KIND (ABS);
    case MIN_EXPR: return ROI_KIND (MIN);
    case MAX_EXPR: return ROI_KIND (MAX);
    case LSHIFT_EXPR: case WIDEN_LSHIFT_EXPR: return ROI_KIND (SHL);
    case RSHIFT_EXPR: return ROI_KIND (SHR);
    case LROTATE_EXPR: return ROI_KIND (ROTL);
    case RROTATE_EXPR: return ROI_KIND (ROTR);
    case BIT_AND_EXPR: return ROI_KIND (AND);
    case BIT_IOR_EXPR: return ROI_KIND (OR);
    case BIT_XOR_EXPR: return ROI_KIND (XOR);
    case BIT_NOT_EXPR: return ROI_KIND (NOT);
    case TRUTH_NOT_EXPR: return ROI_KIND (LOGNOT);
    case TRUTH_AND_EXPR: case TRUTH_ANDIF_EXPR: return ROI_KIND (LOGAND);
    case TRUTH_OR_EXPR: case TRUTH_ORIF_EXPR: return ROI_KIND (LOGOR);
    case TRUTH_XOR_EXPR: return ROI_KIND (LOGXOR);
    case POINTER_PLUS_EXPR: return ROI_KIND (PTRADD);
    case COND_EXPR: return ROI_KIND (SELECT);
    case PAREN_EXPR: return ROI_KIND (MOVE);
    default: return NULL;
    }
}

/* Kind of a comparison code, or NULL.  */
static const char *
comparison_kind (enum tree_code code)
{
  switch (code)
    {
    case EQ_EXPR: return ROI_KIND (EQ);
    case NE_EXPR: return ROI_KIND (NE);
    case LT_EXPR: return ROI_KIND (LT);
    case LE_EXPR: return ROI_KIND (LE);
    case GT_EXPR: return ROI_KIND (GT);
    case GE_EXPR: return ROI_KIND (GE);
    case UNORDERED_EXPR: return ROI_KIND (UNORD);
    case ORDERED_EXPR: return ROI_KIND (ORD);
    case UNEQ_EXPR: return ROI_KIND (UNEQ);
    case UNLT_EXPR: return ROI_KIND (UNLT);
    case UNLE_EXPR: return ROI_KIND (UNLE);
    case UNGT_EXPR: return ROI_KIND (UNGT);
    case UNGE_EXPR: return ROI_KIND (UNGE);
    case LTGT_EXPR: return ROI_KIND (LTGT);
    default: return NULL;
    }
}

static bool
is_conversion (enum tree_code code)
{
  return code == NOP_EXPR || code == CONVERT_EXPR || code == FLOAT_EXPR
	 || code == FIX_TRUNC_EXPR || code == VIEW_CONVERT_EXPR;
}

/* True when T names memory rather than a register or a constant.  */
bool
roi_is_memory (tree t)
{
  if (TREE_CODE (t) == SSA_NAME || CONSTANT_CLASS_P (t))
    return false;
  if (DECL_P (t))
    return !is_gimple_reg (t);
  if (TREE_CODE (t) == VIEW_CONVERT_EXPR)
    return roi_is_memory (TREE_OPERAND (t, 0));
  return REFERENCE_CLASS_P (t) || TREE_CODE (t) == TARGET_MEM_REF
	 || TREE_CODE (t) == MEM_REF;
}

bool
roi_has_variable_subscript (tree ref)
{
  for (; handled_component_p (ref); ref = TREE_OPERAND (ref, 0))
    if ((TREE_CODE (ref) == ARRAY_REF || TREE_CODE (ref) == ARRAY_RANGE_REF)
	&& !CONSTANT_CLASS_P (TREE_OPERAND (ref, 1)))
      return true;
  return false;
}

/* How a memory reference reaches its object: the outermost access decides,
   because that is the address computation the code performs; but a field of
   an element at a run-time subscript (a[i].f) is reached like the element,
   through the subscript's arithmetic, not at a constant offset.  An element
   at constant subscripts (regs[0], m[1][2]) is at a constant offset too, a
   "field": one ldd Y+q or lds at -O0 on AVR, no address to compute.  */
static const char *
access_kind (tree ref)
{
  switch (TREE_CODE (ref))
    {
    case ARRAY_REF:
    case ARRAY_RANGE_REF:
      return roi_has_variable_subscript (ref) ? ROI_ACCESS (ARRAY) : ROI_ACCESS (FIELD);
    case COMPONENT_REF:
      if (DECL_BIT_FIELD (TREE_OPERAND (ref, 1)))
	return ROI_ACCESS (BITFIELD);
      return roi_has_variable_subscript (TREE_OPERAND (ref, 0)) ? ROI_ACCESS (ARRAY) : ROI_ACCESS (FIELD);
    case BIT_FIELD_REF:
      return ROI_ACCESS (BITFIELD);
    case REALPART_EXPR:
    case IMAGPART_EXPR:
      return ROI_ACCESS (FIELD);
    case VIEW_CONVERT_EXPR:
      return access_kind (TREE_OPERAND (ref, 0));
    case TARGET_MEM_REF:
      return TMR_INDEX (ref) || TMR_INDEX2 (ref) ? ROI_ACCESS (ARRAY) : ROI_ACCESS (DEREF);
    case MEM_REF:
      {
	tree base = TREE_OPERAND (ref, 0);
	if (TREE_CODE (base) == ADDR_EXPR && DECL_P (TREE_OPERAND (base, 0)))
	  return ROI_ACCESS (VAR);
	return ROI_ACCESS (DEREF);
      }
    default:
      return ROI_ACCESS (VAR);
    }
}

static bool
is_volatile_ref (tree ref)
{
  return TREE_THIS_VOLATILE (ref) || TYPE_VOLATILE (TREE_TYPE (ref));
}

/* A shift's constant amount N as its operand text ("3").  */
static const char *
shift_amount (unsigned n)
{
  static char amounts[64][3];

  gcc_assert (n < 64);
  if (!amounts[n][0])
    snprintf (amounts[n], sizeof amounts[n], "%u", n);
  return amounts[n];
}

/* a[i] scales i by the element size, at every subscript that is not a
   constant: the operation "index", of size_t, whose operand is the shift by
   the size's logarithm where the size is a power of two and "const" where it
   is not (a multiply: an array of 12-byte structs), as explicit as the shift
   or multiply GIMPLE shows for p[i].  The access itself is then the same
   operation whatever the element's size.  An operation of its own, not a
   "shl" or "mul": it is address arithmetic, which compilers fold and
   strength-reduce more than the program's own, and it is not one of the
   multiplies the source writes.  m[i][j] of 2-byte elements in rows of 5 is
   (i * 5 + j) * 2 in GCC's code, not i * 10 + j * 2: where the subscript
   inside has run-time subscripts on both sides, the row's scaling is by the
   elements in a row (5: "const") and the element's (2: the shift by 1).  */
static void
emit_index_scaling (roi_op_sink sink, void *ctx, tree ref)
{
  /* the element size of the run-time subscript just outside REF, if any */
  unsigned HOST_WIDE_INT outer = 1;
  for (; handled_component_p (ref); ref = TREE_OPERAND (ref, 0))
    {
      tree size = TREE_CODE (ref) == ARRAY_REF && !CONSTANT_CLASS_P (TREE_OPERAND (ref, 1))
		  ? TYPE_SIZE_UNIT (TREE_TYPE (ref)) : NULL_TREE;
      if (!size || !tree_fits_uhwi_p (size))
	{
	  outer = 1;
	  continue;
	}
      unsigned HOST_WIDE_INT bytes = tree_to_uhwi (size), scale = bytes;
      if (outer > 1 && bytes % outer == 0)
	scale = bytes / outer;
      outer = bytes;
      if (scale <= 1)
	continue;
      int log2 = exact_log2 (scale);
      emit_op (sink, ctx, ROI_KIND (INDEX), sizetype,
	       log2 > 0 && log2 < 64 ? shift_amount ((unsigned) log2) : "const", NULL);
    }
}

static void
emit_access (roi_op_sink sink, void *ctx, const char *kind, tree ref)
{
  struct roi_op op;
  memset (&op, 0, sizeof op);
  op.kind = kind;
  op.type = TREE_TYPE (ref);
  if (TREE_CODE (ref) == COMPONENT_REF
      && DECL_BIT_FIELD_TYPE (TREE_OPERAND (ref, 1)))
    op.type = DECL_BIT_FIELD_TYPE (TREE_OPERAND (ref, 1));
  op.access = access_kind (ref);
  op.is_volatile = is_volatile_ref (ref);
  /* where the object lives decides the address computation: a frame
     offset or a symbol (through a pointer: neither, no operand) */
  tree base = get_base_address (ref);
  if (base && DECL_P (base))
    op.operand = is_global_var (base) ? "global" : "local";
  /* m[i][j] is one access whose address takes a multiply per dimension */
  unsigned n = 0;
  for (tree t = ref; TREE_CODE (t) == ARRAY_REF || TREE_CODE (t) == ARRAY_RANGE_REF;
       t = TREE_OPERAND (t, 0))
    n++;
  if (n >= 2 && strcmp (op.access, ROI_ACCESS (ARRAY)) == 0)
    op.subscripts = n;
  sink (ctx, &op);
  emit_index_scaling (sink, ctx, ref);
}

/* A copy of a whole aggregate is a byte loop (or a memcpy call) whose length
   the type fixes: "copy" once and "bytes" once per byte, as a memcpy of a
   run-time length is "bytes" per byte through its value counter.  */
static void
emit_copy (roi_op_sink sink, void *ctx, tree lhs, tree rhs)
{
  tree type = TREE_TYPE (lhs);
  emit (sink, ctx, ROI_KIND (COPY), type);
  emit_index_scaling (sink, ctx, lhs);
  emit_index_scaling (sink, ctx, rhs);
  tree size = TYPE_SIZE_UNIT (type);
  if (!size || !tree_fits_uhwi_p (size) || tree_to_uhwi (size) == 0)
    return;
  struct roi_op op;
  memset (&op, 0, sizeof op);
  op.kind = ROI_KIND (BYTES);
  op.repeat = (unsigned) MIN (tree_to_uhwi (size), (unsigned HOST_WIDE_INT) 1 << 30);
  sink (ctx, &op);
}

static void
classify_single (roi_stmt stmt, roi_op_sink sink, void *ctx)
{
  tree lhs = gimple_assign_lhs (stmt);
  tree rhs = gimple_assign_rhs1 (stmt);
  bool lhs_mem = roi_is_memory (lhs);
  bool rhs_mem = roi_is_memory (rhs);

  if (lhs_mem && (rhs_mem || TREE_CODE (rhs) == CONSTRUCTOR)
      && AGGREGATE_TYPE_P (TREE_TYPE (lhs)))
    emit_copy (sink, ctx, lhs, rhs);
  else if (lhs_mem)
    emit_access (sink, ctx, ROI_KIND (STORE), lhs);
  else if (rhs_mem)
    emit_access (sink, ctx, ROI_KIND (LOAD), rhs);
  else if (TREE_CODE (rhs) == ADDR_EXPR)
    emit (sink, ctx, ROI_KIND (ADDR), TREE_TYPE (lhs));
  else if (TREE_CODE (rhs) == VIEW_CONVERT_EXPR)
    emit_conv (sink, ctx, TREE_TYPE (lhs), TREE_TYPE (TREE_OPERAND (rhs, 0)));
  else if (TREE_CODE (rhs) == SSA_NAME || CONSTANT_CLASS_P (rhs)
	   || DECL_P (rhs))
    emit (sink, ctx, ROI_KIND (MOVE), TREE_TYPE (lhs));
  else if (comparison_kind (TREE_CODE (rhs)))
    emit (sink, ctx, comparison_kind (TREE_CODE (rhs)),
	  TREE_TYPE (TREE_OPERAND (rhs, 0)));
  else if (TREE_CODE (rhs) == CONSTRUCTOR && TREE_CODE (TREE_TYPE (lhs)) == VECTOR_TYPE)
    emit_op (sink, ctx, ROI_KIND (VEC), TREE_TYPE (lhs), NULL, "constructor");
  else
    emit_op (sink, ctx, ROI_KIND (OTHER), TREE_TYPE (lhs), NULL,
	     get_tree_code_name (TREE_CODE (rhs)));
}

bool
roi_is_negative_pow2 (tree cst)
{
  if (tree_int_cst_sgn (cst) >= 0 || !tree_fits_shwi_p (cst))
    return false;
  unsigned HOST_WIDE_INT m = -(unsigned HOST_WIDE_INT) tree_to_shwi (cst);
  return (m & (m - 1)) == 0;
}

/* Whether a multiply by CST in TYPE needs the full-width multiply: the
   constant does not fit in half the width (a hash's odd constant), where a
   narrower one is a few shifts and adds or a widening half-width multiply
   (avr-gcc: u32 * 10 shift-adds, u32 * 1000 __muluhisi3, u32 * 0x5bd1e995
   __mulsi3).  Below 32 bits every constant is one hardware multiply.  */
static bool
is_wide_constant (const_tree type, tree cst)
{
  unsigned prec = TYPE_PRECISION (type);
  if (prec < 32 || TREE_CODE (cst) != INTEGER_CST)
    return false;
  return !int_fits_type_p (cst, build_nonstandard_integer_type (prec / 2,
								TYPE_UNSIGNED (type)));
}

/* What a constant second operand makes of an operation (struct roi_op,
   operand): a shift by a constant is a different instruction sequence for
   every amount, any other operation with a constant an immediate form.  */
static const char *
operand_kind (const char *kind, const_tree type, tree op2)
{
  if (!op2 || !CONSTANT_CLASS_P (op2))
    return NULL;
  /* a signed integer below zero or not: its top bit alone (avr: one sbrs or
     tst of the high byte, whatever the width), where a comparison with
     another constant compares every byte  */
  if ((!strcmp (kind, ROI_KIND (LT)) || !strcmp (kind, ROI_KIND (GE))) && type
      && INTEGRAL_TYPE_P (type) && !TYPE_UNSIGNED (type) && integer_zerop (op2))
    return "sign";
  if ((!strcmp (kind, ROI_KIND (SHL)) || !strcmp (kind, ROI_KIND (SHR)) || !strcmp (kind, ROI_KIND (ROTL))
       || !strcmp (kind, ROI_KIND (ROTR)))
      && TREE_CODE (op2) == INTEGER_CST && tree_fits_uhwi_p (op2)
      && tree_to_uhwi (op2) < 64)
    return shift_amount ((unsigned) tree_to_uhwi (op2));
  /* by a negative power of two: a shift and a negation ("pow2"; by a
     positive one the shift itself, classify_assign), by anything else a
     multiply or a library division */
  if ((!strcmp (kind, ROI_KIND (MUL)) || !strcmp (kind, ROI_KIND (DIV)) || !strcmp (kind, ROI_KIND (MOD)))
      && TREE_CODE (op2) == INTEGER_CST
      && (integer_pow2p (op2) || roi_is_negative_pow2 (op2)))
    return "pow2";
  if (!strcmp (kind, ROI_KIND (MUL)) && type && is_wide_constant (type, op2))
    return "wide";
  return "const";
}

/* The width of the integer OP was extended from (an SSA name set by a
   conversion from a narrower integer), else 0.  */
static unsigned
extended_from (tree op)
{
  if (!op || TREE_CODE (op) != SSA_NAME)
    return 0;
  roi_stmt def = SSA_NAME_DEF_STMT (op);
  if (!is_gimple_assign (def) || !CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def)))
    return 0;
  tree from = TREE_TYPE (gimple_assign_rhs1 (def));
  return INTEGRAL_TYPE_P (from) && TYPE_PRECISION (from) < TYPE_PRECISION (TREE_TYPE (op))
	 ? TYPE_PRECISION (from) : 0;
}

/* Whether OP, an operand of a multiply in TYPE, was extended from an integer
   at most half TYPE's width.  */
static bool
extended_half (tree op, const_tree type)
{
  unsigned from = extended_from (op);
  return from && 2 * from <= TYPE_PRECISION (type);
}

/* Whether STMT multiplies a byte by 2^LOG2, 2 <= LOG2 <= 7, optimising: an
   8-bit core with a multiplier does that with one 8 x 8 multiply (avr-gcc
   from -O1 on: mul), not with LOG2 shifts of the wider result.  */
static bool
byte_times_pow2 (roi_stmt stmt, enum tree_code code, unsigned log2)
{
  if (!optimize || log2 < 2 || log2 > 7)
    return false;
  tree op = gimple_assign_rhs1 (stmt);
  unsigned from = code == WIDEN_MULT_EXPR ? TYPE_PRECISION (TREE_TYPE (op)) : extended_from (op);
  return from && from <= 8;
}

static void
emit_binary (roi_op_sink sink, void *ctx, const char *kind, const_tree type,
	     tree op2)
{
  emit_op (sink, ctx, kind, type, operand_kind (kind, type, op2), NULL);
}

/* A division or remainder by 2^N, as the code it becomes: unsigned (or
   exact, a pointer difference's division by the element size) the right
   shift by N or the mask of the low bits; signed, the shift or mask with a
   correction towards zero, kind "div" or "mod" whose operand is N (a divide
   by 2 is a few instructions, by 8 at -Os a loop, like the shift's own).  */
static void
emit_division_by_pow2 (roi_op_sink sink, void *ctx, const char *kind, bool exact,
		       const_tree type, unsigned n)
{
  bool is_div = !strcmp (kind, ROI_KIND (DIV));

  if (TYPE_UNSIGNED (type) || exact)
    emit_op (sink, ctx, is_div ? ROI_KIND (SHR) : ROI_KIND (AND), type,
	     is_div ? shift_amount (n) : "const", NULL);
  else
    emit_op (sink, ctx, kind, type, shift_amount (n), NULL);
}

/* Whether STMT is an integer division or remainder whose partner (the
   remainder or quotient of the same operands) an earlier statement of its
   block computes: optimising, GCC expands both into one library call that
   returns both (avr's __udivmodsi4; the RTL CSE merges the two), so the
   second costs a move.  At -O0 each is a call of its own.  */
bool
roi_divmod_paired (roi_stmt stmt)
{
  enum tree_code code = gimple_assign_rhs_code (stmt), partner;
  if (code == TRUNC_DIV_EXPR)
    partner = TRUNC_MOD_EXPR;
  else if (code == TRUNC_MOD_EXPR)
    partner = TRUNC_DIV_EXPR;
  else
    return false;
  if (!optimize || !INTEGRAL_TYPE_P (TREE_TYPE (gimple_assign_lhs (stmt))))
    return false;
  tree a = gimple_assign_rhs1 (stmt), b = gimple_assign_rhs2 (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  for (gsi_prev (&gsi); !gsi_end_p (gsi); gsi_prev (&gsi))
    {
      roi_stmt prev = gsi_stmt (gsi);
      if (is_gimple_assign (prev) && gimple_assign_rhs_code (prev) == partner
	  && operand_equal_p (gimple_assign_rhs1 (prev), a, 0)
	  && operand_equal_p (gimple_assign_rhs2 (prev), b, 0))
	return true;
    }
  return false;
}

static void
classify_assign (roi_stmt stmt, roi_op_sink sink, void *ctx)
{
  enum tree_code code = gimple_assign_rhs_code (stmt);
  tree lhs = gimple_assign_lhs (stmt);
  const_tree type = TREE_TYPE (lhs);

  if (get_gimple_rhs_class (code) == GIMPLE_SINGLE_RHS)
    {
      classify_single (stmt, sink, ctx);
      return;
    }
  if (TREE_CODE (type) == VECTOR_TYPE)
    {
      emit_op (sink, ctx, ROI_KIND (VEC), type, NULL, get_tree_code_name (code));
      return;
    }
  if (is_conversion (code))
    {
      emit_conv (sink, ctx, type, TREE_TYPE (gimple_assign_rhs1 (stmt)));
      return;
    }
  if (comparison_kind (code))
    {
      /* A comparison computes in its operands' type, not in its bool result.  */
      emit_binary (sink, ctx, comparison_kind (code),
		   TREE_TYPE (gimple_assign_rhs1 (stmt)),
		   gimple_assign_rhs2 (stmt));
      return;
    }
  if (code == POINTER_DIFF_EXPR)
    {
      emit (sink, ctx, ROI_KIND (PTRDIFF), TREE_TYPE (gimple_assign_rhs1 (stmt)));
      return;
    }
  if (code == FMA_EXPR_CODE)
    {
      emit (sink, ctx, ROI_KIND (FMA), type);
      return;
    }
  const char *kind = operator_kind (code);
  tree op2 = get_gimple_rhs_class (code) == GIMPLE_BINARY_RHS
	     ? gimple_assign_rhs2 (stmt) : NULL_TREE;
  unsigned log2 = roi_multiplier_log2 (op2);
  if (kind && roi_divmod_paired (stmt))
    emit_op (sink, ctx, kind, type, "paired", NULL);
  else if ((code == MULT_EXPR || code == WIDEN_MULT_EXPR) && log2
	   && byte_times_pow2 (stmt, code, log2))
    emit_op (sink, ctx, ROI_KIND (MUL), type, "widen", NULL);
  else if ((code == MULT_EXPR || code == WIDEN_MULT_EXPR) && log2)
    emit_op (sink, ctx, ROI_KIND (SHL), type, shift_amount (log2), NULL);
  else if (kind && (!strcmp (kind, ROI_KIND (DIV)) || !strcmp (kind, ROI_KIND (MOD)))
	   && INTEGRAL_TYPE_P (type) && log2 && tree_int_cst_sgn (op2) > 0)
    emit_division_by_pow2 (sink, ctx, kind, code == EXACT_DIV_EXPR, type, log2);
  else if (code == WIDEN_MULT_EXPR
	   || (code == MULT_EXPR && optimize && INTEGRAL_TYPE_P (type)
	       && extended_half (gimple_assign_rhs1 (stmt), type)
	       && extended_half (op2, type)))
    /* optimising, GCC multiplies two extended halves in the half width with
       a double-width result (avr's __umulhisi3, 16 x 16 -> 32), not with the
       full-width multiply (__mulsi3); a target without such an instruction
       (x86-64 for 16 x 16 -> 32) keeps the MULT_EXPR of the extensions, which
       is the same product: a host's counts mean what an 8-bit target's do */
    emit_op (sink, ctx, kind, type, "widen", NULL);
  else if (kind)
    emit_binary (sink, ctx, kind, type, op2);
  else
    emit_op (sink, ctx, ROI_KIND (OTHER), type, NULL, get_tree_code_name (code));
}

static const char *
callee_name (roi_stmt stmt, bool *direct, bool *builtin, bool *internal)
{
  *direct = *builtin = *internal = false;
  if (gimple_call_internal_p (stmt))
    {
      *internal = *direct = true;
      return internal_fn_name (gimple_call_internal_fn (stmt));
    }
  tree fndecl = gimple_call_fndecl (stmt);
  if (!fndecl)
    return "*indirect";
  *direct = true;
  *builtin = fndecl_built_in_p_compat (fndecl);
  return IDENTIFIER_POINTER (DECL_NAME (fndecl));
}

static void
classify_call (roi_stmt stmt, roi_op_sink sink, void *ctx)
{
  /* GCC 7 on makes a quotient and remainder of the same operands one
     internal call where the target has a routine for both (x86-64's div):
     the division and its paired remainder, as avr-gcc 5.4 counts the two
     statements it keeps (roi_divmod_paired), so that a host profile means what
     the target's does.  */
  if (roi_divmod_call_p (stmt) && gimple_call_lhs (stmt)
      && TREE_CODE (TREE_TYPE (gimple_call_lhs (stmt))) == COMPLEX_TYPE)
    {
      tree type = TREE_TYPE (TREE_TYPE (gimple_call_lhs (stmt)));
      emit_binary (sink, ctx, ROI_KIND (DIV), type, gimple_call_arg (stmt, 1));
      emit_op (sink, ctx, ROI_KIND (MOD), type, "paired", NULL);
      return;
    }
  struct roi_op op;
  memset (&op, 0, sizeof op);
  op.kind = ROI_KIND (CALL);
  op.callee = callee_name (stmt, &op.direct, &op.builtin, &op.internal);
  tree lhs = gimple_call_lhs (stmt);
  op.type = lhs ? TREE_TYPE (lhs) : NULL_TREE;
  sink (ctx, &op);
  /* A result that lands in memory is stored there after the call.  */
  if (lhs && roi_is_memory (lhs) && !AGGREGATE_TYPE_P (TREE_TYPE (lhs)))
    emit_access (sink, ctx, ROI_KIND (STORE), lhs);
}

/* True when NAME lives in its variable's frame slot: at -O0 GCC gives every
   user variable and parameter a stack slot and reads and writes it there for
   each statement (function.c, use_register_for_decl), while a temporary, an
   ignored or a register variable gets a pseudo register.  */
static bool
is_frame_resident_var (tree var)
{
  return !optimize && var && (TREE_CODE (var) == VAR_DECL || TREE_CODE (var) == PARM_DECL)
	 && !DECL_IGNORED_P (var) && !DECL_REGISTER (var)
	 && TYPE_MODE (TREE_TYPE (var)) != BLKmode;
}

static bool
is_frame_resident (tree name)
{
  return TREE_CODE (name) == SSA_NAME && is_frame_resident_var (SSA_NAME_VAR (name));
}

/* A "frame" load or store of NAME's slot; TYPE: the bytes a narrowed read
   takes (narrowed_read), else NULL_TREE.  */
static void
emit_frame_access (roi_op_sink sink, void *ctx, const char *kind, tree name, tree type)
{
  struct roi_op op;
  memset (&op, 0, sizeof op);
  op.kind = kind;
  op.type = type ? type : TREE_TYPE (name);
  op.access = ROI_ACCESS (FRAME);
  sink (ctx, &op);
}

/* The type a conversion STMT narrows its operand NAME to, or NULL_TREE: GCC
   reads a narrowed variable's slot in the narrow mode (expand takes the low
   part of the memory reference), so (uint8_t) x of a uint32_t x in the frame
   loads one byte, not four.  */
static tree
narrowed_read (roi_stmt stmt, tree name)
{
  if (!is_gimple_assign (stmt) || !CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (stmt))
      || gimple_assign_rhs1 (stmt) != name)
    return NULL_TREE;
  tree to = TREE_TYPE (gimple_assign_lhs (stmt)), from = TREE_TYPE (name);
  if (!INTEGRAL_TYPE_P (to) || !INTEGRAL_TYPE_P (from)
      || TYPE_PRECISION (to) >= TYPE_PRECISION (from)
      || TYPE_PRECISION (to) % BITS_PER_UNIT != 0)
    return NULL_TREE;
  return to;
}

/* At -O0 a statement reads every variable it uses from the frame and writes
   the one it sets back: on an 8-bit core that is two cycles a byte, often
   more than the operation itself, and the same for every kind of operation,
   so it is counted as operations of its own (access "frame") rather than
   hidden in each operation's cost.  */
static void
classify_frame_accesses (roi_stmt stmt, roi_op_sink sink, void *ctx)
{
  ssa_op_iter iter;
  tree name;

  FOR_EACH_SSA_TREE_OPERAND (name, stmt, iter, SSA_OP_USE)
    if (is_frame_resident (name))
      emit_frame_access (sink, ctx, ROI_KIND (LOAD), name, narrowed_read (stmt, name));
  FOR_EACH_SSA_TREE_OPERAND (name, stmt, iter, SSA_OP_DEF)
    if (is_frame_resident (name))
      emit_frame_access (sink, ctx, ROI_KIND (STORE), name, NULL_TREE);
}

void
roi_classify_entry (tree fndecl, roi_op_sink sink, void *ctx)
{
  for (tree parm = DECL_ARGUMENTS (fndecl); parm; parm = DECL_CHAIN (parm))
    if (is_frame_resident_var (parm))
      emit_frame_access (sink, ctx, ROI_KIND (STORE), parm, NULL_TREE);
}

struct typed_sink
{
  roi_op_sink sink;
  void *ctx;
  roi_stmt stmt;
  /* the last type named and its variant: the ops of one statement (a load,
     its index, its frame accesses) mostly share a type, and roi_named_variant
     searches up to three statements back and forth for each  */
  const_tree asked, named;
  bool have_named;
};

static void
name_types (void *ctx, const struct roi_op *op)
{
  struct typed_sink *t = (struct typed_sink *) ctx;
  struct roi_op named = *op;
  if (!t->have_named || t->asked != op->type)
    {
      t->asked = op->type;
      t->named = roi_named_variant (op->type, t->stmt);
      t->have_named = true;
    }
  named.type = t->named;
  named.promoted = roi_promoted_from (op, t->stmt);
  t->sink (t->ctx, &named);
}

void
roi_classify_stmt (roi_stmt stmt, roi_op_sink sink, void *ctx)
{
  struct typed_sink typed = { sink, ctx, stmt, NULL_TREE, NULL_TREE, false };
  sink = name_types;
  ctx = &typed;
  /* "x ={v} {CLOBBER}" ends a variable's life at the end of its scope: no
     code (an aggregate assignment in form, it is not a copy)  */
  if (gimple_clobber_p (stmt))
    return;
  if (!is_gimple_debug (stmt) && gimple_code (stmt) != GIMPLE_LABEL)
    classify_frame_accesses (stmt, sink, ctx);
  switch (gimple_code (stmt))
    {
    case GIMPLE_ASSIGN:
      classify_assign (stmt, sink, ctx);
      break;
    case GIMPLE_COND:
      emit_binary (sink, ctx, comparison_kind (gimple_cond_code (stmt))
		   ? comparison_kind (gimple_cond_code (stmt)) : ROI_KIND (OTHER),
		   TREE_TYPE (gimple_cond_lhs (stmt)), gimple_cond_rhs (stmt));
      emit (sink, ctx, ROI_KIND (BR), NULL_TREE);
      break;
    case GIMPLE_SWITCH:
      {
	struct roi_op op;
	memset (&op, 0, sizeof op);
	op.kind = ROI_KIND (SWITCH);
	op.type = TREE_TYPE (gimple_switch_index (as_a <gswitch *> (stmt)));
	op.cases = gimple_switch_num_labels (as_a <gswitch *> (stmt));
	sink (ctx, &op);
      }
      break;
    case GIMPLE_CALL:
      classify_call (stmt, sink, ctx);
      break;
    case GIMPLE_RETURN:
      {
	tree val = gimple_return_retval (as_a <greturn *> (stmt));
	emit (sink, ctx, ROI_KIND (RET), val ? TREE_TYPE (val) : NULL_TREE);
      }
      break;
    case GIMPLE_ASM:
      emit (sink, ctx, ROI_KIND (ASM), NULL_TREE);
      break;
    case GIMPLE_LABEL:
    case GIMPLE_DEBUG:
    case GIMPLE_NOP:
    case GIMPLE_PREDICT:
      break;
    default:
      emit_op (sink, ctx, ROI_KIND (OTHER), NULL_TREE, NULL, gimple_code_name[gimple_code (stmt)]);
      break;
    }
}

/* Whether STMT computes a value nothing uses and does nothing else: when
   optimising, a leftover of the loop optimisers (an address that ivopts
   rewrote no longer needs, kernel-conv2d's &img + i at -Os), which RTL's
   dead code elimination deletes; at -O0 GCC emits it.  */
bool
roi_dead_stmt (roi_stmt stmt)
{
  if (!optimize || !is_gimple_assign (stmt))
    return false;
  tree lhs = gimple_assign_lhs (stmt);
  return TREE_CODE (lhs) == SSA_NAME && has_zero_uses (lhs)
	 && !gimple_has_side_effects (stmt) && !gimple_has_volatile_ops (stmt);
}
