/* report/json.c — the estimate as one JSON document, schema in docs/estimate-json.md. */
#include <stddef.h>

#include "base/json.h"
#include "input/model.h"
#include "report/report.h"

static void add_str(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
}

static void add_desc(cJSON *o, const struct roi_opdesc *d)
{
	add_str(o, "kind", d->kind);
	add_str(o, "type", d->type);
	add_str(o, "ctype", d->ctype);
	add_str(o, "access", d->access);
	add_str(o, "callee", d->callee);
	add_str(o, "from", d->from);
	add_str(o, "from_ctype", d->from_ctype);
	add_str(o, "code", d->code);
	add_str(o, "host_type", d->host_type);
	add_str(o, "host_from", d->host_from);
	if (d->is_volatile)
		cJSON_AddTrueToObject(o, "volatile");
}

cJSON *roi_model_json(const struct roi_estimate *e)
{
	const struct roi_model *m = e->model;
	cJSON *o;

	if (!m)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	add_str(o, "file", m->path);
	add_str(o, "part", m->part);
	add_str(o, "arch", m->arch);
	add_str(o, "compiler", m->compiler);
	add_str(o, "opt", m->opt);
	cJSON_AddNumberToObject(o, "clock_hz", m->clock_hz);
	cJSON_AddNumberToObject(o, "energy_per_cycle_j", m->energy_per_cycle_j);
	cJSON_AddBoolToObject(o, "mapped_abi", e->mapped);
	return o;
}

cJSON *roi_units_json(const struct roi_program *p)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < p->nunits; i++) {
		const struct roi_unit *u = &p->units[i];
		cJSON *o = cJSON_CreateObject();

		add_str(o, "unit", u->id_hex);
		add_str(o, "source", u->source);
		add_str(o, "compiler", u->compiler);
		add_str(o, "target", u->target);
		add_str(o, "opt", u->opt);
		add_str(o, "runtime", u->runtime);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* The functions the filter left uncounted: their cost is not in the totals. */
cJSON *roi_excluded_json(const struct roi_program *p)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nexcluded; i++) {
			const struct roi_excluded *x = &p->units[u].excluded[i];
			cJSON *o = cJSON_CreateObject();

			add_str(o, "name", x->name);
			add_str(o, "asm", x->asm_name);
			add_str(o, "unit", p->units[u].id_hex);
			add_str(o, "file", p->units[u].files[x->file]);
			cJSON_AddNumberToObject(o, "line", x->line);
			if (p->units[u].filter)
				add_str(o, "filter", p->units[u].filter->path);
			cJSON_AddNumberToObject(o, "rule", x->rule);
			cJSON_AddItemToArray(a, o);
		}
	return a;
}

