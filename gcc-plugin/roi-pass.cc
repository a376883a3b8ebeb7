/* roi-pass.cc — the GIMPLE pass: count every basic block of every function.
 *
 * Placed just before GCC's "optimized" pass, which runs at every -O level
 * after all tree optimisations, so the counted blocks and operations are those
 * of the code GCC is about to expand into machine instructions.  */
#include "roi-pass.h"
#include "roi-block-lines.h"
#include "roi-checksum.h"
#include "roi-classify.h"
#include "roi-counters.h"
#include "roi-descriptor.h"
#include "roi-edges.h"
#include "roi-filter.h"
#include "roi-hooks.h"
#include "roi-instrumentable.h"
#include "roi-mark.h"
#include "roi-meta.h"
#include "roi-op.h"
#include "roi-plugin.h"
#include "roi-registers.h"
#include "roi-trips.h"
#include "roi-util.h"
#include "roi-value-sites.h"

/* Make every edge count derivable from block counts (docs/formats.md): split
   critical edges, and give the function an entry block nobody jumps back to,
   so counter 0 counts calls even when the first block is a loop header.  */
static void
prepare_cfg (function *fun)
{
  auto_vec<edge> critical;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
	if (EDGE_CRITICAL_P (e) && roi_normal_edge_p (e))
	  critical.safe_push (e);
    }
  for (unsigned i = 0; i < critical.length (); i++)
    {
      /* The jump a goto, break or continue became keeps its line on the new
	 block, where gcov (which splits the same edges) puts it too.  */
      location_t locus = critical[i]->goto_locus;
      basic_block middle = split_edge (critical[i]);
      single_succ_edge (middle)->goto_locus = locus;
    }

  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  if (!single_pred_p (entry->dest))
    split_edge (entry);

  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
}

/* One row of a block's "ops": how many times OP appears at FILE:LINE.  */
struct op_row
{
  unsigned op, file, line, n;
};

struct block_ops
{
  auto_vec<op_row> rows;
  auto_vec<unsigned> lines;	/* (file, line) pairs, flattened */
  auto_vec<unsigned> locs;	/* LOC_FIELDS per location of its statements, flattened */
  unsigned file, line;		/* location of the statement being classified */
};

static void
add_line (struct block_ops *b, unsigned file, unsigned line)
{
  for (unsigned i = 0; i + 1 < b->lines.length (); i += 2)
    if (b->lines[i] == file && b->lines[i + 1] == line)
      return;
  b->lines.safe_push (file);
  b->lines.safe_push (line);
}

/* The scopes of the inlined copies met in the function being described: a
   location's instance is its copy's position here + 1, 0 outside any.  */
static vec<tree> inline_scopes;

/* The outer scope of the inlined copy LOC is in, or NULL_TREE outside any.  */
static tree
inlined_scope (location_t loc)
{
  for (tree block = LOCATION_BLOCK (loc); block && TREE_CODE (block) == BLOCK;
       block = BLOCK_SUPERCONTEXT (block))
    if (inlined_function_outer_scope_p (block))
      return block;
  return NULL_TREE;
}

static unsigned
inline_instance (location_t loc)
{
  tree block = inlined_scope (loc);
  if (!block)
    return 0;
  for (unsigned i = 0; i < inline_scopes.length (); i++)
    if (inline_scopes[i] == block)
      return i + 1;
  inline_scopes.safe_push (block);
  return inline_scopes.length ();
}

/* A location's fields in block_ops' locs: file, line, column, instance, and
   where a macro's expansion gave the statement its tokens, the file, line and
   column they are spelled at in the macro (0, 0, 0 elsewhere).  The place a
   macro is used is where expand_location puts all of its code: without the
   spelling, every statement of a function a macro defines is one location,
   and roi transfer could not tell its branches apart.  */
#define LOC_FIELDS 7

