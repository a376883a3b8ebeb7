/* roi-classify.h — one GIMPLE statement → its typed atomic operations
 * (roi-classify.cc).  */
#ifndef ROI_CLASSIFY_H
#define ROI_CLASSIFY_H

#include "gcc-common.h"
#include "roi-op.h"

/* Every operation STMT performs, to SINK with CTX, its type named
   (roi_named_variant) and its promotion told (roi_promoted_from).  */
void roi_classify_stmt (roi_stmt stmt, roi_op_sink sink, void *ctx);
/* What a call of FNDECL does before its first statement: at -O0 the prologue
   stores every parameter to its stack slot ("store", access "frame"), as the
   statements store the variables they set.  */
void roi_classify_entry (tree fndecl, roi_op_sink sink, void *ctx);
/* Whether STMT is dead code the compiler deletes after GIMPLE: no operation.  */
bool roi_dead_stmt (roi_stmt stmt);

/* What the classification knows of a statement's operands, which the value
   sites and the C types ask too.  */
/* True when T names memory rather than a register or a constant.  */
bool roi_is_memory (tree t);
/* Whether the object REF names sits at a run-time subscript of an array
   (a[i], a[i].f, m[2][j]): its address is computed, not a constant offset.  */
bool roi_has_variable_subscript (tree ref);
/* Whether the integer constant CST is minus a power of two.  */
bool roi_is_negative_pow2 (tree cst);
/* Whether STMT is an integer division or remainder whose partner (the
   remainder or quotient of the same operands) an earlier statement of its
   block computes, optimising: one call computes both.  */
bool roi_divmod_paired (roi_stmt stmt);
/* N where CST is 2^N with 0 < N < 64, else 0.  A multiply by 2^N is the left
   shift by N at every optimisation level (expand_mult emits the shift, and
   modulo 2^width the same holds for the sign bit's constant), so it is counted
   as that shift: a multiply by 2 costs one single-bit shift, by 256 a byte
   move, by 8 at -Os a loop of three, as the shift's own entries say.  Inline:
   the callers' operand texts know N < 64 from it.  */
static inline unsigned
roi_multiplier_log2 (tree cst)
{
  if (!cst || TREE_CODE (cst) != INTEGER_CST || !integer_pow2p (cst))
    return 0;
  int n = tree_log2 (cst);
  return n > 0 && n < 64 ? (unsigned) n : 0;
}

#endif /* ROI_CLASSIFY_H */
