/* machine/avr.c — AVR instructions decoded and timed (isa.h).
 *
 * Encodings and cycles from the AVR Instruction Set Manual (Atmel-0856), the AVRe/AVRe+ columns
 * (every megaAVR): one cycle for the ALU, register moves, in/out and bit set or clear in SREG; two
 * for ld/ldd/lds/st/std/sts, push/pop, adiw/sbiw, mul and its kin, cbi/sbi, rjmp and ijmp; three for
 * lpm/elpm and jmp; rcall and icall 3, call, ret and reti 4 with a 16-bit PC (one more each with a
 * 22-bit PC); a branch 1 not taken and 2 taken; a skip 1, 2 over a one-word instruction and 3 over
 * a two-word one. testsuite/t0490-machine-avr.sh checks the sums against simavr. */
#include <string.h>

#include "machine/isa.h"

static uint16_t word(const uint8_t *code, size_t avail, size_t i)
{
	return 2 * i + 1 < avail ? (uint16_t)(code[2 * i] | code[2 * i + 1] << 8) : 0xffff;
}

static void set(struct roi_minsn *in, const char *name, enum roi_mclass cls, double cycles)
{
	in->name = name;
	in->cls = cls;
	in->cycles = cycles;
	in->taken = cycles;
}

/* A relative target: k words, sign-extended from bits. */
static void relative(struct roi_minsn *in, unsigned k, unsigned bits)
{
	int off = (int)(k & ((1u << bits) - 1));

	if (off & (1 << (bits - 1)))
		off -= 1 << bits;
	in->target = (uint64_t)((int64_t)in->addr + 2 + 2 * (int64_t)off);
	in->has_target = true;
}