/* LOC, a statement's or a PHI argument's, among B's locations, once.  */
static void
add_loc (struct block_ops *b, location_t loc)
{
  expanded_location x = roi_expand (loc), m = { NULL, 0, 0, NULL, false };
  if (roi_from_macro (loc))
    m = roi_expand_spelling (loc);
  unsigned l[LOC_FIELDS] = { roi_meta_file (x.file), (unsigned) x.line, (unsigned) x.column,
			      inline_instance (loc), m.file ? roi_meta_file (m.file) : 0,
			      (unsigned) m.line, (unsigned) m.column };
  for (unsigned i = 0; i + LOC_FIELDS <= b->locs.length (); i += LOC_FIELDS)
    if (memcmp (&b->locs[i], l, sizeof l) == 0)
      return;
  for (unsigned i = 0; i < LOC_FIELDS; i++)
    b->locs.safe_push (l[i]);
}

/* The metadata's row for the location at L, of the counter SLOT: five
   numbers, eight for a statement a macro spelled (docs/formats.md).  */
static void
print_loc (struct roi_buf *out, unsigned slot, const unsigned *l)
{
  roi_buf_printf (out, "%s[%u,%u,%u,%u,%u", out->len ? "," : "", slot, l[0], l[1], l[2], l[3]);
  if (l[5])
    roi_buf_printf (out, ",%u,%u,%u", l[4], l[5], l[6]);
  roi_buf_add (out, "]");
}

static void
record_op (void *ctx, const struct roi_op *op)
{
  struct block_ops *b = (struct block_ops *) ctx;
  unsigned index = roi_meta_op (op), n = op->repeat ? op->repeat : 1;
  for (unsigned i = 0; i < b->rows.length (); i++)
    if (b->rows[i].op == index && b->rows[i].file == b->file
	&& b->rows[i].line == b->line)
      {
	b->rows[i].n += n;
	return;
      }
  op_row row = { index, b->file, b->line, n };
  b->rows.safe_push (row);
}

