/* input/measured.h — a measured profile (docs/formats.md §4): what one simulated run of a firmware
 * as it ships took, cycle for cycle, by source line, function, call site, library routine and, with
 * the block-lines build, counted block and loop. "roi run --measured" writes it; roi estimate,
 * roi report and roi budget read it and show its figures beside their estimates.
 *
 * A JSON document, read strictly (no unknown or duplicate key) and checked: its lines' cycles add
 * up to its total, every cycle of the run on exactly one line. */
#ifndef ROI_MEASURED_H
#define ROI_MEASURED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/meta.h"

/* Version 2 added "stack"; a version 1 file (without it) is still read, with no stack figures. */
#define ROI_MEASURED_VERSION 2

/* A source line, or a pseudo-line for the cycles no line of the program ran or called: before main
 * ("start-up"), after main returned ("after main"), in an interrupt with no line ("interrupt"). */
struct roi_mline {
	const char *file;               /* as the DWARF line table names it; NULL: a pseudo-line */
	const char *what;               /* a pseudo-line's: "start-up", "after main", "interrupt" */
	unsigned line;
	uint64_t cycles;                /* its instructions' and the code without lines it called */
	uint64_t library;               /* of cycles, the code without lines (libgcc, avr-libc, asm) */
	uint64_t inclusive;             /* while it ran or a call made on it had not returned */
};

/* A function by its ELF symbol; for code without lines, a library routine. */
struct roi_mfunction {
	const char *name;               /* the symbol (an assembler name) */
	uint32_t address;               /* byte address */
	bool lines;                     /* some instruction of it has a line */
	uint64_t calls;                 /* calls and interrupts that entered it, and jumps to it */
	uint64_t self;                  /* cycles of its own instructions */
	uint64_t library;               /* of code without lines, charged to its lines */
	uint64_t inclusive;             /* from entry to return, outermost activations only */
};

enum roi_mcall { ROI_MCALL_CALL, ROI_MCALL_JUMP, ROI_MCALL_INTERRUPT };

/* Calls from one instruction to one function: their number and, together, their inclusive cycles. */
struct roi_msite {
	uint32_t address;               /* of the call (the jump); an interrupt's: its vector's */
	enum roi_mcall how;
	const char *caller;             /* the symbol the call is in; NULL for an interrupt */
	const char *file;               /* the line it is charged to (a pseudo-line: file NULL) */
	const char *what;               /* a pseudo-line's */
	unsigned line;
	const char *callee;
	uint64_t calls, inclusive;
};

/* Cycles of one library routine charged to one line: the routine ran, called (maybe through other
 * routines) from that line. */
struct roi_mlibrary {
	const char *routine;
	const char *file;               /* NULL: a pseudo-line */
	const char *what;
	unsigned line;
	uint64_t cycles;
};

/* The counted blocks of one function of the metadata, measured through the block-lines build. */
struct roi_mblocks {
	const char *unit;               /* the unit's id, 16 hex digits */
	size_t index;                   /* the function's position in the unit */
	const char *asm_name;
	uint32_t checksum;
	size_t nblocks;
	uint64_t *counts;               /* executions; a value counter's: 0 (not measured) */
	bool *value;                    /* a value counter (formats.md): its count is not measured */
	uint64_t *cycles;               /* the cycles of the instructions the line table gives it */
	uint64_t *ambiguous;            /* passes through blocks without instructions the code did not
					 * decide (another as short went through the block): its count
					 * is the choice taken, off by up to that many; NULL: none */
};

struct roi_mloop {
	const char *unit;
	size_t function;                /* position in the unit */
	size_t loop;                    /* position in the function's loops */
	const char *name;               /* "main:7", as roi report names it */
	uint64_t entries;               /* entries from outside it */
	uint64_t cycles;                /* from entry to exit, callees included; outermost only */
};

struct roi_mregion {
	const char *unit;
	size_t index;                   /* position in the unit's regions */
	const char *name;
	const char *kind;               /* "function", "loop" */
	bool measured;                  /* false: a loop without the block-lines build */
	uint64_t calls, cycles;
};

/* The stack of one function, over all its activations: bytes below the stack pointer before the
 * call that entered it (before the call or the interrupt pushed the return address; for a jump into
 * it, the jump's stack pointer and a return address), as roi stack's depth (stack/stack.h). */
struct roi_mstack_fn {
	const char *name;               /* the symbol */
	uint64_t calls;                 /* activations measured (calls, interrupts, jumps into it) */
	uint64_t depth;                 /* the deepest below its entry while it or a callee ran,
					 * interrupts that arrived meanwhile left out: roi stack's depth */
	uint64_t with_interrupts;       /* the same with them: what the stack really reached */
	uint64_t frame;                 /* the deepest while its own instructions ran (callees and
					 * interrupts aside): its frame and the return address */
};

