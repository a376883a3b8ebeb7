/* roi-counters-avr.cc — AVR's counter updates, by inline asms that take no
 * register.
 *
 * A 32-bit load-add-store takes four of an 8-bit core's registers at the
 * start of every block, and at -Os, where every register is in use, the
 * register allocator spills values around it that the program alone keeps in
 * registers: the counted build's spills, frame accesses and jumps would not
 * be the plain build's.  An asm updates the counter a byte at a time through
 * __tmp_reg__ instead, the carry on only where a byte wrapped; a value
 * counter's asm takes the amount as its one register operand, a float add's
 * computes the alignment passes from the operands __addsf3 takes anyway, a
 * conversion's its normalisation passes from its operand, and
 * a division's adds the steps the counting division routines (roi-divide.cc)
 * left in a byte.  Every asm's first operand is the counter's address, which
 * roi_block_walk_counter reads back after register allocation.  */
#include "roi-counters-avr.h"
#include "roi-counters.h"
#include "roi-divide.h"
#include "roi-plugin.h"

/* Whether counters are updated by the AVR asms below, which take no register
   (or only the amount's): at every width (a 16-bit one saturates in the asm
   as its increments do), not atomic ones.  */
bool
roi_avr_counters (void)
{
  return roi_opts.avr_asm_increment && !roi_counters_atomic ();
}

/* Whether the increments are (roi_avr_increment): at every width, not atomic.  */
bool
roi_avr_increments (void)
{
  return roi_opts.avr_asm_increment && !roi_counters_atomic ();
}

/* The rest of an AVR counter update in TEXT after N characters: from byte
   FROM of the counter (asm operand %OPERAND) up, each byte incremented
   through __tmp_reg__ only when the one before carried (BRANCH: brcc after
   an add, brne after an inc), to LABEL.  Returns the length.  */
static size_t
avr_carry_on (char *text, size_t size, size_t n, int operand, int from, const char *branch,
	      int label)
{
  for (int byte = from; byte < roi_opts.counter_bits / 8; byte++)
    n += snprintf (text + n, size - n,
		   "\n\t%s %df\n\tlds __tmp_reg__,%%%d+%d\n\tinc __tmp_reg__\n\tsts %%%d+%d,__tmp_reg__",
		   byte == from ? branch : "brne", label, operand, byte, operand, byte);
  n += snprintf (text + n, size - n, "\n%d:", label);
  gcc_assert (n + 1 < size);
  return n;
}

/* What the core the carry routines (avr_carry_routine) are written for
   has, from the architecture cc1 was given (-mmcu=avr5: the driver turns
   the part's name into its architecture and options), which no target
   independent hook of GCC's says.  (Whether it has call, or only rcall with
   all of its 8 KB in reach, GCC's %~ says in the asm.)  */
struct avr_core
{
  bool known;      /* an architecture the routines are written for */
  bool elpm;       /* flash past 64 KB: elpm through RAMPZ */
  bool pc3;        /* a 22-bit PC: three bytes of return address */
  bool lpmx;       /* lpm (or elpm) Rd,Z+: not avr2's, nor avr31's elpm */
  bool sp8;        /* no SPH (-msp8) */
};

static const struct avr_core *
avr_core (void)
{
  static struct avr_core core;
  static bool read;
  if (read)
    return &core;
  read = true;
  const char *arch = NULL;
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const char *o = save_decoded_options[i].orig_option_with_args_text;
      if (!o)
	continue;
      if (!strncmp (o, "-mmcu=", 6))
	arch = o + 6;
      else if (!strcmp (o, "-msp8"))
	core.sp8 = true;
    }
  if (!arch)
    return &core;
  /* (avr1 has no C; avrtiny keeps the inline carry, avr_carry_routines) */
  static const struct
  {
    const char *name;
    bool elpm, pc3, lpmx;
  } archs[] = {
    {"avr2", false, false, false},      {"avr25", false, false, true},
    {"avr3", false, false, true},       {"avr31", true, false, false},
    {"avr35", false, false, true},      {"avr4", false, false, true},
    {"avr5", false, false, true},       {"avr51", true, false, true},
    {"avr6", true, true, true},         {"avrxmega2", false, false, true},
    {"avrxmega3", false, false, true},  {"avrxmega4", true, false, true},
    {"avrxmega5", true, false, true},   {"avrxmega6", true, true, true},
    {"avrxmega7", true, true, true},
  };
  for (size_t i = 0; i < ARRAY_SIZE (archs); i++)
    if (!strcmp (arch, archs[i].name))
      {
	core.known = true;
	core.elpm = archs[i].elpm;
	core.pc3 = archs[i].pc3;
	core.lpmx = archs[i].lpmx;
      }
  return &core;
}

/* Whether a counter's carry past its first byte is a call of a routine
   shared by the whole firmware (avr_store_and_carry) rather than inline: on
   the cores the routine is written for, not avrtiny (whose sts is a one-word
   instruction with a 7-bit address, and __tmp_reg__ r16).  */
