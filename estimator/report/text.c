/* report/text.c — the estimate as aligned text tables, for people (docs/estimate-json.md, "Text"). */
#include <stddef.h>
#include <string.h>

#include <stdlib.h>

#include "base/fmt.h"
#include "base/table.h"
#include "input/filter.h"
#include "report/measured.h"
#include "report/report.h"

#define CELL 64

static void header(FILE *out, const struct roi_estimate *e, const struct roi_source *src)
{
	const struct roi_program *p = e->prog;
	const struct roi_model *m = e->model;
	char hz[CELL], *excluded = roi_filter_excluded_list(p);

	roi_program_text(out, p, src);
	if (src->measured)
		roi_measured_source_text(out, src->measured);
	if (excluded)
		fprintf(out, "excluded  %s: not counted (filter), their cost is not included\n", excluded);
	free(excluded);
	if (!m) {
		fprintf(out, "model     none: counts only (--model FILE adds cycles, time and energy)\n");
		return;
	}
	fprintf(out, "model     %s (%s) at %s", m->part, m->arch, roi_fmt_si(m->clock_hz, "Hz", hz, sizeof hz));
	if (m->compiler || m->opt)
		fprintf(out, ", costs for %s%s%s", m->compiler ? m->compiler : "", m->compiler && m->opt ? " -" : "",
			m->opt ? m->opt : "");
	fprintf(out, " [%s]\n", m->path);
	if (e->mapped)
		fprintf(out, "mapping   host ABI mapped to %s: char %d, short %d, int %d, long %d, long long %d, "
			"pointer %d, float %d, double %d, long double %d bits\n", m->arch, m->abi.char_bits,
			m->abi.short_bits, m->abi.int_bits, m->abi.long_bits, m->abi.llong_bits, m->abi.pointer_bits,
			m->abi.float_bits, m->abi.double_bits, m->abi.ldouble_bits);
	else
		fprintf(out, "mapping   none: the program was compiled for %s\n", m->arch);
}

static void section(FILE *out, const char *title, struct roi_table *t)
{
	fprintf(out, "\n%s\n", title);
	if (t->nrows > 1) {
		roi_table_print(t, out, "  ");
	} else {
		roi_table_free(t);
		fprintf(out, "  (none)\n");
	}
}

/* How many of n rows --top shows, and the line that says how many it left out. */
static size_t shown(size_t n, size_t top)
{
	return top && n > top ? top : n;
}

static void more(FILE *out, size_t n, size_t top, const char *what)
{
	if (shown(n, top) < n)
		fprintf(out, "  ... %zu more %s (--top %zu)\n", n - top, what, top);
}

/* With a model: the costed operations, or (unmodelled) those without an entry. Without: all. */
static void ops_section(FILE *out, const struct roi_estimate *e, bool unmodelled)
{
	const struct roi_model *m = e->model;
	bool costs = m && !unmodelled;
	struct roi_table t;
	char detail[256], count[CELL], cyc[CELL], sec[CELL], ej[CELL], share[CELL], note[160], c[128];

	roi_table_init(&t, costs ? "llllrrrrrl" : "llllrr");
	if (costs)
		roi_table_row(&t, "kind", "type", "ctype", "detail", "count", "cycles", "time", "energy", "share", "note");
	else
		roi_table_row(&t, "kind", "type", "ctype", "detail", "count", m ? "" : "share");
	for (size_t i = 0; i < e->nops; i++) {
		const struct roi_op_total *o = &e->ops[i];

		if (m && unmodelled != !o->cost)
			continue;
		roi_fmt_detail(&o->d, detail, sizeof detail);
		snprintf(count, sizeof count, "%llu", (unsigned long long)o->count);
		if (!costs) {
			roi_table_row(&t, o->d.kind, o->d.type, o->d.ctype, detail, count,
				      m ? "" : roi_fmt_share((double)o->count, (double)e->total_ops, share, sizeof share));
			continue;
		}
		note[0] = '\0';
		if (o->libcall == ROI_LIBCALL_ROUTINE)
			snprintf(note, sizeof note, "%s + the routine, %s a call (model's routines)",
				 roi_cost_describe(o->cost, c, sizeof c),
				 roi_fmt_num(o->routine_cycles / (double)o->count, cyc, sizeof cyc));
		else if (o->libcall == ROI_LIBCALL_CALL)
			snprintf(note, sizeof note, "fallback: %s alone, no metadata or routine price",
				 roi_cost_describe(o->cost, c, sizeof c));
		else if (o->fallback)
			snprintf(note, sizeof note, "fallback: %s", roi_cost_describe(o->cost, c, sizeof c));
		roi_table_row(&t, o->d.kind, o->d.type, o->d.ctype, detail, count,
			      roi_fmt_num(o->cycles, cyc, sizeof cyc), roi_fmt_si(o->cycles / m->clock_hz, "s", sec, sizeof sec),
			      roi_fmt_si(o->energy_j, "J", ej, sizeof ej), roi_fmt_share(o->cycles, e->cycles, share, sizeof share),
			      note);
	}
	section(out, unmodelled ? "unmodelled operations (no entry in the model: no cycles, no energy)"
		: m ? "operations" : "operations (counts only)", &t);
}

