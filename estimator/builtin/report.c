/* builtin/report.c — "roi report": one run, every level (docs/report.md). Function → loop nest → line
 * with estimated cost and shares of the parent and of the whole, measured region times beside them
 * where hooks ran, and the filter lines for the next level down (--suggest). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/counts.h"
#include "price/estimate.h"
#include "input/filter.h"
#include "base/fmt.h"
#include "price/hier.h"
#include "input/model.h"
#include "price/order.h"
#include "input/session.h"
#include "report/report.h"
#include "report/formats.h"
#include "base/table.h"

static const char usage[] =
	"usage: roi report [--model FILE] [--json | --format FORMAT | --html DIR [--budgets FILE]] [--region ID]\n"
	"                  [--suggest] [--sort KEY] [--top N] PROGRAM [PROFILE]\n"
	"\n"
	"The cost of PROGRAM level by level from one run: every function, its loop nest and its lines,\n"
	"with executed operations (and, with a cost model, cycles and energy), their share of the\n"
	"enclosing level (scope %) and of the whole program (total %). Where enter/exit hooks ran\n"
	"(-fplugin-arg-roi-filter=FILE, docs/regions.md), the measured time and calls are beside the\n"
	"estimate, with the hooks' own cost subtracted (net). PROFILE defaults as for roi estimate.\n"
	"\n"
	"  -m, --model FILE   cost model (JSON, see models/README.md)\n"
	"      --json         one JSON document on stdout (see docs/report.md)\n"
	"  -f, --format FORMAT  text (the default), json (--json), or for other tools, on stdout:\n"
	"                     callgrind (KCachegrind, callgrind_annotate), lcov (a tracefile: lcov,\n"
	"                     genhtml), gcov-json (gcov's JSON, also a gcovr tracefile), folded (flame\n"
	"                     graphs: stacks with cycles, or operations without a model)\n"
	"      --html DIR     an HTML report in DIR: annotated sources, functions, loops (index.html)\n"
	"      --budgets FILE with --html: the status of each budget of FILE (docs/budgets.md)\n"
	"      --sort KEY     text: order functions and the rows within each by cycles, ops or line\n"
	"                     (the default: cost, cycles with a model, operations without)\n"
	"      --top N        text: the N costliest functions, and in each function or loop its N\n"
	"                     costliest rows\n"
	"  -r, --region ID    only that function or loop and what is inside it: a function's name\n"
	"                     (main) or a loop's FUNCTION:LINE (main:22), as the report names them\n"
	"      --suggest      print the filter lines that measure the next level down: the inner loops\n"
	"                     and callees of the hottest measured region (of --region's, of the\n"
	"                     function costing most when nothing was measured)\n"
	"  -h, --help         this help\n";

#define CELL 64

struct report {
	const struct roi_hier *h;
	const struct roi_counts *c;
	const char *unit;               /* time unit of the measurements */
	bool measured;                  /* some region ran: the measured columns are shown */
	size_t top;                     /* --top: rows shown per level; 0 for all */
};

static const char *class_of(const struct roi_node *n)
{
	return n->kind == ROI_NODE_FUNCTION ? "function" : n->kind == ROI_NODE_LOOP ? "loop" : "line";
}

/* A measured amount: SI seconds for ns, whole cycles otherwise. */
static const char *fmt_time(const struct report *r, double v, char *buf, size_t size)
{
	if (strcmp(r->unit, "ns") == 0)
		return roi_fmt_si(v * 1e-9, "s", buf, size);
	snprintf(buf, size, "%.0f cycles", v);
	return buf;
}

static double parent_weight(const struct report *r, const struct roi_node *n)
{
	return roi_hier_weight(r->h, n->parent ? &n->parent->cost : &r->h->total);
}

/* ---- text ---- */

