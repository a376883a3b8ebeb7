/* roi-plugin.h — declarations shared by the files of roi.so.
 *
 * Data flow inside the plugin: roi-pass.cc walks each function's blocks,
 * roi-classify.cc turns each statement into typed atomic operations (named by
 * roi-types.cc), roi-counters.cc inserts the block counters, and roi-meta.cc
 * collects everything into the unit's metadata record, written at the end of
 * the unit.  */
#ifndef ROI_PLUGIN_H
#define ROI_PLUGIN_H

#include "gcc-common.h"
#include "roi-checksum.h"

enum roi_runtime { ROI_RUNTIME_HOST, ROI_RUNTIME_NONE };

struct roi_options
{
  int counter_bits;          /* 16, 32 or 64 */
  bool atomic;               /* counters updated with relaxed atomic adds */
  enum roi_runtime runtime;  /* host: constructor registration; none: a runner reads RAM */
  bool verbose;              /* say which functions are skipped and why */
  bool disabled;             /* nothing is counted in this unit (-flto) */
  bool block_lines;          /* no counters: blocks as lines (roi-block-lines.cc) */
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
  ROI_GC_EXEC,			/* __roi_fork, __roi_execl...: ROI_EXEC_WRAPPERS of them */
  ROI_GC_SLOTS = ROI_GC_EXEC + ROI_EXEC_WRAPPERS
};
extern tree roi_gc[ROI_GC_SLOTS];

/* ---- roi-util.cc: growable text and small tables, plain C style ---- */
struct roi_buf
{
  char *text;
  size_t len, cap;
};
void roi_buf_add (struct roi_buf *b, const char *s);
void roi_buf_addn (struct roi_buf *b, const char *s, size_t n);
void roi_buf_printf (struct roi_buf *b, const char *fmt, ...) ATTRIBUTE_PRINTF_2;
void roi_buf_json_string (struct roi_buf *b, const char *s);
void roi_buf_reset (struct roi_buf *b);

/* A struct type built field by field, as finish_builtin_struct wants them.  */
tree roi_build_struct (const char *name, const char *const *fields,
		       const tree *types, int n);
/* The Nth field of a struct type built by roi_build_struct.  */
tree roi_struct_field (tree type, int n);
/* A static variable of the unit's own, NAME of TYPE: artificial, without
   debug info, not public; not yet finalized.  */
tree roi_static_var (const char *name, tree type);

/* A list of distinct strings; roi_strings_intern returns the index.  */
struct roi_strings
{
  char **items;
  unsigned count, cap;
};
unsigned roi_strings_intern (struct roi_strings *t, const char *s);

unsigned long long roi_fnv1a64 (unsigned long long h, const char *s);

/* ---- roi-types.cc ---- */
/* Width-and-signedness class of TYPE: "i16", "u8", "f32", "ptr", "agg"...  */
const char *roi_type_class (const_tree type);
/* Canonical C name of TYPE, typedefs and qualifiers resolved, except the
   <stdint.h> and <stddef.h> names that fix a width (uint32_t, size_t).  */
void roi_ctype_name (const_tree type, struct roi_buf *out);
/* That <stdint.h> or <stddef.h> name of TYPE, or NULL.  */
const char *roi_width_typedef_name (const_tree type);

/* ---- roi-classify.cc ---- */
/* Whether the object REF names sits at a run-time subscript of an array
   (a[i], a[i].f, m[2][j]): its address is computed, not a constant offset.  */
bool roi_has_variable_subscript (tree ref);
struct roi_op
{
  const char *kind;       /* "add", "load", "call", ...  */
  const_tree type;        /* the type computed in, or NULL */
  const_tree from;        /* conv: the source type */
  const char *access;     /* load/store: var array field bitfield deref frame */
  bool is_volatile;
  const char *callee;     /* call: callee name or "*indirect" */
  bool direct, builtin, internal;
  const char *code;       /* vec/other: GCC's tree or statement code */
  unsigned long cases;    /* switch: number of labels */
  const char *operand;    /* the kind of operand that decides the code: for binary
			     ops and comparisons with a constant second operand
			     "const", "pow2" for a multiply or divide by a power of
			     two, a shift's or rotate's amount ("3"); for loads and
			     stores of a variable "local" or "global" */
  unsigned subscripts;    /* load/store of a multi-dimensional array element:
			     the number of subscripts (2 or more), else 0 */
  unsigned promoted;      /* an int operation on operands promoted from an
			     unsigned type: that type's width, else 0 */
  unsigned repeat;        /* how many of it one statement performs (a copy's
			     "bytes"); 0 means 1 */
};
typedef void (*roi_op_sink) (void *ctx, const struct roi_op *op);
/* (roi-types.cc) A variant of TYPE that bears a width typedef (uint32_t),
   taken from STMT's operands or users: the width the program means.  */