/* Functions by name, file and line. */
static int by_place(const void *a, const void *b)
{
	const struct roi_function *f = (*(const struct roi_fn_total *const *)a)->fn;
	const struct roi_function *g = (*(const struct roi_fn_total *const *)b)->fn;
	int c = strcmp(f->name, g->name);

	if (!c)
		c = strcmp(f->unit->files[f->file], g->unit->files[g->file]);
	return c ? c : (f->line > g->line) - (f->line < g->line);
}

/* Which of e->fns only their unit tells apart: another has the same name, file and line (the same
 * source compiled into two units). Found by sorting once, not by a search per function, which
 * made the text quadratic in the functions. */
static bool *ambiguous_fns(const struct roi_estimate *e)
{
	const struct roi_fn_total **sorted = roi_xrealloc(NULL, e->nfns, sizeof *sorted);
	bool *ambiguous = roi_xrealloc(NULL, e->nfns, sizeof *ambiguous);

	for (size_t i = 0; i < e->nfns; i++) {
		sorted[i] = &e->fns[i];
		ambiguous[i] = false;
	}
	qsort(sorted, e->nfns, sizeof *sorted, by_place);
	for (size_t i = 1; i < e->nfns; i++)
		if (by_place(&sorted[i - 1], &sorted[i]) == 0)
			ambiguous[sorted[i - 1] - e->fns] = ambiguous[sorted[i] - e->fns] = true;
	free(sorted);
	return ambiguous;
}

/* A function's measured cycles (its own instructions and the code without lines it called, as its
 * estimate prices them), "-" when the measured profile has no symbol of that name; "" without one. */
static const char *measured_fn(const struct roi_measured *m, const struct roi_function *fn, char *buf, size_t size)
{
	const struct roi_mfunction *f = m ? roi_measured_function(m, fn->asm_name) : NULL;

	if (!m)
		return "";
	if (!f)
		return "-";
	snprintf(buf, size, "%llu", (unsigned long long)(f->self + f->library));
	return buf;
}

static void functions_section(FILE *out, const struct roi_estimate *e, const struct roi_measured *meas, size_t top)
{
	const struct roi_model *m = e->model;
	struct roi_table t;
	char where[512], calls[CELL], ops[CELL], cyc[CELL], ej[CELL], share[CELL], mc[CELL];
	bool *ambiguous = ambiguous_fns(e);

	roi_table_init(&t, m ? (meas ? "llrrrrrrl" : "llrrrrrl") : meas ? "llrrrrl" : "llrrrl");
	if (m)
		roi_table_row(&t, "function", "file:line", "calls", "ops", "cycles", "energy", "share",
			      meas ? "measured" : "note", "note");
	else
		roi_table_row(&t, "function", "file:line", "calls", "ops", "share", meas ? "measured" : "note", "note");
	for (size_t i = 0; i < shown(e->nfns, top); i++) {
		const struct roi_fn_total *f = &e->fns[i];
		char note[96];

		/* The same source compiled into two units gives functions only the unit tells apart. */
		snprintf(note, sizeof note, "%s%s%s", f->profiled ? "" : "no counts in the profile",
			 ambiguous[i] && !f->profiled ? ", " : "", ambiguous[i] ? "unit " : "");
		if (ambiguous[i])
			strncat(note, f->fn->unit->id_hex, sizeof note - strlen(note) - 1);

		snprintf(where, sizeof where, "%s:%u", f->fn->unit->files[f->fn->file], f->fn->line);
		snprintf(calls, sizeof calls, "%llu", (unsigned long long)f->calls);
		snprintf(ops, sizeof ops, "%llu", (unsigned long long)f->ops);
		const char *mv = measured_fn(meas, f->fn, mc, sizeof mc);
		if (m)
			roi_table_row(&t, f->fn->name, where, calls, ops, roi_fmt_num(f->cycles, cyc, sizeof cyc),
				      roi_fmt_si(f->energy_j, "J", ej, sizeof ej),
				      roi_fmt_share(f->cycles, e->cycles, share, sizeof share), meas ? mv : note, note);
		else
			roi_table_row(&t, f->fn->name, where, calls, ops,
				      roi_fmt_share((double)f->ops, (double)e->total_ops, share, sizeof share),
				      meas ? mv : note, note);
	}
	free(ambiguous);
	section(out, meas ? "functions (measured: cycles of its own instructions and of the code without lines it "
		"called, in simavr)" : "functions", &t);
	more(out, e->nfns, top, "functions");
}

