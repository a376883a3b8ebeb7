/* report/tree_text.c — roi report as text: the hierarchy as one aligned table, a row per function,
 * loop and line, indented by depth, measured times beside the estimates (docs/report.md), and
 * --suggest's filter lines; see tree.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/table.h"
#include "input/filter.h"
#include "report/measured.h"
#include "report/tree.h"

#define CELL 64

/* A measured amount: SI seconds for ns, whole cycles otherwise. */
static const char *fmt_time(const struct roi_tree_report *r, double v, char *buf, size_t size)
{
	if (strcmp(r->unit, "ns") == 0)
		return roi_fmt_si(v * 1e-9, "s", buf, size);
	snprintf(buf, size, "%.0f cycles", v);
	return buf;
}

/* The columns, in order; a report shows the estimate's, the hooks' where regions ran and the
 * measured profile's where one is given. */
enum col {
	C_ID, C_CLASS, C_CALLS, C_OPS, C_CYCLES, C_ENERGY, C_SCOPE, C_TOTAL, C_MEASURED, C_HOOKED, C_OVERHEAD, C_NET,
	C_SIM, C_SIM_CALLS, C_NOTE, NCOLS
};

static bool shows(const struct roi_tree_report *r, const struct roi_source *src, enum col c)
{
	switch (c) {
	case C_CYCLES: case C_ENERGY: return r->h->e->model != NULL;
	case C_MEASURED: case C_HOOKED: case C_OVERHEAD: case C_NET: return r->measured;
	case C_SIM: case C_SIM_CALLS: return src->measured != NULL;
	default: return true;
	}
}

static void init_table(struct roi_table *t, const struct roi_tree_report *r, const struct roi_source *src, char *align)
{
	static const char all[NCOLS + 1] = "llrrrrrrrrrrrrl";
	size_t n = 0;

	for (int c = 0; c < NCOLS; c++)
		if (shows(r, src, (enum col)c))
			align[n++] = all[c];
	align[n] = '\0';
	roi_table_init(t, align);
}

static void add_row(struct roi_table *t, const struct roi_tree_report *r, const struct roi_source *src,
		    const char *const cell[NCOLS])
{
	const char *row[NCOLS];
	size_t n = 0;

	for (int c = 0; c < NCOLS; c++)
		if (shows(r, src, (enum col)c))
			row[n++] = cell[c];
	roi_table_cells(t, row);
}

/* The rows of file:line under n. */
static size_t line_rows(const struct roi_node *n, const char *file, unsigned line)
{
	size_t k = n->kind == ROI_NODE_LINE && n->line == line && strcmp(n->file, file) == 0;

	for (size_t i = 0; i < n->nchildren; i++)
		k += line_rows(n->children[i], file, line);
	return k;
}

/* The measured profile's cells of a node, and for a line, what each call made there took. */
static void measured_cells(const struct roi_measured *m, const struct roi_node *n, char *sim, char *sim_calls,
			   size_t size, char *note, size_t note_size)
{
	uint64_t cycles, calls;

	if (!m)
		return;
	if (!roi_measured_node(m, n, &cycles, &calls)) {
		snprintf(sim, size, "-");
		return;
	}
	snprintf(sim, size, "%llu", (unsigned long long)cycles);
	if (n->kind != ROI_NODE_LINE)
		snprintf(sim_calls, size, "%llu", (unsigned long long)calls);
	const struct roi_node *root = n;
	while (root->parent)
		root = root->parent;
	size_t rows = n->kind == ROI_NODE_LINE ? line_rows(root, n->file, n->line) : 1;
	if (rows > 1) {
		size_t len = strlen(note);
		snprintf(note + len, note_size - len, "%smeasured: the whole line (%zu rows)", len ? "; " : "", rows);
	}
	for (size_t i = 0; i < n->nsites; i++) {
		uint64_t c, inclusive;
		size_t len = strlen(note);

		if (!roi_measured_calls_at(m, n->file, n->line, n->sites[i].callee->asm_name, &c, &inclusive) || !c)
			continue;
		snprintf(note + len, note_size - len, "%s%s: measured %.0f cycles a call here", len ? "; " : "",
			 n->sites[i].callee->name, (double)inclusive / (double)c);
	}
}