static bool
avr_carry_routines (void)
{
  return avr_core ()->known && roi_opts.counter_bits >= 16 && roi_opts.counter_bits <= 64;
}

/* Which carry routines the unit calls, by counter width and first byte
   carried into (avr_carry_bit): emitted at the end of the
   unit (roi_avr_emit_carry_routines).  */
static unsigned avr_carry_used;

static unsigned
avr_carry_bit (int bits, int from)
{
  return 1u << ((bits == 16 ? 0 : bits == 32 ? 8 : 16) + from);
}

/* The end of a counter update whose byte FROM - 1 (asm operand %OPERAND)
   is in __tmp_reg__, not yet stored, with the carry out of it in SREG
   (BRANCH skips the carry: brcc after an add, brne after an inc): the store,
   and the carry into bytes FROM and up, to LABEL.  Where the routines fit,
   a call of one, __roi_avr_carry<bits>_<from>, which reads the counter's
   address from the store after the call (its return address), so that the
   linker's relaxation of call to rcall moves nothing it reads; 6 bytes
   where the inline carry takes 12 a byte.  The routine carries into the
   higher bytes and returns __tmp_reg__ as it was, or for a 16-bit counter
   that carried out of its top byte, 255: both bytes stay 255 (saturated).
   Returns the length.  */
static size_t
avr_store_and_carry (char *text, size_t size, size_t n, int operand, int from,
		     const char *branch, int label)
{
  int bits = roi_opts.counter_bits;
  if (avr_carry_routines () && from < bits / 8)
    {
      n += snprintf (text + n, size - n,
		     "\n\t%s %df\n\t%%~call __roi_avr_carry%d_%d\n%d:\tsts %%%d+%d,__tmp_reg__", branch,
		     label, bits, from, label, operand, from - 1);
      avr_carry_used |= avr_carry_bit (bits, from);
      gcc_assert (n + 1 < size);
      return n;
    }
  n += snprintf (text + n, size - n, "\n\tsts %%%d+%d,__tmp_reg__", operand, from - 1);
  if (bits == 16)
    {
      /* (where the top byte wraps, both bytes 255) */
      n += snprintf (text + n, size - n,
		     "\n\t%s %df\n\tlds __tmp_reg__,%%%d+1\n\tinc __tmp_reg__\n\tbrne 2f"
		     "\n\tdec __tmp_reg__\n\tsts %%%d+0,__tmp_reg__\n2:\tsts %%%d+1,__tmp_reg__\n%d:",
		     branch, label, operand, operand, operand, label);
      gcc_assert (n + 1 < size);
      return n;
    }
  return avr_carry_on (text, size, n, operand, from, branch, label);
}

/* The carry routine for counters of BITS whose bytes FROM and up take the
   carry, in TEXT.  Called with the counter's byte FROM - 1 in __tmp_reg__
   and the return address at an `sts k,__tmp_reg__` (avr_store_and_carry),
   it reads k, the address of that byte, from the flash (lpm, or elpm
   through RAMPZ past 64 KB), and increments the bytes above it while they
   wrap, or, for a 16-bit counter whose top byte wraps, leaves it 255 and
   returns 255 in __tmp_reg__.  It saves every register it takes (Z, RAMPZ,
   __tmp_reg__; __zero_reg__, where the core has no lpm Rd,Z+, is zero
   again on the way out) and leaves SREG's I bit alone: the asms that call
   it take no register.  No movw, which the smallest cores lack; the stack
   pointer read through Z, which is saved first.  */
