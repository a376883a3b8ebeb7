/* roi-block-walk.cc — which counted block the insns after reload belong to.
 *
 * The RTL passes charge what only the expanded code shows (spills, frame
 * accesses out of reach, jumps, jump tables: roi-spills.cc, roi-jumps.cc) to
 * the counted block whose counter update came last before it in the insn
 * stream: the plugin's update opens every counted block, and before
 * bb-reorder the insns keep the blocks' order.  An update is a store to a
 * "__roi_c_*" symbol, or on AVR an asm whose first operand is its address
 * (roi-counters-avr.cc).  */
#include "roi-block-walk.h"
#include "roi-counters.h"
#include "roi-plugin.h"
#include "rtl.h"
#include "emit-rtl.h"

/* The counter index ADDR, an address in the function's counter array,
   points at, or -1.  */
static int
counter_at (rtx addr, unsigned counter_bytes)
{
  HOST_WIDE_INT offset = 0;
  if (GET_CODE (addr) == CONST)
    addr = XEXP (addr, 0);
  if (GET_CODE (addr) == PLUS && CONST_INT_P (XEXP (addr, 1)))
    {
      offset = INTVAL (XEXP (addr, 1));
      addr = XEXP (addr, 0);
    }
  if (GET_CODE (addr) != SYMBOL_REF || strncmp (XSTR (addr, 0), "__roi_c_", 8) != 0
      || offset < 0 || offset % counter_bytes != 0)
    return -1;
  return (int) (offset / counter_bytes);
}

/* The counter index a store to the function's counter array updates, or -1.
   (Counters are "__roi_c_*" symbols; an insn that stores to one is the block
   counter's update, or a value counter's, whose slots follow the blocks'; on
   AVR a block counter's is an asm whose operand is its address,
   roi_avr_increment.)  */
static int
counter_store (rtx_insn *insn, unsigned counter_bytes)
{
  rtx body = PATTERN (insn);
  if (GET_CODE (body) == PARALLEL)
    body = XVECEXP (body, 0, 0);
  /* (an asm with an output: its SET) */
  if (GET_CODE (body) == SET && GET_CODE (SET_SRC (body)) == ASM_OPERANDS)
    body = SET_SRC (body);
  if (GET_CODE (body) == ASM_OPERANDS)
    return ASM_OPERANDS_INPUT_LENGTH (body) >= 1
	   ? counter_at (ASM_OPERANDS_INPUT (body, 0), counter_bytes) : -1;
  rtx set = single_set (insn);
  if (!set || !MEM_P (SET_DEST (set)))
    return -1;
  return counter_at (XEXP (SET_DEST (set), 0), counter_bytes);
}

void
roi_block_walk_start (struct roi_block_walk *w, unsigned nblocks)
{
  /* (atomic counters' updates are not plain stores: nothing to walk) */
  w->first = roi_counters_atomic () ? NULL : get_insns ();
  w->nblocks = nblocks;
  w->counter_bytes = roi_opts.counter_bits / BITS_PER_UNIT;
  w->block = 0;
  w->counter_bb = NULL;
  w->seen_counter = false;
}

bool
roi_block_walk_counter (struct roi_block_walk *w, rtx_insn *insn)
{
  int c = counter_store (insn, w->counter_bytes);
  if (c < 0)
    return false;
  if ((unsigned) c < w->nblocks)
    {
      w->block = (unsigned) c;
      w->counter_bb = BLOCK_FOR_INSN (insn);
    }
  w->seen_counter = true;
  return true;
}

bool
roi_block_walk_skips_counters_only (const struct roi_block_walk *w, rtx_insn *jump)
{
  rtx target = JUMP_LABEL (jump);
  if (!target || !LABEL_P (target))
    return false;
  for (rtx_insn *insn = NEXT_INSN (jump); insn; insn = NEXT_INSN (insn))
    {
      if (insn == target)
	return true;
      if (NONDEBUG_INSN_P (insn) && counter_store (insn, w->counter_bytes) < 0)
	return false;
    }
  return false;
}

bool
roi_block_walk_trusted (const struct roi_block_walk *w)
{
  return w->seen_counter || w->nblocks <= 1;
}