static int
compare_line_pairs (const void *pa, const void *pb)
{
  const unsigned *a = (const unsigned *) pa, *b = (const unsigned *) pb;
  if (a[0] != b[0])
    return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Where each statement location first occurs, by block position: gcov
   (gcc/profile.cc) gives a block the line of its goto_locus only when no
   statement of that block or of one before it has that very location.  The
   then-arm's jump past an else keeps the if's location, for one, and gcov does
   not count the if's line again there.  */
struct loc_first
{
  location_t loc;
  unsigned block;
};

static int
compare_loc_first (const void *pa, const void *pb)
{
  const loc_first *a = (const loc_first *) pa, *b = (const loc_first *) pb;
  if (a->loc != b->loc)
    return a->loc < b->loc ? -1 : 1;
  return a->block < b->block ? -1 : a->block > b->block;
}

static vec<loc_first> first_seen;

static void
collect_first_seen (function *fun, const vec<basic_block> &order)
{
  first_seen.truncate (0);
  loc_first decl = { DECL_SOURCE_LOCATION (fun->decl), 0 };
  first_seen.safe_push (decl);
  for (unsigned i = 0; i < order.length (); i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (order[i]); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	location_t loc = gimple_location (gsi_stmt (gsi));
	if (!is_gimple_debug (gsi_stmt (gsi)) && !RESERVED_LOCATION_P (loc))
	  {
	    loc_first f = { loc, i };
	    first_seen.safe_push (f);
	  }
      }
  first_seen.qsort (compare_loc_first);
}

/* Whether LOC is in code inlined from another function.  */
static bool
in_inlined_code (location_t loc)
{
  return inlined_scope (loc) != NULL_TREE;
}

/* The first entry of first_seen for LOC, or the end.  */
static unsigned
first_seen_of (location_t loc)
{
  unsigned lo = 0, hi = first_seen.length ();
  while (lo < hi)
    {
      unsigned mid = (lo + hi) / 2;
      if (first_seen[mid].loc < loc)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo < first_seen.length () && first_seen[lo].loc == loc ? lo : first_seen.length ();
}

/* Whether a statement of block INDEX or of one before it has location LOC.
   Not for inlined code: GCC's later passes rewrite the scopes of its
   locations, so that two that differed when gcov looked may be equal now.  */
static bool
seen_by (location_t loc, unsigned index)
{
  if (in_inlined_code (loc))
    return false;
  unsigned at = first_seen_of (loc);
  return at < first_seen.length () && first_seen[at].block <= index;
}

/* The location of BB's first statement that has one, else of the jump that
   ends it, else UNKNOWN_LOCATION.  */
static location_t
first_location (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
    if (!is_gimple_debug (gsi_stmt (gsi))
	&& !RESERVED_LOCATION_P (gimple_location (gsi_stmt (gsi))))
      return gimple_location (gsi_stmt (gsi));
  if (single_succ_p (bb))
    return single_succ_edge (bb)->goto_locus;
  return UNKNOWN_LOCATION;
}

/* Classify BB's statements, write its JSON object to OUT and add it to the
   function's checksum CK; BB is block INDEX of the function's blocks in
   order.  Its value sites go to SITES, their counters not yet numbered.  */
static void
describe_block (function *fun, basic_block bb, const int *counter_of,
		unsigned index, vec<roi_value_site> *sites, struct roi_buf *out,
		struct roi_buf *locs, struct roi_checksum *ck)
{
  bool is_entry = index == 0;
  struct block_ops b;
  expanded_location fn_loc = roi_expand (DECL_SOURCE_LOCATION (fun->decl));
  b.file = roi_meta_file (fn_loc.file);
  b.line = fn_loc.line;
  /* gcov gives the function's own line to its first block; so do we.  */
  if (is_entry)
    {
      add_line (&b, b.file, b.line);
      roi_classify_entry (fun->decl, record_op, &b);
    }
  /* A statement with no location (an induction variable's step, which the
     loop optimisers make) runs with its block: before the block's first
     statement that has one it takes that one's line (after it, the line of
     the one before), so that its cycles and its operations share a line;
     not the function's line, which is its prologue's.  */
  location_t block_loc = first_location (bb);
  if (!RESERVED_LOCATION_P (block_loc))
    {
      expanded_location x = roi_expand (block_loc);
      b.file = roi_meta_file (x.file);
      b.line = x.line;
    }

  /* A block of labels alone: GCC split it off the block it heads after
     gcov wrote its graph (loop set-up at -O0); gcov-check puts its lines
     back there (docs/gcov-check.md).  */
  bool labels_only = !is_entry, any_label = false;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      roi_stmt stmt = gsi_stmt (gsi);
      if (is_gimple_debug (stmt))
	continue;
      if (gimple_code (stmt) == GIMPLE_LABEL)
	any_label = true;
      else
	labels_only = false;
      location_t loc = gimple_location (stmt);
      if (!RESERVED_LOCATION_P (loc))
	{
	  expanded_location x = roi_expand (loc);
	  b.file = roi_meta_file (x.file);
	  b.line = x.line;
	  add_line (&b, b.file, b.line);
	  if (!roi_dead_stmt (stmt))
	    add_loc (&b, loc);
	}
      if (roi_dead_stmt (stmt))
	continue;
      roi_classify_stmt (stmt, record_op, &b);
      struct roi_op op;
      tree amount;
      if (roi_find_value_site (stmt, &op, &amount))
	{
	  /* A length the compiler knows (a memset of a struct, a memcpy of
	     sizeof) needs no counter: the row says it, n bytes per call.  It
	     is also what makes a host run's counts right for a target whose
	     struct is another size (roi transfer): the target's own n prices
	     it, where a counter would carry the host's sum.  */
	  if (op.kind == ROI_KIND (BYTES) && TREE_CODE (amount) == INTEGER_CST)
	    {
	      if (tree_fits_uhwi_p (amount) && tree_to_uhwi (amount) != 0)
		{
		  op.repeat = (unsigned) MIN (tree_to_uhwi (amount),
					      (unsigned HOST_WIDE_INT) 1 << 30);
		  record_op (&b, &op);
		}
	      continue;
	    }
	  roi_value_site site = { stmt, amount, bb->index, 0, roi_meta_op (&op),
				  b.file, b.line };
	  sites->safe_push (site);
	}
    }
  /* A goto, break or continue leaves no statement, only the location of the
     jump it became; gcov counts its line, so keep it, as gcov does: unless a
     statement had that location already.  */
  if (single_succ_p (bb)
      && !RESERVED_LOCATION_P (single_succ_edge (bb)->goto_locus)
      && !seen_by (single_succ_edge (bb)->goto_locus, index))
    {
      expanded_location x = roi_expand (single_succ_edge (bb)->goto_locus);
      add_line (&b, roi_meta_file (x.file), x.line);
      labels_only = false;	/* a jump ("default: return;"), not a label alone */
    }
  labels_only = labels_only && any_label && single_succ_p (bb)
		&& b.rows.length () == 0;

  roi_checksum_block (ck, labels_only, false, -1);
  roi_buf_add (out, "{\"succ\":[");
  edge e;
  edge_iterator ei;
  bool first = true;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (roi_normal_edge_p (e))
      {
	int to = e->dest == EXIT_BLOCK_PTR_FOR_FN (fun) ? -1 : counter_of[e->dest->index];
	roi_buf_printf (out, "%s%d", first ? "" : ",", to);
	roi_checksum_succ (ck, to);
	first = false;
      }
  roi_buf_add (out, "],\"lines\":[");
  if (b.lines.length ())
    qsort (b.lines.address (), b.lines.length () / 2, 2 * sizeof (unsigned),
	   compare_line_pairs);
  for (unsigned i = 0; i + 1 < b.lines.length (); i += 2)
    {
      roi_buf_printf (out, "%s[%u,%u]", i ? "," : "", b.lines[i], b.lines[i + 1]);
      roi_checksum_line (ck, b.lines[i], b.lines[i + 1]);
    }
  roi_buf_add (out, "],\"ops\":[");
  for (unsigned i = 0; i < b.rows.length (); i++)
    {
      roi_buf_printf (out, "%s[%u,%u,%u,%u]", i ? "," : "", b.rows[i].op,
		      b.rows[i].file, b.rows[i].line, b.rows[i].n);
      roi_checksum_row (ck, b.rows[i].file, b.rows[i].line, b.rows[i].n,
			roi_meta_op_fields (b.rows[i].op));
    }
  roi_buf_add (out, labels_only ? "],\"labels\":true}" : "]}");

  /* A PHI argument is evaluated on its edge, here when this block is its
     edge's source: the empty arm of an if-converted ?:.  Not when a
     statement has its location: that is where it was evaluated, and the PHI
     only passes the value on.  */
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (roi_normal_edge_p (e))
      for (gphi_iterator gsi = gsi_start_phis (e->dest); !gsi_end_p (gsi);
	   gsi_next (&gsi))
	{
	  location_t loc = gimple_phi_arg_location_from_edge (gsi.phi (), e);
	  if (!RESERVED_LOCATION_P (loc) && first_seen_of (loc) == first_seen.length ())
	    add_loc (&b, loc);
	}
  for (unsigned i = 0; i + LOC_FIELDS <= b.locs.length (); i += LOC_FIELDS)
    print_loc (locs, index, &b.locs[i]);
}

/* Names of the functions whose bodies GCC inlined into FUN: their calls from
   here never reach their own entry block, and the estimator must know that
   before comparing call counts with gcov's.  */
static void
collect_inlined (tree block, struct roi_strings *names)
{
  for (; block; block = BLOCK_CHAIN (block))
    {
      tree origin = BLOCK_ABSTRACT_ORIGIN (block);
      if (origin && TREE_CODE (origin) == FUNCTION_DECL)
	roi_strings_intern (names, IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (origin)));
      collect_inlined (BLOCK_SUBBLOCKS (block), names);
    }
}

