/* report/tree_json.c — roi report as one JSON document (docs/report.md): the hierarchy's nodes with
 * their costs, shares and regions, and --suggest's filter lines; see tree.h. */
#include <math.h>
#include <stdlib.h>

#include "base/json.h"
#include "input/filter.h"
#include "report/measured.h"
#include "report/tree.h"

static void add_pct(cJSON *o, const char *key, double part, double whole)
{
	if (whole > 0)
		cJSON_AddNumberToObject(o, key, round(1e4 * part / whole) / 100);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *sum_json(const struct roi_tree_report *r, const struct roi_cost_sum *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "ops", round(c->ops));
	roi_json_number_or_null(o, "cycles", r->h->e->model, c->cycles);
	roi_json_number_or_null(o, "energy_j", r->h->e->model, c->energy_j);
	return o;
}

/* The measured profile's figures of a node: null when it does not measure it. */
static cJSON *measured_json(const struct roi_measured *m, const struct roi_node *n)
{
	uint64_t cycles, calls;
	cJSON *o, *a;

	if (!roi_measured_node(m, n, &cycles, &calls))
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "cycles", (double)cycles);
	if (n->kind == ROI_NODE_LINE) {
		cJSON_AddNullToObject(o, "calls");
		a = cJSON_AddArrayToObject(o, "call_sites");
		for (size_t i = 0; i < n->nsites; i++) {
			uint64_t c, inclusive;

			if (!roi_measured_calls_at(m, n->file, n->line, n->sites[i].callee->asm_name, &c, &inclusive))
				continue;
			cJSON *s = cJSON_CreateObject();
			cJSON_AddStringToObject(s, "callee", n->sites[i].callee->name);
			cJSON_AddNumberToObject(s, "calls", (double)c);
			cJSON_AddNumberToObject(s, "cycles", (double)inclusive);
			cJSON_AddItemToArray(a, s);
		}
	} else {
		cJSON_AddNumberToObject(o, "calls", (double)calls);
	}
	return o;
}

static cJSON *node_json(const struct roi_tree_report *r, const struct roi_node *n)
{
	const struct roi_hier *h = r->h;
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "id", n->id);
	cJSON_AddStringToObject(o, "kind", roi_node_kind_name(n->kind));
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
	add_pct(o, "scope_pct", roi_hier_weight(h, &n->cost), n->fn ? roi_hier_scope_weight(r->h, n) : 0);
	add_pct(o, "total_pct", roi_hier_weight(h, &n->cost), n->fn ? roi_hier_weight(h, &h->total) : 0);
	if (n->kind == ROI_NODE_LINE) {
		a = cJSON_AddArrayToObject(o, "callees");
		for (size_t i = 0; i < n->ncallees; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(n->callees[i]));
	}
	if (r->meas)
		cJSON_AddItemToObject(o, "measured", measured_json(r->meas, n));
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

cJSON *roi_suggest_json(const struct roi_hier *h, const struct roi_node *target, const struct roi_suggestion *s, size_t n,
			enum roi_suggest_why why)
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

cJSON *roi_tree_json(const struct roi_tree_report *r, const struct roi_source *src, struct roi_node **focus, size_t nfocus,
		     const char *focus_id, cJSON *suggest)
{
	const struct roi_hier *h = r->h;
	const struct roi_program *p = h->e->prog;
	cJSON *o = cJSON_CreateObject(), *a;
	struct roi_unmatched_rule *un;
	size_t nun = roi_filter_unmatched(p, &un);

	cJSON_AddNumberToObject(o, "roi_report", 1);
	roi_program_json(o, p, src);
	if (r->meas)
		cJSON_AddItemToObject(o, "measured", roi_measured_source_json(r->meas));
	cJSON_AddItemToObject(o, "model", roi_model_json(h->e));
	roi_json_string_or_null(o, "time_unit", r->c->time_unit);
	roi_json_number_or_null(o, "hook_cost", r->c->has_hook_cost, r->c->hook_cost);
	roi_json_number_or_null(o, "hook_inside", r->c->has_hook_cost, r->c->hook_inside);
	cJSON_AddNumberToObject(o, "hook_pairs", (double)h->hook_pairs);
	roi_json_number_or_null(o, "hook_overhead", r->c->has_hook_cost, (double)h->hook_pairs * r->c->hook_cost);
	cJSON_AddNumberToObject(o, "regions_measured", (double)h->nmeasured);
	cJSON_AddItemToObject(o, "total", sum_json(r, &h->total));
	roi_libcall_total_json(cJSON_GetObjectItemCaseSensitive(o, "total"), h->e);
	cJSON_AddItemToObject(o, "without_metadata", roi_libcalls_json(h->e));
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
