/* input/dwarf_lines.c — an ELF file's DWARF line table through libdw (dwarf_lines.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "base/readfile.h"
#include "input/dwarf_lines.h"

static int by_addr(const void *a, const void *b)
{
	const struct roi_line_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* an end of sequence at the address another sequence starts at comes first */
	if ((x->file != NULL) != (y->file != NULL))
		return (x->file != NULL) - (y->file != NULL);
	return x->order < y->order ? -1 : x->order > y->order;
}

int roi_line_table_load(const char *elf, struct roi_line_table *t, struct roi_err *err)
{
	size_t cap = 0;
	struct stat st;
	int fd;

	memset(t, 0, sizeof *t);
	if ((fd = roi_open_regular(elf, &st, err)) < 0)
		return -1;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return roi_err_set(err, "%s: no DWARF line table (built without -g?): %s", elf, dwarf_errmsg(-1));
	}
	Dwarf_Off off = 0, next;
	size_t header;
	while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t n;

		if (dwarf_offdie(dw, off + header, &cu) && dwarf_getsrclines(&cu, &lines, &n) == 0)
			for (size_t i = 0; i < n; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr addr;
				int lineno;
				bool end;
				const char *src = dwarf_linesrc(l, NULL, NULL);

				if (!l || dwarf_lineaddr(l, &addr) != 0 || dwarf_lineno(l, &lineno) != 0 ||
				    dwarf_lineendsequence(l, &end) != 0 || (!end && !src))
					continue;
				if (t->nrows == cap)
					t->rows = roi_xrealloc(t->rows, cap = cap ? 2 * cap : 256, sizeof *t->rows);
				t->rows[t->nrows++] = (struct roi_line_addr){
					addr, end ? NULL : roi_arena_strdup(&t->arena, src), end ? 0 : (unsigned)lineno, t->nrows};
			}
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	if (t->nrows == 0)
		return roi_err_set(err, "%s: no DWARF line table (built without -g?)", elf);
	qsort(t->rows, t->nrows, sizeof *t->rows, by_addr);
	return 0;
}

const struct roi_line_addr *roi_line_table_find(const struct roi_line_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nrows;

	/* the last row at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || !t->rows[lo - 1].file)
		return NULL;
	return &t->rows[lo - 1];
}

void roi_line_table_free(struct roi_line_table *t)
{
	free(t->rows);
	roi_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}
