/* stack/code.h — what a function's machine code says of its stack: the calls it makes (the ones
 * GCC emits after the metadata is written too: libgcc's arithmetic, memcpy), its tail jumps into
 * other functions, indirect calls, and, for code roi has no metadata for (libgcc, avr-libc,
 * newlib, start-up code), the bytes its own pushes and frame take.
 *
 * Read for AVR (every core: call, rcall, jmp, rjmp, icall, eicall; push, "rcall ." and the
 * prologue that moves SP through Y) and for ARM in Thumb state (Cortex-M: bl, b, blx; push,
 * vpush, str to [sp, #-4]!, sub sp). Data inside a function (ARM's literal pools, between its
 * "$d" and "$t" mapping symbols) is skipped by the caller. */
#ifndef ROI_STACK_CODE_H
#define ROI_STACK_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum roi_code_arch { ROI_CODE_NONE, ROI_CODE_AVR, ROI_CODE_THUMB };

/* A branch out of the code read: a call, or a jump to an address outside [start, end), a tail
 * call (the callee returns to the caller's caller, from the caller's own depth). */
struct roi_code_call {
	uint64_t at, target;
	bool tail;
	uint64_t offset;                /* roi_code_walk_avr: the bytes the routine has pushed at the
					 * call (its return address too, for a call) */
};

struct roi_code_facts {
	struct roi_code_call *calls;    /* malloc'd; free with roi_code_facts_free */
	size_t ncalls, cap;
	unsigned indirect;              /* indirect calls (icall, eicall, blx Rm) */
	/* The bytes the code itself puts on the stack at most: every push, "rcall ." (AVR), frame
	 * allocation (SP moved down by a constant), as if all of them were on one path. Without
	 * the return address. */
	uint64_t pushed;
	const char *unknown;            /* the code moves SP in a way not read ("SP set from a
					 * register"), or NULL */
	bool enables_interrupts;        /* AVR "sei", ARM "cpsie i": an interrupt can nest here */
};

/* Reads code[0, size), the bytes at address start (a whole function or a piece of it between
 * data), adding to f. pc_bytes: the return address a call pushes on AVR (2, or 3 on parts with
 * more than 128 KiB of flash); unused for Thumb. Addresses are byte addresses. */
void roi_code_read(enum roi_code_arch arch, unsigned pc_bytes, const unsigned char *code, uint64_t start,
		   uint64_t size, uint64_t fn_start, uint64_t fn_end, struct roi_code_facts *f);
void roi_code_facts_free(struct roi_code_facts *f);

/* The code a walk reads: the bytes at addr, *avail of them (0: none, not code). */
struct roi_code_image {
	const unsigned char *(*bytes_at)(void *ctx, uint64_t addr, uint64_t *avail);
	/* whether addr is a routine's entry (a symbol starts there): a call there is a call of it;
	 * *counted: of a function with roi metadata, whose frame is GCC's: a jump there is a tail
	 * call of it */
	bool (*is_entry)(void *ctx, uint64_t addr, bool *counted);
	void *ctx;
};

/* AVR code without metadata, walked path by path from entry as the core runs it: push and pop,
 * "rcall .", SP set from Y after "in r28, SPL" and a constant moved it; branches, skips and jumps
 * followed; calls to routines recorded with the bytes pushed at them (call offsets), not entered,
 * calls to a subroutine inside (no symbol there) followed. f->pushed is the most pushed at any
 * point. Jumps and branches are followed into whatever code they reach (libgcc's routines share
 * their exits and loops through global labels), but to a counted function's entry, a tail call of
 * it. An address reached with more pushed each time (a push in a loop), SP set from a register,
 * or code that runs off its section make f->unknown. ijmp and eijmp end a path: the jump tables
 * of a switch jump back into their caller. */
void roi_code_walk_avr(const struct roi_code_image *img, unsigned pc_bytes, uint64_t entry, struct roi_code_facts *f);

#endif
