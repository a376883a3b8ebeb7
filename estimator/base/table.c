/* base/table.c — aligned text tables, see table.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/table.h"

void roi_table_init(struct roi_table *t, const char *align)
{
	memset(t, 0, sizeof *t);
	t->align = align;
	t->ncols = strlen(align);
}

void roi_table_row(struct roi_table *t, ...)
{
	va_list ap;

	if (t->nrows == t->cap)
		t->cells = roi_xrealloc(t->cells, (t->cap = t->cap ? 2 * t->cap : 32) * t->ncols, sizeof *t->cells);
	va_start(ap, t);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = va_arg(ap, const char *);
		t->cells[t->nrows * t->ncols + c] = roi_arena_strdup(&t->arena, s ? s : "");
	}
	va_end(ap);
	t->nrows++;
}

void roi_table_cells(struct roi_table *t, const char *const *cells)
{
	if (t->nrows == t->cap)
		t->cells = roi_xrealloc(t->cells, (t->cap = t->cap ? 2 * t->cap : 32) * t->ncols, sizeof *t->cells);
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = roi_arena_strdup(&t->arena, cells[c] ? cells[c] : "");
	t->nrows++;
}

void roi_table_print(struct roi_table *t, FILE *out, const char *indent)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof *w);

	for (size_t r = 0; w && r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t n = strlen(t->cells[r * t->ncols + c]);
			if (n > w[c])
				w[c] = n;
		}
	for (size_t r = 0; w && r < t->nrows; r++) {
		size_t pad = 0;     /* spaces owed before the next cell; never printed at the end of a line */

		fputs(indent, out);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			size_t n = strlen(s);

			if (t->align[c] == 'r')
				pad += w[c] - n;
			if (n)
				fprintf(out, "%*s%s", (int)pad, "", s), pad = 0;
			pad += (t->align[c] == 'r' ? 0 : w[c] - n) + 2;
		}
		fputc('\n', out);
	}
	free(w);
	roi_table_free(t);
}

void roi_table_free(struct roi_table *t)
{
	free(t->cells);
	roi_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}
