/* machine/code.h — a firmware's code as machine pricing reads it: its executable bytes, its
 * symbols, its core, and the DWARF line table when it has one. */
#ifndef ROI_MACHINE_CODE_H
#define ROI_MACHINE_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/dwarf_lines.h"
#include "machine/isa.h"

/* A symbol of the code: a function or a library routine. */
struct roi_msym {
	const char *name;
	uint64_t addr, size;    /* addr without ARM's Thumb bit */
	bool global, func;      /* STB_GLOBAL/STB_WEAK; STT_FUNC */
};

struct roi_mseg {
	uint64_t addr, size;
	const uint8_t *bytes;
};

enum roi_march { ROI_MARCH_AVR, ROI_MARCH_ARM };

struct roi_mcode {
	const char *path;
	enum roi_march arch;
	enum roi_avr_core core;         /* AVR */
	const char *device;             /* AVR: the part avr-libc's device note names ("atmega32u4"), or NULL */
	uint64_t flash_size;            /* AVR: from the same note; 0 when unknown */
	struct roi_mseg *segs;
	size_t nsegs;
	struct roi_msym *syms;          /* by address, then global before local */
	size_t nsyms;
	uint64_t *data_at;              /* ARM: where data in the code starts ($d) and ends ($t), sorted; an
					 * even index is a $d */
	size_t ndata;
	struct roi_line_table lines;
	bool has_lines;                 /* a DWARF line table was read */
	uint32_t image_crc;             /* roi_elf_image_crc */
	unsigned flash_wait;            /* ARM: wait states on a branch's refill (the model's) */
	struct roi_arena arena;
};

/* Loads PATH's code. Errors: the ELF's own, "PATH: an ELF for MACHINE: machine pricing knows AVR
 * and ARM (Cortex-M)", "PATH: an AVR core of architecture avrN (xmega, tiny): machine pricing knows
 * the AVRe/AVRe+ timings of the megaAVRs", "PATH: no code". Free with roi_mcode_free even on
 * failure. */
int roi_mcode_load(const char *path, struct roi_mcode *c, struct roi_err *err);
void roi_mcode_free(struct roi_mcode *c);

/* The code bytes at addr and how many follow in its section; NULL outside the code. */
const uint8_t *roi_mcode_bytes(const struct roi_mcode *c, uint64_t addr, size_t *avail);

/* The symbol of that name (a global one first), or NULL. */
const struct roi_msym *roi_mcode_symbol(const struct roi_mcode *c, const char *name);

/* The routine that starts at addr: a global symbol there (not one whose name starts with '.'),
 * else a local one; NULL when none starts there. */
const struct roi_msym *roi_mcode_routine_at(const struct roi_mcode *c, uint64_t addr);

/* The end of the data in the code that addr lies in (a literal pool, a TBB table), else addr. */
uint64_t roi_mcode_past_data(const struct roi_mcode *c, uint64_t addr);

/* The targets of a jump through the table that follows it in the code (isa.h: table_entry), up to
 * max, in the table's order; 0 when there is none to read. */
size_t roi_mcode_jump_table(const struct roi_mcode *c, const struct roi_minsn *in, uint64_t *targets, size_t max);

/* Decodes the instruction at addr (ROI_MI_STOP outside the code). st: the Thumb IT state,
 * ignored for AVR. */
void roi_mcode_decode(const struct roi_mcode *c, uint64_t addr, struct roi_thumb_state *st, struct roi_minsn *in);

#endif
