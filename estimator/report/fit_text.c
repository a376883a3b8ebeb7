/* report/fit_text.c — roi fit as a text table, see fit.h. */
#include <math.h>
#include <stdio.h>

#include "base/fmt.h"
#include "base/table.h"
#include "report/fit.h"

#define CELL 96

static const char *fmt_value(int q, double v, char *buf, size_t size)
{
	if (q == ROI_FIT_CYCLES)
		return roi_fmt_num(round(100 * v) / 100, buf, size);
	if (q == ROI_FIT_ENERGY)
		return roi_fmt_si(v, "J", buf, size);
	snprintf(buf, size, "%.0f", v);
	return buf;
}

static void text_rows(const struct roi_fit *f, struct roi_table *t, const struct roi_fit_row *r, int depth)
{
	bool first = true;

	for (int q = 0; q <= ROI_FIT_CYCLES; q++) {
		const struct roi_fit_quantity *v = &r->q[q];
		char id[512] = "", formula[256], err[CELL], pred[CELL] = "", note[512] = "";

		if (!v->has)
			continue;
		if (first)
			snprintf(id, sizeof id, "%*s%s", 2 * depth, "", r->id);
		roi_fit_formula(f, v, formula, sizeof formula);
		if (isfinite(v->fit.error))
			snprintf(err, sizeof err, "%.2f%%", 100 * v->fit.error);
		else
			snprintf(err, sizeof err, "-");
		if (v->predicted)
			fmt_value(q, v->prediction, pred, sizeof pred);
		else if (f->has_at)
			snprintf(pred, sizeof pred, "-");
		if (v->why)
			snprintf(note, sizeof note, "%s: %s", f->has_at ? "not predicted" : "not for extrapolation", v->why);
		if (f->has_at)
			roi_table_row(t, id, first ? r->kind : "", roi_fit_qnames[q], v->fit.form ? v->fit.form->name : "-", formula,
				      err, pred, note);
		else
			roi_table_row(t, id, first ? r->kind : "", roi_fit_qnames[q], v->fit.form ? v->fit.form->name : "-", formula,
				      err, note);
		first = false;
	}
	for (size_t i = 0; i < r->nchildren; i++)
		text_rows(f, t, r->children[i], depth + 1);
}

void roi_fit_text(FILE *out, const struct roi_fit *f)
{
	struct roi_table t;
	char hz[CELL], at[256], col[300];
	bool same_runs = true;

	if (f->prog) {
		fprintf(out, "program   %s\n", f->prog->path);
	} else {
		fprintf(out, "programs  each profile's own (its program line), %zu builds\n", f->nprogs);
	}
	fprintf(out, "profiles  ");
	for (size_t i = 0; i < f->npts; i++) {
		fprintf(out, "%s%s", i ? ", " : "", f->pts[i].spec);
		same_runs &= f->pts[i].in.counts.runs == f->pts[0].in.counts.runs;
	}
	if (same_runs)
		fprintf(out, " (%llu run%s each)\n", (unsigned long long)f->pts[0].in.counts.runs,
			f->pts[0].in.counts.runs == 1 ? "" : "s");
	else
		fprintf(out, " (figures per run)\n");
	if (f->has_model)
		fprintf(out, "model     %s (%s) at %s [%s]%s\n", f->model.part, f->model.arch,
			roi_fmt_si(f->model.clock_hz, "Hz", hz, sizeof hz), f->model.path,
			f->pts[0].est.mapped ? ", host ABI mapped" : "");
	else
		fprintf(out, "model     none: calls and operations only (--model FILE adds cycles and energy)\n");
	fprintf(out, "forms     ");
	for (size_t i = 0; i < f->fam.nforms; i++)
		fprintf(out, "%s%s", i ? ", " : "", f->fam.forms[i].name);
	fprintf(out, " (with lower terms); the least held-out error, the simplest of ties; extrapolated within %g%%\n",
		100 * f->max_error);
	if (f->region)
		fprintf(out, "region    %s\n", f->region);

	roi_table_init(&t, f->has_at ? "lllllrrl" : "lllllrl");
	if (f->has_at) {
		snprintf(col, sizeof col, "at %s", roi_fit_sizes_text(f, f->at, at, sizeof at));
		roi_table_row(&t, "identifier", "class", "quantity", "form", "formula", "error", col, "note");
	} else {
		roi_table_row(&t, "identifier", "class", "quantity", "form", "formula", "error", "note");
	}
	if (f->nfocus) {
		for (size_t i = 0; i < f->nfocus; i++)
			text_rows(f, &t, f->focus[i], 0);
	} else {
		text_rows(f, &t, &f->total, 0);
		for (size_t i = 0; i < f->nroots; i++)
			text_rows(f, &t, f->roots[i], 0);
	}
	fputc('\n', out);
	roi_table_print(&t, out, "  ");
	if (!f->has_at)
		return;

	const char *why, *what;
	const struct roi_fit_row *const total = &f->total;
	const struct roi_fit_row *const *rows = f->nfocus ? (const struct roi_fit_row *const *)f->focus : &total;
	size_t n = f->nfocus ? f->nfocus : 1;
	fputc('\n', out);
	if (!roi_fit_headline_predicted(f, &why, &what)) {
		fprintf(out, "at        %s: %s not predicted (%s: %s)\n", roi_fit_sizes_text(f, f->at, at, sizeof at),
			f->nfocus ? f->region : "the total", what, why);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct roi_fit_quantity *q = rows[i]->q;
		char ops[CELL], cyc[CELL], sec[CELL], ej[CELL];

		fprintf(out, "at        %s: %s %s ops", roi_fit_sizes_text(f, f->at, at, sizeof at), rows[i]->id,
			fmt_value(ROI_FIT_OPS, q[ROI_FIT_OPS].prediction, ops, sizeof ops));
		if (f->has_model)
			fprintf(out, ", %s cycles, %s, %s", fmt_value(ROI_FIT_CYCLES, q[ROI_FIT_CYCLES].prediction, cyc, sizeof cyc),
				roi_fmt_si(q[ROI_FIT_CYCLES].prediction / f->model.clock_hz, "s", sec, sizeof sec),
				roi_fmt_si(q[ROI_FIT_ENERGY].prediction, "J", ej, sizeof ej));
		if (q[ROI_FIT_CALLS].has)
			fprintf(out, " in %.0f call%s", q[ROI_FIT_CALLS].prediction, q[ROI_FIT_CALLS].prediction == 1 ? "" : "s");
		fputc('\n', out);
	}
}