static void text_row(const struct roi_tree_report *r, const struct roi_source *src, struct roi_table *t,
		     const struct roi_node *n, int depth)
{
	const struct roi_hier *h = r->h;
	char id[512], calls[CELL], ops[CELL], cyc[CELL], ej[CELL], scope[CELL], total[CELL];
	char meas[CELL] = "", hooked[CELL] = "", over[CELL] = "", net[CELL] = "", note[1024] = "";
	char sim[CELL] = "", sim_calls[CELL] = "";
	double w = roi_hier_weight(h, &n->cost);
	const char *kind = roi_node_kind_name(n->kind);

	snprintf(id, sizeof id, "%*s%s", 2 * depth, "", n->id);
	calls[0] = '\0';
	if (n->kind != ROI_NODE_LINE && n->fn)
		snprintf(calls, sizeof calls, "%llu", (unsigned long long)n->calls);
	snprintf(ops, sizeof ops, "%.0f", n->cost.ops);
	roi_fmt_num(n->cost.cycles, cyc, sizeof cyc);
	roi_fmt_si(n->cost.energy_j, "J", ej, sizeof ej);
	roi_fmt_share(w, roi_hier_scope_weight(r->h, n), scope, sizeof scope);
	roi_fmt_share(w, roi_hier_weight(h, &h->total), total, sizeof total);
	if (!n->fn) {
		snprintf(ops, sizeof ops, "-");
		snprintf(scope, sizeof scope, "-");
		snprintf(total, sizeof total, "-");
		snprintf(note, sizeof note, "not counted (filter): no estimate");
	}
	if (n->measured) {
		fmt_time(r, (double)n->measured->total, meas, sizeof meas);
		snprintf(hooked, sizeof hooked, "%llu", (unsigned long long)n->measured->calls);
		if (r->c->has_hook_cost)
			fmt_time(r, n->overhead, over, sizeof over);
		fmt_time(r, n->net, net, sizeof net);
	} else if (n->region) {
		snprintf(meas, sizeof meas, "did not run");
	}
	if (n->kind == ROI_NODE_LOOP && n->fn && n->loop >= 0)
		snprintf(note, sizeof note, "header ran %llu time%s", (unsigned long long)n->iterations,
			 n->iterations == 1 ? "" : "s");
	for (size_t i = 0; i < n->ncallees; i++) {
		size_t len = strlen(note);
		snprintf(note + len, sizeof note - len, "%s%s", i ? ", " : "calls ", n->callees[i]);
	}
	if (n->measured && n->fn && n->kind != ROI_NODE_LINE && n->measured->calls != n->calls) {
		size_t len = strlen(note);
		snprintf(note + len, sizeof note - len, "%shooks entered %llu times, the counts say %llu",
			 len ? "; " : "", (unsigned long long)n->measured->calls, (unsigned long long)n->calls);
	}
	measured_cells(src->measured, n, sim, sim_calls, CELL, note, sizeof note);
	const char *cell[NCOLS] = {id, kind, calls, ops, cyc, ej, scope, total, meas, hooked, over, net, sim, sim_calls,
				   note};
	add_row(t, r, src, cell);
}

/* "... 12 more": the rows --top leaves out at one level. */
static void more_row(const struct roi_tree_report *r, const struct roi_source *src, struct roi_table *t, size_t n,
		     size_t shown, int depth)
{
	char id[128];
	const char *cell[NCOLS] = {id};

	if (!r->top || n <= shown)
		return;
	snprintf(id, sizeof id, "%*s... %zu more", 2 * depth, "", n - shown);
	add_row(t, r, src, cell);
}

static void text_tree(const struct roi_tree_report *r, const struct roi_source *src, struct roi_table *t,
		      const struct roi_node *n, int depth)
{
	size_t shown = r->top && n->nchildren > r->top ? r->top : n->nchildren;

	text_row(r, src, t, n, depth);
	for (size_t i = 0; i < shown; i++)
		text_tree(r, src, t, n->children[i], depth + 1);
	more_row(r, src, t, n->nchildren, shown, depth + 1);
}