/* The members every record of FUN starts with, counted or not: its name, its
   assembler name and where it is, into JSON.  */
static void
start_function_record (function *fun, struct roi_buf *json)
{
  expanded_location loc = roi_expand (DECL_SOURCE_LOCATION (fun->decl));
  roi_buf_add (json, "{\"name\":");
  roi_buf_json_string (json, lang_hooks.decl_printable_name (fun->decl, 2));
  roi_buf_add (json, ",\"asm\":");
  roi_buf_json_string (json, IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl)));
  roi_buf_printf (json, ",\"file\":%u,\"line\":%d", roi_meta_file (loc.file), loc.line);
}

/* A function the filter left uncounted: no counters, but hooks if asked,
   and a line in the metadata so reports can say its cost is missing.  */
static unsigned int
record_excluded (function *fun, unsigned rule)
{
  struct roi_buf json = { NULL, 0, 0 };
  start_function_record (fun, &json);
  roi_buf_printf (&json, ",\"rule\":%u}", rule);
  roi_meta_add_excluded (json.text);
  free (json.text);

  if (!roi_filter_hooks_function (fun->decl))
    return 0;
  loop_optimizer_init (AVOID_CFG_MODIFICATIONS);
  roi_hooks_insert (fun, -1, NULL);
  loop_optimizer_finalize ();
  return TODO_update_ssa;
}

