/* report/fit_json.c — roi fit as one JSON document, see fit.h. */
#include "base/json.h"
#include "report/fit.h"
#include "report/report.h"

static cJSON *sizes_json(const struct roi_fit *f, const double *x)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < f->nparams; i++)
		cJSON_AddNumberToObject(o, f->params[i], x[i]);
	return o;
}

static cJSON *fitted_json(const struct roi_fit *f, const struct roi_fit_quantity *v)
{
	cJSON *o = cJSON_CreateObject(), *a;
	char formula[256];

	a = cJSON_AddArrayToObject(o, "values");
	for (size_t i = 0; i < f->npts; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v->y[i]));
	if (v->fit.form) {
		cJSON_AddStringToObject(o, "form", v->fit.form->name);
		a = cJSON_AddArrayToObject(o, "terms");
		for (size_t j = 0; j < v->fit.form->nterms; j++) {
			cJSON *t = cJSON_CreateObject();

			cJSON_AddStringToObject(t, "term", v->fit.form->terms[j].name);
			cJSON_AddNumberToObject(t, "coef", v->fit.coef[j]);
			cJSON_AddItemToArray(a, t);
		}
		cJSON_AddStringToObject(o, "formula", roi_fit_formula(f, v, formula, sizeof formula));
	} else {
		cJSON_AddNullToObject(o, "form");
		cJSON_AddArrayToObject(o, "terms");
		cJSON_AddNullToObject(o, "formula");
	}
	roi_json_number_or_null(o, "error_pct", v->fit.form != NULL, 100 * v->fit.error);
	roi_json_number_or_null(o, "residual_pct", v->fit.form != NULL, 100 * v->fit.residual);
	cJSON_AddBoolToObject(o, "predictable", v->predictable);
	roi_json_number_or_null(o, "prediction", v->predicted, v->prediction);
	roi_json_string_or_null(o, "why", v->why);
	return o;
}

static cJSON *row_json(const struct roi_fit *f, const struct roi_fit_row *r)
{
	cJSON *o = cJSON_CreateObject(), *q, *a;

	cJSON_AddStringToObject(o, "id", r->id);
	cJSON_AddStringToObject(o, "kind", r->kind);
	if (r->fn) {
		const struct roi_loop *l = r->loop >= 0 ? &r->fn->loops[r->loop] : NULL;

		cJSON_AddStringToObject(o, "function", r->fn->name);
		cJSON_AddStringToObject(o, "unit", r->fn->unit->id_hex);
		cJSON_AddStringToObject(o, "file", r->fn->unit->files[l ? l->file : r->fn->file]);
		cJSON_AddNumberToObject(o, "line", l ? l->line : r->fn->line);
	}
	q = cJSON_AddObjectToObject(o, "quantities");
	for (int i = 0; i < ROI_FIT_NQ; i++)
		if (r->q[i].has)
			cJSON_AddItemToObject(q, roi_fit_qnames[i], fitted_json(f, &r->q[i]));
		else if (i != ROI_FIT_CALLS || r->fn)
			cJSON_AddNullToObject(q, roi_fit_qnames[i]);
	if (r->fn) {
		a = cJSON_AddArrayToObject(o, "children");
		for (size_t i = 0; i < r->nchildren; i++)
			cJSON_AddItemToArray(a, row_json(f, r->children[i]));
	}
	return o;
}

cJSON *roi_fit_json(const struct roi_fit *f)
{
	cJSON *o = cJSON_CreateObject(), *a;
	const char *why, *what;

	cJSON_AddNumberToObject(o, "roi_fit", 1);
	roi_json_string_or_null(o, "program", f->prog ? f->prog->path : NULL);
	a = cJSON_AddArrayToObject(o, "parameters");
	for (size_t i = 0; i < f->nparams; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(f->params[i]));
	a = cJSON_AddArrayToObject(o, "points");
	for (size_t i = 0; i < f->npts; i++) {
		cJSON *p = cJSON_CreateObject();

		cJSON_AddItemToObject(p, "sizes", sizes_json(f, f->pts[i].x));
		cJSON_AddStringToObject(p, "profile", f->pts[i].path);
		cJSON_AddStringToObject(p, "program", f->pts[i].prog->path);
		cJSON_AddNumberToObject(p, "runs", (double)f->pts[i].in.counts.runs);
		roi_json_string_or_null(p, "transferred_from", f->pts[i].in.counts.transferred);
		cJSON_AddItemToArray(a, p);
	}
	cJSON_AddItemToObject(o, "model", roi_model_json(&f->pts[0].est));
	a = cJSON_AddArrayToObject(o, "forms");
	for (size_t i = 0; i < f->fam.nforms; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(f->fam.forms[i].name));
	cJSON_AddNumberToObject(o, "max_error_pct", 100 * f->max_error);
	if (f->has_at)
		cJSON_AddItemToObject(o, "at", sizes_json(f, f->at));
	else
		cJSON_AddNullToObject(o, "at");
	roi_json_string_or_null(o, "region", f->region);
	if (f->has_at)
		cJSON_AddBoolToObject(o, "predicted", roi_fit_headline_predicted(f, &why, &what));
	else
		cJSON_AddNullToObject(o, "predicted");
	cJSON_AddItemToObject(o, "total", row_json(f, &f->total));
	a = cJSON_AddArrayToObject(o, "tree");
	if (f->nfocus) {
		for (size_t i = 0; i < f->nfocus; i++)
			cJSON_AddItemToArray(a, row_json(f, f->focus[i]));
	} else {
		for (size_t i = 0; i < f->nroots; i++)
			cJSON_AddItemToArray(a, row_json(f, f->roots[i]));
	}
	return o;
}
