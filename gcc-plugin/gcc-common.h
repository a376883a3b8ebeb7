/* gcc-common.h — the one place where GCC versions differ.
 *
 * roi.so is built from the same sources for the host gcc (11, 12), Debian's
 * arm-none-eabi-gcc (12) and Debian's avr-gcc (5.4).  Every version test lives
 * here, gated on the version the plugin headers themselves report, so the
 * plugin files stay version-free (the Linux kernel's scripts/gcc-plugins/ do the
 * same).  */
#ifndef ROI_GCC_COMMON_H
#define ROI_GCC_COMMON_H

#include "gcc-plugin.h"
/* plugin-version.h defines gcc_version statically; only roi-plugin.cc uses it.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "plugin-version.h"
#pragma GCC diagnostic pop

#if GCCPLUGIN_VERSION < 5004
#error "roi needs the plugin headers of GCC 5.4 or later"
#endif

#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "tm.h"
#include "line-map.h"
#include "input.h"
#include "tree.h"
#include "tree-inline.h"
#include "version.h"
#include "flags.h"
#include "hard-reg-set.h"
#include "output.h"
#include "function.h"
#include "toplev.h"
#include "basic-block.h"
#include "intl.h"
#include "ggc.h"
#include "timevar.h"
#if GCCPLUGIN_VERSION >= 7000
#include "memmodel.h"
#endif
#include "debug.h"
#include "target.h"
#include "langhooks.h"
#include "cfgloop.h"
#include "cgraph.h"
#include "opts.h"
#include "tree-pretty-print.h"
#include "tree-pass.h"
#include "pass_manager.h"
#include "predict.h"
#include "ipa-utils.h"
#include "stringpool.h"
#include "attribs.h"
#include "varasm.h"
#include "stor-layout.h"
#include "diagnostic.h"
#include "tree-ssa-alias.h"
#include "internal-fn.h"
#include "gimple-expr.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "gimple-ssa.h"
#include "tree-cfg.h"
#include "tree-phinodes.h"
#include "tree-into-ssa.h"
#include "ssa-iterators.h"
#include "tree-ssa.h"
#include "stmt.h"
#include "builtins.h"
#include "context.h"
#include "cfghooks.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-scalar-evolution.h"
#if GCCPLUGIN_VERSION >= 8000
#include "ssa.h"
#else
#include "tree-ssanames.h"
#endif

/* A statement handle.  GCC 5 spells the pointer 'gimple'; GCC 6 and later made
   'gimple' the struct.  */
#if GCCPLUGIN_VERSION >= 6000
typedef gimple *roi_stmt;
#else
typedef gimple roi_stmt;
#endif

/* Fused multiply-add was a tree code until GCC 9, an internal function since.  */
#if GCCPLUGIN_VERSION < 9000
#define FMA_EXPR_CODE FMA_EXPR
#else
#define FMA_EXPR_CODE ERROR_MARK
#endif

/* LOC with the lexical scope BLOCK: set_block since GCC 6, the line map's
   own macro before.  */
#if GCCPLUGIN_VERSION >= 6000
#define ROI_SET_BLOCK(LOC, BLOCK) set_block ((LOC), (BLOCK))
#else
#define ROI_SET_BLOCK(LOC, BLOCK) COMBINE_LOCATION_DATA (line_table, (LOC), (BLOCK))
#endif

/* |x| in the unsigned type, defined for the most negative x: a tree code
   from GCC 9 on.  */
#if GCCPLUGIN_VERSION >= 9000
#define ROI_HAVE_ABSU 1
#else
#define ROI_HAVE_ABSU 0
#define ABSU_EXPR ERROR_MARK
#endif

/* Pointer difference got its own tree code in GCC 8.  */
#if GCCPLUGIN_VERSION < 8000
#define POINTER_DIFF_EXPR ERROR_MARK
#endif