static void
avr_carry_routine (char *text, size_t size, int bits, int from)
{
  const struct avr_core *core = avr_core ();
  char name[32];
  snprintf (name, sizeof name, "__roi_avr_carry%d_%d", bits, from);
  /* where the return address lies above SP: the saved r0, r30, r31 (and
     RAMPZ), then its high byte (or three bytes: its top one first) */
  int saved = 3 + core->elpm;
  int hi = saved + 1 + core->pc3, lo = hi + 1;
  size_t n = snprintf (text, size,
		       "\t.pushsection .text.%s,\"axG\",@progbits,%s,comdat\n"
		       "\t.global %s\n\t.type %s,@function\n%s:\n"
		       "\tpush r0\n\tpush r30\n\tpush r31\n",
		       name, name, name, name, name);
  if (core->elpm)
    n += snprintf (text + n, size - n, "\tin r0,__RAMPZ__\n\tpush r0\n");
  n += snprintf (text + n, size - n, "\tin r30,__SP_L__\n\t%s\n",
		 core->sp8 ? "clr r31" : "in r31,__SP_H__");
  if (core->pc3)
    /* (RAMPZ holds the top byte while Z is loaded) */
    n += snprintf (text + n, size - n, "\tldd r0,Z+%d\n\tout __RAMPZ__,r0\n", saved + 1);
  n += snprintf (text + n, size - n, "\tldd r0,Z+%d\n\tldd r31,Z+%d\n\tmov r30,r0\n", lo, hi);
  if (core->pc3)
    n += snprintf (text + n, size - n, "\tin r0,__RAMPZ__\n");
  else if (core->elpm)
    n += snprintf (text + n, size - n, "\tclr r0\n");
  /* the sts's second word, k: its word address, then byte address (the
     bits past 16 into RAMPZ) */
  n += snprintf (text + n, size - n, "\tadiw r30,1\n");
  if (core->elpm)
    n += snprintf (text + n, size - n, "\tadc r0,__zero_reg__\n");
  n += snprintf (text + n, size - n, "\tlsl r30\n\trol r31\n");
  const char *lpm = core->elpm ? "elpm" : "lpm";
  if (core->elpm)
    n += snprintf (text + n, size - n, "\trol r0\n\tout __RAMPZ__,r0\n");
  if (core->lpmx)
    n += snprintf (text + n, size - n, "\t%s r0,Z+\n\t%s r31,Z\n\tmov r30,r0\n", lpm, lpm);
  else
    /* (Z even: the increment to k's high byte carries out of nothing) */
    n += snprintf (text + n, size - n,
		   "\t%s\n\tmov __zero_reg__,r0\n\tinc r30\n\t%s\n\tmov r31,r0\n"
		   "\tmov r30,__zero_reg__\n\tclr __zero_reg__\n", lpm, lpm);
  /* Z: the counter's byte FROM - 1 */
  int top = bits / 8 - from;
  for (int byte = 1; byte <= top; byte++)
    {
      n += snprintf (text + n, size - n, "\tldd r0,Z+%d\n\tinc r0\n", byte);
      if (bits == 16)
	/* the top byte wrapped: it stays 255, and so does the low one */
	n += snprintf (text + n, size - n, "\tbreq 2f\n\tstd Z+%d,r0\n", byte);
      else
	n += snprintf (text + n, size - n, "\tstd Z+%d,r0\n%s", byte,
		       byte < top ? "\tbrne 1f\n" : "");
    }
  const char *restore = core->elpm ? "\tpop r0\n\tout __RAMPZ__,r0\n\tpop r31\n\tpop r30\n\tpop r0\n"
				   : "\tpop r31\n\tpop r30\n\tpop r0\n";
  n += snprintf (text + n, size - n, "1:\n%s\tret\n", restore);
  if (bits == 16)
    n += snprintf (text + n, size - n, "2:\n%s\tclr r0\n\tdec r0\n\tret\n", restore);
  n += snprintf (text + n, size - n, "\t.size %s,.-%s\n\t.popsection\n", name, name);
  gcc_assert (n + 1 < size);
}

/* The carry routines the unit's counters call, each in a COMDAT group of
   its own, so that one copy of each is linked.  */
void
roi_avr_emit_carry_routines (void)
{
  static char text[2048];
  for (int bits = 16; bits <= 64; bits *= 2)
    for (int from = 1; from < bits / 8; from++)
      if (avr_carry_used & avr_carry_bit (bits, from))
	{
	  avr_carry_routine (text, sizeof text, bits, from);
	  fputs (text, asm_out_file);
	}
}

/* A tree list of asm operands: CONSTRAINT and VALUE appended to LIST.  */
static void
asm_operand (vec<tree, va_gc> **list, const char *constraint, tree value)
{
  tree c = build_tree_list (NULL_TREE, build_string (strlen (constraint) + 1, constraint));
  vec_safe_push (*list, build_tree_list (c, value));
}

/* counters[idx] += AMOUNT, a value of 8 or 16 bits or a constant below
   65536, on AVR, + 1 where PLUS_ONE (the carry set before the add): its
   bytes added to the counter's low ones through __tmp_reg__, the carry on
   like roi_avr_increment's; a 16-bit counter that carries out of its top
   byte saturates at 65535, as its increments do.  A value is the asm's one
   register operand, where a 32-bit load-add-store takes eight besides it
   and, at -Os, spills the program's values around a shift by a variable
   amount or a memcpy.  A constant the asm loads itself, a byte at a time
   into a scratch register (ldi leaves the carry alone): given as an
   operand, the constant's register would be set before the loop nest it is
   used in, by GCC's loop-invariant motion, and taken from the program's
   values throughout (kernel-conv2d's main at -Os ran 22 % longer).  */
