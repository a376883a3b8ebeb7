/* report/budget_json.c — roi budget check and diff as one JSON document, see budget.h. */
#include <math.h>

#include "base/json.h"
#include "report/budget.h"
#include "report/report.h"

/* The budget as written and as understood. */
static void budget_json(cJSON *o, const struct roi_budget_file *bf, const struct roi_budget *b)
{
	static const char *const subjects[] = {"total", "function", "region"};
	static const char *const quantities[] = {"cycles", "time", "energy", "ops", "stack", "ram-margin"};

	cJSON_AddStringToObject(o, "file", bf->path);
	cJSON_AddNumberToObject(o, "line", b->line);
	cJSON_AddStringToObject(o, "text", b->text);
	cJSON_AddStringToObject(o, "subject", subjects[b->subject]);
	roi_json_string_or_null(o, "name", b->name);
	cJSON_AddStringToObject(o, "quantity", quantities[b->quantity]);
	roi_json_string_or_null(o, "op_kind", b->kind);
	roi_json_string_or_null(o, "op_type", b->type);
	roi_json_string_or_null(o, "per", roi_budget_is_static(b) ? NULL : b->per == ROI_BUDGET_PER_CALL ? "call" : "run");
	cJSON_AddStringToObject(o, "unit", roi_budget_unit(b->quantity));
	cJSON_AddStringToObject(o, "compare", b->floor ? ">=" : "<=");
	cJSON_AddNumberToObject(o, "limit", b->limit);
	roi_json_number_or_null(o, "warn_at", b->has_warn, b->warn_at);
	roi_json_number_or_null(o, "warn_pct", b->warn_pct > 0, b->warn_pct);
}

/* The figures of one run. */
static void figures_json(cJSON *o, const struct roi_budget_result *r)
{
	roi_json_string_or_null(o, "id", r->id);
	roi_json_string_or_null(o, "model", r->model ? r->model->path : NULL);
	cJSON_AddNumberToObject(o, r->b->per == ROI_BUDGET_PER_CALL ? "calls" : "runs", r->divisor);
	cJSON_AddNumberToObject(o, "estimate", r->estimate);
	if (roi_budget_is_static(r->b)) {
		/* a bound only: why (stack.h's flags) */
		cJSON *f = cJSON_AddArrayToObject(o, "bound");
		static const struct { unsigned flag; const char *name; } names[] = {
			{ROI_STACK_RECURSIVE, "recursive"}, {ROI_STACK_INDIRECT, "indirect"}, {ROI_STACK_UNKNOWN, "unknown"},
			{ROI_STACK_DYNAMIC, "dynamic"}, {ROI_STACK_NESTING, "nesting"},
		};
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (r->stack_flags & names[i].flag)
				cJSON_AddItemToArray(f, cJSON_CreateString(names[i].name));
	}
	roi_json_number_or_null(o, "measured", r->has_measured, r->measured);
	roi_json_number_or_null(o, "measured_calls", r->has_measured, r->measured_calls);
	roi_json_string_or_null(o, "unmeasured", r->has_measured ? NULL : r->unmeasured);
	cJSON_AddStringToObject(o, "checked", r->used_measured ? "measured" : "estimate");
	cJSON_AddNumberToObject(o, "value", r->value);
	roi_json_number_or_null(o, "margin_pct", true, isnan(r->margin_pct) ? NAN : round(100 * r->margin_pct) / 100);
	cJSON_AddStringToObject(o, "status", roi_budget_status_name(r->status));
}

cJSON *roi_budget_check_json(const struct roi_budget_file *bf, const struct roi_budget_eval *ev, bool measured,
			     bool strict)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	cJSON_AddNumberToObject(o, "roi_budget", 1);
	cJSON_AddStringToObject(o, "command", "check");
	cJSON_AddStringToObject(o, "program", ev->in->prog.path);
	if (ev->in->profile_path) {
		roi_source_json(o, &(struct roi_source){ev->in->profile_path, ev->in->counts.runs,
							 ev->in->counts.transferred});
	} else {
		/* every budget static: no run */
		cJSON_AddNullToObject(o, "profile");
		cJSON_AddNumberToObject(o, "runs", 0);
		cJSON_AddNullToObject(o, "transferred_from");
	}
	cJSON_AddStringToObject(o, "budgets", bf->path);
	cJSON_AddBoolToObject(o, "measured", measured);
	cJSON_AddBoolToObject(o, "strict", strict);
	cJSON_AddStringToObject(o, "status", roi_budget_overall(ev));
	cJSON_AddNumberToObject(o, "pass", (double)ev->npass);
	cJSON_AddNumberToObject(o, "warn", (double)ev->nwarn);
	cJSON_AddNumberToObject(o, "fail", (double)ev->nfail);
	arr = cJSON_AddArrayToObject(o, "results");
	for (size_t i = 0; i < ev->nresults; i++) {
		cJSON *x = cJSON_CreateObject();

		budget_json(x, bf, ev->results[i].b);
		figures_json(x, &ev->results[i]);
		cJSON_AddItemToArray(arr, x);
	}
	return o;
}

static cJSON *side_json(const struct roi_budget_result *r)
{
	cJSON *o;

	if (!r->present)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	figures_json(o, r);
	return o;
}

cJSON *roi_budget_diff_json(const struct roi_budget_file *bf, const struct roi_budget_eval *old,
			    const struct roi_budget_eval *new, bool measured)
{
	cJSON *o = cJSON_CreateObject(), *arr, *s;

	cJSON_AddNumberToObject(o, "roi_budget", 1);
	cJSON_AddStringToObject(o, "command", "diff");
	cJSON_AddStringToObject(o, "budgets", bf->path);
	cJSON_AddBoolToObject(o, "measured", measured);
	s = cJSON_AddObjectToObject(o, "old");
	cJSON_AddStringToObject(s, "program", old->in->prog.path);
	cJSON_AddStringToObject(s, "profile", old->in->profile_path);
	cJSON_AddStringToObject(s, "status", roi_budget_overall(old));
	s = cJSON_AddObjectToObject(o, "new");
	cJSON_AddStringToObject(s, "program", new->in->prog.path);
	cJSON_AddStringToObject(s, "profile", new->in->profile_path);
	cJSON_AddStringToObject(s, "status", roi_budget_overall(new));
	arr = cJSON_AddArrayToObject(o, "results");
	for (size_t i = 0; i < new->nresults; i++) {
		const struct roi_budget_result *ro = &old->results[i], *rn = &new->results[i];
		cJSON *x = cJSON_CreateObject();
		bool both = ro->present && rn->present;

		budget_json(x, bf, rn->b);
		cJSON_AddItemToObject(x, "old", side_json(ro));
		cJSON_AddItemToObject(x, "new", side_json(rn));
		roi_json_string_or_null(x, "old_missing", ro->present ? NULL : ro->missing);
		roi_json_string_or_null(x, "new_missing", rn->present ? NULL : rn->missing);
		cJSON_AddBoolToObject(x, "moved", roi_budget_moved(ro, rn));
		roi_json_number_or_null(x, "change", both, rn->value - ro->value);
		roi_json_number_or_null(x, "change_pct", both && ro->value != 0,
				   both && ro->value != 0 ? round(1e4 * (rn->value - ro->value) / ro->value) / 100 : 0);
		cJSON_AddItemToArray(arr, x);
	}
	return o;
}
