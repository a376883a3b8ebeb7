/* roi-types.cc — the C types operations compute in.
 *
 * Two names per type: the class a cost model keys on (width and signedness:
 * "u16", "f32", "ptr"), and the canonical C type name with typedefs and
 * qualifiers resolved ("uint16_t" → "unsigned short"), so a profile taken on
 * the host can be mapped through a target's ABI by C type.  And what GIMPLE
 * no longer says of an operation's type: the width typedef (uint32_t) its
 * value was declared with, and the unsigned type C promoted its operands
 * from.  */
#include "roi-types.h"
#include "roi-classify.h"
#include "roi-op.h"
#include "roi-util.h"

/* Width of an integer type as the code stores it: a 3-bit bit-field type
   computes in its 8-bit container.  */
static unsigned
int_bits (const_tree type)
{
  unsigned p = TYPE_PRECISION (type);
  if (p == 8 || p == 16 || p == 24 || p == 32 || p == 64 || p == 128)
    return p;
  unsigned HOST_WIDE_INT size = roi_type_bits (type);
  return size ? (unsigned) size : p;
}

const char *
roi_type_class (const_tree type)
{
  static char buf[16];
  if (!type)
    return "void";
  switch (TREE_CODE (type))
    {
    case INTEGER_TYPE:
    case ENUMERAL_TYPE:
      snprintf (buf, sizeof buf, "%c%u", TYPE_UNSIGNED (type) ? 'u' : 'i',
		int_bits (type));
      return buf;
    case BOOLEAN_TYPE:
      return "bool";
    case REAL_TYPE:
      /* The precision of a float type is its mode's width: 32, 64, 80, 128.  */
      snprintf (buf, sizeof buf, "f%u", (unsigned) TYPE_PRECISION (type));
      return buf;
    case POINTER_TYPE:
    case REFERENCE_TYPE:
    case NULLPTR_TYPE:
      return "ptr";
    case RECORD_TYPE:
    case UNION_TYPE:
    case QUAL_UNION_TYPE:
    case ARRAY_TYPE:
      return "agg";
    case VECTOR_TYPE:
      return "vec";
    case COMPLEX_TYPE:
      return "cplx";
    case FIXED_POINT_TYPE:
      snprintf (buf, sizeof buf, "q%u", (unsigned) TYPE_PRECISION (type));
      return buf;
    case VOID_TYPE:
      return "void";
    default:
      return "other";
    }
}

/* GCC's internal names of the standard integer types, and the names a C
   programmer writes.  */
static const char *const c_spelling[][2] = {
  { "short int", "short" },
  { "short unsigned int", "unsigned short" },
  { "long int", "long" },
  { "long unsigned int", "unsigned long" },
  { "long long int", "long long" },
  { "long long unsigned int", "unsigned long long" },
  { "__int128", "__int128" },
  { "__int128 unsigned", "unsigned __int128" },
};

static const char *
type_name_string (const_tree type)
{
  tree name = TYPE_NAME (type);
  if (!name)
    return NULL;
  if (TREE_CODE (name) == TYPE_DECL)
    name = DECL_NAME (name);
  if (!name || TREE_CODE (name) != IDENTIFIER_NODE)
    return NULL;
  return IDENTIFIER_POINTER (name);
}

/* A standard C integer type of the same precision and signedness, for the
   nameless integer types GCC makes itself (bit-field types, sizetype).  */
static const char *
standard_int_name (const_tree type)
{
  /* int before short and long before long long: on AVR size_t is
     "unsigned int", on x86-64 "unsigned long", as the C libraries spell it.  */
  static const struct { tree *node; const char *name; } std[] = {
    { &integer_types[itk_int], "int" },
    { &integer_types[itk_unsigned_int], "unsigned int" },
    { &integer_types[itk_long], "long" },
    { &integer_types[itk_unsigned_long], "unsigned long" },
    { &integer_types[itk_long_long], "long long" },
    { &integer_types[itk_unsigned_long_long], "unsigned long long" },
    { &integer_types[itk_short], "short" },
    { &integer_types[itk_unsigned_short], "unsigned short" },
    { &integer_types[itk_signed_char], "signed char" },
    { &integer_types[itk_unsigned_char], "unsigned char" },
  };
  unsigned bits = int_bits (type);
  for (size_t i = 0; i < ARRAY_SIZE (std); i++)
    {
      tree t = *std[i].node;
      if (t && TYPE_PRECISION (t) == bits
	  && TYPE_UNSIGNED (t) == TYPE_UNSIGNED (type))
	return std[i].name;
    }
  return NULL;
}

