/* report/measured.c — a measured profile as text tables: what "roi run --measured" prints
 * (docs/run.md, "Measured"). */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/fmt.h"
#include "base/path.h"
#include "base/table.h"
#include "base/json.h"
#include "report/measured.h"
#include "report/report.h"

#define CELL 64

static const char *where(const char *file, const char *what, unsigned line, char *buf, size_t size)
{
	if (file)
		snprintf(buf, size, "%s:%u", roi_base_name(file), line);
	else
		snprintf(buf, size, "(%s)", what);
	return buf;
}

static const char *num(uint64_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%llu", (unsigned long long)v);
	return buf;
}

static void section(FILE *out, const char *title, struct roi_table *t, size_t n, size_t top, const char *what)
{
	fprintf(out, "\n%s\n", title);
	if (t->nrows > 1)
		roi_table_print(t, out, "  ");
	else {
		roi_table_free(t);
		fprintf(out, "  (none)\n");
	}
	if (top && n > top)
		fprintf(out, "  ... %zu more %s (--top %zu)\n", n - top, what, top);
}

static size_t shown(size_t n, size_t top)
{
	return top && n > top ? top : n;
}

static int lines_by_cycles(const void *a, const void *b)
{
	const struct roi_mline *x = *(const struct roi_mline *const *)a, *y = *(const struct roi_mline *const *)b;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	return x < y ? -1 : x > y;
}

