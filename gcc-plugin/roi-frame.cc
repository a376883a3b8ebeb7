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
 * jumps and jump tables (roi-jumps.cc).  And the bytes of stack the
 * function takes, GCC's own figure, the one -fstack-usage prints ("stack"):
 * "saved" and "frame" leave out the return address, ARM's link register and
 * alignment padding, and an interrupt handler's pushes of call-used
 * registers; roi stack adds up the figures along the call graph.  */
#include "roi-frame.h"
#include "roi-jumps.h"
#include "roi-meta.h"
#include "roi-spills.h"
#include "roi-util.h"
#include "rtl.h"
#include "df.h"
#include "emit-rtl.h"

/* -fstack-usage or -Wstack-usage given: GCC's own report is the user's.  */
static bool stack_usage_asked;

static bool
is_naked (tree decl)
{
  /* on the declaration (ARM, x86) or its type (AVR) */
  return lookup_attribute ("naked", DECL_ATTRIBUTES (decl)) != NULL_TREE
	 || lookup_attribute ("naked", TYPE_ATTRIBUTES (TREE_TYPE (decl))) != NULL_TREE;
}

/* Before each pass: a naked function has no prologue, and GCC, once it has
   made the prologue, would warn that it cannot compute a stack use nobody
   asked it for; 0 keeps it quiet (the pass leaves "stack" out).  The figure
   is made anew when the function is expanded, so only just before.  */
static void
on_pass_execution (void *gcc_data, void *user_data)
{
  const opt_pass *pass = (const opt_pass *) gcc_data;
  if (!stack_usage_asked && cfun && cfun->su && pass && pass->name
      && strcmp (pass->name, "pro_and_epilogue") == 0 && is_naked (cfun->decl))
    cfun->su->static_stack_size = 0;
}

void
roi_frame_register (const char *plugin_name)
{
  /* GCC computes each function's stack use, what -fstack-usage prints, only
     when asked (cfun->su is made with the function); the code is the same
     with it or without. */
  stack_usage_asked = flag_stack_usage_info;
  flag_stack_usage_info = true;
  register_callback (plugin_name, PLUGIN_PASS_EXECUTION, on_pass_execution, NULL);
}

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
  long stack;
  int dynamic;
  if (!is_naked (fun->decl) && roi_stack_usage (&stack, &dynamic))
    {
      roi_buf_printf (&members, ",\"stack\":%ld", stack);
      if (dynamic)
	roi_buf_printf (&members, ",\"stack_dynamic\":\"%s\"", dynamic == 1 ? "bounded" : "unbounded");
    }

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