/* The measured region that took longest: the program's run time as far as the hooks saw it. */
static const struct roi_node *longest(const struct roi_node *n, const struct roi_node *best)
{
	if (n->measured && (!best || n->measured->total > best->measured->total))
		best = n;
	for (size_t i = 0; i < n->nchildren; i++)
		best = longest(n->children[i], best);
	return best;
}

static void overhead_rows(const struct roi_tree_report *r, const struct roi_source *src, struct roi_table *t)
{
	const struct roi_hier *h = r->h;
	const struct roi_node *run = NULL;
	char pairs[CELL], over[CELL] = "", runtime[CELL], note[256] = "", share[CELL];

	for (size_t i = 0; i < h->nroots; i++)
		run = longest(h->roots[i], run);
	if (!run)
		return;
	snprintf(pairs, sizeof pairs, "%llu", (unsigned long long)h->hook_pairs);
	if (r->c->has_hook_cost) {
		double o = (double)h->hook_pairs * r->c->hook_cost;
		char per[CELL];

		fmt_time(r, o, over, sizeof over);
		snprintf(note, sizeof note, "enter+exit pairs x %s; %s of %s's measured time",
			 fmt_time(r, r->c->hook_cost, per, sizeof per),
			 roi_fmt_share(o, (double)run->measured->total, share, sizeof share), run->id);
	} else {
		snprintf(note, sizeof note, "enter+exit pairs; no hook-cost line in the profile");
	}
	const char *overhead[NCOLS] = {[C_ID] = "Overhead", [C_CLASS] = "hooks", [C_CALLS] = pairs,
				       [C_MEASURED] = over, [C_NOTE] = note};
	add_row(t, r, src, overhead);
	fmt_time(r, (double)run->measured->total, runtime, sizeof runtime);
	const char *total[NCOLS] = {[C_ID] = "Runtime", [C_MEASURED] = runtime, [C_NOTE] = run->id};
	add_row(t, r, src, total);
}

static void text_header(FILE *out, const struct roi_tree_report *r, const struct roi_source *src, const char *focus)
{
	const struct roi_hier *h = r->h;
	const struct roi_program *p = h->e->prog;
	const struct roi_model *m = h->e->model;
	char *excluded = roi_filter_excluded_list(p), hz[CELL], per[CELL], in[CELL];

	roi_program_text(out, p, src);
	if (src->measured)
		roi_measured_source_text(out, src->measured);
	if (m)
		fprintf(out, "model     %s (%s) at %s [%s]%s\n", m->part, m->arch, roi_fmt_si(m->clock_hz, "Hz", hz, sizeof hz),
			m->path, h->e->mapped ? ", host ABI mapped" : "");
	else
		fprintf(out, "model     none: operations only (--model FILE adds cycles and energy)\n");
	if (r->measured && r->c->has_hook_cost)
		fprintf(out, "hooks     %zu region%s measured, %llu enter+exit pair%s of %s each, %s of it timed by "
			"its own region (calibrated at run time)\n", h->nmeasured, h->nmeasured == 1 ? "" : "s",
			(unsigned long long)h->hook_pairs, h->hook_pairs == 1 ? "" : "s",
			fmt_time(r, r->c->hook_cost, per, sizeof per), fmt_time(r, r->c->hook_inside, in, sizeof in));
	else if (r->measured)
		fprintf(out, "hooks     %zu region%s measured, %llu enter+exit pair%s; the profile has no hook cost: "
			"nothing subtracted\n", h->nmeasured, h->nmeasured == 1 ? "" : "s",
			(unsigned long long)h->hook_pairs, h->hook_pairs == 1 ? "" : "s");
	else if (p->nregions)
		fprintf(out, "hooks     %zu region%s, none ran\n", p->nregions, p->nregions == 1 ? "" : "s");
	else
		fprintf(out, "hooks     none (estimates only; roi report --suggest proposes a filter to measure)\n");
	if (excluded)
		fprintf(out, "excluded  %s: not counted (filter), their cost is not included\n", excluded);
	free(excluded);
	if (focus)
		fprintf(out, "region    %s\n", focus);
}

