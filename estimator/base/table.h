/* base/table.h — aligned text tables: cells are collected first, so columns fit their widest cell. */
#ifndef ROI_TABLE_H
#define ROI_TABLE_H

#include <stdio.h>

#include "base/arena.h"

struct roi_table {
	const char *align;      /* one letter per column: 'l' left, 'r' right */
	size_t ncols, nrows, cap;
	const char **cells;     /* row-major; copies in the arena */
	struct roi_arena arena;
};

void roi_table_init(struct roi_table *t, const char *align);
/* Adds a row of ncols strings (any further arguments are ignored); NULL prints as empty. */
void roi_table_row(struct roi_table *t, ...);
/* Adds a row of the ncols strings of cells; NULL prints as empty. */
void roi_table_cells(struct roi_table *t, const char *const *cells);
/* Prints every row with `indent` before it, two spaces between columns; then frees the table. */
void roi_table_print(struct roi_table *t, FILE *out, const char *indent);
void roi_table_free(struct roi_table *t);

#endif
