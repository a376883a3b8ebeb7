/* roi-block-walk.h — which counted block an insn after reload belongs to, and
 * the RTL passes' rows per block and line (roi-block-walk.cc).  */
#ifndef ROI_BLOCK_WALK_H
#define ROI_BLOCK_WALK_H

#include "gcc-common.h"
#include "roi-util.h"

/* Which counted block the insns after reload belong to.  A counted block
   begins where the first of its insns as expanded lies (roi-mark.cc): in
   the RTL block that holds it, its head, the insns after it belong to it,
   wherever they were expanded (an invariant hoisted out of a loop) or made
   later (a spill).  Any other insn belongs to the block it was expanded
   from; one made later (a reload, a jump of the final layout) to the block
   of the insns beside it in its RTL block, the one before it else the one
   after.  */
struct roi_block_walk
{
  rtx_insn *first;	/* where to start; NULL: nothing to walk (atomic counters) */
  unsigned nblocks, counter_bytes;
  unsigned block;	/* the counted block whose head the walk passed last */
  basic_block head_bb;	/* that head */
  bool entered;		/* the insn last walked entered a head other than the one before */
  unsigned insn_block;	/* the counted block of the insn last walked */
  bool seen_counter;
  vec<int> block_of_uid;	/* (the walk's own) */
  vec<basic_block> heads;
};
void roi_block_walk_start (struct roi_block_walk *w, unsigned nblocks);
void roi_block_walk_finish (struct roi_block_walk *w);
/* Walks INSN, a non-debug insn: its block into W; whether it updates a
   counter.  */
bool roi_block_walk_insn (struct roi_block_walk *w, rtx_insn *insn);
/* Whether JUMP only jumps over counter updates to its label: the code the
   counters' blocks alone stand between, which without them falls through.  */
bool roi_block_walk_skips_counters_only (const struct roi_block_walk *w, rtx_insn *jump);
/* Whether the blocks W told hold: some update named the counters' symbol
   (ARM reaches them through a register), or there is one block.  */
bool roi_block_walk_trusted (const struct roi_block_walk *w);
/* The row of ROWS at KEY's block, file and line, pushed as KEY where there is
   none yet: the RTL passes' tallies per block and line (their "jumps",
   "spills" and "far" rows).  */
template <typename Row>
static inline Row &
roi_row_at (vec<Row> &rows, const Row &key)
{
  for (unsigned i = 0; i < rows.length (); i++)
    if (rows[i].block == key.block && rows[i].file == key.file && rows[i].line == key.line)
      return rows[i];
  rows.safe_push (key);
  return rows.last ();
}
/* ROWS as the JSON array of [block, file, line, n] rows the metadata keeps,
   n each row's member COUNT; the rows where it is 0 left out.  */
template <typename Row>
static inline void
roi_rows_print (const vec<Row> &rows, unsigned Row::*count, struct roi_buf *out)
{
  roi_buf_add (out, "[");
  bool first = true;
  for (unsigned i = 0; i < rows.length (); i++)
    if (rows[i].*count)
      {
	roi_buf_printf (out, "%s[%u,%u,%u,%u]", first ? "" : ",", rows[i].block,
			rows[i].file, rows[i].line, rows[i].*count);
	first = false;
      }
  roi_buf_add (out, "]");
}

#endif /* ROI_BLOCK_WALK_H */