static void text_row(const struct report *r, struct roi_table *t, const struct roi_node *n, int depth)
{
	const struct roi_hier *h = r->h;
	bool model = h->e->model != NULL;
	char id[512], calls[CELL], ops[CELL], cyc[CELL], ej[CELL], scope[CELL], total[CELL];
	char meas[CELL] = "", hooked[CELL] = "", over[CELL] = "", net[CELL] = "", note[512] = "";
	double w = roi_hier_weight(h, &n->cost);

	snprintf(id, sizeof id, "%*s%s", 2 * depth, "", n->id);
	calls[0] = '\0';
	if (n->kind != ROI_NODE_LINE && n->fn)
		snprintf(calls, sizeof calls, "%llu", (unsigned long long)n->calls);
	snprintf(ops, sizeof ops, "%.0f", n->cost.ops);
	roi_fmt_num(n->cost.cycles, cyc, sizeof cyc);
	roi_fmt_si(n->cost.energy_j, "J", ej, sizeof ej);
	roi_fmt_share(w, parent_weight(r, n), scope, sizeof scope);
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
	if (model && r->measured)
		roi_table_row(t, id, class_of(n), calls, ops, cyc, ej, scope, total, meas, hooked, over, net, note);
	else if (model)
		roi_table_row(t, id, class_of(n), calls, ops, cyc, ej, scope, total, note);
	else if (r->measured)
		roi_table_row(t, id, class_of(n), calls, ops, scope, total, meas, hooked, over, net, note);
	else
		roi_table_row(t, id, class_of(n), calls, ops, scope, total, note);
}

/* "... 12 more": the rows --top leaves out at one level. */
static void more_row(const struct report *r, struct roi_table *t, size_t n, size_t shown, int depth)
{
	char id[128];

	if (!r->top || n <= shown)
		return;
	snprintf(id, sizeof id, "%*s... %zu more", 2 * depth, "", n - shown);
	roi_table_row(t, id, "", "", "", "", "", "", "", "", "", "", "", "");
}

