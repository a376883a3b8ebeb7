/* roi-instrumentable.cc — which functions are counted, and why not where
 * one is not (the reason -fplugin-arg-roi-verbose prints), and which run in
 * several threads at once, whose counters need atomic adds.  */
#include "roi-instrumentable.h"
#include "roi-filter.h"

/* Whether DECL is the body of an OpenMP parallel, task or teams construct,
   or of a loop -ftree-parallelize-loops gave to threads, that GCC outlined
   into a function of its own (main._omp_fn.0), or a clone of one.  */
static bool
outlined_for_threads (tree decl)
{
  cgraph_node *node = cgraph_node::get (decl);
  if (node && !node->parallelized_function && node->former_clone_of)
    node = cgraph_node::get (node->former_clone_of);
  return node && node->parallelized_function;
}

/* The functions of the unit that threads may run at once: the outlined
   bodies and what they call, directly or through what they call (not
   through a pointer, nor in another unit), not where GCC inlined it.  */
static vec<tree> threaded;	/* compared, never dereferenced */
static bool threaded_found;

static bool
is_threaded (tree decl)
{
  for (unsigned i = 0; i < threaded.length (); i++)
    if (threaded[i] == decl)
      return true;
  return false;
}

static void
add_threaded_callees (cgraph_node *node)
{
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    {
      if (!e->inline_failed)
	{
	  /* inlined: its calls are made by this function's code */
	  add_threaded_callees (e->callee);
	  continue;
	}
      cgraph_node *callee = e->callee->function_symbol ();
      if (!callee || is_threaded (callee->decl))
	continue;
      threaded.safe_push (callee->decl);
      add_threaded_callees (callee);
    }
}

/* Found when the first function reaches the pass: GCC has not expanded any
   yet, and expanding one removes its call edges.  */
void
roi_find_threaded (void)
{
  if (threaded_found)
    return;
  threaded_found = true;
  cgraph_node *node;
  FOR_EACH_FUNCTION (node)
    if (outlined_for_threads (node->decl) && !is_threaded (node->decl))
      {
	threaded.safe_push (node->decl);
	add_threaded_callees (node);
      }
}

bool
roi_runs_in_threads (tree decl)
{
  roi_find_threaded ();
  return is_threaded (decl);
}

/* Why the function DECL is not counted, or NULL when it is.  */
const char *
roi_why_not_counted (tree decl)
{
  function *fun = DECL_STRUCT_FUNCTION (decl);
  if (!fun || !gimple_has_body_p (decl) || !fun->cfg)
    return "no body";
  /* GCC's clones (.constprop, .isra, .part) are artificial too, but hold the
     user's code, often all of it at -O2: a virtual clone materialised
     (former_clone_of), or a version made with its body at once, as GCC 5's
     IPA-SRA does (micro-call's sum4.isra.0 at -Os), whose origin is the
     user's function.  So is an outlined OpenMP body, the user's code of the
     construct.  */
  cgraph_node *node = cgraph_node::get (decl);
  tree origin = DECL_ABSTRACT_ORIGIN (decl);
  bool user_clone = (node && node->former_clone_of)
		    || (origin && origin != decl && TREE_CODE (origin) == FUNCTION_DECL
			&& !DECL_ARTIFICIAL (origin));
  if (DECL_ARTIFICIAL (decl) && !user_clone && !outlined_for_threads (decl))
    return "artificial (compiler-generated)";
  /* The attribute, not DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT: GCC sets that
     flag on every function when -finstrument-functions is off.  */
  if (lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return "no_instrument_function attribute";
  if (lookup_attribute ("no_profile_instrument_function", DECL_ATTRIBUTES (decl)))
    return "no_profile_instrument_function attribute";
  if (lookup_attribute ("naked", DECL_ATTRIBUTES (decl)))
    return "naked function (no prologue to count in)";
  unsigned rule;
  if (!roi_filter_counts (decl, &rule))
    return "excluded by the filter";
  return NULL;
}