static cJSON *ops_json(const struct roi_estimate *e, bool only_unmodelled)
{
	cJSON *a = cJSON_CreateArray();
	char c[128];

	for (size_t i = 0; i < e->nops; i++) {
		const struct roi_op_total *op = &e->ops[i];
		cJSON *o;

		if (only_unmodelled && (!e->model || op->cost))
			continue;
		o = cJSON_CreateObject();
		add_desc(o, &op->d);
		cJSON_AddNumberToObject(o, "count", (double)op->count);
		if (!only_unmodelled) {
			roi_json_number_or_null(o, "cycles", op->cost, op->cycles);
			roi_json_number_or_null(o, "energy_j", op->cost, op->energy_j);
			cJSON_AddBoolToObject(o, "modelled", op->cost != NULL);
			if (op->fallback)
				add_str(o, "fallback", roi_cost_describe(op->cost, c, sizeof c));
			if (op->libcall != ROI_LIBCALL_NONE) {
				add_str(o, "without_metadata", roi_libcall_how_name(op->libcall));
				cJSON_AddNumberToObject(o, "routine_cycles", op->routine_cycles);
			}
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *functions_json(const struct roi_estimate *e, const struct roi_measured *m)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < e->nfns; i++) {
		const struct roi_fn_total *f = &e->fns[i];
		cJSON *o = cJSON_CreateObject();

		add_str(o, "name", f->fn->name);
		add_str(o, "asm", f->fn->asm_name);
		add_str(o, "unit", f->fn->unit->id_hex);
		add_str(o, "file", f->fn->unit->files[f->fn->file]);
		cJSON_AddNumberToObject(o, "line", f->fn->line);
		cJSON_AddBoolToObject(o, "profiled", f->profiled);
		cJSON_AddNumberToObject(o, "calls", (double)f->calls);
		cJSON_AddNumberToObject(o, "ops", (double)f->ops);
		roi_json_number_or_null(o, "cycles", e->model, f->cycles);
		roi_json_number_or_null(o, "energy_j", e->model, f->energy_j);
		if (m) {
			const struct roi_mfunction *mf = roi_measured_function(m, f->fn->asm_name);
			roi_json_number_or_null(o, "measured_cycles", mf, mf ? (double)(mf->self + mf->library) : 0);
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *lines_json(const struct roi_estimate *e, const struct roi_measured *m)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < e->nlines; i++) {
		const struct roi_line_total *l = &e->lines[i];
		cJSON *o = cJSON_CreateObject();

		add_str(o, "file", l->file);
		cJSON_AddNumberToObject(o, "line", l->line);
		cJSON_AddNumberToObject(o, "ops", (double)l->ops);
		roi_json_number_or_null(o, "cycles", e->model, l->cycles);
		roi_json_number_or_null(o, "energy_j", e->model, l->energy_j);
		if (m) {
			const struct roi_mline *ml = roi_measured_line(m, l->file, l->line);
			roi_json_number_or_null(o, "measured_cycles", ml, ml ? (double)ml->cycles : 0);
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

cJSON *roi_libcalls_json(const struct roi_estimate *e)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < e->nlibcalls; i++) {
		const struct roi_libcall_total *l = &e->libcalls[i];
		cJSON *o = cJSON_CreateObject();

		add_str(o, "callee", l->callee);
		cJSON_AddNumberToObject(o, "calls", (double)l->calls);
		cJSON_AddNumberToObject(o, "cycles", l->cycles);
		cJSON_AddNumberToObject(o, "energy_j", l->energy_j);
		cJSON_AddNumberToObject(o, "routine_cycles", l->routine_cycles);
		add_str(o, "priced_by", roi_libcall_how_name(l->how));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

void roi_libcall_total_json(cJSON *t, const struct roi_estimate *e)
{
	cJSON *fb = cJSON_CreateArray();

	cJSON_AddNumberToObject(t, "calls_without_metadata", (double)e->libcall_calls);
	roi_json_number_or_null(t, "cycles_without_metadata", e->model, e->libcall_cycles);
	cJSON_AddNumberToObject(t, "fallback_calls", (double)e->fallback_calls);
	for (size_t i = 0; i < e->nlibcalls; i++)
		if (e->libcalls[i].how == ROI_LIBCALL_CALL) {
			cJSON *o = cJSON_CreateObject();
			add_str(o, "callee", e->libcalls[i].callee);
			cJSON_AddNumberToObject(o, "calls", (double)e->libcalls[i].calls);
			cJSON_AddItemToArray(fb, o);
		}
	cJSON_AddItemToObject(t, "fallback", fb);
}

void roi_source_json(cJSON *o, const struct roi_source *src)
{
	add_str(o, "profile", src->profile);
	cJSON_AddNumberToObject(o, "runs", (double)src->runs);
	roi_json_string_or_null(o, "transferred_from", src->transferred);
}

void roi_program_json(cJSON *o, const struct roi_program *p, const struct roi_source *src)
{
	add_str(o, "program", p->path);
	roi_source_json(o, src);
	add_str(o, "target", roi_program_common(p, offsetof(struct roi_unit, target)));
	add_str(o, "compiler", roi_program_common(p, offsetof(struct roi_unit, compiler)));
	add_str(o, "opt", roi_program_common(p, offsetof(struct roi_unit, opt)));
}

cJSON *roi_report_json(const struct roi_estimate *e, const struct roi_source *src)
{
	const struct roi_program *p = e->prog;
	cJSON *o = cJSON_CreateObject(), *t;

	cJSON_AddNumberToObject(o, "roi_estimate", 1);
	roi_program_json(o, p, src);
	cJSON_AddItemToObject(o, "units", roi_units_json(p));
	cJSON_AddItemToObject(o, "model", roi_model_json(e));
	cJSON_AddItemToObject(o, "ops", ops_json(e, false));
	cJSON_AddItemToObject(o, "unmodelled", ops_json(e, true));
	cJSON_AddItemToObject(o, "without_metadata", roi_libcalls_json(e));
	if (src->measured)
		cJSON_AddItemToObject(o, "measured", roi_measured_source_json(src->measured));
	cJSON_AddItemToObject(o, "functions", functions_json(e, src->measured));
	cJSON_AddItemToObject(o, "lines", lines_json(e, src->measured));
	cJSON_AddItemToObject(o, "excluded", roi_excluded_json(p));
	t = cJSON_AddObjectToObject(o, "total");
	cJSON_AddNumberToObject(t, "ops", (double)e->total_ops);
	cJSON_AddNumberToObject(t, "unmodelled_ops", (double)e->unmodelled_ops);
	roi_json_number_or_null(t, "cycles", e->model, e->cycles);
	roi_json_number_or_null(t, "seconds", e->model, e->seconds);
	roi_json_number_or_null(t, "energy_j", e->model, e->energy_j);
	roi_libcall_total_json(t, e);
	return o;
}
