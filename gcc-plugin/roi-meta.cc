/* roi-meta.cc — the unit's metadata record in the non-allocated ELF section
 * .roi.meta (format: docs/formats.md).
 *
 * The pass adds one function at a time; the record is written when the unit
 * ends, as raw bytes through GCC's own section machinery, so it needs no
 * variable, costs no flash or RAM, and the linker concatenates the records of
 * every unit into the program.  */
#include "roi-plugin.h"

static struct roi_strings unit_ops;	/* JSON text of each distinct operation */
static struct roi_strings unit_files;	/* file table */
/* The function records, each closed when the unit ends: the pass writes a
   record before the function reaches RTL, and roi-frame.cc adds what only the
   register allocator knows.  */
struct function_record
{
  char *json;		/* the record without its closing brace */
  tree decl;		/* compared, never dereferenced */
  unsigned nblocks;	/* its counted blocks */
  int saved;		/* callee-saved registers the prologue saves, -1: unknown */
  long frame;		/* bytes of its stack frame, -1: unknown */
  char *rtl;		/* its members after reload (",\"spills\":..."), NULL: unknown */
};
static vec<function_record> unit_functions;
static struct roi_buf unit_regions;	/* comma-separated region records */
static struct roi_buf unit_excluded;	/* functions the filter left uncounted */
static unsigned unit_function_count;
static char unit_id[17];

static const char *
source_abs (void)
{
  static char *abs_path;
  if (!abs_path)
    abs_path = lrealpath (main_input_filename);
  return abs_path;
}

/* The unit id names the counter symbols and descriptor section of this unit,
   so it must differ between two units of one program: it hashes the source's
   absolute path and the output's dump name (which follows -o).  */
const char *
roi_unit_id (void)
{
  if (!unit_id[0])
    {
      unsigned long long h = 0xcbf29ce484222325ULL;
      h = roi_fnv1a64 (h, source_abs ());
      h = roi_fnv1a64 (h, dump_base_name ? dump_base_name : "");
      snprintf (unit_id, sizeof unit_id, "%016llx", h);
    }
  return unit_id;
}

unsigned
roi_meta_file (const char *file)
{
  return roi_strings_intern (&unit_files, file ? file : "<unknown>");
}

static void
add_type (struct roi_buf *b, const char *key, const char *ckey, const_tree type)
{
  struct roi_buf ctype = { NULL, 0, 0 };
  roi_ctype_name (type, &ctype);
  roi_buf_printf (b, ",\"%s\":\"%s\",\"%s\":", key, roi_type_class (type), ckey);
  roi_buf_json_string (b, ctype.text);
  free (ctype.text);
}

/* Operations are interned by their JSON text, which is canonical because the
   fields are always written in the same order.  */
unsigned
roi_meta_op (const struct roi_op *op)
{
  struct roi_buf b = { NULL, 0, 0 };
  roi_buf_printf (&b, "{\"kind\":\"%s\"", op->kind);
  if (op->type && strcmp (op->kind, "call") != 0)
    add_type (&b, "type", "ctype", op->type);
  if (op->from)
    add_type (&b, "from", "from_ctype", op->from);
  if (op->access)
    roi_buf_printf (&b, ",\"access\":\"%s\"", op->access);
  if (op->is_volatile)
    roi_buf_add (&b, ",\"volatile\":true");
  if (op->operand)
    roi_buf_printf (&b, ",\"operand\":\"%s\"", op->operand);
  if (op->subscripts)
    roi_buf_printf (&b, ",\"subscripts\":%u", op->subscripts);
  if (op->promoted)
    roi_buf_printf (&b, ",\"promoted\":%u", op->promoted);
  if (op->callee)
    {
      roi_buf_add (&b, ",\"callee\":");
      roi_buf_json_string (&b, op->callee);
      roi_buf_printf (&b, ",\"direct\":%s", op->direct ? "true" : "false");
      if (op->builtin)
	roi_buf_add (&b, ",\"builtin\":true");
      if (op->internal)
	roi_buf_add (&b, ",\"internal\":true");
    }
  if (op->code)
    {
      roi_buf_add (&b, ",\"code\":");
      roi_buf_json_string (&b, op->code);
    }
  if (!strcmp (op->kind, "switch"))
    roi_buf_printf (&b, ",\"cases\":%lu", op->cases);
  if (!strcmp (op->kind, "copy") && op->type && roi_type_bits (op->type))
    roi_buf_printf (&b, ",\"bytes\":%lu",
		    (unsigned long) (roi_type_bits (op->type) / BITS_PER_UNIT));
  roi_buf_add (&b, "}");
  unsigned index = roi_strings_intern (&unit_ops, b.text);
  free (b.text);
  return index;
}

const char *
roi_meta_op_text (unsigned index)
{
  return unit_ops.items[index];
}

unsigned
roi_meta_next_function_index (void)
{
  return unit_function_count;
}

void
roi_meta_add_function (tree decl, const char *json, unsigned nblocks)
{
  size_t len = strlen (json);
  gcc_assert (len && json[len - 1] == '}');
  function_record r = { xstrndup (json, len - 1), decl, nblocks, -1, -1, NULL };
  unit_functions.safe_push (r);
  unit_function_count++;
}

/* DECL's record, from the last: GCC takes each function through the tree
   and the RTL passes before the next, so the one roi-frame.cc asks for is
   the one the pass added last.  */
