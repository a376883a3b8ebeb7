/* roi-frame.cc — what a call of each counted function pays in its prologue
 * and epilogue beyond the call and return themselves: the callee-saved
 * registers it saves and restores, and the stack frame it allocates and
 * frees.
 *
 * A function that keeps many values live (64-bit arithmetic on AVR, a loop
 * with many accumulators) saves up to 18 registers, two cycles each way on
 * AVR; the GIMPLE pass cannot see that, because only the register allocator
 * decides it.  This RTL pass runs once the prologue exists and records the
 * number in the function's metadata ("saved", docs/formats.md), and the size of
 * its frame, locals and spill slots ("frame"); the estimator counts them as
 * the operations "save", once per register per call, and "frame", once per
 * call of a function with a frame.  The same pass describes what the
 * allocator and the expansion add inside the blocks: spills (roi-spills.cc),
 * jumps and jump tables (roi-jumps.cc).  */
#include "roi-frame.h"
#include "roi-jumps.h"
#include "roi-meta.h"
#include "roi-spills.h"
#include "roi-util.h"
#include "rtl.h"
#include "df.h"
#include "emit-rtl.h"

/* The hard registers the prologue saves: those the function sets or uses that
   a call must preserve (the backends' own test, e.g. avr_regs_to_save), and
   the frame pointer when the function sets one up.  */
static unsigned
saved_registers (void)
{
  unsigned n = 0;
  for (unsigned r = 0; r < FIRST_PSEUDO_REGISTER; r++)
    if (df_regs_ever_live_p (r) && !fixed_regs[r]
	/* the default ABI's: call_used_regs itself is for target code only
	   since GCC 10, which has an ABI per call */
	&& !this_target_hard_regs->x_call_used_regs[r])
      n++;
  return n;
}

/* ,"NAME":ROWS appended to MEMBERS, unless ROWS is empty (the common case,
   left out).  */
static void
add_member_unless_empty (struct roi_buf *members, const char *name, const struct roi_buf *rows)
{
  if (strcmp (rows->text, "[]") != 0)
    roi_buf_printf (members, ",\"%s\":%s", name, rows->text);
}

static unsigned int
roi_frame_execute (function *fun)
{
  unsigned nblocks;
  if (!roi_meta_function_blocks (fun->decl, &nblocks))
    return 0;
  struct roi_buf spills = { NULL, 0, 0 }, far = { NULL, 0, 0 }, adjust = { NULL, 0, 0 };
  struct roi_buf tables = { NULL, 0, 0 }, jumps = { NULL, 0, 0 };
  roi_spills_describe (nblocks, &spills, &far, &adjust);
  roi_jumps_describe (nblocks, &tables, &jumps);
  struct roi_buf members = { NULL, 0, 0 };
  roi_buf_printf (&members, ",\"spills\":%s", spills.text);
  add_member_unless_empty (&members, "far", &far);
  add_member_unless_empty (&members, "adjust", &adjust);
  add_member_unless_empty (&members, "tables", &tables);
  roi_buf_printf (&members, ",\"jumps\":%s", jumps.text);
  roi_meta_set_frame (fun->decl, saved_registers (), roi_frame_size (), members.text);
  free (spills.text);
  free (far.text);
  free (adjust.text);
  free (tables.text);
  free (jumps.text);
  free (members.text);
  return 0;
}

#define PASS_NAME roi_frame
#define PASS_TYPE RTL_PASS
#include "roi-generate-pass.h"