void roi_tree_text(FILE *out, const struct roi_tree_report *r, const struct roi_source *src, struct roi_node **focus,
		  size_t nfocus, const char *focus_id)
{
	const struct roi_hier *h = r->h;
	bool model = h->e->model != NULL;
	struct roi_table t;
	char cyc[CELL], sec[CELL], ej[CELL], align[NCOLS + 1];
	const char *head[NCOLS] = {"identifier", "class", "calls", "ops", "cycles", "energy", "scope %", "total %",
				   "measured", "hook calls", "overhead", "net", "measured cycles", "measured calls", "note"};

	text_header(out, r, src, focus_id);
	init_table(&t, r, src, align);
	add_row(&t, r, src, head);
	if (focus) {
		for (size_t i = 0; i < nfocus; i++)
			text_tree(r, src, &t, focus[i], 0);
	} else {
		size_t shown = r->top && h->nroots > r->top ? r->top : h->nroots;

		for (size_t i = 0; i < shown; i++)
			text_tree(r, src, &t, h->roots[i], 0);
		more_row(r, src, &t, h->nroots, shown, 0);
	}
	if (r->measured)
		overhead_rows(r, src, &t);
	fputc('\n', out);
	roi_table_print(&t, out, "  ");
	if (!focus && h->nnever)
		fprintf(out, "  (%zu function%s never ran)\n", h->nnever, h->nnever == 1 ? "" : "s");
	fprintf(out, "\ntotal     %.0f ops", h->total.ops);
	if (model)
		fprintf(out, ", %s cycles, %s, %s", roi_fmt_num(h->total.cycles, cyc, sizeof cyc),
			roi_fmt_si(h->total.cycles / h->e->model->clock_hz, "s", sec, sizeof sec),
			roi_fmt_si(h->total.energy_j, "J", ej, sizeof ej));
	roi_libcall_total_text(out, h->e);
	fputc('\n', out);
	if (src->measured)
		roi_measured_total_text(out, src->measured);
}

static const char *why_text(enum roi_suggest_why why)
{
	switch (why) {
	case ROI_SUGGEST_REGION: return "the region asked for";
	case ROI_SUGGEST_MEASURED: return "the hottest measured region whose level below is not measured yet";
	case ROI_SUGGEST_FUNCTION: return "nothing measured yet: the function whose own operations cost most";
	default: return "";
	}
}

/* Filter lines, ready to append to the filter file: '#' comments say why. */
void roi_suggest_text(FILE *out, const struct roi_tree_report *r, const struct roi_node *target,
		      const struct roi_suggestion *s, size_t n, enum roi_suggest_why why)
{
	const struct roi_hier *h = r->h;
	char share[CELL], meas[CELL];

	if (!target) {
		fprintf(out, "# nothing ran: no suggestion\n");
		return;
	}
	fprintf(out, "# next level below %s (%s)", target->id, why_text(why));
	if (target->measured)
		fprintf(out, ", measured %s net", fmt_time(r, target->net, meas, sizeof meas));
	fprintf(out, "\n");
	if (n == 0) {
		fprintf(out, "# %s has no inner loops or callees left to measure; its lines are in 'roi report --region %s'\n",
			target->id, target->id);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!s[i].node)
			fprintf(out, "# %s: not counted (filter), cost unknown\n", s[i].name);
		else if (s[i].node == target)
			fprintf(out, "# %s itself: %s of the total\n", target->id,
				roi_fmt_share(roi_hier_weight(h, &target->cost), roi_hier_weight(h, &h->total), share,
					      sizeof share));
		else
			fprintf(out, "# %s: %s of %s\n", s[i].node->id,
				roi_fmt_share(roi_hier_weight(h, &s[i].node->cost), roi_hier_weight(h, &target->cost), share,
					      sizeof share), target->id);
		fprintf(out, "%s\n", s[i].rule);
	}
}
