/* report/stack_text.c — roi stack as text, see stack.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/table.h"
#include "report/stack.h"

#define LOWER (ROI_STACK_RECURSIVE | ROI_STACK_INDIRECT | ROI_STACK_UNKNOWN | ROI_STACK_DYNAMIC)

const char *roi_stack_depth_text(long long depth, unsigned flags, char *buf, size_t size)
{
	snprintf(buf, size, "%s%lld", flags & (LOWER | ROI_STACK_NESTING) ? ">= " : "", depth);
	return buf;
}

/* Whether the worst path goes from v to w by a tail call only. */
static bool tail_only(const struct roi_stack *s, size_t v, size_t w)
{
	bool tail = false;

	for (size_t e = 0; e < s->fns[v].nedges; e++)
		if (s->fns[v].edges[e].to == w) {
			if (!s->fns[v].edges[e].tail)
				return false;
			tail = true;
		}
	return tail;
}

const char *roi_stack_path_text(const struct roi_stack *s, size_t fn, char *buf, size_t size)
{
	size_t path[64], n = roi_stack_path(s, fn, path, 64), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					!i ? "" : tail_only(s, path[i - 1], path[i]) ? " ~> " : " > ", s->fns[path[i]].name);
	if (n == 64 && len < size)
		snprintf(buf + len, size - len, " > ...");
	return buf;
}

static const char *source_text(const struct roi_stack_fn *f)
{
	switch (f->source) {
	case ROI_FRAME_GCC: return f->frame_bound ? "gcc, bound" : "gcc";
	case ROI_FRAME_CODE: return "code";
	default: return "-";
	}
}

/* Functions a root reaches first, deepest first; then the others by name. */
static const struct roi_stack *sorting;

