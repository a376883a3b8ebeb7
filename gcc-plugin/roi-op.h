/* roi-op.h — a typed atomic operation, as the classification (roi-classify.cc)
 * and the value sites (roi-value-sites.cc) hand it on and the metadata's op
 * table (roi-meta.cc) writes it.  Its kind and access are words of the
 * vocabulary, roi-ops.def, which the estimator expands too: ROI_KIND (ADD) is
 * "add", ROI_ACCESS (FRAME) "frame".  */
#ifndef ROI_OP_H
#define ROI_OP_H

#include "gcc-common.h"

enum roi_kind
{
#define DEF_ROI_KIND(NAME, WORD, ORIGIN) ROI_K_##NAME,
#define DEF_ROI_ACCESS(NAME, WORD)
#include "roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
  ROI_NKINDS
};

enum roi_access
{
#define DEF_ROI_KIND(NAME, WORD, ORIGIN)
#define DEF_ROI_ACCESS(NAME, WORD) ROI_A_##NAME,
#include "roi-ops.def"
#undef DEF_ROI_KIND
#undef DEF_ROI_ACCESS
  ROI_NACCESSES
};

/* The words, in roi-op.cc.  */
extern const char *const roi_kind_words[ROI_NKINDS];
extern const char *const roi_access_words[ROI_NACCESSES];
#define ROI_KIND(NAME) (roi_kind_words[ROI_K_##NAME])
#define ROI_ACCESS(NAME) (roi_access_words[ROI_A_##NAME])

struct roi_op
{
  const char *kind;       /* "add", "load", "call", ...  */
  const_tree type;        /* the type computed in, or NULL */
  const_tree from;        /* conv: the source type */
  const char *access;     /* load/store: var array field bitfield deref frame */
  bool is_volatile;
  const char *callee;     /* call: callee name or "*indirect" */
  bool direct, builtin, internal;
  const char *code;       /* vec/other: GCC's tree or statement code */
  unsigned long cases;    /* switch: number of labels */
  const char *operand;    /* the kind of operand that decides the code: for binary
			     ops and comparisons with a constant second operand
			     "const", "pow2" for a multiply or divide by a power of
			     two, a shift's or rotate's amount ("3"); for loads and
			     stores of a variable "local" or "global" */
  unsigned subscripts;    /* load/store of a multi-dimensional array element:
			     the number of subscripts (2 or more), else 0 */
  unsigned promoted;      /* an int operation on operands promoted from an
			     unsigned type: that type's width, else 0 */
  unsigned repeat;        /* how many of it one statement performs (a copy's
			     "bytes"); 0 means 1 */
};

/* Where the classification hands each operation, with its CTX.  */
typedef void (*roi_op_sink) (void *ctx, const struct roi_op *op);

#endif /* ROI_OP_H */
