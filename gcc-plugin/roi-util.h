/* roi-util.h — growable text buffers, string tables, the trees of the
 * plugin's own objects and the edges it follows (roi-util.cc).  */
#ifndef ROI_UTIL_H
#define ROI_UTIL_H

#include "gcc-common.h"

/* Text that grows as it is written, NUL-terminated; { NULL, 0, 0 } is empty.  */
struct roi_buf
{
  char *text;
  size_t len, cap;
};
void roi_buf_add (struct roi_buf *b, const char *s);
void roi_buf_addn (struct roi_buf *b, const char *s, size_t n);
void roi_buf_printf (struct roi_buf *b, const char *fmt, ...) ATTRIBUTE_PRINTF_2;
/* S as a JSON string literal, quoted and escaped.  */
void roi_buf_json_string (struct roi_buf *b, const char *s);
/* Empty again, the memory kept.  */
void roi_buf_reset (struct roi_buf *b);

/* A struct type built field by field, as finish_builtin_struct wants them.  */
tree roi_build_struct (const char *name, const char *const *fields,
		       const tree *types, int n);
/* The Nth field of a struct type built by roi_build_struct.  */
tree roi_struct_field (tree type, int n);
/* A static variable of the unit's own, NAME of TYPE: artificial, without
   debug info, not public; not yet finalized.  */
tree roi_static_var (const char *name, tree type);

/* A list of distinct strings; roi_strings_intern returns the index.  */
struct roi_strings
{
  char **items;
  unsigned count, cap;
};
unsigned roi_strings_intern (struct roi_strings *t, const char *s);

/* Whether control takes E the normal way: not an abnormal, EH or fake edge,
   which no counter, hook or metadata edge stands for.  */
bool roi_normal_edge_p (edge e);

/* The FNV-1a hash H continued over S and a separator.  */
unsigned long long roi_fnv1a64 (unsigned long long h, const char *s);

#endif /* ROI_UTIL_H */