static unsigned int
roi_execute (function *fun)
{
  if (roi_opts.disabled)
    return 0;
  roi_find_threaded ();
  const char *why_not = roi_why_not_counted (fun->decl);
  if (why_not)
    {
      if (roi_opts.verbose)
	inform (DECL_SOURCE_LOCATION (fun->decl), "roi: not counting %qD: %s",
		fun->decl, why_not);
      unsigned rule;
      if (fun->cfg && !roi_opts.block_lines && !roi_filter_counts (fun->decl, &rule))
	return record_excluded (fun, rule);
      return 0;
    }

  prepare_cfg (fun);
  loop_optimizer_init (AVOID_CFG_MODIFICATIONS);

  /* Counter 0 is the entry block; the rest follow in block order.  */
  auto_vec<basic_block> order;
  int *counter_of = XNEWVEC (int, last_basic_block_for_fn (fun));
  basic_block entry = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  order.safe_push (entry);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (bb != entry)
      order.safe_push (bb);
  for (unsigned i = 0; i < order.length (); i++)
    counter_of[order[i]->index] = (int) i;
  if (roi_opts.block_lines)
    {
      roi_block_lines_mark (fun, order, counter_of);
      loop_optimizer_finalize ();
      XDELETEVEC (counter_of);
      return 0;
    }

  /* (before anything is inserted: it reads the calls of each block) */
  roi_edge_plan plan;
  roi_edges_plan (fun, order, counter_of, &plan);
  collect_first_seen (fun, order);
  struct roi_buf blocks = { NULL, 0, 0 }, locs = { NULL, 0, 0 };
  auto_vec<roi_value_site> sites;
  const char *asm_name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fun->decl));
  struct roi_checksum ck;
  roi_checksum_begin (&ck, asm_name);
  inline_scopes.truncate (0);
  roi_buf_add (&blocks, "[");
  for (unsigned i = 0; i < order.length (); i++)
    {
      if (i)
	roi_buf_add (&blocks, ",\n ");
      describe_block (fun, order[i], counter_of, i, &sites, &blocks, &locs, &ck);
    }
  /* Value counters follow the block counters, each described as a block of
     one operation that no edge reaches (docs/formats.md, "Value counters").  */
  for (unsigned j = 0; j < sites.length (); j++)
    {
      sites[j].slot = order.length () + j;
      roi_buf_printf (&blocks, ",\n {\"succ\":[],\"lines\":[],\"ops\":[[%u,%u,%u,1]],"
		      "\"value\":true,\"block\":%d}", sites[j].op, sites[j].file, sites[j].line,
		      counter_of[sites[j].bb]);
      roi_checksum_block (&ck, false, true, counter_of[sites[j].bb]);
      roi_checksum_row (&ck, sites[j].file, sites[j].line, 1, roi_meta_op_fields (sites[j].op));
      location_t loc = gimple_location (sites[j].stmt);
      if (!RESERVED_LOCATION_P (loc))
	{
	  struct block_ops site;
	  add_loc (&site, loc);
	  print_loc (&locs, sites[j].slot, &site.locs[0]);
	}
    }
  roi_buf_add (&blocks, "]");
  /* The counted edges (docs/formats.md, "Counted edges"), after the blocks
     in the checksum: without them it is the checksum per block.  */
  struct roi_buf edges = { NULL, 0, 0 };
  if (!plan.per_block)
    {
      roi_buf_add (&edges, ",\n\"fake\":[");
      bool first = true;
      for (unsigned i = 0; i < plan.fake.length (); i++)
	if (plan.fake[i])
	  {
	    roi_buf_printf (&edges, "%s%u", first ? "" : ",", i);
	    roi_checksum_fake (&ck, i);
	    first = false;
	  }
      roi_buf_add (&edges, "],\"edges\":[");
      for (unsigned i = 0; i < plan.counted.length (); i++)
	{
	  roi_buf_printf (&edges, "%s[%d,%d]", i ? "," : "", plan.counted[i].from,
			  plan.counted[i].succ);
	  roi_checksum_edge (&ck, plan.counted[i].from, plan.counted[i].succ);
	}
      roi_buf_add (&edges, "]");
    }
  struct roi_buf loops = { NULL, 0, 0 };
  roi_loops_describe (fun, counter_of, sites, &loops);
  unsigned fn_index = roi_meta_next_function_index ();
  /* Hooks after the classification (they are not the program's operations)
     and before the counters (which then come first in every block).  */
  roi_hooks_insert (fun, (int) fn_index, counter_of);
  loop_optimizer_finalize ();
  XDELETEVEC (counter_of);

  unsigned checksum = ck.crc;
  /* The counters: the blocks' or the counted edges', then the value
     counters.  */
  unsigned nbase = plan.per_block ? order.length () : plan.counted.length ();
  unsigned n = nbase + sites.length ();

  tree counters = roi_counters_create (fn_index, n);
  if (plan.per_block)
    for (unsigned i = 0; i < order.length (); i++)
      roi_counter_increment (order[i], false, counters, i);
  else
    {
      auto_vec<bool> done;
      done.safe_grow_cleared (plan.counted.length ());
      roi_trips_add (fun, counters, plan.counted, &done);
      roi_registers_increment (fun, counters, plan.counted, &done);
    }
  for (unsigned i = 0; i < sites.length (); i++)
    roi_counter_add (sites[i].stmt, counters, nbase + i, sites[i].amount);
  roi_descriptor_create (fn_index, checksum, n, counters);
  /* Last, so first in every block: the markers of the insns' blocks.  */
  for (unsigned i = 0; i < order.length (); i++)
    roi_mark_block (order[i], i);
  roi_counters_thread_entry (fun);

  struct roi_buf json = { NULL, 0, 0 };
  start_function_record (fun, &json);
  roi_buf_printf (&json, ",\"static\":%s,\"counters\":\"__roi_c_%s_%u\","
		  "\"checksum\":\"0x%08x\",\"inlined\":[",
		  TREE_PUBLIC (fun->decl) ? "false" : "true", roi_unit_id (),
		  fn_index, checksum);
  struct roi_strings inlined = { NULL, 0, 0 };
  collect_inlined (DECL_INITIAL (fun->decl), &inlined);
  for (unsigned i = 0; i < inlined.count; i++)
    {
      if (i)
	roi_buf_add (&json, ",");
      roi_buf_json_string (&json, inlined.items[i]);
      free (inlined.items[i]);
    }
  free (inlined.items);
  roi_buf_add (&json, "]");
  roi_buf_add (&json, loops.text);
  roi_buf_add (&json, ",\n\"locs\":[");
  if (locs.text)
    roi_buf_add (&json, locs.text);
  roi_buf_add (&json, "]");
  if (edges.text)
    roi_buf_add (&json, edges.text);
  roi_buf_add (&json, ",\n\"blocks\":");
  roi_buf_add (&json, blocks.text);
  roi_buf_add (&json, "}");
  free (edges.text);
  free (loops.text);
  free (locs.text);
  roi_meta_add_function (fun->decl, json.text, order.length ());
  free (json.text);
  free (blocks.text);

  return TODO_update_ssa;
}

#define PASS_NAME roi
#define PASS_TYPE GIMPLE_PASS
#define PROPERTIES_REQUIRED (PROP_cfg | PROP_ssa)
/* (no todo flags at the end: execute returns them) */
#include "roi-generate-pass.h"
