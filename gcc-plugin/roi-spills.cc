/* roi-spills.cc — the register allocator's spill traffic, per counted block.
 *
 * When a function keeps more values live than the core has registers (six
 * accumulators on an 8-bit AVR at -Os, a 64-bit temporary at -O0), the
 * register allocator parks some in stack slots and reloads them where they
 * are used: two cycles a byte on AVR, as much as the operations themselves,
 * and invisible in GIMPLE.  After reload the insns show it: a memory access
 * through the frame or stack pointer to a slot no declaration owns (a named
 * local's slot has its MEM_EXPR and is already a "frame" operation at -O0).
 * Each is charged to the counted block of its insn (roi-block-walk.cc), on
 * the line of its insn: the rows "spills" of the function's metadata, which the estimator
 * turns into the operation "spill", one per byte.  The counters' stores must
 * name their symbol (AVR, x86-64); on ARM, which reaches them through a
 * register, nothing is reported.  */
#include "roi-spills.h"
#include "roi-block-walk.h"
#include "roi-classify.h"
#include "roi-meta.h"
#include "roi-plugin.h"
#include "roi-util.h"
#include "rtl.h"
#include "rtl-iter.h"
#include "emit-rtl.h"

/* Whether MEM is a spill slot: reload's slots have the declaration "%sfp"
   (get_spill_slot_decl) or none for their MEM_EXPR, a variable's its own.  */
static bool
is_spill_slot (const_rtx mem)
{
  tree e = MEM_EXPR (mem);
  if (!e)
    return true;
  return DECL_P (e) && DECL_NAME (e)
	 && strcmp (IDENTIFIER_POINTER (DECL_NAME (e)), "%sfp") == 0;
}

/* Whether X is an access through the frame or stack pointer.  */
static bool
frame_based (const_rtx x)
{
  rtx base = XEXP (x, 0);
  if (GET_CODE (base) == PLUS && CONST_INT_P (XEXP (base, 1)))
    base = XEXP (base, 0);
  return REG_P (base)
	 && (REGNO (base) == HARD_FRAME_POINTER_REGNUM
	     || REGNO (base) == STACK_POINTER_REGNUM);
}

/* Whether the frame access X is out of reach of the target's
   base-plus-displacement addressing, which its output code then makes with
   more instructions: AVR's ldd/std reach Y+0..Y+63, and a slot of a large
   frame costs an adjustment of Y around the access (subi/sbci and back,
   four cycles more whatever the bytes).  The target's strict address check
   tells, asked of the same register in a rtx of its own: AVR's accepts any
   displacement from the frame pointer's own rtx, which reload leaves for the
   output code to reach.  */
static bool
frame_access_far (const_rtx x)
{
  rtx addr = XEXP (x, 0);
  rtx base = GET_CODE (addr) == PLUS ? XEXP (addr, 0) : addr;
  rtx probe = gen_raw_REG (GET_MODE (base), REGNO (base));
  if (GET_CODE (addr) == PLUS)
    probe = gen_rtx_PLUS (GET_MODE (addr), probe, XEXP (addr, 1));
  return !strict_memory_address_addr_space_p (GET_MODE (x), probe, MEM_ADDR_SPACE (x));
}

/* Whether X, not an access through the frame pointer, reaches a member or
   element at a constant offset of a local in the frame: the expander made
   its address with instructions because frame offset plus member offset is
   out of the displacement's reach (AVR at -O0: movw, subi, sbci, movw to Z
   for a field past Y+63, four cycles more, like Y's adjustment around a
   far slot).  Within reach the access is through the frame pointer itself,
   and a run-time subscript computes an address anyway (the "index").  */
static bool
frame_member_far (const_rtx x)
{
  tree expr = MEM_EXPR (x);
  /* (a MEM_EXPR of the variable alone is not a member: a byte of a wider
     value, or an element whose subscript the expander dropped; nor is an
     array member at an unknown offset, rx.buf for rx.buf[i]) */
  if (!expr || !handled_component_p (expr) || roi_has_variable_subscript (expr)
      || !MEM_OFFSET_KNOWN_P (x) || TREE_CODE (TREE_TYPE (expr)) == ARRAY_TYPE)
    return false;
  tree base = get_base_address (expr);
  if (!base || (TREE_CODE (base) != VAR_DECL && TREE_CODE (base) != PARM_DECL)
      || is_global_var (base) || !DECL_RTL_SET_P (base))
    return false;
  rtx home = DECL_RTL (base);
  return MEM_P (home) && frame_based (home);
}

