/* roi-plugin.cc — plugin_init: version check, arguments, pass registration.
 *
 *   gcc -fplugin=roi.so [-fplugin-arg-roi-KEY[=VALUE] ...]
 *
 * Every argument mistake is a compiler error naming the argument: a build that
 * asked for something roi cannot do must not succeed quietly.  */
#include "roi-plugin.h"
#include "roi-block-lines.h"
#include "roi-counters-avr.h"
#include "roi-descriptor.h"
#include "roi-divide.h"
#include "roi-exec.h"
#include "roi-filter.h"
#include "roi-frame.h"
#include "roi-instrumentable.h"
#include "roi-mark.h"
#include "roi-meta.h"
#include "roi-pass.h"
#include "output.h"

int plugin_is_GPL_compatible;

/* The defaults; plugin_init sets the target's, then the arguments'.  */
struct roi_options roi_opts = {
  .counter_bits = 32,
  .atomic = false,
  .runtime = ROI_RUNTIME_HOST,
  .verbose = false,
  .disabled = false,
  .block_lines = false,
  .block_counters = false,
  .machine_values = false,
  .avr_asm_increment = false,
  .no_displacement_regno = -1,
};

tree roi_gc[ROI_GC_SLOTS];

static const struct ggc_root_tab roi_gc_roots[] = {
  { &roi_gc[0], ROI_GC_SLOTS, sizeof (tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static const char roi_help[] =
  "roi: count typed atomic operations per basic block\n"
  "  -fplugin-arg-roi-counter-bits=16|32|64  counter width (default 32; 16 saturates)\n"
  "  -fplugin-arg-roi-atomic                 update counters with atomic adds (threads)\n"
  "  -fplugin-arg-roi-runtime=host|none      host: register with libroi at start-up;\n"
  "                                          none: counters only, read by 'roi run'\n"
  "                                          (default: none for avr and *-none-* targets)\n"
  "  -fplugin-arg-roi-filter=FILE            which functions are counted, which functions\n"
  "                                          and loops get region hooks (docs/regions.md)\n"
  "  -fplugin-arg-roi-verbose                say which functions are not counted and why\n"
  "  -fplugin-arg-roi-block-lines            count nothing: give each statement the line of its\n"
  "                                          block in a file of its function's (roi calibrate)\n"
  "  -fplugin-arg-roi-block-counters         a counter on every block, not only on the edges\n"
  "                                          off a spanning tree (the same counts, slower)\n"
  "  -fplugin-arg-roi-machine-values         count which way the branches inside a statement's\n"
  "                                          code went (min, max, signed / 2^k) and a float\n"
  "                                          conversion's passes: for 'roi estimate --price\n"
  "                                          machine' (docs/machine.md)\n"
  "  -fplugin-arg-roi-help                   print this text\n"
  "  -fplugin-arg-roi-version                print roi's version\n";

static struct plugin_info roi_info = { .version = ROI_VERSION, .help = roi_help };

/* The target GCC was configured for ("avr", "arm-none-eabi"), or "".  */
static const char *
configured_target (void)
{
  const char *t = strstr (configuration_arguments, "--target=");
  return t ? t + strlen ("--target=") : "";
}

/* Bare-metal targets have no C library start-up to run constructors into a
   runtime that writes files: counters are read from RAM by a runner.  */
static bool
target_is_bare_metal (void)
{
  const char *t = configured_target ();
  return strncmp (t, "avr", 3) == 0 || strstr (t, "-none-") != NULL
	 || strstr (t, "-elf") != NULL;
}

/* What the target GCC was configured for changes, before any argument: a
   bare-metal target has no runtime to register with, AVR's counters are
   updated by asms, and one of its base registers has no displacement.  */
static void
set_target_defaults (void)
{
  if (target_is_bare_metal ())
    roi_opts.runtime = ROI_RUNTIME_NONE;
  bool avr = strncmp (configured_target (), "avr", 3) == 0;
  roi_opts.avr_asm_increment = avr;
  /* AVR's X (r27:r26): ld/st through it have no displacement, Y's and Z's
     do; every ARM and x86 base register has one.  By name: the backends'
     base register classes are macros over target code, which a plugin loaded
     into another target's compiler must not reference (it would fail to load
     before it could say why).  */
  roi_opts.no_displacement_regno = avr ? decode_reg_name ("r26") : -1;
}

/* One -fplugin-arg-roi-KEY[=VALUE] into roi_opts; false after an error
   naming it.  */
static bool
parse_argument (const char *plugin_name, const struct plugin_argument *arg)
{
  const char *key = arg->key, *value = arg->value;
  bool takes_value = !strcmp (key, "counter-bits") || !strcmp (key, "runtime")
		     || !strcmp (key, "filter");

  if (takes_value && !value)
    {
      error ("missing value for option %<-fplugin-arg-%s-%s%>", plugin_name, key);
      return false;
    }
  if (!takes_value && value && (!strcmp (key, "atomic") || !strcmp (key, "verbose")
				|| !strcmp (key, "help") || !strcmp (key, "version")
				|| !strcmp (key, "block-lines")
				|| !strcmp (key, "block-counters")
				|| !strcmp (key, "machine-values")))
    {
      error ("option %<-fplugin-arg-%s-%s%> takes no value", plugin_name, key);
      return false;
    }

  if (!strcmp (key, "counter-bits"))
    {
      if (strcmp (value, "16") && strcmp (value, "32") && strcmp (value, "64"))
	{
	  error ("bad value %qs for %<-fplugin-arg-%s-counter-bits%>: expected 16, 32 or 64",
		 value, plugin_name);
	  return false;
	}
      roi_opts.counter_bits = atoi (value);
    }
  else if (!strcmp (key, "runtime"))
    {
      if (!strcmp (value, "host"))
	roi_opts.runtime = ROI_RUNTIME_HOST;
      else if (!strcmp (value, "none"))
	roi_opts.runtime = ROI_RUNTIME_NONE;
      else
	{
	  error ("bad value %qs for %<-fplugin-arg-%s-runtime%>: expected host or none",
		 value, plugin_name);
	  return false;
	}
    }
  else if (!strcmp (key, "filter"))
    {
      if (roi_filter_active ())
	{
	  error ("%<-fplugin-arg-%s-filter%> given twice", plugin_name);
	  return false;
	}
      return roi_filter_load (value);
    }
  else if (!strcmp (key, "atomic"))
    roi_opts.atomic = true;
  else if (!strcmp (key, "verbose"))
    roi_opts.verbose = true;
  else if (!strcmp (key, "block-lines"))
    roi_opts.block_lines = true;
  else if (!strcmp (key, "block-counters"))
    roi_opts.block_counters = true;
  else if (!strcmp (key, "machine-values"))
    roi_opts.machine_values = true;
  else if (!strcmp (key, "help"))
    fputs (roi_help, stderr);
  else if (!strcmp (key, "version"))
    fprintf (stderr, "roi %s, a plugin for GCC %s\n", ROI_VERSION, gcc_version.basever);
  else
    {
      error ("unknown option %<-fplugin-arg-%s-%s%>", plugin_name, key);
      return false;
    }
  return true;
}

/* Before the IPA passes every function of the unit is known; a unit with
   nothing to count gets no constructor, so it never needs libroi.  */
static void
on_all_ipa_passes_start (void *, void *)
{
  if (roi_opts.block_lines)
    return;
  if (flag_lto || in_lto_p)
    {
      warning (0, "roi: link-time optimisation (%<-flto%>) is not supported; "
	       "this unit is not counted");
      roi_opts.disabled = true;
      return;
    }
  cgraph_node *node;
  FOR_EACH_DEFINED_FUNCTION (node)
    if (!roi_why_not_counted (node->decl))
      {
	roi_constructor_create ();
	roi_exec_unit_registers ();
	return;
      }
}

static void
on_finish_unit (void *, void *)
{
  if (roi_opts.block_lines)
    return;
  roi_filter_check_unmatched ();
  roi_meta_emit ();
  roi_divide_emit_routines ();
  roi_avr_emit_carry_routines ();
}

static void
add_pass (const char *plugin, opt_pass *pass, const char *reference,
	  enum pass_positioning_ops where)
{
  struct register_pass_info p = {
    .pass = pass,
    .reference_pass_name = reference,
    .ref_pass_instance_number = 1,
    .pos_op = where,
  };
  register_callback (plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &p);
}

/* The kernel's plugins' shape: the version check, the arguments, the
   plugin's info and help, then the passes and callbacks.  */
int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  const char *const plugin_name = info->base_name;

  /* 1. the GCC the plugin was built for, and no other */
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("incompatible gcc/plugin versions: %qs was built for GCC %s, "
	     "this is GCC %s", info->full_name, gcc_version.basever,
	     version->basever);
      return 1;
    }

  /* 2. the arguments over the target's defaults: every mistake an error,
     then what no single argument shows */
  set_target_defaults ();
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    ok &= parse_argument (plugin_name, &info->argv[i]);
  if (ok && roi_opts.atomic && roi_opts.counter_bits == 16)
    {
      error ("%<-fplugin-arg-%s-atomic%> needs 32- or 64-bit counters",
	     plugin_name);
      ok = false;
    }
  if (!ok)
    return 1;

  /* 3. version and help text */
  register_callback (plugin_name, PLUGIN_INFO, NULL, &roi_info);

  /* 4. the trees kept between functions, the passes and the unit's start
     and end: the counting pass after the tree optimisations; the one that
     notes each insn's counted block as soon as there are insns; the one that
     reads the prologue and the spills off the register allocation, and the
     jumps off the final block order, once GCC has reordered the blocks for
     the last time (bbro runs after the prologue exists; at -O0 it does
     nothing) */
  register_callback (plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) roi_gc_roots);
  add_pass (plugin_name, make_roi_pass (), "optimized", PASS_POS_INSERT_BEFORE);
  add_pass (plugin_name, make_roi_mark_pass (), "expand", PASS_POS_INSERT_AFTER);
  add_pass (plugin_name, make_roi_frame_pass (), "bbro", PASS_POS_INSERT_AFTER);
  roi_frame_register (plugin_name);
  if (roi_opts.block_lines)
    add_pass (plugin_name, make_roi_block_lines_pass (), "final", PASS_POS_INSERT_BEFORE);
  add_pass (plugin_name, make_roi_exec_pass (), "final", PASS_POS_INSERT_BEFORE);
  register_callback (plugin_name, PLUGIN_ALL_IPA_PASSES_START,
		     on_all_ipa_passes_start, NULL);
  register_callback (plugin_name, PLUGIN_FINISH_UNIT, on_finish_unit, NULL);
  return 0;
}