void
roi_avr_add_count (gimple_stmt_iterator *gsi, tree ref, tree amount, bool plus_one)
{
  static char text[2][2][2][1024];
  bool constant = TREE_CODE (amount) == INTEGER_CST;
  int wide = constant ? !wi::ltu_p (wi::to_widest (amount), 256)
		      : TYPE_PRECISION (TREE_TYPE (amount)) > 8;
  char *t = text[constant][wide][plus_one];
  size_t size = sizeof text[0][0][0];
  if (!t[0])
    {
      /* operands: the counter's address and the amount, or the scratch
	 register, the address and the constant */
      int c = constant;
      const char *low = constant ? "%0" : wide ? "%A1" : "%1", *high = constant ? "%0" : "%B1";
      size_t n = snprintf (t, size, "%slds __tmp_reg__,%%%d+0\n\t%s __tmp_reg__,%s",
			   constant ? "ldi %0,lo8(%2)\n\t" : "", c,
			   plus_one ? "sec\n\tadc" : "add", low);
      if (wide)
	n += snprintf (t + n, size - n,
		       "\n\tsts %%%d+0,__tmp_reg__%s\n\tlds __tmp_reg__,%%%d+1\n\tadc __tmp_reg__,%s",
		       c, constant ? "\n\tldi %0,hi8(%2)" : "", c, high);
      if (roi_opts.counter_bits == 16 && wide)
	/* (as roi_avr_increment's: where the top byte wraps, both bytes 255) */
	n += snprintf (t + n, size - n,
		       "\n\tbrcc 2f\n\tclr __tmp_reg__\n\tdec __tmp_reg__\n\tsts %%%d+0,__tmp_reg__"
		       "\n2:\tsts %%%d+1,__tmp_reg__", c, c);
      else
	n = avr_store_and_carry (t, size, n, c, 1 + wide, "brcc", 1);
    }
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  asm_operand (&inputs, "i", build_fold_addr_expr (ref));
  tree scratch = NULL_TREE;
  if (constant)
    {
      asm_operand (&inputs, "n", fold_convert (uint16_type_node, amount));
      scratch = make_ssa_name (build_nonstandard_integer_type (8, 1));
      asm_operand (&outputs, "=d", scratch);
    }
  else
    asm_operand (&inputs, "r", amount);
  gasm *stmt = gimple_build_asm_vec (t, inputs, outputs, NULL, NULL);
  gimple_asm_set_volatile (stmt, true);
  if (scratch)
    SSA_NAME_DEF_STMT (scratch) = stmt;
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
}

/* counters[idx] += 1 on AVR without a register: a byte at a time through
   __tmp_reg__ (r0, which the register allocator never hands out), the carry
   to the next byte only when the byte wrapped to zero.  The load-add-store
   of a 32-bit counter takes four registers at the start of every block, and
   at -Os, where every register is in use, the allocator spills values around
   it that the program alone keeps in registers: the counted build's spills,
   frame accesses and jumps would not be the plain build's.  Seven cycles a
   block instead of twenty.  The counter's address is the asm's constant
   operand, which roi_block_walk_counter reads back after register
   allocation.  */
void
roi_avr_increment (gimple_stmt_iterator *gsi, tree ref)
{
  /* (at most 8 bytes of about 70 characters each) */
  static char text[1024];
  if (!text[0])
    {
      /* A 16-bit counter saturates: where the high byte wraps too, the
	 low one is 255 again and the high one stays 255.  The carry is a
	 call (avr_store_and_carry): 7 cycles and 16 bytes at either width,
	 where the inline carry took 46 bytes for a 32-bit counter and 30
	 for a 16-bit one (and the load-compare-add-store in GIMPLE 17 or 18
	 cycles, 39 bytes, and two registers).  */
      size_t n = snprintf (text, sizeof text, "lds __tmp_reg__,%%0+0\n\tinc __tmp_reg__");
      avr_store_and_carry (text, sizeof text, n, 0, 1, "brne", 1);
    }
  vec<tree, va_gc> *inputs = NULL;
  asm_operand (&inputs, "i", build_fold_addr_expr (ref));
  gasm *stmt = gimple_build_asm_vec (text, inputs, NULL, NULL, NULL);
  gimple_asm_set_volatile (stmt, true);
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
}

/* counters[idx] += the alignment passes of a float add or subtract of A and
   B, on AVR in one asm before GSI, where the GIMPLE expression's temporaries
   (float_alignment_passes) would take registers beside the operands and
   spill the program's values around them.  */
void
roi_avr_float_passes (gimple_stmt_iterator *gsi, tree ref, tree a, tree b)
{
  /* The same passes as float_alignment_passes: each exponent from the top
     two bytes (the high byte shifted left, the next byte's top bit in), d =
     |ea - eb| and, for d <= 32, d / 8 + d % 8 added to the counter's low
     byte and carried on.  One scratch register (cpi and andi take an upper
     one) besides the operands, which __addsf3 is about to take in registers
     anyway.  */
  static char text[1536];
  if (!text[0])
    {
      size_t n = snprintf (text, sizeof text,
			   "mov %%0,%%C2\n\tlsl %%0\n\tmov %%0,%%D2\n\trol %%0\n\t"
			   "mov __tmp_reg__,%%C3\n\tlsl __tmp_reg__\n\tmov __tmp_reg__,%%D3\n\t"
			   "rol __tmp_reg__\n\tsub %%0,__tmp_reg__\n\tbrcc 2f\n\tneg %%0\n"
			   "2:\tcpi %%0,33\n\tbrsh 3f\n\tmov __tmp_reg__,%%0\n\tandi %%0,7\n\t"
			   "lsr __tmp_reg__\n\tlsr __tmp_reg__\n\tlsr __tmp_reg__\n\t"
			   "add %%0,__tmp_reg__\n\t"
			   "lds __tmp_reg__,%%1+0\n\tadd __tmp_reg__,%%0");
      /* (label 3 is past the update, where d > 32 goes) */
      n = avr_store_and_carry (text, sizeof text, n, 1, 1, "brcc", 4);
      snprintf (text + n, sizeof text - n, "\n3:");
    }
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  asm_operand (&inputs, "i", build_fold_addr_expr (ref));
  asm_operand (&inputs, "r", a);
  asm_operand (&inputs, "r", b);
  tree scratch = make_ssa_name (build_nonstandard_integer_type (8, 1));
  asm_operand (&outputs, "=&d", scratch);
  gasm *asm_stmt = gimple_build_asm_vec (text, inputs, outputs, NULL, NULL);
  gimple_asm_set_volatile (asm_stmt, true);
  SSA_NAME_DEF_STMT (scratch) = asm_stmt;
  gsi_insert_before (gsi, asm_stmt, GSI_SAME_STMT);
}

