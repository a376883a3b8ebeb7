/* input/dwarf_lines.h — an ELF file's DWARF line table (libdw): which source line an instruction
 * address belongs to. roi calibrate uses it to give each line of a corpus program the cycles
 * simavr spent in its instructions. */
#ifndef ROI_DWARF_LINES_H
#define ROI_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"

struct roi_line_addr {
	uint64_t addr;
	const char *file;       /* as the compiler recorded it; NULL for an end of sequence */
	unsigned line;
	size_t order;           /* position in the line programs: of rows at one address, the last
				 * one read is the one in effect */
};

struct roi_line_table {
	struct roi_line_addr *rows;     /* sorted by addr */
	size_t nrows;
	struct roi_arena arena;
};

/* Reads every compilation unit's line program. Errors: "ELF: no DWARF line table (built without
 * -g?)", libdw's own. */
int roi_line_table_load(const char *elf, struct roi_line_table *t, struct roi_err *err);

/* The row addr falls in, or NULL where no line program covers addr (start-up code, libraries). */
const struct roi_line_addr *roi_line_table_find(const struct roi_line_table *t, uint64_t addr);

void roi_line_table_free(struct roi_line_table *t);

#endif
