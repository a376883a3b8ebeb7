/* machine/thumb.c — Thumb-2 instructions (ARMv7-M, Cortex-M4 with FPv4-SP) decoded and timed
 * (isa.h).
 *
 * Encodings: the ARMv7-M Architecture Reference Manual, A5 and A7. Cycles: the Cortex-M4 TRM
 * r0p1, Table 3-1, and its FPU's table, the numbers contrib/models/derive.py prices the derived
 * STM32F401RE model with: most instructions 1; LDR/STR 2, 1 when pipelined after a single load;
 * LDRD/STRD 3; LDM/STM/PUSH/POP 1 + registers; SDIV/UDIV 7 (the TRM's 2 to 12, by the operands);
 * a taken branch 1 + P and a not-taken one 1, P = 2 (the TRM's 1 to 3) + the flash wait states
 * the model names; VDIV/VSQRT 14, VMLA 3, VLDR/VSTR 2 (3 for a double), VPUSH/VPOP 1 + registers.
 * No cycle-exact Cortex-M simulator is at hand to check the cycles; QEMU checks the instructions
 * (bench/machine.sh). */
#include <string.h>

#include "machine/isa.h"

static uint16_t half(const uint8_t *code, size_t avail, size_t i)
{
	return 2 * i + 1 < avail ? (uint16_t)(code[2 * i] | code[2 * i + 1] << 8) : 0;
}

static void set(struct roi_minsn *in, const char *name, enum roi_mclass cls, double cycles)
{
	in->name = name;
	in->cls = cls;
	in->cycles = cycles;
	in->taken = cycles;
}

