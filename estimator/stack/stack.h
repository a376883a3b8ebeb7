/* stack/stack.h — a program's static stack and RAM (roi stack, docs/stack.md): every function's
 * frame, the call graph, the worst-case depth from each function and from each root (main, each
 * interrupt handler), and the RAM left at the deepest point.
 *
 *   frames   a counted function's is GCC's own figure, the one -fstack-usage prints (metadata
 *            "stack"); a function without metadata (libgcc, the C library, start-up code) has the
 *            bytes its code pushes and allocates, read from its machine code (code.h), plus the
 *            return address a call pushes; else it is unknown
 *   calls    read from the machine code where roi reads it (AVR, Cortex-M: the calls GCC emits
 *            after the metadata is written, libgcc's arithmetic, tail calls), else the metadata's
 *            call operations (direct calls by name, as roi report joins them)
 *   depth    a function's frame, or the deepest of its calls: the caller's bytes under the call
 *            (edge offset) plus the callee's depth; a tail call runs the callee in the caller's
 *            place (the caller's frame is gone, its return address is the callee's)
 *
 * Nothing unknown is counted as 0: recursion, indirect calls, a callee without a frame and
 * stack allocated at run time make a depth a lower bound, and say why (flags below).
 *
 * A measured figure compares with a depth as follows (roi_stack_depth_of): the bytes from the
 * stack pointer before the call that enters the function (on AVR, SP before the call instruction
 * pushes the return address; on ARM, SP at the bl) down to the lowest byte written while it or
 * anything it calls runs, interrupts aside. A measured peak above a complete depth is a bug in
 * roi. */
#ifndef ROI_STACK_H
#define ROI_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/measured.h"
#include "input/meta.h"
#include "price/hier.h"

/* Why a depth is a lower bound; a function's own in flags, with everything below it in below. */
enum {
	ROI_STACK_RECURSIVE = 1,        /* a call back into a function on the path */
	ROI_STACK_INDIRECT = 2,         /* a call through a pointer: its target is not known */
	ROI_STACK_UNKNOWN = 4,          /* a function whose frame roi cannot tell (no metadata, code
					 * not read, SP moved by a register) */
	ROI_STACK_DYNAMIC = 8,          /* alloca or a variable-length array of a run-time size */
	ROI_STACK_NESTING = 16,         /* the worst case only: an interrupt handler enables
					 * interrupts, so handlers can stack up on each other */
};

enum roi_frame_source {
	ROI_FRAME_GCC,                  /* metadata "stack": GCC's figure */
	ROI_FRAME_CODE,                 /* read from its machine code */
	ROI_FRAME_NONE,                 /* not known */
};

struct roi_stack_edge {
	size_t to;                      /* index into fns */
	bool tail;                      /* a tail call (a jump) */
	long long offset;               /* the caller's bytes on the stack under the callee's: its
					 * frame for a call from a counted function, what a routine
					 * walked path by path has pushed there, 0 for a tail call
					 * after an epilogue */
	/* With a profile: the calls made (the call operations' executions) and, with a model,
	 * what they cost with everything below them (roi report's inclusive figure). */
	bool has_calls;
	uint64_t calls;
	bool has_cycles;
	double cycles;
};

struct roi_stack_fn {
	const char *name;               /* as roi report names it: C name, else the symbol */
	const char *symbol;             /* its symbol in the ELF; NULL when there is none */
	const struct roi_function *meta;        /* NULL: code without roi metadata */
	uint64_t addr, size;            /* its code; size 0: not in the ELF */
	long long frame;                /* bytes one call takes itself (with the return address a
					 * call pushes on AVR and x86); -1: not known */
	enum roi_frame_source source;
	bool frame_bound;               /* the frame is an upper bound (pushes read as if all on one
					 * path; GCC's "dynamic,bounded") */
	const char *why;                /* why the frame is not known, or what the code does */
	unsigned flags;                 /* its own: ROI_STACK_INDIRECT, DYNAMIC, UNKNOWN */
	const char *unknown_callee;     /* a callee the metadata names that is in no table (host) */
	bool enables_interrupts;        /* sei / cpsie i in its code */
	struct roi_stack_edge *edges;
	size_t nedges;
	/* worst case from its entry */
	long long depth;                /* bytes; a lower bound when below has a flag */
	unsigned below;                 /* flags of it and of every function it reaches */
	long next;                      /* the callee of its deepest call, -1 when none */
	bool reached;                   /* from a root */
	bool recursive;                 /* in a cycle of calls */
	/* with a measured profile (roi_stack_add_measured): its figures, NULL when it did not run;
	 * above: measured deeper than a complete depth, which is a bug in roi */
	const struct roi_mstack_fn *measured;
	bool above;
};

enum roi_root_kind { ROI_ROOT_MAIN, ROI_ROOT_INTERRUPT };