static int by_depth(const void *x, const void *y)
{
	const struct roi_stack_fn *a = &sorting->fns[*(const size_t *)x], *b = &sorting->fns[*(const size_t *)y];

	if (a->reached != b->reached)
		return a->reached ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* A measured figure: "44", "-" (it did not run), "50 !" (above a complete static figure). */
static const char *measured_cell(long long v, bool above, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%lld%s", v, above ? " !" : "");
	return buf;
}

static void fn_table(FILE *out, const struct roi_stack *s)
{
	size_t *order = roi_xzalloc(s->nfns, sizeof *order);
	struct roi_table t;

	for (size_t i = 0; i < s->nfns; i++)
		order[i] = i;
	sorting = s;
	roi_sort(order, s->nfns, sizeof *order, by_depth);
	bool meas = s->meas != NULL;

	roi_table_init(&t, meas ? "lrlrrll" : "lrlrll");
	if (meas)
		roi_table_row(&t, "function", "frame", "from", "depth", "measured", "worst path", "flags");
	else
		roi_table_row(&t, "function", "frame", "from", "depth", "worst path", "flags");
	for (size_t i = 0; i < s->nfns; i++) {
		const struct roi_stack_fn *f = &s->fns[order[i]];
		char frame[32], depth[40], path[2048], flags[160], note[512];

		if (f->frame >= 0)
			snprintf(frame, sizeof frame, "%lld", f->frame);
		else
			snprintf(frame, sizeof frame, "?");
		roi_stack_depth_text(f->depth, f->below & LOWER, depth, sizeof depth);
		roi_stack_path_text(s, order[i], path, sizeof path);
		roi_stack_flags_text(f->below & LOWER, flags, sizeof flags);
		snprintf(note, sizeof note, "%s%s%s%s", flags, f->why && *flags ? ": " : "",
			 f->why && *flags ? f->why : "", f->reached ? "" : (*flags ? "; no root reaches it" : "no root reaches it"));
		if (meas) {
			char m[48];
			size_t n = strlen(note);

			measured_cell(f->measured ? (long long)f->measured->depth : -1, f->above, m, sizeof m);
			if (f->above)
				snprintf(note + n, sizeof note - n, "%sMEASURED DEEPER THAN ITS STATIC DEPTH", n ? "; " : "");
			roi_table_row(&t, f->name, frame, source_text(f), depth, m, path, note);
		} else {
			roi_table_row(&t, f->name, frame, source_text(f), depth, path, note);
		}
	}
	roi_table_print(&t, out, "  ");
	free(order);
}

static void root_table(FILE *out, const struct roi_stack *s)
{
	struct roi_table t;
	char depth[40], path[2048], flags[160], note[2200];

	bool meas = s->meas != NULL;
	char m[48];

	roi_table_init(&t, meas ? "lrrll" : "lrll");
	if (meas)
		roi_table_row(&t, "root", "depth", "measured", "worst path", "flags");
	else
		roi_table_row(&t, "root", "depth", "worst path", "flags");
	for (size_t i = 0; i < s->nroots; i++) {
		const struct roi_stack_root *r = &s->roots[i];
		char entry[64] = "";

		if (r->entry)
			snprintf(entry, sizeof entry, "the exception frame (%lld) > ", r->entry);
		roi_stack_path_text(s, r->fn, path, sizeof path);
		snprintf(note, sizeof note, "%s%s", entry, path);
		roi_stack_depth_text(r->depth, r->below & LOWER, depth, sizeof depth);
		roi_stack_flags_text(r->below & LOWER, flags, sizeof flags);
		if (meas)
			roi_table_row(&t, r->label, depth, measured_cell(r->measured, r->above, m, sizeof m), note, flags);
		else
			roi_table_row(&t, r->label, depth, note, flags);
	}
	if (s->main_root >= 0 && s->worst_interrupt >= 0) {
		snprintf(note, sizeof note, "%s at its deepest, %s on top%s", s->roots[s->main_root].label,
			 s->roots[s->worst_interrupt].label,
			 s->interrupts_nest ? " (a handler enables interrupts: more can nest)" : "");
		roi_stack_depth_text(s->worst_depth, s->worst_below, depth, sizeof depth);
		roi_stack_flags_text(s->worst_below, flags, sizeof flags);
		if (meas)
			roi_table_row(&t, "worst", depth, measured_cell(s->meas->has_stack ? (long long)s->meas->stack.peak : -1,
								       s->worst_above, m, sizeof m), note, flags);
		else
			roi_table_row(&t, "worst", depth, note, flags);
	}
	roi_table_print(&t, out, "  ");
}

static void ram_text(FILE *out, const struct roi_stack *s)
{
	const struct roi_stack_ram *r = &s->ram;
	char depth[40];

	if (!r->known) {
		fprintf(out, "RAM       not known (%s)\n", s->code_read ? "no RAM size and stack top in the ELF"
			: "roi reads the RAM of AVR and Cortex-M firmware");
		return;
	}
	fprintf(out, "RAM       %" PRIu64 " bytes at 0x%04" PRIx64 " (%s%s%s)\n", r->size, r->start,
		r->part ? r->part : "", r->part ? ", " : "", r->source);
	fprintf(out, "data      .data %" PRIu64 " + .bss %" PRIu64 " + .noinit %" PRIu64 " = %" PRIu64
		" bytes, up to 0x%04" PRIx64 "%s", r->data, r->bss, r->noinit, r->data + r->bss + r->noinit, r->data_end,
		r->counters ? "; " : "\n");
	if (r->counters)
		fprintf(out, "roi's counters take %" PRIu64 " of them\n", r->counters);
	fprintf(out, "stack     from 0x%04" PRIx64 " down: %lld bytes free above the data, %s at the deepest%s\n",
		r->stack_top - 1, r->free, roi_stack_depth_text(s->worst_depth, s->worst_below, depth, sizeof depth),
		r->heap ? " (malloc is linked: the heap takes from the same bytes)" : "");
	fprintf(out, "margin    %s%lld bytes%s\n", s->worst_below ? "<= " : "", r->margin,
		r->margin < 0 ? ": the stack can run into the data" : "");
	if (s->meas && s->meas->has_stack && s->meas->stack.has_ram)
		fprintf(out, "measured  margin %lld bytes: the data up to 0x%04x, the stack down to 0x%04x (%llu bytes)%s\n",
			s->meas->stack.margin, (unsigned)s->meas->stack.data_end, (unsigned)s->meas->stack.lowest,
			(unsigned long long)s->meas->stack.peak, s->same_build ? "" : ", in the measured build");
}

/* The measured profile: what it is, and loudly, any measured figure above a complete static one. */
static void measured_text(FILE *out, const struct roi_stack *s)
{
	const struct roi_measured *m = s->meas;
	size_t ran = 0;

	for (size_t i = 0; i < s->nfns; i++)
		ran += s->fns[i].measured != NULL;
	fprintf(out, "measured  %s: a run in simavr (%s) of %s%s", m->path, m->mcu,
		s->same_build ? "this build" : m->program, s->same_build ? "" : " (another build: its image differs)");
	if (!m->has_stack) {
		fprintf(out, "; no stack figures (main never ran, or a profile of an older roi)\n");
		return;
	}
	fprintf(out, "; %zu of these functions ran, %llu bytes at the deepest\n", ran, (unsigned long long)m->stack.peak);
	if (!s->nabove)
		return;
	fprintf(out, "BUG       %zu measured figure%s above its static one, which can never be: %s\n",
		s->nabove, s->nabove == 1 ? " is" : "s are",
		s->same_build ? "a bug in roi stack's analysis (please report it with the program)"
		: "the builds differ, or roi stack's analysis is wrong");
}

void roi_stack_text(FILE *out, const struct roi_stack *s)
{
	size_t gcc = 0, code = 0, added = 0, none = 0;

	for (size_t i = 0; i < s->nfns; i++) {
		gcc += s->fns[i].source == ROI_FRAME_GCC;
		code += s->fns[i].source == ROI_FRAME_CODE;
		added += s->fns[i].source == ROI_FRAME_CODE && s->fns[i].frame_bound;
		none += s->fns[i].source == ROI_FRAME_NONE;
	}
	fprintf(out, "program   %s (%s", s->path, s->arch);
	if (s->pc_bytes)
		fprintf(out, ", %u-byte return addresses", s->pc_bytes);
	fprintf(out, ")\n");
	fprintf(out, "frames    %zu from GCC (the -fstack-usage figure in the metadata)", gcc);
	if (code)
		fprintf(out, ", %zu read from their machine code (no metadata)%s", code,
			added ? ": pushes added up, an upper bound" : "");
	if (none)
		fprintf(out, ", %zu not known", none);
	fprintf(out, "\ncalls     %s\n", s->code_read ? "read from the machine code, indirect ones from the metadata too"
		: "from the metadata (direct calls by name)");
	if (s->meas)
		measured_text(out, s);
	fputc('\n', out);
	fn_table(out, s);
	fprintf(out, "\n");
	if (s->nroots) {
		root_table(out, s);
		fprintf(out, "\n");
	}
	ram_text(out, s);
}
