/* roi-util.cc — growable text buffers and string tables for the metadata,
 * the trees of the plugin's own objects (struct types, static variables),
 * and which edges it follows.  */
#include "roi-util.h"

void
roi_buf_addn (struct roi_buf *b, const char *s, size_t n)
{
  if (b->len + n + 1 > b->cap)
    {
      b->cap = (b->len + n + 1) * 2;
      b->text = (char *) xrealloc (b->text, b->cap);
    }
  memcpy (b->text + b->len, s, n);
  b->len += n;
  b->text[b->len] = '\0';
}

void
roi_buf_add (struct roi_buf *b, const char *s)
{
  roi_buf_addn (b, s, strlen (s));
}

void
roi_buf_printf (struct roi_buf *b, const char *fmt, ...)
{
  char small[256];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (small, sizeof small, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  if ((size_t) n < sizeof small)
    {
      roi_buf_addn (b, small, n);
      return;
    }
  char *big = (char *) xmalloc (n + 1);
  va_start (ap, fmt);
  vsnprintf (big, n + 1, fmt, ap);
  va_end (ap);
  roi_buf_addn (b, big, n);
  free (big);
}

/* JSON string literal: quotes, backslashes and control characters escaped;
   other bytes (UTF-8 file names) pass through.  */
void
roi_buf_json_string (struct roi_buf *b, const char *s)
{
  roi_buf_add (b, "\"");
  for (; *s; s++)
    {
      unsigned char c = (unsigned char) *s;
      if (c == '"' || c == '\\')
	{
	  char esc[3] = { '\\', (char) c, 0 };
	  roi_buf_add (b, esc);
	}
      else if (c < 0x20)
	roi_buf_printf (b, "\\u%04x", c);
      else
	roi_buf_addn (b, (const char *) &c, 1);
    }
  roi_buf_add (b, "\"");
}

void
roi_buf_reset (struct roi_buf *b)
{
  b->len = 0;
  if (b->text)
    b->text[0] = '\0';
}

/* Linear search is fine: a unit has tens of distinct operations and files.  */
unsigned
roi_strings_intern (struct roi_strings *t, const char *s)
{
  for (unsigned i = 0; i < t->count; i++)
    if (strcmp (t->items[i], s) == 0)
      return i;
  if (t->count == t->cap)
    {
      t->cap = t->cap ? t->cap * 2 : 32;
      t->items = (char **) xrealloc (t->items, t->cap * sizeof *t->items);
    }
  t->items[t->count] = xstrdup (s);
  return t->count++;
}

unsigned long long
roi_fnv1a64 (unsigned long long h, const char *s)
{
  for (; *s; s++)
    {
      h ^= (unsigned char) *s;
      h *= 0x100000001b3ULL;
    }
  /* Separate consecutive strings so ("ab","c") differs from ("a","bc").  */
  h ^= 0xff;
  h *= 0x100000001b3ULL;
  return h;
}

tree
roi_build_struct (const char *name, const char *const *fields, const tree *types, int n)
{
  tree type = make_node (RECORD_TYPE);
  tree chain = NULL_TREE;
  /* finish_builtin_struct takes the fields in reverse order.  */
  for (int i = 0; i < n; i++)
    {
      tree field = build_decl (UNKNOWN_LOCATION, FIELD_DECL,
			       get_identifier (fields[i]), types[i]);
      DECL_CHAIN (field) = chain;
      chain = field;
    }
  finish_builtin_struct (type, name, chain, NULL_TREE);
  return type;
}

tree
roi_struct_field (tree type, int n)
{
  tree field = TYPE_FIELDS (type);
  while (n-- > 0)
    field = DECL_CHAIN (field);
  return field;
}

bool
roi_normal_edge_p (edge e)
{
  return !(e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE));
}

tree
roi_static_var (const char *name, tree type)
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
