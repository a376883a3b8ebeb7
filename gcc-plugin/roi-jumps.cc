/* roi-jumps.cc — the control transfers RTL expansion adds to a counted block.
 *
 * GIMPLE says where control goes, not what the jump costs.  Two facts only
 * the expanded code shows:
 *
 * - An unconditional jump at the end of a block ("rjmp"): a then-arm jumping
 *   past its else, a case's break, a loop's jump to its condition.  GIMPLE's
 *   fall-through edges have none; which edges need one depends on the block
 *   order GCC picks.  The "jumps" rows [block, file, line, n] give each the
 *   line of its insn, and the estimator the operation "jump".
 * - A switch expanded as a jump table (a bounds check and an indexed jump:
 *   the same few instructions whichever case runs) rather than as a decision
 *   tree of compares and branches (a cost that grows with the cases).  GCC
 *   decides from the number of cases and their density against a threshold
 *   each target sets (case_values_threshold), at expansion before GCC 8 and in
 *   the switch lowering since; GIMPLE has one gswitch for both.  The table is
 *   in the insn stream right after its dispatch, in the block the walk is
 *   in: "tables" lists these blocks, and the estimator gives their switch the
 *   operand "table".
 *
 * A jump is charged to the counted block whose head (roi-block-walk.cc) it
 * ends: one that runs whenever the block does.  */
#include "roi-jumps.h"
#include "roi-block-walk.h"
#include "roi-meta.h"
#include "roi-util.h"
#include "rtl.h"
#include "emit-rtl.h"

struct jump_row
{
  unsigned block, file, line, n;
};

void
roi_jumps_describe (unsigned nblocks, struct roi_buf *tables, struct roi_buf *jumps)
{
  struct roi_block_walk walk;
  roi_block_walk_start (&walk, nblocks);
  auto_vec<unsigned> table_blocks;
  auto_vec<jump_row> rows;
  location_t last = UNKNOWN_LOCATION;
  /* whether the head of the block the walk is in does more than jump, and
     whether it updates a counter */
  bool busy = false, counted = false;
  /* whether the code before that head falls into it without a jump or a
     branch (no barrier, the last insn no jump), and its block */
  bool ended_in_jump = false, after_barrier = true, falls_in = false;
  unsigned before = 0;
  for (rtx_insn *insn = walk.first; insn; insn = NEXT_INSN (insn))
    {
      if (JUMP_TABLE_DATA_P (insn))
	{
	  if (table_blocks.is_empty () || table_blocks.last () != walk.block)
	    table_blocks.safe_push (walk.block);
	  continue;
	}
      if (BARRIER_P (insn))
	after_barrier = true;
      if (!NONDEBUG_INSN_P (insn))
	continue;
      unsigned block = walk.block;
      bool counter = roi_block_walk_insn (&walk, insn);
      if (walk.entered)
	{
	  busy = counted = false;
	  falls_in = !after_barrier && !ended_in_jump;
	  before = block;
	}
      if (counter)
	{
	  counted |= BLOCK_FOR_INSN (insn) == walk.head_bb;
	  after_barrier = false;
	  continue;
	}
      after_barrier = false;
      ended_in_jump = JUMP_P (insn);
      if (!JUMP_P (insn))
	busy = true;
      /* a jump without a location of its own (a then-arm's past its else)
	 ends the statement before */
      if (!RESERVED_LOCATION_P (INSN_LOCATION (insn)))
	last = INSN_LOCATION (insn);
      /* A direct jump to a label (returns and table jumps are not "simple")
	 that ends the head of a counted block, so it runs whenever the
	 counted block does: a jump in a decision tree that a switch
	 expanded into is on one path through it, part of the switch's cost.  */
      if (!JUMP_P (insn) || !simplejump_p (insn) || RESERVED_LOCATION_P (last)
	  || BLOCK_FOR_INSN (insn) != walk.head_bb)
	continue;
      /* A jump over nothing but counter updates (an arm's past the counter
	 of the edge that skips it, a block of the counted build alone) is
	 no jump in the uncounted code, where the arm falls through.  */
      if (optimize && roi_block_walk_skips_counters_only (&walk, insn))
	continue;
      unsigned at_block = walk.block;
      /* A block of a counter update and the jump alone is, optimising, a
	 forwarder GCC removes from the uncounted code: a branch to it goes
	 straight to its target there, and the code that fell into it ends
	 with its jump (a then-arm's jump back to its loop's condition, where
	 the latch holds nothing but the counter).  At -O0 GCC keeps a jump
	 whose line differs from its target's.  */
      if (!busy && counted && optimize)
	{
	  if (!falls_in)
	    continue;
	  at_block = before;
	}
      expanded_location loc = roi_expand (last);
      jump_row at = { at_block, roi_meta_file (loc.file), (unsigned) loc.line, 0 };
      roi_row_at (rows, at).n++;
    }
  /* no store names the counters (ARM): nothing rather than all in block 0 */
  if (!roi_block_walk_trusted (&walk))
    {
      table_blocks.truncate (0);
      rows.truncate (0);
    }
  roi_block_walk_finish (&walk);
  roi_buf_add (tables, "[");
  for (unsigned i = 0; i < table_blocks.length (); i++)
    roi_buf_printf (tables, "%s%u", i ? "," : "", table_blocks[i]);
  roi_buf_add (tables, "]");
  roi_rows_print (rows, &jump_row::n, jumps);
}