const_tree roi_named_variant (const_tree type, roi_stmt stmt);
/* (roi-types.cc) The width of the unsigned type whose promotion to int the
   int operation OP of STMT computes on, else 0.  */
unsigned roi_promoted_from (const struct roi_op *op, roi_stmt stmt);
void roi_classify_stmt (roi_stmt stmt, roi_op_sink sink, void *ctx);
/* What a call of FNDECL does before its first statement: at -O0 the prologue
   stores every parameter to its stack slot ("store", access "frame"), as the
   statements store the variables they set.  */
void roi_classify_entry (tree fndecl, roi_op_sink sink, void *ctx);
/* True when T names memory rather than a register or a constant.  */
bool roi_is_memory (tree t);
/* Whether STMT is dead code the compiler deletes after GIMPLE: no operation.  */
bool roi_dead_stmt (roi_stmt stmt);
/* Whether the integer constant CST is minus a power of two.  */
bool roi_is_negative_pow2 (tree cst);
/* N where CST is 2^N with 0 < N < 64, else 0.  A multiply by 2^N is the left
   shift by N at every optimisation level (expand_mult emits the shift, and
   modulo 2^width the same holds for the sign bit's constant), so it is counted
   as that shift: a multiply by 2 costs one single-bit shift, by 256 a byte
   move, by 8 at -Os a loop of three, as the shift's own entries say.  Inline: the
   callers' shift texts know N < 64 from it.  */
static inline unsigned
roi_multiplier_log2 (tree cst)
{
  if (!cst || TREE_CODE (cst) != INTEGER_CST || !integer_pow2p (cst))
    return 0;
  int n = tree_log2 (cst);
  return n > 0 && n < 64 ? (unsigned) n : 0;
}
/* Whether STMT is an integer division or remainder whose partner (the
   remainder or quotient of the same operands) an earlier statement of its
   block computes, optimising: one call computes both.  */
bool roi_divmod_paired (roi_stmt stmt);

/* ---- roi-value-sites.cc ---- */
/* A statement whose cost grows with a run-time value: a shift or rotate by a
   variable amount (an AVR loop per bit), a single-precision add or subtract
   (the alignment of its operands' mantissas), a division (its quotient's 1
   bits), memcpy, memmove, memset or memcmp of a length, strlen (the length
   it returns).  Fills OP ("steps", "qbits" or "bytes") and *AMOUNT, the
   value to add up in a counter of its own (docs/formats.md, "Value
   counters").  */
bool roi_find_value_site (roi_stmt stmt, struct roi_op *op, tree *amount);
/* Whether STMT is a single-precision add or subtract (a value site: its
   alignment passes), and its operands.  */
bool roi_float_add_operands (roi_stmt stmt, tree *a, tree *b);
/* Whether STMT is an integer division or remainder of 16 or 32 bits (a
   value site: its quotient's 1 bits, the steps of the division routine that
   subtract), and *QUOTIENT: an expression of STMT's result to evaluate after
   it, or, *BEFORE set, of its operands to evaluate just before it (a
   remainder's quotient).  */
bool roi_division_quotient (roi_stmt stmt, tree *quotient, bool *before);
/* A quotient's magnitude, unsigned: its 1 bits are the steps that subtract.  */
tree roi_quotient_magnitude (tree quotient);

/* A value site of the function being instrumented and its counter.  */
struct roi_value_site
{
  roi_stmt stmt;
  tree amount;
  int bb;		/* its block's index */
  unsigned slot;	/* its counter, after the block counters */
  unsigned op, file, line;	/* its metadata row */
};

/* ---- roi-filter.cc ---- */
bool roi_filter_load (const char *path);
bool roi_filter_active (void);
bool roi_filter_counts (tree fndecl, unsigned *rule_line);
bool roi_filter_hooks_function (tree fndecl);
bool roi_filter_hooks_loop (const char *file, unsigned line);
void roi_filter_describe (struct roi_buf *b);

