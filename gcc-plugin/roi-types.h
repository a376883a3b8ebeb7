/* roi-types.h — the C types operations compute in (roi-types.cc).  */
#ifndef ROI_TYPES_H
#define ROI_TYPES_H

#include "gcc-common.h"
#include "roi-op.h"
#include "roi-util.h"

/* Width-and-signedness class of TYPE: "i16", "u8", "f32", "ptr", "agg"...  */
const char *roi_type_class (const_tree type);
/* Canonical C name of TYPE, typedefs and qualifiers resolved, except the
   <stdint.h> and <stddef.h> names that fix a width (uint32_t, size_t).  */
void roi_ctype_name (const_tree type, struct roi_buf *out);
/* That <stdint.h> or <stddef.h> name of TYPE, or NULL.  */
const char *roi_width_typedef_name (const_tree type);
/* A variant of TYPE that bears a width typedef (uint32_t), taken from STMT's
   operands or users: the width the program means.  */
const_tree roi_named_variant (const_tree type, roi_stmt stmt);
/* The width of the unsigned type whose promotion to int the int operation
   OP of STMT computes on, else 0.  */
unsigned roi_promoted_from (const struct roi_op *op, roi_stmt stmt);

#endif /* ROI_TYPES_H */