static inline bool
fndecl_built_in_p_compat (const_tree fndecl)
{
#if GCCPLUGIN_VERSION >= 9000
  return fndecl_built_in_p (fndecl);
#else
  return DECL_BUILT_IN (fndecl);
#endif
}

#if GCCPLUGIN_VERSION >= 7000
#define SET_DECL_ALIGN_COMPAT(decl, align) SET_DECL_ALIGN (decl, align)
#else
#define SET_DECL_ALIGN_COMPAT(decl, align) (DECL_ALIGN (decl) = (align))
#endif

/* Calls that must be tail calls (musttail) exist from GCC 9 on.  */
static inline bool
roi_call_must_tail_p (gcall *call)
{
#if GCCPLUGIN_VERSION >= 9000
  return gimple_call_must_tail_p (call);
#else
  (void) call;
  return false;
#endif
}

/* GCC 12 replaced FOR_EACH_LOOP by a range over loops_list.  */
#if GCCPLUGIN_VERSION >= 12000
#define ROI_FOR_EACH_LOOP(L, FUN, FLAGS) for (loop_p L : loops_list (FUN, FLAGS))
#else
#define ROI_FOR_EACH_LOOP(L, FUN, FLAGS) \
  for (loop_p L = NULL, *roi_once_##L = NULL; !roi_once_##L; roi_once_##L = &L) \
    FOR_EACH_LOOP (L, FLAGS)
#endif

/* The loops' recorded exits released: of the current function until GCC 6,
   of the one named since.  */
static inline void
roi_release_recorded_exits (function *fun)
{
#if GCCPLUGIN_VERSION >= 6000
  release_recorded_exits (fun);
#else
  gcc_assert (fun == cfun);
  release_recorded_exits ();
#endif
}

/* get_section gained a fourth argument in GCC 10.  */
static inline section *
roi_get_section (const char *name, unsigned int flags)
{
  return get_section (name, flags, NULL_TREE);
}

/* Size in bits of a type with a constant size, or 0.  */
static inline unsigned HOST_WIDE_INT
roi_type_bits (const_tree type)
{
  if (!TYPE_SIZE (type) || !tree_fits_uhwi_p (TYPE_SIZE (type)))
    return 0;
  return tree_to_uhwi (TYPE_SIZE (type));
}

/* The -O level as the user wrote it.  */
static inline const char *
roi_opt_level (void)
{
#if GCCPLUGIN_VERSION >= 6000
  if (optimize_debug)
    return "Og";
#endif
  if (optimize_size)
    return "Os";
  if (optimize_fast)
    return "Ofast";
  switch (optimize)
    {
    case 0: return "O0";
    case 1: return "O1";
    case 2: return "O2";
    default: return "O3";
    }
}

/* The size of the current function's stack frame in bytes (locals and spill
   slots): a poly_int since GCC 8, constant on every target roi knows.  */
static inline unsigned long
roi_frame_size (void)
{
#if GCCPLUGIN_VERSION >= 8000
  HOST_WIDE_INT size;
  if (!get_frame_size ().is_constant (&size) || size < 0)
    return 0;
  return (unsigned long) size;
#else
  HOST_WIDE_INT size = get_frame_size ();
  return size < 0 ? 0 : (unsigned long) size;
#endif
}

/* The bytes of stack the current function uses, as -fstack-usage prints it
   (GCC's output_stack_usage): the static part the prologue allocates (on
   AVR and x86 with the return address the call pushed), plus what it pushes
   after the prologue (arguments) and allocates dynamically.  *DYNAMIC: 0
   static, 1 bounded (the figure is a bound), 2 unbounded (alloca or a VLA
   of a run-time size: the figure is a lower bound).  False when GCC did not
   compute it (a naked function; a target without the figure).  Needs
   flag_stack_usage_info from the function's start (plugin_init sets it).  */
static inline bool
roi_stack_usage (long *bytes, int *dynamic)
{
  if (!cfun->su || cfun->su->static_stack_size < 0)
    return false;
  HOST_WIDE_INT n = cfun->su->static_stack_size;
  *dynamic = 0;
#if GCCPLUGIN_VERSION >= 8000
  HOST_WIDE_INT pushed;
  if (maybe_ne (cfun->su->pushed_stack_size, 0))
    {
      if (cfun->su->pushed_stack_size.is_constant (&pushed))
	*dynamic = 1;
      else
	{
	  pushed = constant_lower_bound (cfun->su->pushed_stack_size);
	  *dynamic = 2;
	}
      n += pushed;
    }
#else
  if (cfun->su->pushed_stack_size != 0)
    {
      n += cfun->su->pushed_stack_size;
      *dynamic = 1;
    }
#endif
  if (cfun->su->dynamic_stack_size != 0 || cfun->su->has_unbounded_dynamic_stack_size)
    {
      if (*dynamic != 2)
	*dynamic = cfun->su->has_unbounded_dynamic_stack_size ? 2 : 1;
      n += cfun->su->dynamic_stack_size;
    }
  *bytes = (long) n;
  return true;
}

/* The size of machine mode MODE in bytes: a poly_int since GCC 8, constant on
   every target roi knows.  */
#define ROI_MODE_BYTES(MODE) roi_mode_bytes_ (GET_MODE_SIZE (MODE))
#if GCCPLUGIN_VERSION >= 8000
static inline unsigned
roi_mode_bytes_ (poly_uint16 size)
{
  unsigned HOST_WIDE_INT n;
  return size.is_constant (&n) ? (unsigned) n : 0;
}
#else
static inline unsigned
roi_mode_bytes_ (unsigned size)
{
  return size;
}
#endif

/* Whether STMT is GCC's combined division and remainder (IFN_DIVMOD, since
   GCC 7, made where the target has a routine that returns both).  */
static inline bool
roi_divmod_call_p (roi_stmt stmt)
{
#if GCCPLUGIN_VERSION >= 7000
  return is_gimple_call (stmt) && gimple_call_internal_p (stmt)
	 && gimple_call_internal_fn (stmt) == IFN_DIVMOD;
#else
  (void) stmt;
  return false;
#endif
}

/* An edge taken almost never or almost always: profile_probability since
   GCC 8, an int of REG_BR_PROB_BASE before.  */
static inline void
roi_set_probability (edge e, bool likely)
{
#if GCCPLUGIN_VERSION >= 8000
  e->probability = likely ? profile_probability::very_likely ()
			  : profile_probability::very_unlikely ();
#else
  e->probability = likely ? REG_BR_PROB_BASE - 1 : 1;
#endif
}

/* recog.h's strict address check; recog.h itself wants insn-config.h, which
   avr-gcc 5.4's plugin headers (Debian's gcc-avr) lack.  The same
   declaration in every GCC since 4.6.  */
extern int strict_memory_address_addr_space_p (machine_mode, rtx, addr_space_t);

/* A location that names a place in a source file: not unknown, not <built-in>.  */
#ifndef RESERVED_LOCATION_P
#define RESERVED_LOCATION_P(LOC) (LOCATION_LOCUS (LOC) < RESERVED_LOCATION_COUNT)
#endif

/* Location of a declaration or statement as (file, line).  */
static inline expanded_location
roi_expand (location_t loc)
{
  return expand_location (loc);
}

/* Whether LOC is a token of a macro's expansion, and where that token is
   spelled: in the macro's definition, or in its use for an argument's.  The
   same calls in every GCC since 4.8, whose default -ftrack-macro-expansion=2
   keeps the virtual locations they read.  */
static inline bool
roi_from_macro (location_t loc)
{
  /* GCC 5's does not see through the block an ad hoc location carries */
  return linemap_location_from_macro_expansion_p (line_table, LOCATION_LOCUS (loc));
}

static inline expanded_location
roi_expand_spelling (location_t loc)
{
  return expand_location_to_spelling_point (LOCATION_LOCUS (loc));
}

#endif /* ROI_GCC_COMMON_H */
