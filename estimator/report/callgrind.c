/* report/callgrind.c — the report in the callgrind format, which KCachegrind, QCachegrind and
 * callgrind_annotate read (docs/report.md, "callgrind").
 *
 * Each function that ran gets its lines' own costs and, per call site, the calls to counted
 * functions with what they cost inclusively: the callee's cost per call (hier.h) times the calls.
 * Costs are integers in this format: Ops as counted, Cycles_x100 in hundredths of a cycle,
 * Energy_pJ in picojoules. The own costs are rounded cumulatively over the file, so that they add
 * up to the program's total rounded once; a call's inclusive cost is rounded by itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/formats.h"
#include "report/lines.h"

/* A line of one function: its own cost and its calls. */
struct fline {
	unsigned file, line;
	struct roi_cost_sum self;
	const struct roi_call_site *sites;
	size_t nsites;
};

struct writer {
	FILE *out;
	const struct roi_hier *h;
	bool model;
	struct roi_arena arena;
	const char ***path;             /* [unit][file]: absolute path */
	const char **names;             /* compressed names given so far: files, then functions */
	size_t nnames, cap;
	struct roi_cost_sum sum;        /* own costs written so far, unrounded */
	long long written[3];           /* and as written */
	struct fline *lines;
	size_t nlines, caplines;
};

/* "(N) NAME" the first time, "(N)" after: the format's name compression. */
static void name_ref(struct writer *w, const char *key, const char *name)
{
	for (size_t i = 0; i < w->nnames; i++)
		if (strcmp(w->names[i], key) == 0) {
			fprintf(w->out, "(%zu)\n", i + 1);
			return;
		}
	if (w->nnames == w->cap)
		w->names = roi_xrealloc(w->names, w->cap = w->cap ? 2 * w->cap : 64, sizeof *w->names);
	w->names[w->nnames++] = key;
	fprintf(w->out, "(%zu) %s\n", w->nnames, name);
}

static void file_ref(struct writer *w, const char *prefix, const char *path)
{
	fputs(prefix, w->out);
	name_ref(w, roi_arena_printf(&w->arena, "fl %s", path), path);
}

static void fn_ref(struct writer *w, const char *prefix, const struct roi_function *fn)
{
	fputs(prefix, w->out);
	/* Functions are told apart by unit and index: two static functions may share a name. */
	name_ref(w, roi_arena_printf(&w->arena, "fn %s %zu", fn->unit->id_hex, fn->index), fn->name);
}

/* The costs of a call, each rounded. */
static void cost_line(struct writer *w, unsigned line, const struct roi_cost_sum *c)
{
	fprintf(w->out, "%u %.0f", line, round(c->ops));
	if (w->model)
		fprintf(w->out, " %.0f %.0f", round(c->cycles * ROI_CALLGRIND_CYCLES_SCALE),
			round(c->energy_j * ROI_CALLGRIND_ENERGY_SCALE));
	fputc('\n', w->out);
}

/* Own costs: what the running sum reaches when rounded, less what was written before. */
static void self_line(struct writer *w, unsigned line, const struct roi_cost_sum *c)
{
	double scale[3] = {1, ROI_CALLGRIND_CYCLES_SCALE, ROI_CALLGRIND_ENERGY_SCALE};
	long long v[3];

	w->sum.ops += c->ops;
	w->sum.cycles += c->cycles;
	w->sum.energy_j += c->energy_j;
	double now[3] = {w->sum.ops, w->sum.cycles, w->sum.energy_j};
	for (int i = 0; i < 3; i++) {
		long long total = llround(now[i] * scale[i]);

		v[i] = total - w->written[i];
		w->written[i] = total;
	}
	fprintf(w->out, "%u %lld", line, v[0]);
	if (w->model)
		fprintf(w->out, " %lld %lld", v[1], v[2]);
	fputc('\n', w->out);
}

static void collect(struct writer *w, const struct roi_node *n)
{
	if (n->kind == ROI_NODE_LINE) {
		if (w->nlines == w->caplines)
			w->lines = roi_xrealloc(w->lines, w->caplines = w->caplines ? 2 * w->caplines : 64,
						sizeof *w->lines);
		w->lines[w->nlines++] = (struct fline){roi_unit_file_index(n->fn->unit, n->file), n->line, n->self, n->sites,
						       n->nsites};
	}
	for (size_t i = 0; i < n->nchildren; i++)
		collect(w, n->children[i]);
}

