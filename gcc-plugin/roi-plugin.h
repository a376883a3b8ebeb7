/* roi-plugin.h — what plugin_init (roi-plugin.cc) sets up for every file of
 * roi.so: the options and the trees kept between functions.
 *
 * Data flow inside the plugin, one file and one header per concern:
 *
 *   roi-plugin.cc          plugin_init: version check, arguments, passes
 *   roi-pass.cc            the GIMPLE pass: each counted function's blocks
 *     roi-instrumentable.cc  which functions are counted, which run in threads
 *     roi-classify.cc      a statement → its typed atomic operations (roi-op.h)
 *     roi-types.cc         the C types they compute in
 *     roi-value-sites.cc   statements whose cost grows with a run-time value
 *     roi-edges.cc         which edges carry a counter: those off a spanning tree
 *     roi-trips.cc         a loop's added once per entry where GCC knows its trips
 *     roi-registers.cc     their updates, a loop's in registers while it runs
 *     roi-counters.cc      the block and value counters and their updates
 *     roi-counters-avr.cc  AVR's updates, inline asms that take no register
 *     roi-descriptor.cc    the host runtime's descriptors and constructor
 *     roi-hooks.cc         region hooks the filter (roi-filter.cc) asks for
 *     roi-block-lines.cc   -fplugin-arg-roi-block-lines: blocks as lines
 *   roi-mark.cc            the RTL pass after expansion: each insn's counted block
 *   roi-frame.cc           the RTL pass after reload: saved registers, frame,
 *     roi-block-walk.cc    the counted block of each insn,
 *     roi-spills.cc        spills and frame accesses out of reach,
 *     roi-jumps.cc         jumps and jump tables
 *   roi-exec.cc            the RTL pass that redirects fork and exec
 *   roi-meta.cc            everything into the unit's .roi.meta record
 *   roi-divide.cc          AVR's counting division routines, into the assembly
 *   roi-util.cc            text buffers, string tables, the plugin's own trees
 *
 * gcc-common.h is the one place where GCC versions differ, and
 * roi-generate-pass.h the passes' boilerplate.  */
#ifndef ROI_PLUGIN_H
#define ROI_PLUGIN_H

#include "gcc-common.h"

enum roi_runtime { ROI_RUNTIME_HOST, ROI_RUNTIME_NONE };

struct roi_options
{
  int counter_bits;          /* 16, 32 or 64 */
  bool atomic;               /* counters updated with relaxed atomic adds */
  enum roi_runtime runtime;  /* host: constructor registration; none: a runner reads RAM */
  bool verbose;              /* say which functions are skipped and why */
  bool disabled;             /* nothing is counted in this unit (-flto) */
  bool block_lines;          /* no counters: blocks as lines (roi-block-lines.cc) */
  bool block_counters;       /* a counter per block, not on the edges off a tree (roi-edges.cc) */
  bool machine_values;       /* the value counters only --price machine reads: "taken" (the
				branches inside a statement's code) and "norm" (a float
				conversion's passes) (roi-value-sites.cc); off by default: they
				move the counted build's spills the per-operation model prices */
  bool avr_asm_increment;    /* block counters bumped by an asm that needs no register (AVR) */
  int no_displacement_regno; /* the base register without "reg+q" (AVR's X), or -1 (roi-spills.cc) */
};
extern struct roi_options roi_opts;

/* Trees roi keeps between functions must be known to GCC's garbage collector,
   or a collection between two functions frees them: roi-plugin.cc registers
   this array as a root.  */
#define ROI_EXEC_WRAPPERS 16	/* fork, the exec family, libgcov's (roi-exec.cc) */
enum roi_gc_slot
{
  ROI_GC_DESC_TYPE,		/* struct roi_fn_desc */
  ROI_GC_REGION_TYPE,		/* struct roi_region */
  ROI_GC_HOOK_ENTER,		/* __roi_region_enter */
  ROI_GC_HOOK_EXIT,		/* __roi_region_exit */
  ROI_GC_THREAD_BASE,		/* __roi_t_<unit>: a thread's copy of the unit's counters */
  ROI_GC_THREAD_UNIT,		/* __roi_thread_unit */
  ROI_GC_SECTION_START,		/* __start_roi_fn_<unit>, __stop_roi_fn_<unit> */
  ROI_GC_SECTION_STOP,
  ROI_GC_NORM_INT,		/* __roi_norm_i_<unit>, __roi_norm_f_<unit>: a conversion's */
  ROI_GC_NORM_FLOAT,		/* normalisation passes (roi-value-sites.cc) */
  ROI_GC_EXEC,			/* __roi_fork, __roi_execl...: ROI_EXEC_WRAPPERS of them */
  ROI_GC_SLOTS = ROI_GC_EXEC + ROI_EXEC_WRAPPERS
};
extern tree roi_gc[ROI_GC_SLOTS];

#endif /* ROI_PLUGIN_H */
