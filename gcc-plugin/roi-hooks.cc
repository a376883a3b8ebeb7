/* roi-hooks.cc — region enter/exit hooks around functions and loops the
 * filter selects (ABI and placement: docs/regions.md).
 *
 * Hooks are inserted after the function's operations were classified, so the
 * calls are never counted as the program's own operations.  The region's
 * descriptor is its id: the hooks receive its address, the metadata names its
 * symbol, so a simulator that only sees the address finds the region too.  */
#include "roi-hooks.h"
#include "roi-filter.h"
#include "roi-meta.h"
#include "roi-plugin.h"
#include "roi-util.h"
#include "roi-value-sites.h"

enum { REGION_FUNCTION = 1, REGION_LOOP = 2 };

static unsigned region_count;

/* struct roi_region of runtime/roi.h.  */
static tree
region_type (void)
{
  if (!roi_gc[ROI_GC_REGION_TYPE])
    {
      static const char *const names[7] = {
	"unit", "index", "kind", "next", "calls", "total", "inner"
      };
      tree types[7] = { uint64_type_node, uint32_type_node, uint32_type_node,
			ptr_type_node, uint64_type_node, uint64_type_node,
			uint64_type_node };
      roi_gc[ROI_GC_REGION_TYPE] = roi_build_struct ("roi_region", names, types, 7);
    }
  return roi_gc[ROI_GC_REGION_TYPE];
}

static tree
hook_decl (enum roi_gc_slot slot, const char *name)
{
  if (!roi_gc[slot])
    {
      tree fntype = build_function_type_list (void_type_node, ptr_type_node,
					      NULL_TREE);
      roi_gc[slot] = build_fn_decl (name, fntype);
      DECL_EXTERNAL (roi_gc[slot]) = 1;
      TREE_PUBLIC (roi_gc[slot]) = 1;
    }
  return roi_gc[slot];
}

/* A new region: its writable descriptor, and its metadata entry.  */
static tree
new_region (int kind, const char *name, int fn_index, const char *file,
	    unsigned line, int header)
{
  unsigned index = region_count++;
  tree type = region_type ();
  unsigned long long unit = strtoull (roi_unit_id (), NULL, 16);
  vec<constructor_elt, va_gc> *elts = NULL;
  CONSTRUCTOR_APPEND_ELT (elts, roi_struct_field (type, 0), build_int_cstu (uint64_type_node, unit));
  CONSTRUCTOR_APPEND_ELT (elts, roi_struct_field (type, 1), build_int_cst (uint32_type_node, index));
  CONSTRUCTOR_APPEND_ELT (elts, roi_struct_field (type, 2), build_int_cst (uint32_type_node, kind));

  char symbol[64];
  snprintf (symbol, sizeof symbol, "__roi_r_%s_%u", roi_unit_id (), index);
  tree var = roi_static_var (symbol, type);
  DECL_PRESERVE_P (var) = 1;
  DECL_INITIAL (var) = build_constructor (type, elts);
  varpool_node::finalize_decl (var);

  struct roi_buf json = { NULL, 0, 0 };
  roi_buf_printf (&json, "{\"kind\":\"%s\",\"name\":",
		  kind == REGION_FUNCTION ? "function" : "loop");
  roi_buf_json_string (&json, name);
  roi_buf_printf (&json, ",\"function\":%d,\"file\":%u,\"line\":%u", fn_index,
		  roi_meta_file (file), line);
  if (header >= 0)
    roi_buf_printf (&json, ",\"header\":%d", header);
  roi_buf_printf (&json, ",\"symbol\":\"%s\"}", symbol);
  roi_meta_add_region (json.text);
  free (json.text);
  return var;
}

static roi_stmt
hook_call (bool enter, tree region)
{
  tree fn = enter ? hook_decl (ROI_GC_HOOK_ENTER, "__roi_region_enter")
		  : hook_decl (ROI_GC_HOOK_EXIT, "__roi_region_exit");
  return gimple_build_call (fn, 1, build_fold_addr_expr (region));
}

/* A tail call leaves the function without coming back to the exit hook before
   the return that follows it (the tail-call pass has run: -O2 turns
   "return h (x);" into a jump to h).  A region's calls become ordinary calls;
   one that must stay a tail call (musttail) closes the region before it.  */
