/* machine/isa.h — a firmware's instructions as roi prices them: what each does to control flow
 * and what it costs on the core, decoded from the ELF's bytes (AVR: the AVR Instruction Set
 * Manual's encodings and cycle columns; Cortex-M: the ARMv7-M encodings and the Cortex-M4 TRM's
 * timings, Table 3-1).
 *
 * Only what pricing needs is decoded: the instruction's size, its control-flow class and target,
 * its cycles taken and not taken, and for AVR the registers and immediate of the few
 * instructions that make a loop's count (ldi, dec, subi, sbiw) and whether it shifts or moves
 * data (to tell a shift loop from a copy loop). */
#ifndef ROI_MACHINE_ISA_H
#define ROI_MACHINE_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum roi_mclass {
	ROI_MI_OP,              /* runs on to the next instruction */
	ROI_MI_BRANCH,          /* conditional: to target, else the next instruction */
	ROI_MI_SKIP,            /* AVR cpse/sbrc/sbrs/sbic/sbis: skips the next instruction or not */
	ROI_MI_JUMP,            /* unconditional, to target */
	ROI_MI_IJUMP,           /* through a register or a table: the targets are not in the code */
	ROI_MI_CALL,            /* to target, and back to the next instruction */
	ROI_MI_ICALL,           /* through a register */
	ROI_MI_RET,             /* out of the function */
	ROI_MI_CRET,            /* ARM: a conditional return (in an IT block) */
	ROI_MI_STOP,            /* cannot be decoded, or stops the core (sleep, break, a jump to itself) */
};

/* What an instruction does to a register, for a loop's count. */
enum roi_mreg_op {
	ROI_MR_NONE,
	ROI_MR_LDI,             /* rd = imm */
	ROI_MR_DEC,             /* rd -= imm (dec: 1; subi rd, imm; sbiw rd:rd+1, imm; Thumb subs rd, #imm) */
	ROI_MR_INC,             /* rd += imm (inc; subi rd, -imm; adiw; Thumb adds rd, #imm) */
	ROI_MR_ADD,             /* Thumb: rd = rs + imm, rd another register than rs */
	ROI_MR_CMP,             /* Thumb: compares rd with rs, or with imm when cmp_imm */
};

struct roi_minsn {
	uint64_t addr;
	unsigned size;          /* bytes */
	enum roi_mclass cls;
	uint64_t target;        /* BRANCH, JUMP, CALL (and SKIP: the instruction after the skipped one) */
	bool has_target;
	double cycles;          /* not taken / no skip; a call's own, without the callee */
	double taken;           /* BRANCH taken; SKIP skipping (set once the next instruction is known) */
	const char *name;       /* the mnemonic */
	/* AVR */
	enum roi_mreg_op reg_op;
	unsigned rd;            /* its register (sbiw/adiw/movw: the pair's low one; out: the one written) */
	unsigned rr;            /* cpse/cp/sub/adc: the other register */
	unsigned io;            /* in/out: the I/O address (0x3d SPL, 0x3e SPH) */
	int imm;                /* (cpi, sbci: its constant) */
	bool wide;              /* sbiw/adiw: the register pair */
	bool shifts, memory;    /* shifts or rotates a register; loads or stores */
	bool is_nop;
	bool table;             /* a jump into a routine that dispatches through a table (avr-gcc's
				 * __tablejump2__): its targets are the block's successors (flow.c) */
	/* the stack, for roi stack (stack/code.c) */
	int sp_push;            /* bytes it puts on the stack by a constant (AVR push, "rcall ."; Thumb push,
				 * vpush, str Rt, [sp, #-4]!, sub sp, #K), negative for AVR's pop */
	bool sp_by_register;    /* Thumb: moves SP down by an amount in a register */
	bool enables_irq;       /* sei, cpsie i: an interrupt can nest from here on */
	/* ARM */
	unsigned rs;            /* ROI_MR_ADD, ROI_MR_CMP: the other register */
	bool cmp_imm;           /* ROI_MR_CMP with imm */
	unsigned cond;          /* a conditional branch's condition (0 EQ, 1 NE, ...) */
	uint16_t writes;        /* the core registers it writes (bit n: rn); all when not known */
	bool flags;             /* it may set the condition flags */
	bool in_it;             /* conditional: inside an IT block */
	bool conditional;       /* its IT condition may fail (then it costs 1 and does nothing) */
	bool is_load;           /* a single load (LDR...): the next load or store pipelines after it */
	bool is_ldst;           /* a single load or store */
	bool writes_pc;         /* writes the PC in another way (mov pc, ldr pc, pop {pc}) */
	bool pc_relative;       /* loads a literal from the code or makes its address (LDR, VLDR, ADR):
				 * into rd, from wherever the code around it put the literal */
	unsigned table_entry;   /* a jump through the table of targets that follows it (TBB, TBH
				 * [PC, Rm]; LDR PC, [Rn, Rm, LSL #2] after ADR Rn): its entries' bytes */
};

/* The AVR cores roi prices: the AVRe/AVRe+ timings of the AVR Instruction Set Manual (every
 * megaAVR), with a 16-bit PC (up to 128 KiB of flash) or a 22-bit one (call, rcall, icall, ret,
 * reti a cycle longer). */
enum roi_avr_core { ROI_AVR_PC16, ROI_AVR_PC22 };

/* Decodes the instruction at code[0..avail) (little-endian words), at address addr. An encoding
 * that is not an instruction of the core is ROI_MI_STOP with name "?". */
void roi_avr_decode(const uint8_t *code, size_t avail, uint64_t addr, enum roi_avr_core core, struct roi_minsn *in);

/* The skip's cycles when it skips the instruction next (2, or 3 over a two-word one). */
void roi_avr_skip_cost(struct roi_minsn *skip, const struct roi_minsn *next);

/* Cortex-M (Thumb-2), timings of the Cortex-M4 TRM: a pipeline refill of P cycles on a taken
 * branch (P = 1 + flash_wait: the TRM's 1-3 with the instruction fetch from flash), LDR/STR 2 and
 * 1 when pipelined after a single load, LDM/STM/PUSH/POP 1 + registers, UDIV/SDIV 2-12 (taken as
 * 7), MUL/MLA 1, UMULL... 1. it_state carries an IT block's remaining instructions between calls
 * (0 before the first). */
struct roi_thumb_state {
	unsigned it_left;
	unsigned flash_wait;    /* wait states on a taken branch's refill */
	bool prev_load;
};
void roi_thumb_decode(const uint8_t *code, size_t avail, uint64_t addr, struct roi_thumb_state *st,
		      struct roi_minsn *in);

#endif