/* counters[idx] += the normalisation passes of a conversion between a
   single and an integer, on AVR in one asm before GSI, as the value sites'
   expressions count them (roi-value-sites.cc, int_float_passes and
   float_int_passes), taking no register but its operand's, which the
   conversion's routine is about to take anyway: a scratch register, and
   the magnitude of a signed integer computed before the asm, spilled the
   program's values around every conversion at -O1 and above
   (micro-float-conv's main at -Os 42 spilled bytes uncounted, 82 so), and
   the per-operation estimate, which prices the counted build's spills,
   rose 5.8 %.
   An integer X (TO_FLOAT), of its own 8, 16 or 32 bits (a narrower one
   takes fewer registers; the bytes the routine's 32 bits add are 0 in
   |x|), is read in __tmp_reg__ and __zero_reg__ (cleared after): the top
   byte of |x| that is not 0, its significant bits where it is the top one
   of 32 bits, else its leading zeros; 0 for 0.  A single X comes as its top
   half, the two bytes of its biased exponent e (as roi_avr_float_passes
   reads them): d / 8 + d % 8 for d = 150 - e with e from 127 to 150, e -
   150 from 151 to 158, 0 below and above.  */
void
roi_avr_conversion_passes (gimple_stmt_iterator *gsi, tree ref, tree x, bool to_float)
{
  /* [an integer's bytes 1, 2 or 4][signed], or a single's */
  static char text[3][2][2048], single[2048];
  static const char letter[] = "ABCD";
  unsigned bytes = TYPE_PRECISION (TREE_TYPE (x)) / 8;
  bool is_signed = to_float && !TYPE_UNSIGNED (TREE_TYPE (x));
  char *t = to_float ? text[bytes == 4 ? 2 : bytes - 1][is_signed] : single;
  size_t size = sizeof single, n = 0;
  if (to_float && !t[0])
    {
      /* Each byte of |x| from the top: where it is not 0, __tmp_reg__ holds
	 it, and it is the top byte of 32 bits (2: its significant bits, the
	 shifts right) or a lower one (3: its leading zeros, the shifts left).
	 A negative x's: its own byte complemented, plus one where the bytes
	 below are all 0 (the negation's carry reaches it), __zero_reg__ the
	 bytes below or'ed.  */
      if (is_signed)
	{
	  n += snprintf (t + n, size - n, "sbrs %%%c1,7\n\trjmp 1f\n", letter[bytes - 1]);
	  for (int i = bytes - 1; i > 0; i--)
	    {
	      n += snprintf (t + n, size - n, "\tmov __zero_reg__,%%A1\n");
	      for (int k = 1; k < i; k++)
		n += snprintf (t + n, size - n, "\tor __zero_reg__,%%%c1\n", letter[k]);
	      n += snprintf (t + n, size - n,
			     "\tmov __tmp_reg__,%%%c1\n\tcom __tmp_reg__\n\ttst __zero_reg__\n\t"
			     "brne 8f\n\tinc __tmp_reg__\n8:\ttst __tmp_reg__\n\tbrne %df\n",
			     letter[i], i == 3 ? 2 : 3);
	    }
	  n += snprintf (t + n, size - n, "\tmov __tmp_reg__,%%A1\n\tneg __tmp_reg__\n\trjmp %df\n",
			 bytes == 4 ? 3 : 3);
	}
      n += snprintf (t + n, size - n, "1:");
      for (int i = bytes - 1; i >= 0; i--)
	n += snprintf (t + n, size - n, "\tmov __tmp_reg__,%%%c1\n\ttst __tmp_reg__\n\t%s %df\n",
		       letter[i], i ? "brne" : "breq", i == 3 ? 2 : i ? 3 : 7);
      n += snprintf (t + n, size - n, "%s",
		     "3:\tclr __zero_reg__\n9:\tlsl __tmp_reg__\n\tbrcs 4f\n\tinc __zero_reg__\n\trjmp 9b\n"
		     "2:\tclr __zero_reg__\n9:\tinc __zero_reg__\n\tlsr __tmp_reg__\n\tbrne 9b\n"
		     "4:\tlds __tmp_reg__,%0+0\n\tadd __tmp_reg__,__zero_reg__\n\tsts %0+0,__tmp_reg__\n\t"
		     "clr __zero_reg__");
      /* (clr leaves the carry alone) */
      avr_carry_on (t, size, n, 0, 1, "brcc", 7);
    }
  else if (!t[0])
    {
      /* X is the single's top half: its biased exponent e in r16, saved
	 around it once the operand is read (the constants need an upper
	 register) */
      n = snprintf (t, size, "%s",
		    "mov __tmp_reg__,%A1\n\tlsl __tmp_reg__\n\tmov __tmp_reg__,%B1\n\t"
		    "rol __tmp_reg__\n\tpush r16\n\tmov r16,__tmp_reg__\n\t"
		    "subi r16,127\n\tbrcs 5f\n\tcpi r16,32\n\tbrsh 5f\n\tcpi r16,24\n\tbrsh 4f\n\t"
		    "neg r16\n\tsubi r16,-23\n\tmov __tmp_reg__,r16\n\tandi r16,7\n\t"
		    "lsr __tmp_reg__\n\tlsr __tmp_reg__\n\tlsr __tmp_reg__\n\t"
		    "add r16,__tmp_reg__\n\trjmp 6f\n"
		    "4:\tsubi r16,23\n\trjmp 6f\n"
		    "5:\tclr r16\n"
		    "6:\tlds __tmp_reg__,%0+0\n\tadd __tmp_reg__,r16\n\tsts %0+0,__tmp_reg__\n\t"
		    "pop r16");
      /* (pop leaves the carry alone) */
      avr_carry_on (t, size, n, 0, 1, "brcc", 7);
    }
  vec<tree, va_gc> *inputs = NULL;
  asm_operand (&inputs, "i", build_fold_addr_expr (ref));
  asm_operand (&inputs, "r", x);
  gasm *asm_stmt = gimple_build_asm_vec (t, inputs, NULL, NULL, NULL);
  gimple_asm_set_volatile (asm_stmt, true);
  gsi_insert_before (gsi, asm_stmt, GSI_SAME_STMT);
}