static function_record *
record_of (tree decl)
{
  for (unsigned i = unit_functions.length (); i-- > 0;)
    if (unit_functions[i].decl == decl)
      return &unit_functions[i];
  return NULL;
}

bool
roi_meta_function_blocks (tree decl, unsigned *nblocks)
{
  function_record *r = record_of (decl);
  if (r)
    *nblocks = r->nblocks;
  return r != NULL;
}

void
roi_meta_set_frame (tree decl, unsigned saved, unsigned long frame, const char *rtl_members)
{
  function_record *r = record_of (decl);
  if (!r)
    return;
  r->saved = (int) saved;
  r->frame = (long) frame;
  free (r->rtl);
  r->rtl = xstrdup (rtl_members);
}

void
roi_meta_add_region (const char *json)
{
  if (unit_regions.len)
    roi_buf_add (&unit_regions, ",\n");
  roi_buf_add (&unit_regions, json);
}

void
roi_meta_add_excluded (const char *json)
{
  if (unit_excluded.len)
    roi_buf_add (&unit_excluded, ",\n");
  roi_buf_add (&unit_excluded, json);
}

/* The triple the compiler was configured for, from its configure line.  */
static void
add_target (struct roi_buf *b)
{
  const char *p = strstr (configuration_arguments, "--target=");
  roi_buf_add (b, "\"target\":\"");
  if (p)
    {
      p += strlen ("--target=");
      roi_buf_addn (b, p, strcspn (p, " '\""));
    }
  else
    roi_buf_add (b, "unknown");
  roi_buf_add (b, "\"");
}

static unsigned
prec (tree t)
{
  return t ? TYPE_PRECISION (t) : 0;
}

/* The C type sizes of the target, so the estimator can tell what "int"
   means here and map a host profile onto a target.  */
static void
add_abi (struct roi_buf *b)
{
  roi_buf_printf (b, "\"abi\":{\"char\":%u,\"short\":%u,\"int\":%u,\"long\":%u,"
		  "\"long long\":%u,\"pointer\":%u,\"float\":%u,\"double\":%u,"
		  "\"long double\":%u,\"char_signed\":%s}",
		  prec (char_type_node), prec (short_integer_type_node),
		  prec (integer_type_node), prec (long_integer_type_node),
		  prec (long_long_integer_type_node), (unsigned) POINTER_SIZE,
		  prec (float_type_node), prec (double_type_node),
		  prec (long_double_type_node),
		  TYPE_UNSIGNED (char_type_node) ? "false" : "true");
}

void
roi_meta_emit (void)
{
  if ((!unit_function_count && !unit_excluded.len && !unit_regions.len) || seen_error ())
    return;

  struct roi_buf b = { NULL, 0, 0 };
  roi_buf_printf (&b, "{\"roi\":1,\"unit\":\"%s\",\"source\":", roi_unit_id ());
  roi_buf_json_string (&b, main_input_filename);
  roi_buf_add (&b, ",\"source_abs\":");
  roi_buf_json_string (&b, source_abs ());
  roi_buf_printf (&b, ",\"compiler\":\"%s\",", version_string);
  add_target (&b);
  roi_buf_printf (&b, ",\"opt\":\"%s\",\"counter_bits\":%d,\"atomic\":%s,"
		  "\"runtime\":\"%s\",\"debug\":%s,", roi_opt_level (), roi_opts.counter_bits,
		  roi_opts.atomic ? "true" : "false",
		  roi_opts.runtime == ROI_RUNTIME_HOST ? "host" : "none",
		  debug_info_level > DINFO_LEVEL_NONE ? "true" : "false");
  add_abi (&b);
  roi_buf_add (&b, ",\n\"files\":[");
  for (unsigned i = 0; i < unit_files.count; i++)
    {
      if (i)
	roi_buf_add (&b, ",");
      roi_buf_json_string (&b, unit_files.items[i]);
    }
  roi_buf_add (&b, "],\n\"ops\":[");
  for (unsigned i = 0; i < unit_ops.count; i++)
    roi_buf_printf (&b, "%s\n%s", i ? "," : "", unit_ops.items[i]);
  roi_buf_add (&b, "],\n\"functions\":[\n");
  for (unsigned i = 0; i < unit_functions.length (); i++)
    {
      if (i)
	roi_buf_add (&b, ",\n");
      roi_buf_add (&b, unit_functions[i].json);
      if (unit_functions[i].saved >= 0)
	roi_buf_printf (&b, ",\"saved\":%d,\"frame\":%ld", unit_functions[i].saved,
			unit_functions[i].frame);
      if (unit_functions[i].rtl)
	roi_buf_add (&b, unit_functions[i].rtl);
      roi_buf_add (&b, "}");
      free (unit_functions[i].json);
      free (unit_functions[i].rtl);
    }
  unit_functions.release ();
  roi_buf_add (&b, "]");
  if (unit_regions.len)
    {
      roi_buf_add (&b, ",\n\"regions\":[\n");
      roi_buf_add (&b, unit_regions.text);
      roi_buf_add (&b, "]");
    }
  if (unit_excluded.len)
    {
      roi_buf_add (&b, ",\n\"excluded\":[\n");
      roi_buf_add (&b, unit_excluded.text);
      roi_buf_add (&b, "]");
    }
  roi_filter_describe (&b);
  roi_buf_add (&b, "}\n");

  switch_to_section (roi_get_section (".roi.meta", SECTION_DEBUG));
  /* The NUL terminates this unit's record inside the linked section.  */
  assemble_string (b.text, (int) b.len + 1);
  free (b.text);
}
