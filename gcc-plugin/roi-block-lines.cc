/* roi-block-lines.cc — a build whose line table names the counted blocks.
 *
 * -fplugin-arg-roi-block-lines counts nothing: every statement of a function
 * roi would count, every PHI argument and every edge's jump get the location
 * "roi-block:ASM-NAME", line = its counter index + 1, and the code is left as
 * it is.  The DWARF line table of such a build then gives every instruction
 * the counted block it came from, where the source lines are ambiguous: at
 * -Os GCC expands a temporary where it is used (TER) and reassociation gives a
 * chain of statements the last one's line, so a division's call can sit on a
 * line four statements below its own.  roi calibrate gives the plain build's
 * cycles to the blocks of the counted build through it (docs/calibration.md);
 * it checks that the code is the plain build's, byte for byte, since GCC's
 * optimisers do not look at locations (at -O0 they do: a jump whose line
 * differs is kept).  */
#include "roi-block-lines.h"
#include "rtl.h"
#include "emit-rtl.h"

/* The location of LINE in the file FILE, made after the front end has ended
   (as the LTO streamer makes them): a file of its own, entered and left.  */
static void
file_locations (const char *file, unsigned nlines, location_t *out)
{
  linemap_add (line_table, LC_ENTER, false, file, 1);
  for (unsigned i = 0; i < nlines; i++)
    {
      linemap_line_start (line_table, i + 1, 1);
      out[i] = linemap_position_for_column (line_table, 1);
    }
  linemap_add (line_table, LC_LEAVE, false, NULL, 0);
}

void
roi_block_lines_mark (function *fun, const vec<basic_block> &order, const int *counter_of)
{
  const char *asm_name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  /* (the line table keeps the name, not a copy: it lives as long as the unit) */
  char *file = concat ("roi-block:", asm_name, NULL);
  location_t *loc = XNEWVEC (location_t, order.length ());
  file_locations (file, order.length (), loc);
  for (unsigned i = 0; i < order.length (); i++)
    {
      basic_block bb = order[i];
      /* each keeps its lexical scope: inlined code its inlined function's,
	 which the debug info of the inlining is made from */
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
	{
	  roi_stmt stmt = gsi_stmt (gsi);
	  gimple_set_location (stmt, ROI_SET_BLOCK (loc[i], gimple_block (stmt)));
	}
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	e->goto_locus = ROI_SET_BLOCK (loc[i], LOCATION_BLOCK (e->goto_locus));
      /* a PHI's copy on an edge runs at the end of the block it comes from */
      for (gphi_iterator psi = gsi_start_phis (bb); !gsi_end_p (psi); gsi_next (&psi))
	{
	  gphi *phi = psi.phi ();
	  for (unsigned k = 0; k < gimple_phi_num_args (phi); k++)
	    {
	      basic_block from = gimple_phi_arg_edge (phi, k)->src;
	      if (from->index >= NUM_FIXED_BLOCKS)
		gimple_phi_arg_set_location (phi, k, ROI_SET_BLOCK (loc[counter_of[from->index]],
								    LOCATION_BLOCK (gimple_phi_arg_location (phi, k))));
	    }
	}
    }
  XDELETEVEC (loc);
}

/* Gives each insn with no location from FIRST to LAST (walking back when
   BACKWARD) the location of the last insn before it on the way that has one.  */
static void
carry_locations (rtx_insn *first, rtx_insn *last, bool backward)
{
  location_t seen = UNKNOWN_LOCATION;
  for (rtx_insn *insn = first;; insn = backward ? PREV_INSN (insn) : NEXT_INSN (insn))
    {
      if (NONDEBUG_INSN_P (insn))
	{
	  if (INSN_HAS_LOCATION (insn))
	    seen = INSN_LOCATION (insn);
	  else if (seen != UNKNOWN_LOCATION)
	    INSN_LOCATION (insn) = seen;
	}
      if (insn == last)
	break;
    }
}

/* An insn with no location of its own has, in the line table, the row of
   the insn before it in the address order: code hoisting's copies of a
   computation both arms of an if make (kernel-crc16-ccitt's crc << 1 at -Os)
   land at the end of the if's own block, after the label the inner loop
   jumps back to, and took the line of the block laid out before it, which
   runs once per byte, not per bit.  Just before the assembly is written
   (the code no longer changes), each takes the location of the next insn of
   its stretch of straight-line code that has one (the stretch's jump or
   compare, the block that runs it), else of the last one before it.  */
static unsigned int
roi_block_lines_execute (function *)
{
  rtx_insn *start = get_insns ();
  while (start)
    {
      /* a stretch: up to a label, or past a jump or a barrier */
      rtx_insn *end = start;
      while (NEXT_INSN (end) && !LABEL_P (NEXT_INSN (end)) && !JUMP_P (end)
	     && !BARRIER_P (end))
	end = NEXT_INSN (end);
      carry_locations (end, start, true);
      carry_locations (start, end, false);
      start = NEXT_INSN (end);
    }
  return 0;
}

#define PASS_NAME roi_block_lines
#define PASS_TYPE RTL_PASS
#include "roi-generate-pass.h"