/* The instructions the output code adds to move the base register of the
   access X in INSN when it has no displacement (AVR's X).
   avr-gcc reaches X+q by moving X there and back around the access
   (adiw r26,q ... sbiw r26,q: two instructions, two cycles each), and a value
   of several bytes at X by walking it (ld X+ ...) and moving it back (one
   sbiw); through Y or Z the same access is one ldd a byte.  The move back is
   left out, as the output code leaves it out, where X dies in INSN.  */
static unsigned
base_adjustments (rtx_insn *insn, const_rtx x)
{
  rtx addr = XEXP (x, 0);
  HOST_WIDE_INT offset = 0;
  if (GET_CODE (addr) == PLUS && CONST_INT_P (XEXP (addr, 1)))
    {
      offset = INTVAL (XEXP (addr, 1));
      addr = XEXP (addr, 0);
    }
  if (!REG_P (addr) || (int) REGNO (addr) != roi_opts.no_displacement_regno)
    return 0;
  unsigned n = offset != 0;
  rtx set = single_set (insn);
  bool dies = find_regno_note (insn, REG_DEAD, REGNO (addr))
	      || (set && reg_overlap_mentioned_p (SET_DEST (set), addr));
  if ((offset != 0 || ROI_MODE_BYTES (GET_MODE (x)) > UNITS_PER_WORD) && !dies)
    n++;
  return n;
}

/* Bytes of spill-slot traffic in INSN, its accesses to the frame out of
   reach of the target's displacement (spill slots and variables alike), and
   the base-register moves its other accesses need (base_adjustments).  */
static void
frame_traffic (rtx_insn *insn, unsigned *spilled, unsigned *far, unsigned *adjust)
{
  *spilled = *far = *adjust = 0;
  subrtx_iterator::array_type array;
  FOR_EACH_SUBRTX (iter, array, PATTERN (insn), NONCONST)
    {
      const_rtx x = *iter;
      if (!MEM_P (x) || GET_MODE (x) == BLKmode)
	continue;
      if (!frame_based (x))
	{
	  if (frame_member_far (x))
	    (*far)++;
	  *adjust += base_adjustments (insn, x);
	  continue;
	}
      if (is_spill_slot (x))
	*spilled += ROI_MODE_BYTES (GET_MODE (x));
      if (frame_access_far (x))
	(*far)++;
    }
}

struct frame_row
{
  unsigned block, file, line, spilled, far, adjust;
};

void
roi_spills_describe (unsigned nblocks, struct roi_buf *spills, struct roi_buf *far,
		     struct roi_buf *adjust)
{
  struct roi_block_walk walk;
  roi_block_walk_start (&walk, nblocks);
  auto_vec<frame_row> rows;
  location_t last = UNKNOWN_LOCATION;
  for (rtx_insn *insn = walk.first; insn; insn = NEXT_INSN (insn))
    {
      if (!NONDEBUG_INSN_P (insn) || roi_block_walk_insn (&walk, insn))
	continue;
      /* a reload without a location of its own serves the statement before */
      if (!RESERVED_LOCATION_P (INSN_LOCATION (insn)))
	last = INSN_LOCATION (insn);
      unsigned spilled, far_accesses, adjustments;
      frame_traffic (insn, &spilled, &far_accesses, &adjustments);
      if ((!spilled && !far_accesses && !adjustments) || RESERVED_LOCATION_P (last))
	continue;
      expanded_location loc = roi_expand (last);
      frame_row at = { walk.insn_block, roi_meta_file (loc.file), (unsigned) loc.line, 0, 0, 0 };
      frame_row &row = roi_row_at (rows, at);
      row.spilled += spilled;
      row.far += far_accesses;
      row.adjust += adjustments;
    }
  /* Where the counters are reached through a register (ARM loads their
     address from a literal pool) no store names them, and every spill would
     land in the entry block: then none is reported rather than wrong ones.  */
  if (!roi_block_walk_trusted (&walk))
    rows.truncate (0);
  roi_block_walk_finish (&walk);
  roi_rows_print (rows, &frame_row::spilled, spills);
  roi_rows_print (rows, &frame_row::far, far);
  roi_rows_print (rows, &frame_row::adjust, adjust);
}