/* Whether the division routines' copies fit the core (roi-divide.cc): not
   the reduced one of avrtiny, which has no r0 to r15 (GCC marks them fixed
   there), whose libgcc divides in other registers.  By that fact rather
   than by the -mmcu option, which the plugin has no target-independent way
   to read.  */
static bool
avr_division_routines_fit (void)
{
  int r2 = decode_reg_name ("r2");
  return r2 >= 0 && !fixed_regs[r2];
}

/* Where to read the steps of the division STMT: after the statement that
   expands it.  GCC expands a value used once, in the same block, where it is
   used (temporary expression replacement), so a division whose quotient
   feeds an addition that feeds a store is computed at the store: the chain
   of single uses ends there, and the read goes after it.  A read further on
   than GCC's expansion loses no step, they wait, but may take a later
   division's with its own.  An asm that used the quotient would keep it
   computed where it is written, and the program's values around it
   spilled (micro-div32's main accessed the frame 82 times where the
   uncounted build does 46).  A chain that ends in the block's branch,
   switch or return, which no asm can follow, is read before it, with the
   value that statement uses as the asm's input, which is computed there
   anyway.  Returns the statement to insert after, or before when *BEFORE is
   set, and in *INPUT that value.  */
static roi_stmt
division_read_point (roi_stmt stmt, bool *before, tree *input)
{
  roi_stmt cur = stmt;
  *before = false;
  *input = NULL_TREE;
  while (is_gimple_assign (cur))
    {
      tree lhs = gimple_assign_lhs (cur);
      use_operand_p use_p;
      roi_stmt use;
      if (TREE_CODE (lhs) != SSA_NAME || !single_imm_use (lhs, &use_p, &use)
	  || gimple_bb (use) != gimple_bb (stmt) || gimple_code (use) == GIMPLE_PHI)
	break;
      /* (not optimising, GCC replaces only within one location and scope:
	 read on the division's line, where the rows at -O0 put its cycles,
	 not at a later line's where another division's read would take its
	 steps) */
      if ((!optimize || optimize_debug)
	  && (LOCATION_LOCUS (gimple_location (use)) != LOCATION_LOCUS (gimple_location (cur))
	      || LOCATION_BLOCK (gimple_location (use)) != LOCATION_BLOCK (gimple_location (cur))))
	break;
      if (stmt_ends_bb_p (use))
	{
	  *before = true;
	  /* (a scalar in registers: what an asm input can take) */
	  if (INTEGRAL_TYPE_P (TREE_TYPE (lhs)) || POINTER_TYPE_P (TREE_TYPE (lhs))
	      || SCALAR_FLOAT_TYPE_P (TREE_TYPE (lhs)))
	    *input = lhs;
	  return use;
	}
      cur = use;
    }
  return cur;
}

/* Whether a division's quotient bits are the steps the AVR division
   routines count (roi-divide.cc) whatever the counters' width: not the
   popcount of the quotient in GIMPLE, which also counts a division avr-gcc
   computes without a routine (at -O0 a 16-bit one by a constant, a
   reciprocal multiply), so that 16- and 32-bit counters agree.  Not atomic
   counters: the asm's update is not.  */