/* Whether a measured line is in one of the program's files. */
static bool program_line(const struct roi_program *p, const struct roi_mline *l)
{
	for (size_t u = 0; l->file && u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfiles; f++)
			if (roi_measured_same_file(l->file, p->units[u].files[f]))
				return true;
	return false;
}

static bool estimated_line(const struct roi_estimate *e, const struct roi_mline *l)
{
	for (size_t i = 0; i < e->nlines; i++)
		if (e->lines[i].line == l->line && roi_measured_same_file(l->file, e->lines[i].file))
			return true;
	return false;
}

static void lines_section(FILE *out, const struct roi_estimate *e, const struct roi_measured *meas, size_t top)
{
	struct roi_table t;
	char where[512], ops[CELL], cyc[CELL], mc[CELL];

	roi_table_init(&t, e->model ? (meas ? "lrrrl" : "lrr") : meas ? "lrrl" : "lr");
	if (meas && e->model)
		roi_table_row(&t, "file:line", "ops", "cycles", "measured", "note");
	else if (meas)
		roi_table_row(&t, "file:line", "ops", "measured", "note");
	else
		roi_table_row(&t, "file:line", "ops", "cycles");
	for (size_t i = 0; i < shown(e->nlines, top); i++) {
		const struct roi_line_total *l = &e->lines[i];
		const struct roi_mline *ml = meas ? roi_measured_line(meas, l->file, l->line) : NULL;

		snprintf(where, sizeof where, "%s:%u", l->file, l->line);
		snprintf(ops, sizeof ops, "%llu", (unsigned long long)l->ops);
		snprintf(mc, sizeof mc, ml ? "%llu" : "-", ml ? (unsigned long long)ml->cycles : 0ull);
		if (!meas)
			roi_table_row(&t, where, ops, roi_fmt_num(l->cycles, cyc, sizeof cyc));
		else if (e->model)
			roi_table_row(&t, where, ops, roi_fmt_num(l->cycles, cyc, sizeof cyc), mc, "");
		else
			roi_table_row(&t, where, ops, mc, "");
	}
	/* lines that ran without operations: prologues, epilogues, a function's closing brace */
	for (size_t i = 0; meas && !top && i < meas->nlines; i++) {
		const struct roi_mline *ml = &meas->lines[i];

		if (!program_line(e->prog, ml) || estimated_line(e, ml))
			continue;
		snprintf(where, sizeof where, "%s:%u", roi_measured_short_file(e->prog, ml->file), ml->line);
		snprintf(mc, sizeof mc, "%llu", (unsigned long long)ml->cycles);
		if (e->model)
			roi_table_row(&t, where, "-", "-", mc, "no operations");
		else
			roi_table_row(&t, where, "-", mc, "no operations");
	}
	section(out, meas ? "lines (measured: cycles of its instructions and of the code without lines it called)"
		: "lines", &t);
	more(out, e->nlines, top, "lines");
}

/* Appends " "-separated items to buf, truncating silently. */
static void item(char *buf, size_t size, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(buf);

	if (n + 1 < size)
		snprintf(buf + n, size - n, "%s", n ? " " : "");
	n = strlen(buf);
	if (n + 1 < size)
		snprintf(buf + n, size - n, fmt, a, b);
}

const char *roi_fmt_detail(const struct roi_opdesc *d, char *buf, size_t size)
{
	buf[0] = '\0';
	if (d->access)
		item(buf, size, "access=%s%s", d->access, "");
	if (d->is_volatile)
		item(buf, size, "%s%s", "volatile", "");
	if (d->callee)
		item(buf, size, "callee=%s%s", d->callee, "");
	if (d->from)
		item(buf, size, d->from_ctype ? "from=%s (%s)" : "from=%s%s", d->from, d->from_ctype ? d->from_ctype : "");
	if (d->code)
		item(buf, size, "code=%s%s", d->code, "");
	return buf;
}

