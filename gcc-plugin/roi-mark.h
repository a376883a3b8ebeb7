/* roi-mark.h — which counted block each insn comes from (roi-mark.cc).  */
#ifndef ROI_MARK_H
#define ROI_MARK_H

#include "gcc-common.h"

/* A marker, an empty asm naming BLOCK, at the start of BB: the GIMPLE pass
   puts one in every counted block, last, so it comes first.  */
void roi_mark_block (basic_block bb, unsigned block);
/* The counted block INSN was expanded from, or -1 for an insn made after
   expansion (a reload, a jump of the final layout); in *ORDER its place in
   the insn stream as expanded.  */
int roi_mark_block_of (const rtx_insn *insn, unsigned *order);
/* The RTL pass, right after expansion, that reads and deletes the markers.  */
opt_pass *make_roi_mark_pass (void);

#endif /* ROI_MARK_H */
