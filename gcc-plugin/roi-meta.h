/* roi-meta.h — the unit's metadata record in the ELF section .roi.meta
 * (roi-meta.cc; format: docs/formats.md).  */
#ifndef ROI_META_H
#define ROI_META_H

#include "gcc-common.h"
#include "roi-checksum.h"
#include "roi-op.h"

/* The unit's id: it names the counters, descriptors and regions.  */
const char *roi_unit_id (void);
/* The index of OP in the unit's op table, added there if new.  */
unsigned roi_meta_op (const struct roi_op *op);
/* The fields of the operation at INDEX, as its entry in the op table says.  */
const struct roi_checksum_op *roi_meta_op_fields (unsigned index);
/* The index of FILE in the unit's file table, added there if new.  */
unsigned roi_meta_file (const char *file);
/* The index the next function added gets.  */
unsigned roi_meta_next_function_index (void);
/* A counted function's record JSON (closed when the unit ends), NBLOCKS its
   counted blocks.  */
void roi_meta_add_function (tree decl, const char *json, unsigned nblocks);
/* Whether DECL is a function added before, and *NBLOCKS its blocks.  */
bool roi_meta_function_blocks (tree decl, unsigned *nblocks);
/* What roi-frame.cc learns after reload of a function added before: its
   saved registers, frame size, and the members RTL_MEMBERS (JSON, each with
   a leading comma: its "spills", "far", "tables" and "jumps").  */
void roi_meta_set_frame (tree decl, unsigned saved, unsigned long frame, const char *rtl_members);
/* A region's record, and a function the filter left uncounted.  */
void roi_meta_add_region (const char *json);
void roi_meta_add_excluded (const char *json);
/* The record into .roi.meta, at the end of the unit.  */
void roi_meta_emit (void);

#endif /* ROI_META_H */
