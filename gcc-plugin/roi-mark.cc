/* roi-mark.cc — which counted block each insn comes from.
 *
 * The RTL pass after reload charges what only the register allocation and
 * the final layout show (spills, frame accesses out of reach, jumps: roi-
 * spills.cc, roi-jumps.cc) to counted blocks.  The counters no longer open
 * every block (roi-edges.cc), so the blocks are marked instead: the GIMPLE
 * pass puts an empty asm naming the block at the start of each, and this
 * pass, right after expansion, before any RTL pass has moved an insn, notes
 * the block of every insn by its uid and deletes the markers.  Nothing of
 * them reaches the optimisers or the code: the counted build's code is the
 * program's and its counters' alone.  An insn made later (a reload, a
 * jump of the final layout, an insn split in two) has a uid of its own and
 * belongs where it is (roi-block-walk.cc).  */
#include "roi-mark.h"
#include "roi-meta.h"
#include "roi-plugin.h"
#include "rtl.h"
#include "emit-rtl.h"

/* The asm's text; with its operand, the block, it is found again below.  */
#define MARKER_TEXT "# roi block %c0"

void
roi_mark_block (basic_block bb, unsigned block)
{
  vec<tree, va_gc> *inputs = NULL;
  tree c = build_tree_list (NULL_TREE, build_string (2, "i"));
  vec_safe_push (inputs, build_tree_list (c, build_int_cst (integer_type_node, block)));
  gasm *stmt = gimple_build_asm_vec (MARKER_TEXT, inputs, NULL, NULL, NULL);
  gimple_asm_set_volatile (stmt, true);
  gimple_stmt_iterator gsi = gsi_after_labels (bb);
  gsi_insert_before (&gsi, stmt, GSI_SAME_STMT);
}

/* The block a marker names, or -1 when INSN is none.  */
static int
marker_block (rtx_insn *insn)
{
  if (!NONJUMP_INSN_P (insn))
    return -1;
  rtx body = PATTERN (insn);
  /* (x86 adds clobbers to every asm: a PARALLEL) */
  if (GET_CODE (body) == PARALLEL)
    body = XVECEXP (body, 0, 0);
  if (GET_CODE (body) != ASM_OPERANDS || strcmp (ASM_OPERANDS_TEMPLATE (body), MARKER_TEXT) != 0
      || ASM_OPERANDS_INPUT_LENGTH (body) != 1 || !CONST_INT_P (ASM_OPERANDS_INPUT (body, 0)))
    return -1;
  return (int) INTVAL (ASM_OPERANDS_INPUT (body, 0));
}

/* Per insn uid of the function marked last: its block + 1 (0: none), and
   its place in the stream.  */
static tree marked_fn;		/* compared, never dereferenced */
static vec<unsigned> block_of_uid, order_of_uid;

int
roi_mark_block_of (const rtx_insn *insn, unsigned *order)
{
  unsigned uid = INSN_UID (insn);
  if (marked_fn != current_function_decl || uid >= block_of_uid.length ()
      || !block_of_uid[uid])
    return -1;
  *order = order_of_uid[uid];
  return (int) block_of_uid[uid] - 1;
}

static unsigned int
roi_mark_execute (function *fun)
{
  unsigned nblocks;
  marked_fn = NULL_TREE;
  if (!roi_meta_function_blocks (fun->decl, &nblocks))
    return 0;
  marked_fn = fun->decl;
  unsigned n = get_max_uid () + 1;
  block_of_uid.truncate (0);
  order_of_uid.truncate (0);
  block_of_uid.safe_grow_cleared (n);
  order_of_uid.safe_grow_cleared (n);
  /* what comes before the first marker (the parameters' set-up) is the
     entry block's */
  unsigned block = 0, order = 0;
  rtx_insn *next;
  for (rtx_insn *insn = get_insns (); insn; insn = next)
    {
      next = NEXT_INSN (insn);
      int b = marker_block (insn);
      if (b >= 0)
	{
	  block = (unsigned) b;
	  delete_insn (insn);
	  continue;
	}
      if (INSN_P (insn) && INSN_UID (insn) < (int) n)
	{
	  block_of_uid[INSN_UID (insn)] = block + 1;
	  order_of_uid[INSN_UID (insn)] = order++;
	}
    }
  return 0;
}

#define PASS_NAME roi_mark
#define PASS_TYPE RTL_PASS
#include "roi-generate-pass.h"