static unsigned bits(unsigned v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static int64_t sext(uint32_t v, unsigned width)
{
	return (int64_t)(int32_t)(v << (32 - width)) >> (32 - width);
}

/* ThumbExpandImm: a data-processing instruction's 12-bit immediate as its 32-bit value. */
static uint32_t expand_imm(unsigned imm12)
{
	uint32_t imm8 = imm12 & 0xff;

	if ((imm12 & 0xc00) == 0) {
		switch (imm12 >> 8 & 3) {
		case 0: return imm8;
		case 1: return imm8 << 16 | imm8;
		case 2: return imm8 << 24 | imm8 << 8;
		default: return imm8 << 24 | imm8 << 16 | imm8 << 8 | imm8;
		}
	}
	uint32_t v = 0x80 | (imm12 & 0x7f);
	unsigned rot = imm12 >> 7 & 0x1f;
	return v >> rot | v << (32 - rot);
}

/* A load or store of one register: 2 cycles, 1 pipelined after a single load. */
static void single(struct roi_minsn *in, struct roi_thumb_state *st, const char *name, bool load)
{
	set(in, name, ROI_MI_OP, st->prev_load ? 1 : 2);
	in->is_ldst = true;
	in->is_load = load;
	in->memory = true;
}

static void decode16(uint16_t h, struct roi_minsn *in, struct roi_thumb_state *st, double p)
{
	set(in, "alu", ROI_MI_OP, 1);
	if ((h & 0xff00) == 0x4700) {                   /* BX, BLX register */
		unsigned rm = (h >> 3) & 0xf;

		if (h & 0x80)
			set(in, "blx", ROI_MI_ICALL, 1 + p);
		else if (rm == 14)
			set(in, "bx", ROI_MI_RET, 1 + p);
		else
			set(in, "bx", ROI_MI_IJUMP, 1 + p);
	} else if ((h & 0xff00) == 0x4600 || (h & 0xff00) == 0x4400) {  /* MOV, ADD (high registers) */
		unsigned rd = (h & 7) | ((h >> 4) & 8), rm = (h >> 3) & 0xf;

		if (rd == 15)
			set(in, (h & 0xff00) == 0x4600 ? "mov" : "add", (h & 0xff00) == 0x4600 && rm == 14 ? ROI_MI_RET
			    : ROI_MI_IJUMP, 1 + p);
	} else if ((h & 0xf500) == 0xb100) {            /* CBZ, CBNZ */
		set(in, h & 0x0800 ? "cbnz" : "cbz", ROI_MI_BRANCH, 1);
		in->taken = 1 + p;
		in->target = in->addr + 4 + ((((h >> 9) & 1) << 6) | (((h >> 3) & 0x1f) << 1));
		in->has_target = true;
	} else if ((h & 0xfe00) == 0xbc00) {            /* POP */
		unsigned n = bits(h & 0xff) + ((h >> 8) & 1);

		if (h & 0x100)
			set(in, "pop", ROI_MI_RET, 1 + n + p);
		else
			set(in, "pop", ROI_MI_OP, 1 + n);
		in->memory = true;
	} else if ((h & 0xfe00) == 0xb400) {            /* PUSH */
		set(in, "push", ROI_MI_OP, 1 + bits(h & 0xff) + ((h >> 8) & 1));
		in->memory = true;
		in->sp_push = 4 * (int)(bits(h & 0xff) + ((h >> 8) & 1));
	} else if ((h & 0xff80) == 0xb080) {            /* SUB SP, SP, #imm7 */
		in->sp_push = 4 * (h & 0x7f);
	} else if (h == 0xb662) {                       /* CPSIE I */
		set(in, "cpsie", ROI_MI_OP, 1);
		in->enables_irq = true;
	} else if ((h & 0xff00) == 0xbf00) {            /* IT, hints */
		if (h & 0xf) {
			unsigned mask = h & 0xf;

			set(in, "it", ROI_MI_OP, 1);
			st->it_left = mask & 1 ? 4 : mask & 2 ? 3 : mask & 4 ? 2 : 1;
			st->prev_load = false;
			return;
		}
		set(in, "nop", ROI_MI_OP, 1);
		in->is_nop = (h & 0xf0) == 0;
	} else if ((h & 0xff00) == 0xbe00) {            /* BKPT: semihosting, the host answers */
		set(in, "bkpt", ROI_MI_OP, 1);
	} else if ((h & 0xf000) == 0xd000) {            /* B<c>, UDF, SVC */
		unsigned cond = (h >> 8) & 0xf;

		if (cond == 0xe) {
			set(in, "udf", ROI_MI_STOP, 1);
		} else if (cond == 0xf) {
			set(in, "svc", ROI_MI_OP, 1);
		} else {
			set(in, "b<c>", ROI_MI_BRANCH, 1);
			in->taken = 1 + p;
			in->target = (uint64_t)((int64_t)in->addr + 4 + sext((uint32_t)(h & 0xff) << 1, 9));
			in->has_target = true;
		}
	} else if ((h & 0xf800) == 0xe000) {            /* B */
		set(in, "b", ROI_MI_JUMP, 1 + p);
		in->target = (uint64_t)((int64_t)in->addr + 4 + sext((uint32_t)(h & 0x7ff) << 1, 12));
		in->has_target = true;
	} else if ((h & 0xf800) == 0x4800) {            /* LDR literal */
		single(in, st, "ldr", true);
		in->pc_relative = true;
		in->rd = (h >> 8) & 7;
	} else if ((h & 0xf800) == 0xa000) {            /* ADR */
		set(in, "adr", ROI_MI_OP, 1);
		in->pc_relative = true;
		in->rd = (h >> 8) & 7;
	} else if ((h & 0xf000) == 0x5000) {            /* load/store, register offset */
		unsigned op = (h >> 9) & 7;
		single(in, st, op < 3 ? "str" : "ldr", op >= 3);
	} else if ((h & 0xe000) == 0x6000 || (h & 0xf000) == 0x8000 || (h & 0xf000) == 0x9000) {
		single(in, st, h & 0x0800 ? "ldr" : "str", h & 0x0800);
	} else if ((h & 0xf000) == 0xc000) {            /* LDM, STM */
		set(in, h & 0x0800 ? "ldm" : "stm", ROI_MI_OP, 1 + bits(h & 0xff));
		in->memory = true;
	} else if ((h & 0xffc0) == 0x4340) {
		set(in, "mul", ROI_MI_OP, 1);
	}
}

/* A 32-bit branch's offset: B<c>.W (T3, conditional) or B.W/BL (T4). */
static int64_t branch_offset(uint16_t h1, uint16_t h2, bool conditional)
{
	uint32_t s = (h1 >> 10) & 1, j1 = (h2 >> 13) & 1, j2 = (h2 >> 11) & 1;

	if (conditional)
		return sext(s << 20 | j2 << 19 | j1 << 18 | (uint32_t)(h1 & 0x3f) << 12 | (uint32_t)(h2 & 0x7ff) << 1, 21);
	uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
	return sext(s << 24 | i1 << 23 | i2 << 22 | (uint32_t)(h1 & 0x3ff) << 12 | (uint32_t)(h2 & 0x7ff) << 1, 25);
}

static void decode32(uint16_t h1, uint16_t h2, struct roi_minsn *in, struct roi_thumb_state *st, double p)
{
	set(in, "alu.w", ROI_MI_OP, 1);
	if ((h1 & 0xf800) == 0xf000 && (h2 & 0x8000)) {        /* branches, miscellaneous control */
		unsigned cond = (h1 >> 6) & 0xf;

		if ((h2 & 0x5000) == 0x0000 && (cond >> 1) != 7) {
			set(in, "b<c>.w", ROI_MI_BRANCH, 1);
			in->taken = 1 + p;
			in->target = (uint64_t)((int64_t)in->addr + 4 + branch_offset(h1, h2, true));
			in->has_target = true;
		} else if ((h2 & 0x5000) == 0x1000) {
			set(in, "b.w", ROI_MI_JUMP, 1 + p);
			in->target = (uint64_t)((int64_t)in->addr + 4 + branch_offset(h1, h2, false));
			in->has_target = true;
		} else if ((h2 & 0x5000) == 0x5000) {
			set(in, "bl", ROI_MI_CALL, 1 + p);
			in->target = (uint64_t)((int64_t)in->addr + 4 + branch_offset(h1, h2, false));
			in->has_target = true;
		} else {
			set(in, "msr/mrs/barrier", ROI_MI_OP, 1);
		}
		return;
	}
	if ((h1 & 0xfff0) == 0xe8d0 && (h2 & 0xffe0) == 0xf000) {     /* TBB, TBH */
		set(in, h2 & 0x10 ? "tbh" : "tbb", ROI_MI_IJUMP, 2 + p);
		if ((h1 & 0xf) == 15)
			in->table_entry = h2 & 0x10 ? 2 : 1;
		return;
	}
	if ((h1 & 0xfe40) == 0xe840) {                          /* LDRD, STRD, exclusives */
		set(in, h1 & 0x10 ? "ldrd" : "strd", ROI_MI_OP, (h1 & 0x0120) ? 3 : 2);
		in->memory = true;
		return;
	}
	if ((h1 & 0xffc0) == 0xe880 || (h1 & 0xffc0) == 0xe900) {   /* LDM, STM (and their PUSH, POP) */
		bool load = h1 & 0x10;
		unsigned n = bits(h2);

		if (load && (h2 & 0x8000))
			set(in, "ldm", ROI_MI_RET, 1 + n + p);
		else
			set(in, load ? "ldm" : "stm", ROI_MI_OP, 1 + n);
		in->memory = true;
		if (h1 == 0xe92d)                               /* STMDB SP!: PUSH.W */
			in->sp_push = 4 * (int)bits(h2 & 0x5fff);
		return;
	}
	if ((h1 & 0xfe00) == 0xf800) {                          /* loads and stores of one register */
		bool load = h1 & 0x10, word = ((h1 >> 5) & 3) == 2;
		unsigned rt = h2 >> 12;

		if (load && rt == 15 && word) {
			/* ldr pc, [sp], #4: a return; through another base: a jump through a table */
			bool pop = (h1 & 0xf) == 13 && (h2 & 0x0f00) == 0x0b00;
			set(in, "ldr", pop ? ROI_MI_RET : ROI_MI_IJUMP, 2 + p);
			if (!(h1 & 0x80) && (h2 & 0x0ff0) == 0x0020)   /* [Rn, Rm, LSL #2] */
				in->table_entry = 4;
		} else if (load && rt == 15) {
			set(in, "pld", ROI_MI_OP, 1);   /* PLD, PLI: hints */
		} else {
			single(in, st, load ? "ldr.w" : "str.w", load);
			if (load && (h1 & 0xf) == 15) {         /* a literal */
				in->pc_relative = true;
				in->rd = rt;
			}
			if (h1 == 0xf84d && (h2 & 0x0fff) == 0x0d04)   /* STR Rt, [SP, #-4]! */
				in->sp_push = 4;
		}
		return;
	}
	if ((h1 & 0xff80) == 0xfb00) {                          /* MUL, MLA, MLS, SMULxy... */
		set(in, "mul.w", ROI_MI_OP, 1);
		return;
	}
	if ((h1 & 0xff80) == 0xfb80) {                          /* long multiplies, divides */
		unsigned op1 = (h1 >> 4) & 7, op2 = (h2 >> 4) & 0xf;

		if ((op1 == 1 || op1 == 3) && op2 == 0xf)
			set(in, op1 == 1 ? "sdiv" : "udiv", ROI_MI_OP, 7);
		else
			set(in, "mull", ROI_MI_OP, 1);
		return;
	}
	if ((h1 & 0xec00) == 0xec00 && (h2 & 0x0e00) == 0x0a00) {      /* FPU: coprocessors 10 and 11 */
		bool dbl = h2 & 0x100;

		if ((h1 & 0xfee0) == 0xec40) {
			set(in, "vmov", ROI_MI_OP, 2);          /* two core registers */
			return;
		}
		if ((h1 & 0xfe00) == 0xec00) {
			/* VLDR, VSTR (P = 1, W = 0); VLDM, VSTM, VPUSH, VPOP */
			if ((h1 & 0x0120) == 0x0100) {
				set(in, h1 & 0x10 ? "vldr" : "vstr", ROI_MI_OP, dbl ? 3 : 2);
				if ((h1 & 0x1f) == 0x1f) {      /* VLDR literal */
					in->pc_relative = true;
					in->rd = (h2 >> 12) | (h1 & 0x40);
				}
			}
			else
				set(in, h1 & 0x10 ? "vldm" : "vstm", ROI_MI_OP, 1 + (h2 & 0xff));
			in->memory = true;
			if ((h1 & 0xffbf) == 0xed2d)                    /* VPUSH */
				in->sp_push = 4 * (h2 & 0xff);
			return;
		}
		if ((h1 & 0xff00) == 0xee00 && !(h2 & 0x10)) {  /* data processing */
			unsigned opc1 = ((h1 >> 4) & 0xb), opc3 = (h2 >> 6) & 3;

			if (opc1 == 0x8 || (opc1 == 0xb && (h1 & 0xf) == 1 && opc3 == 3))
				set(in, opc1 == 0x8 ? "vdiv" : "vsqrt", ROI_MI_OP, 14);
			else if (opc1 == 0x0 || opc1 == 0x1 || opc1 == 0xa || opc1 == 0x9)
				set(in, "vmla", ROI_MI_OP, 3);
			else
				set(in, "vfp", ROI_MI_OP, 1);
			return;
		}
		set(in, "vmov/vmrs", ROI_MI_OP, 1);
		return;
	}
	if ((h1 & 0xfbef) == 0xf1ad && (h2 & 0x8f00) == 0x0d00)        /* SUB.W SP, SP, #const */
		in->sp_push = (int)expand_imm((h1 >> 10 & 1) << 11 | (h2 >> 12 & 7) << 8 | (h2 & 0xff));
	else if ((h1 & 0xfbff) == 0xf2ad && (h2 & 0x8f00) == 0x0d00)   /* SUBW SP, SP, #imm12 */
		in->sp_push = (int)((h1 >> 10 & 1) << 11 | (h2 >> 12 & 7) << 8 | (h2 & 0xff));
	else if (h1 == 0xebad && (h2 & 0x0f00) == 0x0d00)               /* SUB.W SP, SP, Rm */
		in->sp_by_register = true;
}

/* The core registers a 16-bit instruction writes, and what it does to one for a loop's count
 * (isa.h: reg_op). */
static void registers16(uint16_t h, struct roi_minsn *in)
{
	unsigned lo = h & 7, hi = (h >> 8) & 7;

	in->writes = 0xffff;
	/* shifts, ADD/SUB, MOVS/CMP/ADDS/SUBS #imm8, data processing, CMP (high registers) */
	in->flags = h < 0x4400 || (h & 0xff00) == 0x4500;
	if (h < 0x2000) {                                      /* shifts, ADD/SUB register or imm3 */
		in->writes = 1u << lo;
		if ((h & 0xfc00) == 0x1c00 && ((h >> 3) & 7) == lo) {       /* ADDS/SUBS rd, rd, #imm3 */
			in->reg_op = h & 0x200 ? ROI_MR_DEC : ROI_MR_INC;
			in->rd = lo;
			in->imm = (h >> 6) & 7;
		} else if ((h & 0xfe00) == 0x1c00) {                  /* ADDS rd, rn, #imm3 */
			in->reg_op = ROI_MR_ADD;
			in->rd = lo;
			in->rs = (h >> 3) & 7;
			in->imm = (h >> 6) & 7;
		}
	} else if (h < 0x4000) {                               /* MOVS, CMP, ADDS, SUBS #imm8 */
		static const enum roi_mreg_op ops[4] = {ROI_MR_LDI, ROI_MR_CMP, ROI_MR_INC, ROI_MR_DEC};

		in->reg_op = ops[(h >> 11) & 3];
		in->rd = hi;
		in->imm = h & 0xff;
		in->cmp_imm = in->reg_op == ROI_MR_CMP;
		in->writes = in->reg_op == ROI_MR_CMP ? 0 : 1u << hi;
	} else if ((h & 0xfc00) == 0x4000) {                   /* data processing */
		unsigned op = (h >> 6) & 0xf;

		in->writes = op == 8 || op == 10 || op == 11 ? 0 : 1u << lo;
		if (op == 10) {                                 /* CMP rn, rm */
			in->reg_op = ROI_MR_CMP;
			in->rd = lo;
			in->rs = (h >> 3) & 7;
		}
	} else if ((h & 0xff00) == 0x4500) {                   /* CMP (high registers) */
		in->writes = 0;
		in->reg_op = ROI_MR_CMP;
		in->rd = lo | ((h >> 4) & 8);
		in->rs = (h >> 3) & 0xf;
	} else if ((h & 0xfd00) == 0x4400) {                   /* ADD, MOV (high registers) */
		in->writes = 1u << (lo | ((h >> 4) & 8));
	} else if ((h & 0xf800) == 0x4800 || (h & 0xf000) == 0xa000) {     /* LDR literal, ADR, ADD rd, SP */
		in->writes = 1u << hi;
	} else if ((h & 0xf000) == 0x5000) {                   /* load/store, register offset */
		in->writes = ((h >> 9) & 7) < 3 ? 0 : 1u << lo;
	} else if ((h & 0xe000) == 0x6000 || (h & 0xf000) == 0x8000) {     /* load/store, immediate */
		in->writes = h & 0x800 ? 1u << lo : 0;
	} else if ((h & 0xf000) == 0x9000) {                   /* load/store, SP-relative */
		in->writes = h & 0x800 ? 1u << hi : 0;
	} else if ((h & 0xff00) == 0xb000 || (h & 0xfe00) == 0xb400) {     /* ADD/SUB SP, PUSH */
		in->writes = 1u << 13;
	} else if ((h & 0xfe00) == 0xbc00) {                   /* POP */
		in->writes = (uint16_t)((h & 0xff) | 1u << 13 | (h & 0x100 ? 1u << 15 : 0));
	} else if ((h & 0xff00) == 0xb200 || (h & 0xff00) == 0xba00) {     /* extend, reverse */
		in->writes = 1u << lo;
	} else if ((h & 0xf500) == 0xb100 || (h & 0xff00) == 0xbf00 || (h & 0xf000) == 0xd000 ||
		   (h & 0xf800) == 0xe000) {
		in->writes = 0;                                 /* CBZ, IT and hints, B<c>, B */
	} else if ((h & 0xf000) == 0xc000) {                   /* STM, LDM: the base written back */
		in->writes = (uint16_t)(1u << hi | (h & 0x800 ? h & 0xff : 0));
	}
}

/* The same for a 32-bit instruction (the registers written only where the decoding is simple;
 * else all of them). */
static void registers32(uint16_t h1, uint16_t h2, struct roi_minsn *in)
{
	unsigned rn = h1 & 0xf, rd = (h2 >> 8) & 0xf, rt = h2 >> 12;

	in->writes = 0xffff;
	/* data processing with S (modified immediate, shifted register), VMRS APSR_nzcv */
	in->flags = (((h1 & 0xfa00) == 0xf000 && !(h2 & 0x8000)) || (h1 & 0xfe00) == 0xea00) ? (h1 & 0x10) != 0 :
		    (h1 & 0xff10) == 0xee10 && (h2 & 0xff10) == 0xfa10;
	if ((h1 & 0xf800) == 0xf000 && (h2 & 0x8000)) {        /* branches, BL */
		in->writes = (h2 & 0x5000) == 0x5000 ? 1u << 14 : 0;
	} else if ((h1 & 0xfa00) == 0xf000 && !(h2 & 0x8000)) {        /* data processing, modified imm */
		unsigned op = (h1 >> 5) & 0xf;
		uint32_t k = expand_imm((h1 >> 10 & 1) << 11 | (h2 >> 12 & 7) << 8 | (h2 & 0xff));

		in->writes = rd == 15 ? 0 : 1u << rd;
		if (op == 2 && rn == 15) {                      /* MOV.W rd, #const */
			in->reg_op = ROI_MR_LDI;
			in->rd = rd;
			in->imm = (int)k;
		} else if ((op == 8 || op == 13) && rd == 15) { /* CMN, CMP rn, #const */
			in->reg_op = op == 13 ? ROI_MR_CMP : ROI_MR_NONE;
			in->rd = rn;
			in->imm = (int)k;
			in->cmp_imm = true;
		} else if ((op == 8 || op == 13) && k <= 0xffff) {     /* ADD.W, SUB.W rd, rn, #const */
			in->reg_op = rd == rn ? (op == 8 ? ROI_MR_INC : ROI_MR_DEC) : op == 8 ? ROI_MR_ADD : ROI_MR_NONE;
			in->rd = rd;
			in->rs = rn;
			in->imm = (int)k;
		}
	} else if ((h1 & 0xfa00) == 0xf200 && !(h2 & 0x8000)) {        /* data processing, plain imm */
		uint32_t k = (h1 >> 10 & 1) << 11 | (h2 >> 12 & 7) << 8 | (h2 & 0xff);

		in->writes = 1u << rd;
		if ((h1 & 0xfbf0) == 0xf240) {                  /* MOVW */
			in->reg_op = ROI_MR_LDI;
			in->rd = rd;
			in->imm = (int)(k | (uint32_t)rn << 12);
		} else if ((h1 & 0xfbf0) == 0xf200 || (h1 & 0xfbf0) == 0xf2a0) {       /* ADDW, SUBW */
			bool add = (h1 & 0xfbf0) == 0xf200;

			in->reg_op = rd == rn ? (add ? ROI_MR_INC : ROI_MR_DEC) : add ? ROI_MR_ADD : ROI_MR_NONE;
			in->rd = rd;
			in->rs = rn;
			in->imm = (int)k;
		}
	} else if ((h1 & 0xfe00) == 0xea00) {                  /* data processing, shifted register */
		in->writes = rd == 15 ? 0 : 1u << rd;
		if ((h1 & 0xfff0) == 0xebb0 && rd == 15 && (h2 & 0x70f0) == 0) {      /* CMP.W rn, rm */
			in->reg_op = ROI_MR_CMP;
			in->rd = rn;
			in->rs = h2 & 0xf;
		}
	} else if ((h1 & 0xff80) == 0xe880 || (h1 & 0xff80) == 0xe900) {   /* LDM, STM (PUSH, POP) */
		in->writes = (uint16_t)((h1 & 0x10 ? h2 : 0) | (h1 & 0x20 ? 1u << rn : 0));
	} else if ((h1 & 0xfe40) == 0xe840) {                  /* LDRD, STRD (the exclusives: all) */
		in->writes = (h1 & 0x0120) && !(h1 & 0x0080 && !(h1 & 0x0100)) ?
			     (uint16_t)((h1 & 0x10 ? 1u << rt | 1u << rd : 0) | (h1 & 0x20 ? 1u << rn : 0)) : 0xffff;
	} else if ((h1 & 0xfe00) == 0xf800) {                  /* load/store of one register */
		bool wb = (h1 & 0x80) == 0 && (h2 & 0x0800) && (h2 & 0x0100);

		in->writes = (uint16_t)((h1 & 0x10 ? 1u << rt : 0) | (wb ? 1u << rn : 0));
	} else if ((h1 & 0xff80) == 0xfb00 || (h1 & 0xff80) == 0xfb80) {   /* multiplies, divides */
		in->writes = (uint16_t)(1u << rd | ((h1 & 0xff80) == 0xfb80 && ((h2 >> 4) & 0xf) != 0xf ? 1u << rt : 0));
	} else if ((h1 & 0xec00) == 0xec00 && (h2 & 0x0e00) == 0x0a00) {   /* FPU */
		if ((h1 & 0xff10) == 0xee10 && (h2 & 0x0f10) == 0x0a10)        /* VMOV core <- S, VMRS */
			in->writes = rt == 15 ? 0 : 1u << rt;
		else if ((h1 & 0xfe00) == 0xec00 && (h1 & 0x20))       /* VLDM, VSTM written back */
			in->writes = 1u << rn;
		else if ((h1 & 0xfff0) == 0xec50)               /* VMOV two core registers <- D */
			in->writes = (uint16_t)(1u << rt | 1u << rn);
		else
			in->writes = 0;
	}
}

void roi_thumb_decode(const uint8_t *code, size_t avail, uint64_t addr, struct roi_thumb_state *st,
		      struct roi_minsn *in)
{
	uint16_t h1 = half(code, avail, 0);
	double p = 2 + st->flash_wait;
	bool in_it = st->it_left > 0;

	memset(in, 0, sizeof *in);
	in->addr = addr;
	in->size = 2;
	set(in, "?", ROI_MI_STOP, 1);
	if (avail < 2)
		return;
	if ((h1 >> 11) == 0x1d || (h1 >> 11) == 0x1e || (h1 >> 11) == 0x1f) {
		in->size = 4;
		if (avail < 4)
			return;
		decode32(h1, half(code, avail, 1), in, st, p);
		registers32(h1, half(code, avail, 1), in);
		if (in->cls == ROI_MI_BRANCH)
			in->cond = (h1 >> 6) & 0xf;
	} else {
		decode16(h1, in, st, p);
		registers16(h1, in);
		if (in->cls == ROI_MI_BRANCH)
			in->cond = (h1 & 0xf000) == 0xd000 ? (h1 >> 8) & 0xf : h1 & 0x800 ? 1 : 0;  /* (CBNZ: NE) */
	}
	if (strcmp(in->name, "it") == 0)
		return;
	if (in_it) {
		/* inside an IT block: its condition may fail (then one cycle, nothing done); a branch or
		 * a return there is conditional */
		st->it_left--;
		in->in_it = in->conditional = true;
		if (in->cls == ROI_MI_JUMP) {
			in->cls = ROI_MI_BRANCH;
			in->taken = in->cycles;
			in->cycles = 1;
		} else if (in->cls == ROI_MI_RET) {
			in->cls = ROI_MI_CRET;
			in->taken = in->cycles;
			in->cycles = 1;
		}
	}
	st->prev_load = in->is_load && in->cls == ROI_MI_OP;
}