static void
tagged_name (const char *keyword, const_tree type, struct roi_buf *out)
{
  const char *tag = type_name_string (type);
  roi_buf_add (out, keyword);
  roi_buf_add (out, " ");
  roi_buf_add (out, tag ? tag : "<anonymous>");
}

/* The <stdint.h> or <stddef.h> name TYPE was declared with, through any
   chain of typedefs, or NULL.  Such a name says the width the program means
   on every target (uint32_t is "unsigned int" on a host and "unsigned long"
   on AVR; size_t is as wide as a pointer), which the canonical C type does
   not: the estimator maps a host profile to a target by it.  */
const char *
roi_width_typedef_name (const_tree type)
{
  static const char *const sized[] = {
    "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t"
  };
  for (int depth = 0; type && depth < 16; depth++)
    {
      tree decl = TYPE_NAME (type);
      if (!decl || TREE_CODE (decl) != TYPE_DECL || !DECL_NAME (decl)
	  || !DECL_ORIGINAL_TYPE (decl))
	return NULL;
      const char *name = IDENTIFIER_POINTER (DECL_NAME (decl));
      unsigned bits;
      char tail[8];
      if ((sscanf (name, "int%u_%7s", &bits, tail) == 2
	   || sscanf (name, "uint%u_%7s", &bits, tail) == 2)
	  && strcmp (tail, "t") == 0 && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
	return name;
      for (size_t i = 0; i < ARRAY_SIZE (sized); i++)
	if (strcmp (name, sized[i]) == 0)
	  return name;
      type = DECL_ORIGINAL_TYPE (decl);
    }
  return NULL;
}

void
roi_ctype_name (const_tree type, struct roi_buf *out)
{
  if (!type)
    {
      roi_buf_add (out, "void");
      return;
    }
  if (INTEGRAL_TYPE_P (type) && roi_width_typedef_name (type))
    {
      roi_buf_add (out, roi_width_typedef_name (type));
      return;
    }
  type = TYPE_MAIN_VARIANT (type);
  switch (TREE_CODE (type))
    {
    case POINTER_TYPE:
    case REFERENCE_TYPE:
      if (TREE_CODE (TREE_TYPE (type)) == FUNCTION_TYPE)
	{
	  roi_buf_add (out, "function *");
	  return;
	}
      roi_ctype_name (TREE_TYPE (type), out);
      roi_buf_add (out, " *");
      return;
    case ARRAY_TYPE:
      roi_ctype_name (TREE_TYPE (type), out);
      if (TYPE_DOMAIN (type) && TYPE_MAX_VALUE (TYPE_DOMAIN (type))
	  && tree_fits_shwi_p (TYPE_MAX_VALUE (TYPE_DOMAIN (type))))
	roi_buf_printf (out, "[%ld]",
			(long) tree_to_shwi (TYPE_MAX_VALUE (TYPE_DOMAIN (type))) + 1);
      else
	roi_buf_add (out, "[]");
      return;
    case RECORD_TYPE:
      tagged_name ("struct", type, out);
      return;
    case UNION_TYPE:
    case QUAL_UNION_TYPE:
      tagged_name ("union", type, out);
      return;
    case ENUMERAL_TYPE:
      tagged_name ("enum", type, out);
      return;
    case FUNCTION_TYPE:
      roi_buf_add (out, "function");
      return;
    case VECTOR_TYPE:
      roi_ctype_name (TREE_TYPE (type), out);
      roi_buf_add (out, " vector");
      return;
    case COMPLEX_TYPE:
      roi_buf_add (out, "_Complex ");
      roi_ctype_name (TREE_TYPE (type), out);
      return;
    default:
      break;
    }

  const char *name = type_name_string (type);
  /* GCC's own size types (the offsets of pointer arithmetic, a[i]'s i times
     its element size) are size_t or ptrdiff_t to a C programmer, and as wide
     as a pointer on every target, which is how a host profile maps them.  */
  if (name && TREE_CODE (type) == INTEGER_TYPE
      && (!strcmp (name, "sizetype") || !strcmp (name, "ssizetype")))
    {
      roi_buf_add (out, TYPE_UNSIGNED (type) ? "size_t" : "ptrdiff_t");
      return;
    }
  if (name && TREE_CODE (type) == INTEGER_TYPE && strstr (name, "sizetype"))
    name = NULL;
  if (name)
    {
      for (size_t i = 0; i < ARRAY_SIZE (c_spelling); i++)
	if (strcmp (name, c_spelling[i][0]) == 0)
	  {
	    roi_buf_add (out, c_spelling[i][1]);
	    return;
	  }
      roi_buf_add (out, name);
      return;
    }
  if (TREE_CODE (type) == INTEGER_TYPE)
    {
      const char *std = standard_int_name (type);
      if (std)
	{
	  roi_buf_add (out, std);
	  return;
	}
    }
  roi_buf_add (out, roi_type_class (type));
}

/* The variant of TYPE with a width typedef (uint32_t) that the value NAME
   was loaded as or computed from (DEPTH statements back), else NULL_TREE:
   optimising, ivopts rewrites u32[i] into a MEM of the plain type ("unsigned
   int"), and the element type of the array it reads tells the width.  */
static const_tree
typedef_of_definition (tree name, const_tree type, int depth)
{
  if (depth == 0 || TREE_CODE (name) != SSA_NAME
      || TYPE_MAIN_VARIANT (TREE_TYPE (name)) != TYPE_MAIN_VARIANT (type))
    return NULL_TREE;
  if (roi_width_typedef_name (TREE_TYPE (name)))
    return TREE_TYPE (name);
  /* a variable of the program's: its own type says what it means (an
     unsigned int u = (unsigned int) b of a uint32_t b is unsigned int) */
  tree var = SSA_NAME_VAR (name);
  if (var && DECL_NAME (var) && !DECL_ARTIFICIAL (var))
    return TYPE_MAIN_VARIANT (TREE_TYPE (var)) == TYPE_MAIN_VARIANT (type)
	   && roi_width_typedef_name (TREE_TYPE (var)) ? TREE_TYPE (var) : NULL_TREE;
  roi_stmt def = SSA_NAME_DEF_STMT (name);
  if (SSA_NAME_IS_DEFAULT_DEF (name) || !def || !is_gimple_assign (def))
    return NULL_TREE;
  tree rhs = gimple_assign_rhs1 (def);
  if (gimple_assign_single_p (def) && roi_is_memory (rhs))
    {
      tree base = get_base_address (rhs);
      if (!base || !DECL_P (base))
	return NULL_TREE;
      tree t = TREE_TYPE (base);
      while (TREE_CODE (t) == ARRAY_TYPE)
	t = TREE_TYPE (t);
      return TYPE_MAIN_VARIANT (t) == TYPE_MAIN_VARIANT (type) && roi_width_typedef_name (t)
	     ? t : NULL_TREE;
    }
  for (unsigned i = 1; i < gimple_num_ops (def); i++)
    {
      const_tree t = typedef_of_definition (gimple_op (def, i), type, depth - 1);
      if (t)
	return t;
    }
  return NULL_TREE;
}

/* A variant of TYPE that bears a width typedef (uint32_t), taken from an
   operand of STMT or, for a temporary, from the statements that use it (two
   deep): GCC gives an expression the plain type ("unsigned int" for a
   uint32_t sum), while the width the program means is what maps a host
   profile to a target.  */
const_tree
roi_named_variant (const_tree type, roi_stmt stmt)
{
  if (!type || !INTEGRAL_TYPE_P (type) || roi_width_typedef_name (type))
    return type;
  /* what its operands were loaded as or computed from */
  if (gimple_code (stmt) == GIMPLE_ASSIGN || gimple_code (stmt) == GIMPLE_COND
      || gimple_code (stmt) == GIMPLE_CALL)
    /* (not an assignment's or a call's own result, operand 0) */
    for (unsigned i = gimple_code (stmt) == GIMPLE_COND ? 0 : 1; i < gimple_num_ops (stmt); i++)
      {
	tree op = gimple_op (stmt, i);
	const_tree t = op ? typedef_of_definition (op, type, 3) : NULL_TREE;
	if (t)
	  return t;
      }
  for (int depth = 0; depth < 3 && stmt; depth++)
    {
      /* (an asm's operands are lists, a debug bind's no operation) */
      if (gimple_code (stmt) != GIMPLE_ASSIGN && gimple_code (stmt) != GIMPLE_COND
	  && gimple_code (stmt) != GIMPLE_CALL && gimple_code (stmt) != GIMPLE_RETURN)
	break;
      for (unsigned i = 0; i < gimple_num_ops (stmt); i++)
	{
	  tree op = gimple_op (stmt, i);
	  if (op && !TYPE_P (op) && TREE_TYPE (op) && TYPE_P (TREE_TYPE (op))
	      && TYPE_MAIN_VARIANT (TREE_TYPE (op)) == TYPE_MAIN_VARIANT (type)
	      && roi_width_typedef_name (TREE_TYPE (op)))
	    return TREE_TYPE (op);
	}
      /* a temporary: the one statement that uses it */
      tree lhs = gimple_get_lhs (stmt);
      use_operand_p use;
      roi_stmt user;
      if (!lhs || TREE_CODE (lhs) != SSA_NAME || !single_imm_use (lhs, &use, &user))
	break;
      /* the offset of pointer arithmetic (a[i]'s i times the element size,
	 computed in the host's unsigned long) is a size_t; not a signed value
	 it is computed from, converted on the way (quicksort's (lo + hi) / 2,
	 an int division where int is as wide as size_t) */
      if (is_gimple_assign (user) && gimple_assign_rhs_code (user) == POINTER_PLUS_EXPR
	  && gimple_assign_rhs2 (user) == lhs && TYPE_UNSIGNED (type)
	  && TYPE_PRECISION (sizetype) == TYPE_PRECISION (type))
	return sizetype;
      stmt = user;
    }
  return type;
}

/* The width of the unsigned type whose promotion to int NAME holds, or holds
   the result of an int operation on (DEPTH levels back), else 0.  */
static unsigned
promoted_width (tree name, const_tree int_type, int depth)
{
  if (TREE_CODE (name) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF (name) || depth == 0)
    return 0;
  roi_stmt def = SSA_NAME_DEF_STMT (name);
  if (!def || !is_gimple_assign (def)
      || TYPE_MAIN_VARIANT (TREE_TYPE (name)) != TYPE_MAIN_VARIANT (int_type))
    return 0;
  enum tree_code code = gimple_assign_rhs_code (def);
  if (CONVERT_EXPR_CODE_P (code))
    {
      tree from = TREE_TYPE (gimple_assign_rhs1 (def));
      return INTEGRAL_TYPE_P (from) && TYPE_UNSIGNED (from)
	     && TYPE_PRECISION (from) < TYPE_PRECISION (int_type)
	     ? TYPE_PRECISION (from) : 0;
    }
  if (get_gimple_rhs_class (code) != GIMPLE_BINARY_RHS)
    return 0;
  unsigned w = promoted_width (gimple_assign_rhs1 (def), int_type, depth - 1);
  if (code != LSHIFT_EXPR && code != RSHIFT_EXPR && code != LROTATE_EXPR && code != RROTATE_EXPR)
    w = MAX (w, promoted_width (gimple_assign_rhs2 (def), int_type, depth - 1));
  return w;
}

/* C promotes an unsigned short to int where int is wider (a host) and to
   unsigned int where it is not (AVR), and an operation with an unsigned int
   operand computes unsigned: an int operation whose operands came from an
   unsigned type of WIDTH bits (or from int operations on such) computes
   unsigned on a target whose int is that narrow, and the estimator maps it
   so.  Returns the widest such WIDTH, or 0.  */
unsigned
roi_promoted_from (const struct roi_op *op, roi_stmt stmt)
{
  if (op->access || op->callee || !op->type || TREE_CODE (op->type) != INTEGER_TYPE
      || TYPE_UNSIGNED (op->type)
      || TYPE_PRECISION (op->type) != TYPE_PRECISION (integer_type_node))
    return 0;
  if (op->from)		/* the promotion itself */
    return INTEGRAL_TYPE_P (op->from) && TYPE_UNSIGNED (op->from)
	   && TYPE_PRECISION (op->from) < TYPE_PRECISION (op->type)
	   ? TYPE_PRECISION (op->from) : 0;
  const int depth = 4;
  if (is_gimple_assign (stmt)
      && get_gimple_rhs_class (gimple_assign_rhs_code (stmt)) == GIMPLE_BINARY_RHS)
    {
      enum tree_code code = gimple_assign_rhs_code (stmt);
      unsigned w = promoted_width (gimple_assign_rhs1 (stmt), op->type, depth);
      if (code != LSHIFT_EXPR && code != RSHIFT_EXPR && code != LROTATE_EXPR
	  && code != RROTATE_EXPR)
	w = MAX (w, promoted_width (gimple_assign_rhs2 (stmt), op->type, depth));
      return w;
    }
  if (gimple_code (stmt) == GIMPLE_COND)
    return MAX (promoted_width (gimple_cond_lhs (stmt), op->type, depth),
		promoted_width (gimple_cond_rhs (stmt), op->type, depth));
  return 0;
}
