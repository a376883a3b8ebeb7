/* roi-types.cc — naming the types operations compute in.
 *
 * Two names per type: the class a cost model keys on (width and signedness:
 * "u16", "f32", "ptr"), and the canonical C type name with typedefs and
 * qualifiers resolved ("uint16_t" → "unsigned short"), so a profile taken on
 * the host can be mapped through a target's ABI by C type.  */
#include "roi-plugin.h"

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