static void
no_tail_calls (function *fun, tree region, loop_p loop)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      if (loop && !flow_bb_inside_loop_p (loop, bb))
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  gcall *call = dyn_cast <gcall *> (gsi_stmt (gsi));
	  if (!call || !gimple_call_tail_p (call))
	    continue;
	  if (roi_call_must_tail_p (call))
	    gsi_insert_before (&gsi, hook_call (false, region), GSI_SAME_STMT);
	  else
	    gimple_call_set_tail (call, false);
	}
    }
}

/* Exit hooks go before the return itself: no statement can follow it.  */
static void
exit_before_returns (function *fun, tree region, loop_p loop)
{
  basic_block bb;
  no_tail_calls (fun, region, loop);
  FOR_EACH_BB_FN (bb, fun)
    {
      if (loop && !flow_bb_inside_loop_p (loop, bb))
	continue;
      gimple_stmt_iterator gsi = gsi_last_bb (bb);
      if (!gsi_end_p (gsi) && gimple_code (gsi_stmt (gsi)) == GIMPLE_RETURN)
	gsi_insert_before (&gsi, hook_call (false, region),
			   GSI_SAME_STMT);
    }
}

static void
hook_function (function *fun, int fn_index, const char *name)
{
  expanded_location loc = roi_expand (DECL_SOURCE_LOCATION (fun->decl));
  tree region = new_region (REGION_FUNCTION, name, fn_index, loc.file, loc.line, -1);
  basic_block entry = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  gimple_stmt_iterator gsi = gsi_after_labels (entry);
  gsi_insert_before (&gsi, hook_call (true, region), GSI_SAME_STMT);
  exit_before_returns (fun, region, NULL);
}

static void
hook_loop (function *fun, loop_p loop, int fn_index, const char *name,
	   const char *file, unsigned line, int header)
{
  char region_name[256];
  snprintf (region_name, sizeof region_name, "%s:%u", name, line);
  tree region = new_region (REGION_LOOP, region_name, fn_index, file, line, header);
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, loop->header->preds)
    if (!flow_bb_inside_loop_p (loop, e->src) && roi_normal_edge_p (e))
      gsi_insert_on_edge (e, hook_call (true, region));

  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes; i++)
    FOR_EACH_EDGE (e, ei, body[i]->succs)
      if (!flow_bb_inside_loop_p (loop, e->dest) && roi_normal_edge_p (e)
	  && e->dest != EXIT_BLOCK_PTR_FOR_FN (fun))
	gsi_insert_on_edge (e, hook_call (false, region));
  free (body);
  /* A return inside the loop leaves it too.  */
  exit_before_returns (fun, region, loop);
}

/* The (file, line) of a block: its first statement with a location.  */
static bool
block_location (basic_block bb, expanded_location *out)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      location_t loc = gimple_location (gsi_stmt (gsi));
      if (!is_gimple_debug (gsi_stmt (gsi)) && !RESERVED_LOCATION_P (loc))
	{
	  *out = roi_expand (loc);
	  return true;
	}
    }
  return false;
}

/* Calls VISIT with the location of every statement of LOOP itself (its
   blocks, not its inner loops'), until VISIT returns true.  */
static bool
for_each_own_location (loop_p loop, bool (*visit) (const expanded_location *, void *),
		       void *ctx)
{
  bool stopped = false;
  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; i < loop->num_nodes && !stopped; i++)
    {
      if (body[i]->loop_father != loop)
	continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]);
	   !gsi_end_p (gsi) && !stopped; gsi_next (&gsi))
	{
	  location_t loc = gimple_location (gsi_stmt (gsi));
	  if (is_gimple_debug (gsi_stmt (gsi)) || RESERVED_LOCATION_P (loc))
	    continue;
	  expanded_location x = roi_expand (loc);
	  stopped = visit (&x, ctx);
	}
    }
  free (body);
  return stopped;
}

static bool loop_line (loop_p loop, expanded_location *out);

/* Does the filter name LOOP by its line, the one roi report and --suggest name it
   by (loop_line)?  Only that line: a rule naming another line of the body must
   not select the loop under a name the report does not know.  */
static bool
loop_selected (loop_p loop, expanded_location *where)
{
  return loop_line (loop, where) && roi_filter_hooks_loop (where->file, where->line);
}