static int by_place(const void *a, const void *b)
{
	const struct fline *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static void function(struct writer *w, const struct roi_node *f)
{
	const struct roi_function *fn = f->fn;
	const struct roi_unit *u = fn->unit;
	const char *const *path = w->path[u - w->h->e->prog->units];
	unsigned cur = fn->file;

	w->nlines = 0;
	collect(w, f);
	if (w->nlines)
		qsort(w->lines, w->nlines, sizeof *w->lines, by_place);
	file_ref(w, "fl=", path[fn->file]);
	fn_ref(w, "fn=", fn);
	for (size_t i = 0, j; i < w->nlines; i = j) {
		const struct fline *l = &w->lines[i];
		struct roi_cost_sum self = {0, 0, 0};

		if (l->file != cur) {
			file_ref(w, l->file == fn->file ? "fe=" : "fi=", path[l->file]);
			cur = l->file;
		}
		for (j = i; j < w->nlines && by_place(&w->lines[j], l) == 0; j++) {
			self.ops += w->lines[j].self.ops;
			self.cycles += w->lines[j].self.cycles;
			self.energy_j += w->lines[j].self.energy_j;
		}
		self_line(w, l->line, &self);
		for (size_t k = i; k < j; k++)
			for (size_t s = 0; s < w->lines[k].nsites; s++) {
				const struct roi_call_site *site = &w->lines[k].sites[s];
				const struct roi_function *g = site->callee;

				file_ref(w, "cfi=", w->path[g->unit - w->h->e->prog->units][g->file]);
				fn_ref(w, "cfn=", g);
				fprintf(w->out, "calls=%llu %u\n", (unsigned long long)site->calls, g->line);
				cost_line(w, l->line, &site->cost);
			}
	}
	fputc('\n', w->out);
}

void roi_write_callgrind(FILE *out, const struct roi_hier *h, const struct roi_source *src)
{
	const struct roi_program *p = h->e->prog;
	const struct roi_model *m = h->e->model;
	struct writer w = {.out = out, .h = h, .model = m != NULL};
	char *real = realpath(p->path, NULL);

	w.path = roi_arena_array(&w.arena, p->nunits ? p->nunits : 1, sizeof *w.path);
	for (size_t u = 0; u < p->nunits; u++) {
		w.path[u] = roi_arena_array(&w.arena, p->units[u].nfiles ? p->units[u].nfiles : 1, sizeof **w.path);
		for (unsigned f = 0; f < p->units[u].nfiles; f++)
			w.path[u][f] = roi_unit_file_path(&w.arena, &p->units[u], f);
	}
	fprintf(out, "# callgrind format\nversion: 1\ncreator: roi report --format callgrind\ncmd: %s\n", p->path);
	fprintf(out, "desc: Profile: %s, %llu run%s%s%s\n", src->profile, (unsigned long long)src->runs,
		src->runs == 1 ? "" : "s", src->transferred ? ", transferred from " : "",
		src->transferred ? src->transferred : "");
	if (m)
		fprintf(out, "desc: Model: %s (%s) at %.0f Hz [%s]; Cycles_x100 is estimated cycles x 100, Energy_pJ "
			"estimated energy in picojoules\n", m->part, m->arch, m->clock_hz, m->path);
	else
		fprintf(out, "desc: Model: none: operations only (roi report --model FILE adds cycles and energy)\n");
	fprintf(out, "desc: Calls: inclusive cost per call site = the callee's cost per call x the calls\n");
	fprintf(out, "\npositions: line\nevent: Ops : operations executed\n");
	if (m)
		fprintf(out, "event: Cycles_x100 : estimated cycles x 100\nevent: Energy_pJ : estimated energy (pJ)\n"
			"events: Ops Cycles_x100 Energy_pJ\n");
	else
		fprintf(out, "events: Ops\n");
	fprintf(out, "summary: %.0f", round(h->total.ops));
	if (m)
		fprintf(out, " %.0f %.0f", round(h->total.cycles * ROI_CALLGRIND_CYCLES_SCALE),
			round(h->total.energy_j * ROI_CALLGRIND_ENERGY_SCALE));
	fprintf(out, "\n\n");
	fputs("ob=", out);
	name_ref(&w, "ob", real ? real : p->path);
	free(real);
	for (size_t i = 0; i < h->nroots; i++)
		if (h->roots[i]->kind == ROI_NODE_FUNCTION && h->roots[i]->fn)
			function(&w, h->roots[i]);
	fprintf(out, "totals: %lld", w.written[0]);
	if (m)
		fprintf(out, " %lld %lld", w.written[1], w.written[2]);
	fputc('\n', out);
	free(w.names);
	free(w.lines);
	roi_arena_free(&w.arena);
}