void roi_source_text(FILE *out, const struct roi_source *src)
{
	fprintf(out, "profile   %s, %llu run%s", src->profile, (unsigned long long)src->runs,
		src->runs == 1 ? "" : "s");
	if (src->transferred)
		fprintf(out, " of %s, transferred (roi transfer): estimated counts", src->transferred);
	fputc('\n', out);
}

void roi_program_text(FILE *out, const struct roi_program *p, const struct roi_source *src)
{
	fprintf(out, "program   %s\n", p->path);
	roi_source_text(out, src);
	fprintf(out, "compiler  %s, target %s, -%s (%zu unit%s)\n",
		roi_program_common(p, offsetof(struct roi_unit, compiler)),
		roi_program_common(p, offsetof(struct roi_unit, target)),
		roi_program_common(p, offsetof(struct roi_unit, opt)), p->nunits, p->nunits == 1 ? "" : "s");
}

/* The calls into code without metadata, with a model. */
static void libcalls_section(FILE *out, const struct roi_estimate *e)
{
	struct roi_table t;
	char calls[CELL], cyc[CELL], share[CELL], how[160];

	roi_table_init(&t, "lrrrl");
	roi_table_row(&t, "callee", "calls", "cycles", "share", "priced by");
	for (size_t i = 0; i < e->nlibcalls; i++) {
		const struct roi_libcall_total *l = &e->libcalls[i];

		snprintf(calls, sizeof calls, "%llu", (unsigned long long)l->calls);
		switch (l->how) {
		case ROI_LIBCALL_MODEL:
			snprintf(how, sizeof how, "the model's entry of its call");
			break;
		case ROI_LIBCALL_ROUTINE:
			snprintf(how, sizeof how, "the call and the model's routine, %s a call",
				 roi_fmt_num(l->routine_cycles / (double)l->calls, share, sizeof share));
			break;
		default:
			snprintf(how, sizeof how, "fallback: the call alone (no routine price)");
		}
		roi_table_row(&t, l->callee, calls, roi_fmt_num(l->cycles, cyc, sizeof cyc),
			      roi_fmt_share(l->cycles, e->cycles, share, sizeof share), how);
	}
	section(out, "calls into code without metadata (libraries, code built without roi: no counted block of theirs ran)",
		&t);
}

void roi_libcall_total_text(FILE *out, const struct roi_estimate *e)
{
	char cyc[CELL];
	const char *sep = " (fallback, the call alone: ";

	if (!e->model || !e->nlibcalls)
		return;
	fprintf(out, "; %llu call%s without metadata, %s cycles", (unsigned long long)e->libcall_calls,
		e->libcall_calls == 1 ? "" : "s", roi_fmt_num(e->libcall_cycles, cyc, sizeof cyc));
	for (size_t i = 0; i < e->nlibcalls; i++)
		if (e->libcalls[i].how == ROI_LIBCALL_CALL) {
			fprintf(out, "%s%s x%llu", sep, e->libcalls[i].callee, (unsigned long long)e->libcalls[i].calls);
			sep = ", ";
		}
	if (e->fallback_calls)
		fputc(')', out);
}

void roi_report_text(FILE *out, const struct roi_estimate *e, const struct roi_source *src, size_t top)
{
	const struct roi_model *m = e->model;
	char cyc[CELL], sec[CELL], ej[CELL];

	header(out, e, src);
	ops_section(out, e, false);
	if (m)
		ops_section(out, e, true);
	if (m && e->nlibcalls)
		libcalls_section(out, e);
	functions_section(out, e, src->measured, top);
	lines_section(out, e, src->measured, top);
	fprintf(out, "\ntotal     %llu ops", (unsigned long long)e->total_ops);
	if (m)
		fprintf(out, " (%llu unmodelled), %s cycles, %s, %s", (unsigned long long)e->unmodelled_ops,
			roi_fmt_num(e->cycles, cyc, sizeof cyc), roi_fmt_si(e->seconds, "s", sec, sizeof sec),
			roi_fmt_si(e->energy_j, "J", ej, sizeof ej));
	roi_libcall_total_text(out, e);
	fputc('\n', out);
	if (src->measured)
		roi_measured_total_text(out, src->measured);
}