void roi_measured_text(FILE *out, const struct roi_measured *m, size_t top)
{
	struct roi_table t;
	char a[CELL], b[CELL], c[CELL], d[CELL], e[CELL], w[512];
	uint64_t own = 0, pseudo = 0;

	for (size_t i = 0; i < m->nlines; i++)
		*(m->lines[i].file ? &own : &pseudo) += m->lines[i].cycles;
	fprintf(out, "measured  %llu cycles of %s in simavr (%s), every one on a line: %llu on lines of the program, "
		"%llu outside main (start-up, after main, interrupts without lines)%s\n",
		(unsigned long long)m->cycles, m->program, m->mcu, (unsigned long long)own, (unsigned long long)pseudo,
		m->complete ? "" : "; stopped at the cycle limit: the figures up to there");

	roi_table_init(&t, "lrrrrl");
	roi_table_row(&t, "function", "calls", "self", "inclusive", "share", "note");
	for (size_t i = 0; i < shown(m->nfns, top); i++) {
		const struct roi_mfunction *f = &m->fns[i];

		roi_table_row(&t, f->name, num(f->calls, a, sizeof a), num(f->self, b, sizeof b),
			      num(f->inclusive, c, sizeof c), roi_fmt_share((double)f->self, (double)m->cycles, d, sizeof d),
			      f->lines ? "" : "no lines: charged to its callers' lines");
	}
	section(out, "functions (ELF symbols; self: their own instructions; inclusive: from call to return)", &t,
		m->nfns, top, "functions");

	roi_table_init(&t, "lllrrrr");
	roi_table_row(&t, "caller", "file:line", "callee", "calls", "inclusive", "per call", "share");
	for (size_t i = 0; i < shown(m->nsites, top); i++) {
		const struct roi_msite *s = &m->sites[i];
		char callee[256];

		snprintf(callee, sizeof callee, "%s%s", s->callee,
			 s->how == ROI_MCALL_JUMP ? " (jump)" : s->how == ROI_MCALL_INTERRUPT ? " (interrupt)" : "");
		roi_table_row(&t, s->caller ? s->caller : "-", where(s->file, s->what, s->line, w, sizeof w), callee,
			      num(s->calls, a, sizeof a), num(s->inclusive, b, sizeof b),
			      roi_fmt_num(s->calls ? (double)s->inclusive / (double)s->calls : 0, c, sizeof c),
			      roi_fmt_share((double)s->inclusive, (double)m->cycles, d, sizeof d));
	}
	section(out, "call sites (each apart: inclusive cycles of the calls made there)", &t, m->nsites, top,
		"call sites");

	roi_table_init(&t, "llr");
	roi_table_row(&t, "routine", "charged to", "cycles");
	for (size_t i = 0; i < shown(m->nlibrary, top); i++) {
		const struct roi_mlibrary *l = &m->library[i];

		roi_table_row(&t, l->routine, where(l->file, l->what, l->line, w, sizeof w), num(l->cycles, a, sizeof a));
	}
	section(out, "code without lines (libgcc, avr-libc, assembler), charged to the line that called it", &t,
		m->nlibrary, top, "rows");

	const struct roi_mline **order = roi_xzalloc(m->nlines, sizeof *order);
	for (size_t i = 0; i < m->nlines; i++)
		order[i] = &m->lines[i];
	if (top)
		roi_sort(order, m->nlines, sizeof *order, lines_by_cycles);
	roi_table_init(&t, "lrrrr");
	roi_table_row(&t, "file:line", "cycles", "library", "inclusive", "share");
	for (size_t i = 0; i < shown(m->nlines, top); i++) {
		const struct roi_mline *l = order[i];

		roi_table_row(&t, where(l->file, l->what, l->line, w, sizeof w), num(l->cycles, a, sizeof a),
			      num(l->library, b, sizeof b), num(l->inclusive, c, sizeof c),
			      roi_fmt_share((double)l->cycles, (double)m->cycles, e, sizeof e));
	}
	free(order);
	section(out, "lines (cycles: its instructions and the code without lines it called; they add up to the total)",
		&t, m->nlines, top, "lines");

	if (m->nregions) {
		roi_table_init(&t, "llrr");
		roi_table_row(&t, "region", "kind", "calls", "cycles");
		for (size_t i = 0; i < m->nregions; i++) {
			const struct roi_mregion *r = &m->regions[i];

			roi_table_row(&t, r->name, r->kind, r->measured ? num(r->calls, a, sizeof a) : "-",
				      r->measured ? num(r->cycles, b, sizeof b) : "not measured (loops need --blocks)");
		}
		section(out, "regions (the counted build's filter)", &t, m->nregions, 0, "regions");
	}
	if (m->has_blocks) {
		size_t nb = 0;
		uint64_t in_blocks = 0;

		for (size_t i = 0; i < m->nblocks; i++)
			for (size_t k = 0; k < m->blocks[i].nblocks; k++) {
				nb += !m->blocks[i].value[k];
				in_blocks += m->blocks[i].cycles[k];
			}
		fprintf(out, "\nblocks    %zu counted blocks of %zu function%s measured through %s: %llu cycles in them%s",
			nb, m->nblocks, m->nblocks == 1 ? "" : "s", m->blocks_program, (unsigned long long)in_blocks,
			m->blocks_run_cycles != m->cycles ? " (in its own run: its code is not the plain build's)" : "");
		size_t doubt = 0;
		for (size_t i = 0; i < m->nblocks; i++)
			for (size_t k = 0; m->blocks[i].ambiguous && k < m->blocks[i].nblocks; k++)
				doubt += m->blocks[i].ambiguous[k] != 0;
		if (m->ambiguous)
			fprintf(out, "; %llu passes through blocks without instructions had another as short: "
				"%zu block%s the choice taken, not the code's (\"ambiguous\")",
				(unsigned long long)m->ambiguous, doubt, doubt == 1 ? "'s count is" : "s' counts are");
		fputc('\n', out);
	}
	roi_measured_stack_text(out, m, top);
}

void roi_measured_stack_text(FILE *out, const struct roi_measured *m, size_t top)
{
	const struct roi_mstack *st = &m->stack;
	struct roi_table t;
	char a[CELL], b[CELL], c[CELL], d[CELL];

	if (!m->has_stack)
		return;
	fprintf(out, "\nstack     %llu bytes at the deepest, from 0x%04x (the stack pointer main was called with) "
		"down to 0x%04x, interrupts included\n", (unsigned long long)st->peak, (unsigned)st->top,
		(unsigned)st->lowest);
	if (st->has_ram)
		fprintf(out, "margin    %lld bytes between the end of .data, .bss and .noinit (0x%04x) and the lowest stack "
			"pointer%s\n", st->margin, (unsigned)st->data_end,
			st->margin < 0 ? ": the stack ran into the data" : st->heap ? "; malloc is linked: the heap took "
			"some of them" : "");
	roi_table_init(&t, "lrrrr");
	roi_table_row(&t, "function", "calls", "depth", "interrupts", "frame");
	for (size_t i = 0; i < shown(st->nfns, top); i++) {
		const struct roi_mstack_fn *f = &st->fns[i];

		roi_table_row(&t, f->name, num(f->calls, a, sizeof a), num(f->depth, b, sizeof b),
			      num(f->with_interrupts, c, sizeof c), num(f->frame, d, sizeof d));
	}
	section(out, "stack by function (bytes below its entry at the deepest: depth, its calls included as roi "
		"stack counts them; interrupts, with the interrupts that came meanwhile; frame, its own instructions')",
		&t, st->nfns, top, "functions");
}

