/* roi-block-walk.cc — which counted block the insns after reload belong to.
 *
 * The RTL passes charge what only the expanded code shows (spills, frame
 * accesses out of reach, jumps, jump tables: roi-spills.cc, roi-jumps.cc) to
 * counted blocks: an insn after the first insn of a counted block in its RTL
 * block to that block, as a counter opening every block would; another insn
 * expansion made to the block roi-mark.cc noted, an insn made later to the
 * block of the insns beside it in its RTL block.
 * Counter updates are told apart, so that they are not charged as the
 * program's: a store to a "__roi_c_*" symbol, or on AVR an asm whose first
 * operand is its address (roi-counters-avr.cc).  */
#include "roi-block-walk.h"
#include "roi-counters.h"
#include "roi-mark.h"
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
  /* (atomic counters' updates are not plain stores, nor name the counters
     per thread: nothing to walk) */
  w->first = roi_counters_atomic () || roi_counters_per_thread () ? NULL : get_insns ();
  w->nblocks = nblocks;
  w->counter_bytes = roi_opts.counter_bits / BITS_PER_UNIT;
  w->block = w->insn_block = 0;
  w->head_bb = NULL;
  w->entered = false;
  w->seen_counter = false;
  w->block_of_uid = vNULL;
  w->heads = vNULL;
  w->block_of_uid.safe_grow (get_max_uid () + 1);
  for (unsigned i = 0; i < w->block_of_uid.length (); i++)
    w->block_of_uid[i] = -1;
  w->heads.safe_grow_cleared (nblocks);
  auto_vec<unsigned> first;
  auto_vec<rtx_insn *> first_insn;
  first.safe_grow (nblocks);
  first_insn.safe_grow_cleared (nblocks);
  for (unsigned i = 0; i < nblocks; i++)
    first[i] = UINT_MAX;

  /* the insns as expanded, and each block's head: the RTL block of its
     first insn that is left */
  for (rtx_insn *insn = w->first; insn; insn = NEXT_INSN (insn))
    {
      unsigned order;
      int b = NONDEBUG_INSN_P (insn) ? roi_mark_block_of (insn, &order) : -1;
      if (b < 0 || (unsigned) b >= nblocks)
	continue;
      w->block_of_uid[INSN_UID (insn)] = b;
      if (order < first[b] && BLOCK_FOR_INSN (insn))
	{
	  first[b] = order;
	  first_insn[b] = insn;
	  w->heads[b] = BLOCK_FOR_INSN (insn);
	}
    }
  if (!w->first)
    return;
  /* Where a counted block's first insn as expanded (its counter's update,
     where it has one) lies, the block begins: the insns after it in its RTL
     block run with it, whatever block they were expanded from (an invariant
     hoisted out of a loop into the block before it) or made later (a spill
     there), as a counter at the start of every block says.  */
  auto_vec<int> starts;
  starts.safe_grow (w->block_of_uid.length ());
  for (unsigned i = 0; i < starts.length (); i++)
    starts[i] = -1;
  for (unsigned b = 0; b < nblocks; b++)
    if (first_insn[b])
      starts[INSN_UID (first_insn[b])] = (int) b;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    {
      int at = -1;
      rtx_insn *insn;
      FOR_BB_INSNS (bb, insn)
	if (NONDEBUG_INSN_P (insn) && (unsigned) INSN_UID (insn) < starts.length ())
	  {
	    if (starts[INSN_UID (insn)] >= 0)
	      at = starts[INSN_UID (insn)];
	    if (at >= 0)
	      w->block_of_uid[INSN_UID (insn)] = at;
	  }
    }
  /* the insns made later: the block of the one before in their RTL block
     (a spill after the insn that computed the value), else of the one after
     (a reload before the insn that uses it) */
  FOR_EACH_BB_FN (bb, cfun)
    {
      int last = -1;
      rtx_insn *insn;
      FOR_BB_INSNS (bb, insn)
	if (NONDEBUG_INSN_P (insn))
	  {
	    int &b = w->block_of_uid[INSN_UID (insn)];
	    if (b >= 0)
	      last = b;
	    else
	      b = last;
	  }
      last = -1;
      FOR_BB_INSNS_REVERSE (bb, insn)
	if (NONDEBUG_INSN_P (insn))
	  {
	    int &b = w->block_of_uid[INSN_UID (insn)];
	    if (b >= 0)
	      last = b;
	    else
	      b = last;
	  }
    }
  /* an RTL block of new insns alone: the block of the insn before */
  int last = 0;
  for (rtx_insn *insn = w->first; insn; insn = NEXT_INSN (insn))
    if (NONDEBUG_INSN_P (insn))
      {
	int &b = w->block_of_uid[INSN_UID (insn)];
	if (b >= 0)
	  last = b;
	else
	  b = last;
      }
}

void
roi_block_walk_finish (struct roi_block_walk *w)
{
  w->block_of_uid.release ();
  w->heads.release ();
}

bool
roi_block_walk_insn (struct roi_block_walk *w, rtx_insn *insn)
{
  unsigned uid = INSN_UID (insn);
  int b = uid < w->block_of_uid.length () ? w->block_of_uid[uid] : -1;
  if (b >= 0)
    w->insn_block = (unsigned) b;
  basic_block bb = BLOCK_FOR_INSN (insn);
  w->entered = false;
  /* A head entered: a block begins (an insn of it moved elsewhere, or one of
     its RTL blocks after the first, begins nothing).  */
  if (b >= 0 && bb && bb == w->heads[b] && ((unsigned) b != w->block || bb != w->head_bb))
    {
      w->entered = bb != w->head_bb;
      w->block = (unsigned) b;
      w->head_bb = bb;
    }
  bool counter = counter_store (insn, w->counter_bytes) >= 0;
  w->seen_counter |= counter;
  return counter;
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