/* The stack of the run, from main's first instruction to the end. */
struct roi_mstack {
	uint32_t top;                   /* the stack pointer before the call of main: the start-up's */
	uint32_t lowest;                /* the lowest stack pointer (the next byte a push writes) */
	uint64_t peak;                  /* top - lowest */
	bool has_ram;                   /* the end of the static data is known */
	uint32_t data_end;              /* the end of .data, .bss and .noinit (roi stack's reading):
					 * where the heap starts */
	long long margin;               /* lowest + 1 - data_end: the bytes never reached */
	bool heap;                      /* malloc is linked: the heap took some of margin's bytes */
	struct roi_mstack_fn *fns;      /* by depth, deepest first */
	size_t nfns;
};

struct roi_measured {
	const char *path;               /* where it was read from (NULL when made by roi run) */
	const char *program;            /* the firmware run, as its absolute path */
	uint32_t image_crc;             /* of its loaded image (roi_elf_image_crc) */
	const char *mcu;
	uint32_t freq_hz;
	uint64_t cycles;                /* simavr's total: start-up, main, exit */
	bool has_main;
	uint64_t main_cycle;            /* the cycle main's first instruction ran at */
	const char *stop;               /* "exit", "sleep", "symbol", "limit" */
	const char *stop_symbol;        /* stop "symbol": SYMBOL[:N] as given */
	bool has_exit_status;
	int exit_status;
	bool complete;                  /* false: stopped at the cycle limit, figures up to there */
	struct roi_mline *lines;
	size_t nlines;
	struct roi_mfunction *fns;
	size_t nfns;
	struct roi_msite *sites;
	size_t nsites;
	struct roi_mlibrary *library;
	size_t nlibrary;
	/* with the block-lines build and the counted build's metadata */
	bool has_blocks;
	const char *blocks_program, *metadata;
	uint64_t blocks_run_cycles;     /* of the run the blocks were measured in (the same run when
					 * the block-lines build is the plain one byte for byte) */
	uint64_t ambiguous;             /* block transitions with more than one path through blocks
					 * without instructions (the first was taken) */
	struct roi_mblocks *blocks;
	size_t nblocks;
	struct roi_mloop *loops;
	size_t nloops;
	struct roi_mregion *regions;
	size_t nregions;
	bool has_stack;                 /* false: main never ran, or a version 1 file */
	struct roi_mstack stack;
	struct roi_arena arena;
};

/* Reads and checks a measured profile. Errors: "PATH: <strerror>", "PATH:LINE:COL: <JSON error>",
 * "PATH: not a measured profile (no \"roi_measured\")", "PATH: lines[3]: missing 'cycles'",
 * "PATH: its lines add up to N cycles, not its total M". Free with roi_measured_free, also on
 * failure. */
int roi_measured_load(const char *path, struct roi_measured *m, struct roi_err *err);
/* The same of text[0, len) (a NUL after it), "path" naming it in messages. */
int roi_measured_parse(const char *path, const char *text, size_t len, struct roi_measured *m, struct roi_err *err);
void roi_measured_free(struct roi_measured *m);

/* m as the JSON document roi_measured_write writes (malloc'd; NULL when out of memory). */
char *roi_measured_json_text(const struct roi_measured *m);

/* Writes m to path (a temporary file renamed over it). Errors: "PATH: <strerror>"; "the lines add
 * up to N cycles, not the run's M" (a bug, never a file with it). */
int roi_measured_write(const char *path, const struct roi_measured *m, struct roi_err *err);

/* Σ lines[].cycles. */
uint64_t roi_measured_line_sum(const struct roi_measured *m);

/* main's inclusive cycles (from its first instruction to its return, or to the stop), or, when
 * no call entered it, the cycles from its first instruction on; the whole run's without main. */
uint64_t roi_measured_main_cycles(const struct roi_measured *m);

/* Looking up what a program's metadata names. */
const struct roi_mfunction *roi_measured_function(const struct roi_measured *m, const char *asm_name);
/* The line whose file is file (as the metadata gives it: the same path, or the same path
 * components at the end of the measured one's) and whose number is line; NULL when none. */
const struct roi_mline *roi_measured_line(const struct roi_measured *m, const char *file, unsigned line);
const struct roi_mblocks *roi_measured_blocks(const struct roi_measured *m, const struct roi_function *fn);
/* The stack figures of a function by its symbol; NULL when it never ran (or twice that name). */
const struct roi_mstack_fn *roi_measured_stack_fn(const struct roi_measured *m, const char *symbol);
const struct roi_mloop *roi_measured_loop(const struct roi_measured *m, const struct roi_function *fn, size_t loop);
/* Whether the same path, or the same path components at the end of measured (file as given to the
 * compiler against the DWARF's path joined to the compilation directory). */
bool roi_measured_same_file(const char *measured, const char *file);

#endif