const char *roi_measured_short_file(const struct roi_program *p, const char *file)
{
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfiles; f++)
			if (roi_measured_same_file(file, p->units[u].files[f]))
				return p->units[u].files[f];
	return file;
}

static const char *stop_text(const struct roi_measured *m, char *buf, size_t size)
{
	if (strcmp(m->stop, "symbol") == 0)
		snprintf(buf, size, "stopped at %s", m->stop_symbol ? m->stop_symbol : "a symbol");
	else if (strcmp(m->stop, "limit") == 0)
		snprintf(buf, size, "stopped at the cycle limit: the figures up to there");
	else
		snprintf(buf, size, "stopped at %s", m->stop);
	return buf;
}

void roi_measured_source_text(FILE *out, const struct roi_measured *m)
{
	char stop[128];

	fprintf(out, "measured  %s: %llu cycles of %s in simavr (%s), %s; exact, every cycle on a line%s\n", m->path,
		(unsigned long long)m->cycles, m->program, m->mcu, stop_text(m, stop, sizeof stop),
		m->has_blocks ? ", blocks through the block-lines build" : "");
}

void roi_measured_total_text(FILE *out, const struct roi_measured *m)
{
	fprintf(out, "measured  %llu cycles in main, its calls included (%llu in the whole run: the start-up and the "
		"exit are the rest)\n", (unsigned long long)roi_measured_main_cycles(m), (unsigned long long)m->cycles);
}

cJSON *roi_measured_source_json(const struct roi_measured *m)
{
	cJSON *o;

	if (!m)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", m->path);
	cJSON_AddStringToObject(o, "program", m->program);
	cJSON_AddStringToObject(o, "mcu", m->mcu);
	cJSON_AddNumberToObject(o, "cycles", (double)m->cycles);
	cJSON_AddNumberToObject(o, "main_cycles", (double)roi_measured_main_cycles(m));
	cJSON_AddStringToObject(o, "stop", m->stop);
	cJSON_AddBoolToObject(o, "complete", m->complete);
	cJSON_AddBoolToObject(o, "blocks", m->has_blocks);
	return o;
}

bool roi_measured_node(const struct roi_measured *m, const struct roi_node *n, uint64_t *cycles, uint64_t *calls)
{
	*cycles = *calls = 0;
	if (!m)
		return false;
	if (n->kind == ROI_NODE_FUNCTION) {
		const struct roi_mfunction *f = roi_measured_function(m, n->fn ? n->fn->asm_name : n->id);

		if (!f || !f->calls)
			return false;
		*cycles = f->inclusive;
		*calls = f->calls;
		return true;
	}
	if (n->kind == ROI_NODE_LOOP) {
		const struct roi_mloop *l = n->fn && n->loop >= 0 ? roi_measured_loop(m, n->fn, (size_t)n->loop) : NULL;

		if (!l)
			return false;
		*cycles = l->cycles;
		*calls = l->entries;
		return true;
	}
	const struct roi_mline *l = roi_measured_line(m, n->file, n->line);
	if (!l)
		return false;
	*cycles = l->inclusive;
	return true;
}

bool roi_measured_calls_at(const struct roi_measured *m, const char *file, unsigned line, const char *callee,
			   uint64_t *calls, uint64_t *inclusive)
{
	bool found = false;

	*calls = *inclusive = 0;
	for (size_t i = 0; m && i < m->nsites; i++) {
		const struct roi_msite *s = &m->sites[i];

		if (s->file && s->line == line && s->how != ROI_MCALL_INTERRUPT && strcmp(s->callee, callee) == 0 &&
		    roi_measured_same_file(s->file, file)) {
			found = true;
			*calls += s->calls;
			*inclusive += s->inclusive;
		}
	}
	return found;
}
