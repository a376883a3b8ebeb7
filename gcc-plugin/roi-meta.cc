/* roi-meta.cc — the unit's metadata record in the non-allocated ELF section
 * .roi.meta (format: docs/formats.md).
 *
 * The pass adds one function at a time; the record is written when the unit
 * ends, as raw bytes through GCC's own section machinery, so it needs no
 * variable, costs no flash or RAM, and the linker concatenates the records of
 * every unit into the program.  */
#include "roi-meta.h"
#include "roi-checksum.h"
#include "roi-filter.h"
#include "roi-op.h"
#include "roi-plugin.h"
#include "roi-types.h"
#include "roi-util.h"
/* The checksum both the plugin and the estimator compute (roi-checksum.h).  */
#include "roi-checksum.c"

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

/* An operation's type: its width-and-signedness class copied into CLASS
   (roi_type_class's own buffer is overwritten by its next call) and its C
   type name into CTYPE.  */
static const char *
type_fields (const_tree type, char (&type_class)[16], struct roi_buf *ctype)
{
  roi_ctype_name (type, ctype);
  snprintf (type_class, sizeof type_class, "%s", roi_type_class (type));
  return type_class;
}

/* What the op table says of OP, as F; its type names go to the buffers.  */
struct op_names
{
  char type_class[16], from_class[16];
  struct roi_buf ctype, from_ctype;
};

static void
op_fields (const struct roi_op *op, struct op_names *names, roi_checksum_op *f)
{
  memset (f, 0, sizeof *f);
  f->kind = op->kind;
  if (op->type && strcmp (op->kind, ROI_KIND (CALL)) != 0)
    {
      f->type = type_fields (op->type, names->type_class, &names->ctype);
      f->ctype = names->ctype.text;
    }
  if (op->from)
    {
      f->from = type_fields (op->from, names->from_class, &names->from_ctype);
      f->from_ctype = names->from_ctype.text;
    }
  f->access = op->access;
  f->is_volatile = op->is_volatile;
  f->operand = op->operand;
  f->subscripts = op->subscripts;
  f->promoted = op->promoted;
  if (op->callee)
    {
      f->callee = op->callee;
      f->direct = op->direct;
      f->builtin = op->builtin;
      f->internal = op->internal;
    }
  f->code = op->code;
  f->cases = !strcmp (op->kind, ROI_KIND (SWITCH)) ? (long long) op->cases : -1;
  f->bytes = !strcmp (op->kind, ROI_KIND (COPY)) && op->type && roi_type_bits (op->type)
	     ? (long long) (roi_type_bits (op->type) / BITS_PER_UNIT) : -1;
}

/* F's entry in the op table, its fields always in the same order.  */
static void
op_json (const roi_checksum_op *f, struct roi_buf *b)
{
  roi_buf_printf (b, "{\"kind\":\"%s\"", f->kind);
  if (f->type)
    {
      roi_buf_printf (b, ",\"type\":\"%s\",\"ctype\":", f->type);
      roi_buf_json_string (b, f->ctype);
    }
  if (f->from)
    {
      roi_buf_printf (b, ",\"from\":\"%s\",\"from_ctype\":", f->from);
      roi_buf_json_string (b, f->from_ctype);
    }
  if (f->access)
    roi_buf_printf (b, ",\"access\":\"%s\"", f->access);
  if (f->is_volatile)
    roi_buf_add (b, ",\"volatile\":true");
  if (f->operand)
    roi_buf_printf (b, ",\"operand\":\"%s\"", f->operand);
  if (f->subscripts)
    roi_buf_printf (b, ",\"subscripts\":%lld", f->subscripts);
  if (f->promoted)
    roi_buf_printf (b, ",\"promoted\":%lld", f->promoted);
  if (f->callee)
    {
      roi_buf_add (b, ",\"callee\":");
      roi_buf_json_string (b, f->callee);
      roi_buf_printf (b, ",\"direct\":%s", f->direct ? "true" : "false");
      if (f->builtin)
	roi_buf_add (b, ",\"builtin\":true");
      if (f->internal)
	roi_buf_add (b, ",\"internal\":true");
    }
  if (f->code)
    {
      roi_buf_add (b, ",\"code\":");
      roi_buf_json_string (b, f->code);
    }
  if (f->cases >= 0)
    roi_buf_printf (b, ",\"cases\":%lld", f->cases);
  if (f->bytes >= 0)
    roi_buf_printf (b, ",\"bytes\":%lld", f->bytes);
  roi_buf_add (b, "}");
}

/* The fields of each operation of unit_ops, its strings copies of their own:
   what the checksum of a row that names it covers.  */
static vec<roi_checksum_op> unit_op_fields;

static const char *
copy_or_null (const char *s)
{
  return s ? xstrdup (s) : NULL;
}

/* Operations are interned by their JSON text, which is canonical because the
   fields are always written in the same order.  The text and the checksum's
   fields are made from one roi_checksum_op, so they cannot differ.  */
unsigned
roi_meta_op (const struct roi_op *op)
{
  struct op_names names = { "", "", { NULL, 0, 0 }, { NULL, 0, 0 } };
  roi_checksum_op f;
  op_fields (op, &names, &f);
  struct roi_buf b = { NULL, 0, 0 };
  op_json (&f, &b);
  unsigned known = unit_ops.count;
  unsigned index = roi_strings_intern (&unit_ops, b.text);
  if (index == known)
    {
      f.kind = copy_or_null (f.kind);
      f.type = copy_or_null (f.type);
      f.ctype = copy_or_null (f.ctype);
      f.from = copy_or_null (f.from);
      f.from_ctype = copy_or_null (f.from_ctype);
      f.access = copy_or_null (f.access);
      f.operand = copy_or_null (f.operand);
      f.callee = copy_or_null (f.callee);
      f.code = copy_or_null (f.code);
      unit_op_fields.safe_push (f);
    }
  free (b.text);
  free (names.ctype.text);
  free (names.from_ctype.text);
  return index;
}

const struct roi_checksum_op *
roi_meta_op_fields (unsigned index)
{
  return &unit_op_fields[index];
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

/* JSON appended to the comma-separated records of LIST.  */
static void
add_record (struct roi_buf *list, const char *json)
{
  if (list->len)
    roi_buf_add (list, ",\n");
  roi_buf_add (list, json);
}

void
roi_meta_add_region (const char *json)
{
  add_record (&unit_regions, json);
}

void
roi_meta_add_excluded (const char *json)
{
  add_record (&unit_excluded, json);
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