/* ---- roi-hooks.cc ---- */
void roi_hooks_insert (function *fun, int fn_index, const int *counter_of);
void roi_loops_describe (function *fun, const int *counter_of,
			 const vec<roi_value_site> &sites, struct roi_buf *out);

/* ---- roi-exec.cc ---- */
/* The unit registers with libroi (it has something to count, runtime=host).  */
void roi_exec_unit_registers (void);
/* The RTL pass, just before the assembly is written, that makes the unit's
   calls of fork and the exec family call libroi's wrappers, if it registers.  */
opt_pass *make_roi_exec_pass (void);

/* ---- roi-meta.cc ---- */
const char *roi_unit_id (void);
unsigned roi_meta_op (const struct roi_op *op);
/* The fields of the operation at INDEX, as its entry in the op table says.  */
const struct roi_checksum_op *roi_meta_op_fields (unsigned index);
unsigned roi_meta_file (const char *file);
unsigned roi_meta_next_function_index (void);
void roi_meta_add_function (tree decl, const char *json, unsigned nblocks);
/* What roi-frame.cc learns after reload of a function added before: its
   saved registers, frame size, and the members RTL_MEMBERS (JSON, each with
   a leading comma: its "spills", "far", "tables" and "jumps").  Returns false for a
   function roi did not count.  */
bool roi_meta_function_blocks (tree decl, unsigned *nblocks);
void roi_meta_set_frame (tree decl, unsigned saved, unsigned long frame, const char *rtl_members);
void roi_meta_add_region (const char *json);
void roi_meta_add_excluded (const char *json);
void roi_meta_emit (void);

/* ---- roi-counters.cc ---- */
/* Whether the current function's counters are updated with relaxed atomic
   adds: every function's with -fplugin-arg-roi-atomic, and always those of
   a function several threads run at once (roi_runs_in_threads).  */
bool roi_counters_atomic (void);
tree roi_counters_create (unsigned fn_index, unsigned n);
void roi_counter_increment (basic_block bb, tree counters, unsigned idx);
void roi_counter_add (roi_stmt stmt, tree counters, unsigned idx, tree amount);

/* ---- roi-descriptor.cc ---- */
void roi_descriptor_create (unsigned fn_index, unsigned checksum, unsigned n, tree counters);
void roi_constructor_create (void);

/* ---- roi-counters-avr.cc ---- */
/* Whether counters are updated by AVR's asms, which take no register (or
   only the amount's): not 16-bit ones, which saturate, nor atomic ones.  */
bool roi_avr_counters (void);
/* counters[idx] += 1 by an asm before GSI; REF is the counter.  */
void roi_avr_increment (gimple_stmt_iterator *gsi, tree ref);
/* counters[idx] += the alignment passes of a float add of A and B, by an
   asm before GSI.  */
void roi_avr_float_passes (gimple_stmt_iterator *gsi, tree ref, tree a, tree b);
/* Whether a division's steps are those the division routines count
   (roi-divide.cc), and the asm that adds them after the division STMT.  */
bool roi_avr_division_steps_counted (void);
void roi_avr_division_steps (roi_stmt stmt, tree ref, tree quotient);
/* counters[idx] += *AMOUNT before GSI, the value counter of STMT, by an asm
   where it takes the amount; false where it does not, *AMOUNT then what the
   plain update adds.  */
bool roi_avr_add (gimple_stmt_iterator *gsi, roi_stmt stmt, tree ref, tree *amount);

/* ---- roi-divide.cc ---- */
/* The bytes AVR's counting division routines add their subtracting steps
   to: __udivmodhi4's, __udivmodsi4's (the signed ones call them).  */
#define ROI_DIVISION_STEPS_16 "__roi_div16_steps"
#define ROI_DIVISION_STEPS_32 "__roi_div32_steps"
/* Whether a division site of this unit takes the counting routines.  */
extern bool roi_divide_routines_used;
/* Their text into the unit's assembly, once, if it has such a site.  */
void roi_divide_emit_routines (void);

/* ---- roi-frame.cc ---- */
opt_pass *make_roi_frame_pass (void);

/* ---- roi-spills.cc ---- */
/* The current function's spill-slot traffic after reload as the JSON array
   of its "spills" rows [block, file, line, bytes], its frame accesses out
   of the displacement's reach as its "far" rows [block, file, line, n], and
   the moves of a base register without displacement around its accesses as
   its "adjust" rows [block, file, line, n] (docs/formats.md); NBLOCKS are its
   counted blocks.  */