void
roi_hooks_insert (function *fun, int fn_index, const int *counter_of)
{
  if (!roi_filter_active ())
    return;
  const char *name = lang_hooks.decl_printable_name (fun->decl, 2);
  if (loops_for_fn (fun))
    {
      /* Innermost first: on an edge that leaves two hooked loops, and before
	 a return inside both, the inner loop's exit must come first.  */
      ROI_FOR_EACH_LOOP (loop, fun, LI_FROM_INNERMOST)
	{
	  expanded_location x;
	  if (!loop_selected (loop, &x))
	    continue;
	  hook_loop (fun, loop, fn_index, name, x.file, x.line,
		     counter_of ? counter_of[loop->header->index] : -1);
	}
      gsi_commit_edge_inserts ();
    }
  if (roi_filter_hooks_function (fun->decl))
    hook_function (fun, fn_index, name);
}

static bool
keep_first_line (const expanded_location *x, void *ctx)
{
  expanded_location *out = (expanded_location *) ctx;
  if (x->file && out->file && !strcmp (x->file, out->file) && x->line < out->line)
    *out = *x;
  return false;
}

/* The first location VISITed, then the first line in its file.  */
static bool
keep_first_location (const expanded_location *x, void *ctx)
{
  expanded_location *out = (expanded_location *) ctx;
  if (!out->file)
    *out = *x;
  return keep_first_line (x, ctx);
}

/* Where a loop is in the source: the first line of its own statements (not
   its inner loops'), in the header's file.  That is the for/while line, also
   at -O2, where the header is no longer the condition but the body.  A
   header with no location of its own (at -Os one of nothing but PHIs and a
   jump) takes the file of the loop's first located statement: the loop
   still has a line a filter and a budget can name, not 0.  */
static bool
loop_line (loop_p loop, expanded_location *out)
{
  if (!block_location (loop->header, out))
    out->file = NULL;
  for_each_own_location (loop, out->file ? keep_first_line : keep_first_location, out);
  if (!out->file)
    {
      /* nothing of its own located: its inner loops' lines */
      basic_block *body = get_loop_body (loop);
      for (unsigned i = 0; i < loop->num_nodes; i++)
	{
	  expanded_location x;
	  if (block_location (body[i], &x))
	    keep_first_location (&x, out);
	}
      free (body);
    }
  return out->file != NULL;
}

/* The loop nest as metadata: every loop, hooked or not, so a report can
   show function, loop and line from one run.  */
void
roi_loops_describe (function *fun, const int *counter_of,
		    const vec<roi_value_site> &sites, struct roi_buf *out)
{
  roi_buf_add (out, ",\n\"loops\":[");
  if (!loops_for_fn (fun))
    {
      roi_buf_add (out, "]");
      return;
    }
  /* Loop numbers are sparse; the metadata indexes loops densely.  */
  unsigned n = number_of_loops (fun);
  int *dense = XNEWVEC (int, n);
  for (unsigned i = 0; i < n; i++)
    dense[i] = -1;
  int next = 0;
  /* Outer loops first, so a parent precedes its children.  */
  ROI_FOR_EACH_LOOP (loop, fun, 0)
    dense[loop->num] = next++;
  bool first = true;
  ROI_FOR_EACH_LOOP (loop, fun, 0)
    {
      expanded_location x;
      bool located = loop_line (loop, &x);
      loop_p parent = loop_outer (loop);
      int parent_index = parent && parent->num ? dense[parent->num] : -1;
      roi_buf_printf (out, "%s{\"header\":%d,\"parent\":%d,\"file\":%u,\"line\":%d,\"blocks\":[",
		      first ? "" : ",", counter_of[loop->header->index], parent_index,
		      roi_meta_file (located ? x.file : NULL), located ? x.line : 0);
      first = false;
      basic_block *body = get_loop_body (loop);
      for (unsigned i = 0; i < loop->num_nodes; i++)
	{
	  roi_buf_printf (out, "%s%d", i ? "," : "", counter_of[body[i]->index]);
	  /* a value counter belongs to the loops of its statement's block */
	  for (unsigned j = 0; j < sites.length (); j++)
	    if (sites[j].bb == body[i]->index)
	      roi_buf_printf (out, ",%u", sites[j].slot);
	}
      free (body);
      roi_buf_add (out, "]}");
    }
  free (dense);
  roi_buf_add (out, "]");
}