bool
roi_avr_division_steps_counted (void)
{
  return roi_opts.avr_asm_increment && !roi_opts.atomic && avr_division_routines_fit ();
}

/* counters[idx] += the steps that subtracted in the division STMT of
   QUOTIENT's width, on AVR, where the division routines count them
   themselves (roi-divide.cc, a byte per width): an asm where the division
   has been computed (division_read_point) adds that byte to the counter's
   low byte through __zero_reg__, clears both and carries on; a 16-bit
   counter that carries out of its top byte saturates at 65535, as its
   block counters do.  It takes no register.  Nothing clears the byte before the division: the steps of a
   routine the program calls outside a counted site (code built without
   roi) go to the next site read.  The asm's first operand is the counter's
   address, as every counter asm's (roi_block_walk_counter).  */
void
roi_avr_division_steps (roi_stmt stmt, tree ref, tree quotient)
{
  static char text[2][1024];
  bool wide = TYPE_PRECISION (TREE_TYPE (quotient)) > 16;
  char *t = text[wide];
  if (!t[0])
    {
      const char *steps = wide ? ROI_DIVISION_STEPS_32 : ROI_DIVISION_STEPS_16;
      /* (clr, an eor, leaves the add's carry alone) */
      size_t n = snprintf (t, sizeof text[0],
			   "lds __zero_reg__,%s\n\tlds __tmp_reg__,%%0+0\n\t"
			   "add __tmp_reg__,__zero_reg__\n\tclr __zero_reg__\n\t"
			   "sts %s,__zero_reg__", steps, steps);
      avr_store_and_carry (t, sizeof text[0], n, 0, 1, "brcc", 1);
    }
  bool before;
  tree input;
  roi_stmt at = division_read_point (stmt, &before, &input);
  vec<tree, va_gc> *inputs = NULL;
  asm_operand (&inputs, "i", build_fold_addr_expr (ref));
  if (input)
    asm_operand (&inputs, "r", input);
  gasm *read = gimple_build_asm_vec (t, inputs, NULL, NULL, NULL);
  gimple_asm_set_volatile (read, true);
  gimple_stmt_iterator gsi = gsi_for_stmt (at);
  if (before)
    gsi_insert_before (&gsi, read, GSI_SAME_STMT);
  else
    gsi_insert_after (&gsi, read, GSI_NEW_STMT);
  roi_divide_routines_used |= wide ? ROI_DIVIDE_32 : ROI_DIVIDE_16;
}

/* Whether roi_avr_add_count takes an amount of TYPE: unsigned, of 8 or 16 bits.  */
static bool
avr_add_type_p (const_tree type)
{
  return INTEGRAL_TYPE_P (type) && TYPE_UNSIGNED (type)
	 && (TYPE_PRECISION (type) == 8 || TYPE_PRECISION (type) == 16);
}

/* AMOUNT, or the unsigned value it was widened from, the same number: C
   promotes a shift's amount to int, (int) s for a uint8_t s, while avr-gcc
   shifts by the byte s itself.  Given the int, the asm needs a zero-extended
   copy in two registers that the program has no use for: at -O2 the copies
   of micro-shift-var's loop-invariant amounts, kept live beside the
   program's values, took its main from 44 frame accesses to 166.  */
static tree
narrowest_amount (tree amount)
{
  while (TREE_CODE (amount) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (amount))
    {
      roi_stmt def = SSA_NAME_DEF_STMT (amount);
      if (!is_gimple_assign (def) || !CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def)))
	break;
      tree from = gimple_assign_rhs1 (def);
      /* (one the asm takes: a bool's one bit would take the 32-bit
	 load-add-store instead) */
      if (TREE_CODE (from) != SSA_NAME || !avr_add_type_p (TREE_TYPE (from))
	  || TYPE_PRECISION (TREE_TYPE (from)) > TYPE_PRECISION (TREE_TYPE (amount)))
	break;
      amount = from;
    }
  return amount;
}

/* Whether STMT is a shift or rotate, whose value counter counts by its
   amount, not a call's length.  */
static bool
shift_amount_p (roi_stmt stmt)
{
  if (!is_gimple_assign (stmt))
    return false;
  switch (gimple_assign_rhs_code (stmt))
    {
    case LSHIFT_EXPR:
    case RSHIFT_EXPR:
    case LROTATE_EXPR:
    case RROTATE_EXPR:
      return true;
    default:
      return false;
    }
}

/* counters[idx] += *AMOUNT before GSI, the value counter of STMT, by an asm
   where the amount is one it takes (a shift's amount narrowed to the byte
   avr-gcc shifts by); false where it is not, *AMOUNT then what the plain
   update adds.  */