void roi_avr_decode(const uint8_t *code, size_t avail, uint64_t addr, enum roi_avr_core core, struct roi_minsn *in)
{
	uint16_t op = word(code, avail, 0);
	unsigned d5 = (op >> 4) & 0x1f, r5 = (op & 0xf) | ((op >> 5) & 0x10), d4 = 16 + ((op >> 4) & 0xf);
	unsigned k8 = (op & 0xf) | ((op >> 4) & 0xf0);
	double pcx = core == ROI_AVR_PC22 ? 1 : 0;       /* a 22-bit PC takes a cycle more to push or pop */

	memset(in, 0, sizeof *in);
	in->addr = addr;
	in->size = 2;
	set(in, "?", ROI_MI_STOP, 1);
	if (avail < 2)
		return;

	switch (op >> 12) {
	case 0x0:
		if (op == 0) {
			set(in, "nop", ROI_MI_OP, 1);
			in->is_nop = true;
		} else if ((op & 0xff00) == 0x0100) {
			set(in, "movw", ROI_MI_OP, 1);
			in->rd = 2 * ((op >> 4) & 0xf);
			in->wide = true;
		} else if ((op & 0xff00) == 0x0200 || (op & 0xff00) == 0x0300) {
			set(in, "muls", ROI_MI_OP, 2);          /* muls, mulsu, fmul, fmuls, fmulsu */
		} else {
			static const char *const names[] = {"", "cpc", "sbc", "add"};
			unsigned k = (op >> 10) & 3;

			set(in, names[k], ROI_MI_OP, 1);
			in->rd = d5;
			in->rr = r5;
			in->shifts = k == 3 && d5 == r5;        /* lsl */
		}
		return;
	case 0x1: {
		static const char *const names[] = {"cpse", "cp", "sub", "adc"};
		unsigned k = (op >> 10) & 3;

		set(in, names[k], k == 0 ? ROI_MI_SKIP : ROI_MI_OP, 1);
		in->rd = d5;
		in->rr = r5;
		in->shifts = k == 3 && d5 == r5;                /* rol */
		return;
	}
	case 0x2: {
		static const char *const names[] = {"and", "eor", "or", "mov"};

		set(in, names[(op >> 10) & 3], ROI_MI_OP, 1);
		in->rd = d5;
		in->rr = r5;            /* (and rX, rX: tst) */
		return;
	}
	case 0x3:
		set(in, "cpi", ROI_MI_OP, 1);
		in->rd = d4;
		in->imm = (int)k8;
		return;
	case 0x4: case 0x5: case 0x6: case 0x7: {
		static const char *const names[] = {"sbci", "subi", "ori", "andi"};

		set(in, names[(op >> 12) - 4], ROI_MI_OP, 1);
		in->rd = d4;
		in->imm = (int)k8;
		if ((op >> 12) == 5) {
			in->reg_op = (int8_t)k8 > 0 ? ROI_MR_DEC : ROI_MR_INC;
			in->imm = (int8_t)k8 > 0 ? (int)k8 : -(int)(int8_t)k8;
		}
		return;
	}
	case 0x8: case 0xa:
		/* ldd/std Y+q, Z+q (q = 0: ld/st Y, Z) */
		set(in, op & 0x0200 ? "std" : "ldd", ROI_MI_OP, 2);
		in->memory = true;
		return;
	case 0x9:
		break;
	case 0xb:
		set(in, op & 0x0800 ? "out" : "in", ROI_MI_OP, 1);
		in->rd = d5;
		in->io = (op & 0xf) | ((op >> 5) & 0x30);
		return;
	case 0xc:
	case 0xd:
		relative(in, op & 0xfff, 12);
		if ((op >> 12) == 0xc) {
			set(in, "rjmp", in->target == addr ? ROI_MI_STOP : ROI_MI_JUMP, 2);
		} else {
			set(in, "rcall", ROI_MI_CALL, 3 + pcx);
			/* "rcall .+0" makes two bytes of stack frame (three with a 22-bit PC): a push of
			 * the PC, no call */
			if (in->target == addr + 2) {
				set(in, "rcall", ROI_MI_OP, 3 + pcx);
				in->sp_push = core == ROI_AVR_PC22 ? 3 : 2;
			}
		}
		return;
	case 0xe:
		set(in, "ldi", ROI_MI_OP, 1);
		in->reg_op = ROI_MR_LDI;
		in->rd = d4;
		in->imm = (int)k8;
		return;
	case 0xf:
		if (!(op & 0x0800)) {
			/* brbs s / brbc s, by the names of their flags */
			static const char *const brbs[] = {"brcs", "breq", "brmi", "brvs", "brlt", "brhs", "brts", "brie"};
			static const char *const brbc[] = {"brcc", "brne", "brpl", "brvc", "brge", "brhc", "brtc", "brid"};

			relative(in, (op >> 3) & 0x7f, 7);
			set(in, op & 0x0400 ? brbc[op & 7] : brbs[op & 7], ROI_MI_BRANCH, 1);
			in->taken = 2;
		} else if (!(op & 0x0400) && !(op & 0x8)) {
			set(in, op & 0x0200 ? "bst" : "bld", ROI_MI_OP, 1);
			in->rd = d5;
			in->imm = op & 7;
		} else if ((op & 0x0400) && !(op & 0x8)) {
			set(in, op & 0x0200 ? "sbrs" : "sbrc", ROI_MI_SKIP, 1);
		}
		return;
	}

	/* 1001 .... */
	unsigned low = op & 0xf;
	if ((op & 0xfc00) == 0x9000) {          /* 1001 00sd dddd xxxx: loads, stores, push, pop */
		bool store = op & 0x0200;

		in->memory = true;
		in->rd = d5;
		switch (low) {
		case 0x0:
			set(in, store ? "sts" : "lds", ROI_MI_OP, 2);
			in->size = 4;
			return;
		case 0x1: case 0x2: case 0x9: case 0xa: case 0xc: case 0xd: case 0xe:
			set(in, store ? "st" : "ld", ROI_MI_OP, 2);
			return;
		case 0x4: case 0x5: case 0x6: case 0x7:
			if (!store)
				set(in, low < 6 ? "lpm" : "elpm", ROI_MI_OP, 3);
			return;                                 /* xch, las, lac, lat: xmega only */
		case 0xf:
			set(in, store ? "push" : "pop", ROI_MI_OP, 2);
			in->sp_push = store ? 1 : -1;
			return;
		}
		return;
	}
	if ((op & 0xfe00) == 0x9400) {          /* 1001 010d dddd xxxx */
		static const char *const one[16] = {"com", "neg", "swap", "inc", NULL, "asr", "lsr", "ror",
						     NULL, NULL, "dec", NULL, NULL, NULL, NULL, NULL};

		in->rd = d5;
		if (one[low]) {
			set(in, one[low], ROI_MI_OP, 1);
			in->shifts = low == 5 || low == 6 || low == 7;
			if (low == 0xa || low == 0x3) {
				in->reg_op = low == 0xa ? ROI_MR_DEC : ROI_MR_INC;
				in->imm = 1;
			}
			return;
		}
		if (low == 0xc || low == 0xd || low == 0xe || low == 0xf) {     /* jmp, call: two words */
			uint32_t k = ((uint32_t)((op >> 3) & 0x3e) | (op & 1)) << 16 | word(code, avail, 1);

			in->size = 4;
			in->target = 2 * (uint64_t)k;
			in->has_target = true;
			if (low < 0xe)
				set(in, "jmp", in->target == addr ? ROI_MI_STOP : ROI_MI_JUMP, 3);
			else
				set(in, "call", ROI_MI_CALL, 4 + pcx);
			if (avail < 4)
				set(in, "?", ROI_MI_STOP, 1);
			return;
		}
		if (low == 0x8) {
			switch (op) {
			case 0x9508: set(in, "ret", ROI_MI_RET, 4 + pcx); return;
			case 0x9518: set(in, "reti", ROI_MI_RET, 4 + pcx); return;
			case 0x9588: set(in, "sleep", ROI_MI_STOP, 1); return;
			case 0x9598: set(in, "break", ROI_MI_STOP, 1); return;
			case 0x95a8: set(in, "wdr", ROI_MI_OP, 1); return;
			case 0x95c8: set(in, "lpm", ROI_MI_OP, 3); in->memory = true; return;
			case 0x95d8: set(in, "elpm", ROI_MI_OP, 3); in->memory = true; return;
			case 0x95e8: case 0x95f8: set(in, "spm", ROI_MI_OP, 1); return;
			}
			if ((op & 0xff0f) == 0x9408)
				set(in, op & 0x0080 ? "bclr" : "bset", ROI_MI_OP, 1);
			in->enables_irq = op == 0x9478;        /* sei: bset 7 */
			return;
		}
		if (low == 0x9) {
			switch (op) {
			case 0x9409: set(in, "ijmp", ROI_MI_IJUMP, 2); return;
			case 0x9419: set(in, "eijmp", ROI_MI_IJUMP, 2); return;
			case 0x9509: set(in, "icall", ROI_MI_ICALL, 3 + pcx); return;
			case 0x9519: set(in, "eicall", ROI_MI_ICALL, 4); return;
			}
			return;
		}
		return;
	}
	if ((op & 0xfe00) == 0x9600) {          /* adiw, sbiw */
		bool sub = op & 0x0100;

		set(in, sub ? "sbiw" : "adiw", ROI_MI_OP, 2);
		in->rd = 24 + 2 * ((op >> 4) & 3);
		in->imm = (int)((op & 0xf) | ((op >> 2) & 0x30));
		in->wide = true;
		in->reg_op = sub ? ROI_MR_DEC : ROI_MR_INC;
		return;
	}
	if ((op & 0xfc00) == 0x9800) {          /* cbi, sbic, sbi, sbis */
		static const char *const names[] = {"cbi", "sbic", "sbi", "sbis"};
		unsigned k = (op >> 8) & 3;

		set(in, names[k], k & 1 ? ROI_MI_SKIP : ROI_MI_OP, k & 1 ? 1 : 2);
		return;
	}
	if ((op & 0xfc00) == 0x9c00)
		set(in, "mul", ROI_MI_OP, 2);
}

void roi_avr_skip_cost(struct roi_minsn *skip, const struct roi_minsn *next)
{
	skip->taken = next->size == 4 ? 3 : 2;
	skip->target = next->addr + next->size;
	skip->has_target = true;
}