static void text_tree(const struct report *r, struct roi_table *t, const struct roi_node *n, int depth)
{
	size_t shown = r->top && n->nchildren > r->top ? r->top : n->nchildren;

	text_row(r, t, n, depth);
	for (size_t i = 0; i < shown; i++)
		text_tree(r, t, n->children[i], depth + 1);
	more_row(r, t, n->nchildren, shown, depth + 1);
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

static void overhead_rows(const struct report *r, struct roi_table *t)
{
	const struct roi_hier *h = r->h;
	bool model = h->e->model != NULL;
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
	if (model) {
		roi_table_row(t, "Overhead", "hooks", pairs, "", "", "", "", "", over, "", "", "", note);
		roi_table_row(t, "Runtime", "", "", "", "", "", "", "", fmt_time(r, (double)run->measured->total, runtime,
			      sizeof runtime), "", "", "", run->id);
	} else {
		roi_table_row(t, "Overhead", "hooks", pairs, "", "", "", over, "", "", "", note);
		roi_table_row(t, "Runtime", "", "", "", "", "", fmt_time(r, (double)run->measured->total, runtime,
			      sizeof runtime), "", "", "", run->id);
	}
}

static void text_header(FILE *out, const struct report *r, const struct roi_source *src, const char *focus)
{
	const struct roi_hier *h = r->h;
	const struct roi_program *p = h->e->prog;
	const struct roi_model *m = h->e->model;
	char *excluded = roi_filter_excluded_list(p), hz[CELL], per[CELL], in[CELL];

	fprintf(out, "program   %s\n", p->path);
	roi_source_text(out, src);
	fprintf(out, "compiler  %s, target %s, -%s (%zu unit%s)\n",
		roi_program_common(p, offsetof(struct roi_unit, compiler)),
		roi_program_common(p, offsetof(struct roi_unit, target)),
		roi_program_common(p, offsetof(struct roi_unit, opt)), p->nunits, p->nunits == 1 ? "" : "s");
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

static void report_text(FILE *out, const struct report *r, const struct roi_source *src, struct roi_node **focus,
			size_t nfocus, const char *focus_id)
{
	const struct roi_hier *h = r->h;
	bool model = h->e->model != NULL;
	struct roi_table t;
	char cyc[CELL], sec[CELL], ej[CELL];

	text_header(out, r, src, focus_id);
	if (model && r->measured)
		roi_table_init(&t, "llrrrrrrrrrrl");
	else if (model)
		roi_table_init(&t, "llrrrrrrl");
	else if (r->measured)
		roi_table_init(&t, "llrrrrrrrrl");
	else
		roi_table_init(&t, "llrrrrl");
	if (model && r->measured)
		roi_table_row(&t, "identifier", "class", "calls", "ops", "cycles", "energy", "scope %", "total %", "measured",
			      "hook calls", "overhead", "net", "note");
	else if (model)
		roi_table_row(&t, "identifier", "class", "calls", "ops", "cycles", "energy", "scope %", "total %", "note");
	else if (r->measured)
		roi_table_row(&t, "identifier", "class", "calls", "ops", "scope %", "total %", "measured", "hook calls",
			      "overhead", "net", "note");
	else
		roi_table_row(&t, "identifier", "class", "calls", "ops", "scope %", "total %", "note");
	if (focus) {
		for (size_t i = 0; i < nfocus; i++)
			text_tree(r, &t, focus[i], 0);
	} else {
		size_t shown = r->top && h->nroots > r->top ? r->top : h->nroots;

		for (size_t i = 0; i < shown; i++)
			text_tree(r, &t, h->roots[i], 0);
		more_row(r, &t, h->nroots, shown, 0);
	}
	if (r->measured)
		overhead_rows(r, &t);
	fputc('\n', out);
	roi_table_print(&t, out, "  ");
	if (!focus && h->nnever)
		fprintf(out, "  (%zu function%s never ran)\n", h->nnever, h->nnever == 1 ? "" : "s");
	fprintf(out, "\ntotal     %.0f ops", h->total.ops);
	if (model)
		fprintf(out, ", %s cycles, %s, %s", roi_fmt_num(h->total.cycles, cyc, sizeof cyc),
			roi_fmt_si(h->total.cycles / h->e->model->clock_hz, "s", sec, sizeof sec),
			roi_fmt_si(h->total.energy_j, "J", ej, sizeof ej));
	fputc('\n', out);
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
static void suggest_text(FILE *out, const struct report *r, const struct roi_node *target,
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

/* ---- JSON ---- */

static void add_pct(cJSON *o, const char *key, double part, double whole)
{
	if (whole > 0)
		cJSON_AddNumberToObject(o, key, round(1e4 * part / whole) / 100);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *sum_json(const struct report *r, const struct roi_cost_sum *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "ops", round(c->ops));
	roi_json_number_or_null(o, "cycles", r->h->e->model, c->cycles);
	roi_json_number_or_null(o, "energy_j", r->h->e->model, c->energy_j);
	return o;
}

static cJSON *node_json(const struct report *r, const struct roi_node *n)
{
	const struct roi_hier *h = r->h;
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "id", n->id);
	cJSON_AddStringToObject(o, "kind", class_of(n));
	if (n->fn) {
		cJSON_AddStringToObject(o, "function", n->fn->name);
		cJSON_AddStringToObject(o, "unit", n->fn->unit->id_hex);
	} else {
		cJSON_AddNullToObject(o, "function");
		cJSON_AddStringToObject(o, "unit", n->region->unit->id_hex);
	}
	cJSON_AddStringToObject(o, "file", n->file);
	cJSON_AddNumberToObject(o, "line", n->line);
	cJSON_AddBoolToObject(o, "counted", n->fn != NULL);
	if (n->kind != ROI_NODE_LINE && n->fn)
		cJSON_AddNumberToObject(o, "calls", (double)n->calls);
	else
		cJSON_AddNullToObject(o, "calls");
	if (n->kind == ROI_NODE_LOOP && n->fn && n->loop >= 0)
		cJSON_AddNumberToObject(o, "header_count", (double)n->iterations);
	cJSON_AddNumberToObject(o, "ops", round(n->cost.ops));
	roi_json_number_or_null(o, "cycles", h->e->model, n->cost.cycles);
	roi_json_number_or_null(o, "energy_j", h->e->model, n->cost.energy_j);
	cJSON_AddItemToObject(o, "self", sum_json(r, &n->self));
	add_pct(o, "scope_pct", roi_hier_weight(h, &n->cost), n->fn ? parent_weight(r, n) : 0);
	add_pct(o, "total_pct", roi_hier_weight(h, &n->cost), n->fn ? roi_hier_weight(h, &h->total) : 0);
	if (n->kind == ROI_NODE_LINE) {
		a = cJSON_AddArrayToObject(o, "callees");
		for (size_t i = 0; i < n->ncallees; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(n->callees[i]));
	}
	if (n->region) {
		cJSON *m = cJSON_AddObjectToObject(o, "region");

		cJSON_AddStringToObject(m, "name", n->region->name);
		cJSON_AddStringToObject(m, "symbol", n->region->symbol);
		cJSON_AddBoolToObject(m, "ran", n->measured != NULL);
		cJSON_AddNumberToObject(m, "calls", n->measured ? (double)n->measured->calls : 0);
		cJSON_AddNumberToObject(m, "total", n->measured ? (double)n->measured->total : 0);
		cJSON_AddNumberToObject(m, "hook_pairs", (double)n->hook_pairs);
		roi_json_number_or_null(m, "overhead", r->c->has_hook_cost, n->overhead);
		cJSON_AddNumberToObject(m, "net", n->net);
	} else {
		cJSON_AddNullToObject(o, "region");
	}
	a = cJSON_AddArrayToObject(o, "children");
	for (size_t i = 0; i < n->nchildren; i++)
		cJSON_AddItemToArray(a, node_json(r, n->children[i]));
	return o;
}

static cJSON *suggest_json(const struct roi_hier *h, const struct roi_node *target, const struct roi_suggestion *s,
			   size_t n, enum roi_suggest_why why)
{
	static const char *const whys[] = {"none", "region", "measured", "function"};
	cJSON *o = cJSON_CreateObject(), *a;

	roi_json_string_or_null(o, "target", target ? target->id : NULL);
	cJSON_AddStringToObject(o, "why", whys[why]);
	a = cJSON_AddArrayToObject(o, "rules");
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "rule", s[i].rule);
		cJSON_AddStringToObject(x, "id", s[i].node ? s[i].node->id : s[i].name);
		cJSON_AddBoolToObject(x, "counted", s[i].node != NULL);
		if (s[i].node && s[i].node != target)
			add_pct(x, "scope_pct", roi_hier_weight(h, &s[i].node->cost), roi_hier_weight(h, &target->cost));
		else
			cJSON_AddNullToObject(x, "scope_pct");
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

static cJSON *report_json(const struct report *r, const struct roi_source *src, struct roi_node **focus,
			  size_t nfocus, const char *focus_id, cJSON *suggest)
{
	const struct roi_hier *h = r->h;
	const struct roi_program *p = h->e->prog;
	cJSON *o = cJSON_CreateObject(), *a;
	struct roi_unmatched_rule *un;
	size_t nun = roi_filter_unmatched(p, &un);

	cJSON_AddNumberToObject(o, "roi_report", 1);
	cJSON_AddStringToObject(o, "program", p->path);
	roi_source_json(o, src);
	cJSON_AddStringToObject(o, "target", roi_program_common(p, offsetof(struct roi_unit, target)));
	cJSON_AddStringToObject(o, "compiler", roi_program_common(p, offsetof(struct roi_unit, compiler)));
	cJSON_AddStringToObject(o, "opt", roi_program_common(p, offsetof(struct roi_unit, opt)));
	cJSON_AddItemToObject(o, "model", roi_model_json(h->e));
	roi_json_string_or_null(o, "time_unit", r->c->time_unit);
	roi_json_number_or_null(o, "hook_cost", r->c->has_hook_cost, r->c->hook_cost);
	roi_json_number_or_null(o, "hook_inside", r->c->has_hook_cost, r->c->hook_inside);
	cJSON_AddNumberToObject(o, "hook_pairs", (double)h->hook_pairs);
	roi_json_number_or_null(o, "hook_overhead", r->c->has_hook_cost, (double)h->hook_pairs * r->c->hook_cost);
	cJSON_AddNumberToObject(o, "regions_measured", (double)h->nmeasured);
	cJSON_AddItemToObject(o, "total", sum_json(r, &h->total));
	roi_json_string_or_null(o, "region", focus_id);
	cJSON_AddItemToObject(o, "excluded", roi_excluded_json(p));
	a = cJSON_AddArrayToObject(o, "unmatched_rules");
	for (size_t i = 0; i < nun; i++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "filter", un[i].path);
		cJSON_AddNumberToObject(x, "line", un[i].line);
		cJSON_AddStringToObject(x, "text", un[i].text);
		cJSON_AddItemToArray(a, x);
	}
	free(un);
	cJSON_AddNumberToObject(o, "never_ran", (double)h->nnever);
	a = cJSON_AddArrayToObject(o, "tree");
	if (focus) {
		for (size_t i = 0; i < nfocus; i++)
			cJSON_AddItemToArray(a, node_json(r, focus[i]));
	} else {
		for (size_t i = 0; i < h->nroots; i++)
			cJSON_AddItemToArray(a, node_json(r, h->roots[i]));
	}
	cJSON_AddItemToObject(o, "suggest", suggest);
	return o;
}

/* --html, with the budgets of --budgets evaluated as roi budget check does. Errors are printed. */
static int html_report(const char *dir, const struct roi_hier *h, const struct roi_source *src, const char *budgets,
		       const char *model, const struct roi_session *in)
{
	struct roi_budget_file bf = {0};
	struct roi_budget_eval ev = {0};
	struct roi_budget_options opt = {model, false, false};
	struct roi_diags d = {0};
	struct roi_err err;
	int rc = -1;

	if (budgets && roi_budget_load(budgets, &bf, &d, &err) != 0) {
		roi_data_error(&err);
		goto out;
	}
	if (budgets && !d.n && roi_budget_evaluate(&ev, &bf, in, &opt, &d, &err) != 0) {
		roi_data_error(&err);
		goto out_eval;
	}
	for (size_t i = 0; i < d.n; i++)
		fprintf(stderr, "roi: %s\n", d.msg[i]);
	if (d.n)
		goto out_eval;
	if (roi_write_html(dir, h, src, budgets ? &bf : NULL, budgets ? &ev : NULL, &err) != 0)
		roi_data_error(&err);
	else
		rc = 0;
out_eval:
	if (budgets)
		roi_budget_eval_free(&ev);
out:
	if (budgets)
		roi_budget_free(&bf);
	roi_diags_free(&d);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	const char *model_path = NULL, *region = NULL, *pos[2], *format = NULL, *html = NULL;
	const char *sort_arg = NULL, *top_arg = NULL, *budgets = NULL;
	bool json = false, suggest = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "model", .short_name = 'm', .value = &model_path},
		{.name = "json", .flag = &json},
		{.name = "format", .short_name = 'f', .value = &format},
		{.name = "html", .value = &html},
		{.name = "budgets", .value = &budgets},
		{.name = "region", .short_name = 'r', .value = &region},
		{.name = "suggest", .flag = &suggest},
		{.name = "sort", .value = &sort_arg},
		{.name = "top", .value = &top_arg},
	};
	enum roi_sort sort;
	size_t top;
	char msg[256];
	struct roi_err err;
	struct roi_session s;
	struct roi_estimate est;
	struct roi_hier h = {0};
	struct roi_node **focus = NULL;
	size_t nfocus = 0;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (region && !*region)
		return roi_usage_error(argv[0], "--region needs a function name or FUNCTION:LINE");
	if (format && strcmp(format, "text") != 0 && strcmp(format, "json") != 0 && strcmp(format, "callgrind") != 0 &&
	    strcmp(format, "lcov") != 0 && strcmp(format, "gcov-json") != 0 && strcmp(format, "folded") != 0)
		return roi_usage_error(argv[0], "--format takes text, json, callgrind, lcov, gcov-json or folded, not '%s'",
				       format);
	if ((json && format) || (html && (json || format)))
		return roi_usage_error(argv[0], "one output at a time: --json, --format or --html");
	if (format && strcmp(format, "json") == 0)
		json = true;
	if (format && (json || strcmp(format, "text") == 0))
		format = NULL;
	if (html && !*html)
		return roi_usage_error(argv[0], "--html needs a directory");
	if (budgets && !html)
		return roi_usage_error(argv[0], "--budgets goes with --html (roi budget check checks budgets)");
	if ((format || html) && (region || suggest))
		return roi_usage_error(argv[0], "--%s is for the text and JSON outputs; --%s covers the whole program",
				       region ? "region" : "suggest", format ? "format" : "html");
	if ((sort_arg || top_arg) && (json || format || html || suggest))
		return roi_usage_error(argv[0], "--%s is for the text output", sort_arg ? "sort" : "top");
	if (roi_order_options(sort_arg, top_arg, model_path != NULL, &sort, &top, msg, sizeof msg) != 0)
		return roi_usage_error(argv[0], "%s", msg);
	if (roi_session_load(&s, &(struct roi_session_args){pos[0], npos > 1 ? pos[1] : NULL, model_path, true},
			     &err) != 0) {
		roi_data_error(&err);
		goto out;
	}

	if (roi_estimate_compute(&est, &s.prog, &s.counts, s.m, &err) != 0 ||
	    roi_hier_build(&h, &est, &err) != 0) {
		roi_data_error(&err);
		goto out_est;
	}
	roi_hier_order(&h, sort);
	struct report r = {&h, &s.counts, s.counts.time_unit ? s.counts.time_unit : "ns", h.nmeasured > 0, top};
	struct roi_source src = {s.profile_path, s.counts.runs, s.counts.transferred};
	if (region) {
		nfocus = roi_hier_find(&h, region, NULL, 0);
		if (nfocus == 0) {
			fprintf(stderr, "roi: %s has no function or loop '%s' that ran (the report's identifiers: a function's "
				"name, a loop's FUNCTION:LINE)\n", s.prog.path, region);
			goto out_est;
		}
		focus = roi_xrealloc(NULL, nfocus, sizeof *focus);
		roi_hier_find(&h, region, focus, nfocus);
	}

	struct roi_suggestion *sug;
	size_t nsug;
	enum roi_suggest_why why;
	const struct roi_node *target = roi_hier_suggest(&h, nfocus == 1 ? focus[0] : NULL, &sug, &nsug, &why);
	if (html) {
		if (html_report(html, &h, &src, budgets, model_path, &s) != 0)
			goto out_est;
	} else if (format && strcmp(format, "callgrind") == 0) {
		roi_write_callgrind(stdout, &h, &src);
	} else if (format && strcmp(format, "lcov") == 0) {
		roi_write_lcov(stdout, &h);
	} else if (format && strcmp(format, "gcov-json") == 0) {
		roi_write_gcov_json(stdout, &h, &src);
	} else if (format) {
		roi_write_folded(stdout, &h);
	} else if (json) {
		roi_json_print(report_json(&r, &src, focus, nfocus, region, suggest_json(&h, target, sug, nsug, why)));
	} else if (suggest) {
		suggest_text(stdout, &r, target, sug, nsug, why);
	} else {
		report_text(stdout, &r, &src, focus, nfocus, region);
	}
	status = roi_output_status();
out_est:
	roi_hier_free(&h);
	roi_estimate_free(&est);
out:
	free(focus);
	roi_session_free(&s);
	return status;
}