struct roi_stack_root {
	enum roi_root_kind kind;
	size_t fn;
	const char *label;              /* "main", "__vector_23", "SysTick_Handler (exception 15)" */
	long long entry;                /* bytes on the stack before its frame: the exception frame a
					 * Cortex-M pushes (32, and 4 of alignment); 0 on AVR, whose
					 * return address is in the handler's frame */
	long long depth;                /* entry + the function's depth */
	unsigned below;
	long long measured;             /* entry + the function's measured depth; -1: not measured */
	bool above;
};

struct roi_stack_ram {
	bool known;                     /* a RAM size and a stack top were found */
	const char *source;             /* where they come from */
	const char *part;               /* the MCU named in the ELF, or NULL */
	uint64_t start, size;           /* the RAM */
	uint64_t data, bss, noinit;     /* bytes of .data, .bss, .noinit */
	uint64_t counters;              /* of which roi's counter arrays (in .bss) */
	uint64_t data_end;              /* the end of the highest of them */
	uint64_t stack_top;             /* the stack pointer at reset: the stack grows down from it */
	long long free;                 /* stack_top - data_end: what the stack and a heap share */
	long long margin;               /* free - the worst stack (worst_depth) */
	bool heap;                      /* malloc is linked: the heap takes from free too */
};

struct roi_stack {
	const char *path;
	unsigned machine;               /* e_machine */
	const char *arch;               /* "avr", "cortex-m", "x86-64", ... */
	bool code_read;                 /* calls read from the machine code */
	unsigned pc_bytes;              /* AVR: the return address a call pushes */
	struct roi_stack_fn *fns;       /* counted functions first (metadata order), then code */
	size_t nfns, ncounted;
	struct roi_stack_root *roots;   /* main first, then interrupts by name */
	size_t nroots;
	long main_root;                 /* index into roots, -1 without main */
	/* the worst case: main at its deepest with the deepest interrupt on top */
	long long worst_depth;
	unsigned worst_below;
	long worst_interrupt;           /* index into roots, -1 without interrupts */
	bool interrupts_nest;           /* a handler enables interrupts: more can stack up */
	struct roi_stack_ram ram;
	/* with a measured profile: the run's peak against the worst case, its margin */
	const struct roi_measured *meas;
	bool same_build;                /* the profile's image CRC is the program's */
	bool worst_above;               /* the peak is above a complete worst case */
	size_t nabove;                  /* functions and roots measured above a complete figure */
	struct roi_arena arena;
};

/* Reads PROG's ELF (path) for its code, symbols and RAM and builds the analysis. Errors:
 * the ELF's ("PATH: damaged ELF file: ..."). Free with roi_stack_free, also on failure. */
int roi_stack_build(struct roi_stack *s, const struct roi_program *prog, struct roi_err *err);
void roi_stack_free(struct roi_stack *s);

/* The RAM of the program at path alone, as roi_stack_build reads it (prog, for its counters, may
 * be NULL: a build without metadata); margin is left 0, the stack not being known. r->part is
 * allocated in arena. Errors: the ELF's. */
int roi_stack_ram_read(const char *path, const struct roi_program *prog, struct roi_stack_ram *r,
		       struct roi_arena *arena, struct roi_err *err);

/* A run on the edges (roi stack --format dot with a profile): the calls each call operation made
 * (counted functions' and, by name, others'), and with a model what the calls to counted functions
 * cost with everything below them (roi report's figures). */
void roi_stack_add_run(struct roi_stack *s, const struct roi_hier *h);

/* A measured profile's stack (input/measured.h) beside the static figures: each function's by its
 * symbol, each root's, the run's peak beside the worst case. A measured figure above a complete
 * static one is a bug in roi (or, when the profile is of another build, a difference of builds):
 * counted in nabove. m must outlive s. Errors: the ELF's. */
int roi_stack_add_measured(struct roi_stack *s, const struct roi_measured *m, struct roi_err *err);

/* The function of that name (roi report's name, or symbol), or NULL; *ambiguous when several. */
const struct roi_stack_fn *roi_stack_find(const struct roi_stack *s, const char *name, bool *ambiguous);

/* The static figure a measured peak of a function is compared with: its depth (see the top), and
 * in *complete whether nothing below it is unknown. -1 when there is no such function. */
long long roi_stack_depth_of(const struct roi_stack *s, const char *name, bool *complete);

/* "recursive, indirect call, unknown frame" for flags; "" for none. */
const char *roi_stack_flags_text(unsigned flags, char *buf, size_t size);

/* The worst path from fn: the functions along next, each once (a cycle stops it). Returns how many
 * were written to out (at most max). */
size_t roi_stack_path(const struct roi_stack *s, size_t fn, size_t *out, size_t max);

#endif