bool
roi_avr_add (gimple_stmt_iterator *gsi, roi_stmt stmt, tree ref, tree *amount)
{
  tree value = narrowest_amount (*amount);
  /* A shift's amount is below 64 where the shift is defined (a 64-bit
     shift's passes below 15), and avr-gcc shifts by its low byte: the asm
     takes that byte, as the shift does, where the int's high byte is
     computed for nobody else (24 - off - w, in int since C promotes).  */
  if (shift_amount_p (stmt) && INTEGRAL_TYPE_P (TREE_TYPE (value))
      && (TYPE_PRECISION (TREE_TYPE (value)) > 8 || !TYPE_UNSIGNED (TREE_TYPE (value))))
    {
      tree byte = make_ssa_name (unsigned_char_type_node);
      gsi_insert_before (gsi, gimple_build_assign (byte, NOP_EXPR, value), GSI_SAME_STMT);
      value = byte;
    }
  *amount = value;
  if (!avr_add_type_p (TREE_TYPE (value)))
    return false;
  roi_avr_add_count (gsi, ref, value, false);
  return true;
}

/* counters[idx] += 1 where X < Y, on AVR by an asm before GSI that takes no
   register but the operands', which the statement counted (a minimum or
   maximum, a signed division by 2^k: roi_taken_operands) has in registers
   anyway: a test of the sign bit of X (sbrs) where Y is 0, else a compare
   of their bytes (cp, cpc; a constant's bytes loaded by ldi into a scratch
   upper register, flags untouched), and a branch over roi_avr_increment's
   update.  A bool computed in GIMPLE and added would take a register of its
   own and the code that makes it.  False for an operand of more than 4
   bytes (the operand letters are A to D), added in GIMPLE instead.  */
bool
roi_avr_taken (gimple_stmt_iterator *gsi, tree ref, tree x, tree y)
{
  int bytes = TYPE_PRECISION (TREE_TYPE (x)) / 8;
  if (bytes < 1 || bytes > 4 || (bytes & (bytes - 1)))
    return false;
  bool sign = integer_zerop (y) && !TYPE_UNSIGNED (TREE_TYPE (x))
	      && TREE_CODE (x) != INTEGER_CST;
  bool cx = TREE_CODE (x) == INTEGER_CST, cy = TREE_CODE (y) == INTEGER_CST;
  if (cx && cy)
    return false;
  /* operands: the counter's address first (roi_block_walk_counter), then X,
     Y; a scratch register, when one is a constant, is output 0 */
  int scratch = (cx || cy) && !sign;
  int addr = scratch, ox = scratch + 1, oy = scratch + 2;
  char text[1536];
  size_t n = 0, size = sizeof text;
  if (sign)
    n += snprintf (text + n, size - n, "sbrs %%%c%d,7\n\trjmp 3f", 'A' + bytes - 1, ox);
  else
    {
      for (int i = 0; i < bytes; i++)
	{
	  char rx[16], ry[16];
	  if (cx)
	    n += snprintf (text + n, size - n, "ldi %%0,%s(%%%d)\n\t",
			   i == 0 ? "lo8" : i == 1 ? "hi8" : i == 2 ? "hlo8" : "hhi8", ox);
	  if (cy)
	    n += snprintf (text + n, size - n, "ldi %%0,%s(%%%d)\n\t",
			   i == 0 ? "lo8" : i == 1 ? "hi8" : i == 2 ? "hlo8" : "hhi8", oy);
	  snprintf (rx, sizeof rx, cx ? "%%0" : "%%%c%d", 'A' + i, ox);
	  snprintf (ry, sizeof ry, cy ? "%%0" : "%%%c%d", 'A' + i, oy);
	  n += snprintf (text + n, size - n, "%s %s,%s\n\t", i ? "cpc" : "cp", rx, ry);
	}
      /* past the update unless X < Y */
      n += snprintf (text + n, size - n, "%s 3f", TYPE_UNSIGNED (TREE_TYPE (x))
		     || POINTER_TYPE_P (TREE_TYPE (x)) ? "brsh" : "brge");
    }
  n += snprintf (text + n, size - n, "\n\tlds __tmp_reg__,%%%d+0\n\tinc __tmp_reg__\n\t"
		 "sts %%%d+0,__tmp_reg__", addr, addr);
  n = avr_carry_on (text, size, n, addr, 1, "brne", 1);
  n += snprintf (text + n, size - n, "\n3:");
  gcc_assert (n + 1 < size);

  vec<tree, va_gc> *inputs = NULL, *outputs = NULL;
  asm_operand (&inputs, "i", build_fold_addr_expr (ref));
  asm_operand (&inputs, cx ? "n" : "r", x);
  asm_operand (&inputs, cy || sign ? "n" : "r", y);
  tree out = NULL_TREE;
  if (scratch)
    {
      out = make_ssa_name (build_nonstandard_integer_type (8, 1));
      asm_operand (&outputs, "=&d", out);
    }
  gasm *stmt = gimple_build_asm_vec (ggc_strdup (text), inputs, outputs, NULL, NULL);
  gimple_asm_set_volatile (stmt, true);
  if (out)
    SSA_NAME_DEF_STMT (out) = stmt;
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
  return true;
}