void roi_spills_describe (unsigned nblocks, struct roi_buf *spills, struct roi_buf *far,
			  struct roi_buf *adjust);

/* ---- roi-block-walk.cc ---- */
/* Which counted block the insns after reload belong to: the one whose counter
   update came last before them in the insn stream (the plugin's update opens
   every counted block, and before bb-reorder the insns keep the blocks'
   order).  */
struct roi_block_walk
{
  rtx_insn *first;	/* where to start; NULL: nothing to walk (atomic counters) */
  unsigned nblocks, counter_bytes;
  unsigned block;	/* the block the insns now belong to */
  basic_block counter_bb;	/* the RTL block of its counter update */
  bool seen_counter;
};
void roi_block_walk_start (struct roi_block_walk *w, unsigned nblocks);
/* Whether INSN updates a counter; a block counter's update moves W there.  */
bool roi_block_walk_counter (struct roi_block_walk *w, rtx_insn *insn);
/* Whether JUMP only jumps over counter updates to its label: the code the
   counters' blocks alone stand between, which without them falls through.  */
bool roi_block_walk_skips_counters_only (const struct roi_block_walk *w, rtx_insn *jump);
/* Whether the blocks W told hold: some update named the counters' symbol
   (ARM reaches them through a register), or there is one block.  */
bool roi_block_walk_trusted (const struct roi_block_walk *w);
/* The row of ROWS at KEY's block, file and line, pushed as KEY where there is
   none yet: the RTL passes' tallies per block and line (their "jumps",
   "spills" and "far" rows).  */
template <typename Row>
static inline Row &
roi_row_at (vec<Row> &rows, const Row &key)
{
  for (unsigned i = 0; i < rows.length (); i++)
    if (rows[i].block == key.block && rows[i].file == key.file && rows[i].line == key.line)
      return rows[i];
  rows.safe_push (key);
  return rows.last ();
}
/* ROWS as the JSON array of [block, file, line, n] rows the metadata keeps,
   n each row's member COUNT; the rows where it is 0 left out.  */
template <typename Row>
static inline void
roi_rows_print (const vec<Row> &rows, unsigned Row::*count, struct roi_buf *out)
{
  roi_buf_add (out, "[");
  bool first = true;
  for (unsigned i = 0; i < rows.length (); i++)
    if (rows[i].*count)
      {
	roi_buf_printf (out, "%s[%u,%u,%u,%u]", first ? "" : ",", rows[i].block,
			rows[i].file, rows[i].line, rows[i].*count);
	first = false;
      }
  roi_buf_add (out, "]");
}

/* ---- roi-jumps.cc ---- */
/* The current function's unconditional jumps, as the "jumps" rows
   [block, file, line, n], and the blocks whose switch became a jump table,
   as "tables" (docs/formats.md).  */
void roi_jumps_describe (unsigned nblocks, struct roi_buf *tables, struct roi_buf *jumps);

/* ---- roi-block-lines.cc ---- */
/* Every statement, PHI argument and jump of FUN's blocks ORDER (counter
   indices COUNTER_OF) gets the location "roi-block:ASM-NAME", line = the
   counter index + 1.  */
void roi_block_lines_mark (function *fun, const vec<basic_block> &order, const int *counter_of);
/* The RTL pass of that build: an insn with no location takes its neighbour's
   in its stretch of straight-line code (not the line table's previous row).  */
opt_pass *make_roi_block_lines_pass (void);

/* ---- roi-pass.cc ---- */
opt_pass *make_roi_pass (void);

/* ---- roi-instrumentable.cc ---- */
/* Why the function FNDECL is not counted ("no body", "artificial
   (compiler-generated)", "excluded by the filter"...), or NULL when it is.  */
const char *roi_why_not_counted (tree fndecl);
/* Whether several threads may run FNDECL at once: an outlined OpenMP body,
   or a function of the unit one calls.  Its counters are updated with atomic
   adds whatever the options.  */
bool roi_runs_in_threads (tree fndecl);
/* Finds those, once, when the first function reaches the pass: GCC has not
   expanded any yet, and expanding one removes its call edges.  */
void roi_find_threaded (void);

#endif /* ROI_PLUGIN_H */
