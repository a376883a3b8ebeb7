/* report/budget_text.c — roi budget check and diff as text tables, see budget.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"
#include "base/table.h"
#include "report/budget.h"
#include "report/measured.h"
#include "report/report.h"

#define CELL 96

/* "function fir cycles per call", "total ram-margin" */
static const char *describe(const struct roi_budget *b, char *buf, size_t size)
{
	return roi_budget_describe(b, buf, size);
}

/* The note of a stack or ram-margin figure roi can only bound: "at least 40 bytes: recursive". */
static void bound_note(const struct roi_budget_result *r, char *buf, size_t size)
{
	char v[CELL], flags[160];

	roi_stack_flags_text(r->stack_flags, flags, sizeof flags);
	snprintf(buf, size, "%s %s (%s): roi cannot bound it", r->b->quantity == ROI_BUDGET_STACK ? "at least" : "at most",
		 roi_budget_fmt(r->b->quantity, r->value, v, sizeof v), flags);
}

static const char *fmt_margin(const struct roi_budget_result *r, char *buf, size_t size)
{
	if (isnan(r->margin_pct))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f%%", r->margin_pct == 0 ? 0.0 : r->margin_pct);
	return buf;
}

/* Whether the budget file uses more than one model: then each row names its model. */
static bool several_models(const struct roi_budget_eval *ev)
{
	const struct roi_budget_model *first = NULL;

	for (size_t i = 0; i < ev->nresults; i++) {
		const struct roi_budget_model *m = ev->results[i].model;
		if (!m || !m->path)
			continue;
		if (first && first != m)
			return true;
		first = m;
	}
	return false;
}

static void header_models(FILE *out, const struct roi_budget_eval *ev)
{
	char hz[CELL];
	bool any = false;

	for (size_t i = 0; i < ev->nmodels; i++) {
		const struct roi_budget_model *m = ev->models[i];
		if (!m->path)
			continue;
		fprintf(out, "model     %s (%s) at %s [%s]%s\n", m->model.part, m->model.arch,
			roi_fmt_si(m->model.clock_hz, "Hz", hz, sizeof hz), m->path, m->est.mapped ? ", host ABI mapped" : "");
		any = true;
	}
	if (!any)
		fprintf(out, "model     none: operation budgets only\n");
}

void roi_budget_check_text(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *ev, bool measured,
			   bool strict)
{
	bool models = several_models(ev);
	struct roi_table t;
	char where[512], what[512], est[CELL], meas[CELL], lim[CELL], margin[CELL], note[512];

	fprintf(out, "program   %s\n", ev->in->prog.path);
	if (ev->in->profile_path) {
		roi_source_text(out, &(struct roi_source){ev->in->profile_path, ev->in->counts.runs,
							   ev->in->counts.transferred, NULL});
		if (ev->in->meas)
			roi_measured_source_text(out, ev->in->meas);
		header_models(out, ev);
	} else {
		fprintf(out, "profile   none: every budget is static (stack, ram-margin)\n");
		if (ev->in->meas)
			roi_measured_source_text(out, ev->in->meas);
	}
	fprintf(out, "budgets   %s, %zu budget%s%s\n", bf->path, bf->nbudgets, bf->nbudgets == 1 ? "" : "s",
		roi_budget_file_static(bf) ? ""
		: ev->in->meas ? measured ? "; measured figures checked where measured (the measured profile, else hooks)"
		: "; measured figures shown, the estimates checked (--measured checks the measured ones)"
		: measured ? "; measured figures checked where hooks measured them" : "");
	if (ev->have_stack)
		fprintf(out, "stack     %s\n", ev->in->meas ? "stack and ram-margin: the measured run's figures checked, the "
			"static worst case beside them (estimate)"
			: "stack and ram-margin: the static figures checked (roi stack; --measured-profile checks a run's)");
	measured |= ev->in->meas != NULL;      /* the column */
	fputc('\n', out);
	roi_table_init(&t, measured ? "llrrrrll" : "llrrrll");
	if (measured)
		roi_table_row(&t, "where", "budget", "estimate", "measured", "limit", "margin", "status", "note");
	else
		roi_table_row(&t, "where", "budget", "estimate", "limit", "margin", "status", "note");
	for (size_t i = 0; i < ev->nresults; i++) {
		const struct roi_budget_result *r = &ev->results[i];
		const struct roi_budget *b = r->b;

		snprintf(where, sizeof where, "%s:%u", bf->path, b->line);
		describe(b, what, sizeof what);
		if (models) {
			size_t n = strlen(what);
			snprintf(what + n, sizeof what - n, " (%s)", r->model->model.part);
		}
		roi_budget_fmt(b->quantity, r->estimate, est, sizeof est);
		roi_budget_fmt(b->quantity, b->limit, lim, sizeof lim);
		fmt_margin(r, margin, sizeof margin);
		note[0] = '\0';
		if (r->status == ROI_BUDGET_WARN) {
			char at[CELL];
			if (b->warn_pct > 0)
				snprintf(note, sizeof note, "within %g%% of the limit", b->warn_pct);
			else
				snprintf(note, sizeof note, "%s the warning level %s", b->floor ? "below" : "above",
					 roi_budget_fmt(b->quantity, b->warn_at, at, sizeof at));
		} else if (r->status == ROI_BUDGET_FAIL && r->stack_flags && !r->used_measured) {
			bound_note(r, note, sizeof note);
		} else if (r->status == ROI_BUDGET_FAIL) {
			char over[CELL];
			snprintf(note, sizeof note, "%s by %s", b->floor ? "short" : "over",
				 roi_budget_fmt(b->quantity, b->floor ? b->limit - r->value : r->value - b->limit, over,
						sizeof over));
		}
		if (measured) {
			size_t n = strlen(note);
			if (r->has_measured)
				roi_budget_fmt(b->quantity, r->measured, meas, sizeof meas);
			else
				snprintf(meas, sizeof meas, "-");
			if (!r->has_measured)
				snprintf(note + n, sizeof note - n, "%sestimate checked: %s", n ? "; " : "", r->unmeasured);
			roi_table_row(&t, where, what, est, meas, lim, margin, roi_budget_status_name(r->status), note);
		} else {
			roi_table_row(&t, where, what, est, lim, margin, roi_budget_status_name(r->status), note);
		}
	}
	roi_table_print(&t, out, "  ");
	fprintf(out, "\nresult    %s: %zu budget%s, %zu pass, %zu warn, %zu fail%s\n", roi_budget_overall(ev),
		ev->nresults, ev->nresults == 1 ? "" : "s", ev->npass, ev->nwarn, ev->nfail,
		strict && ev->nwarn ? " (--strict: a warning fails)" : "");
}

static const char *fmt_change(const struct roi_budget_result *o, const struct roi_budget_result *n, char *buf,
			      size_t size)
{
	char v[CELL];

	if (!o->present || !n->present) {
		snprintf(buf, size, "%s", !o->present ? "new" : "gone");
		return buf;
	}
	double delta = n->value - o->value;
	if (!roi_budget_moved(o, n)) {
		snprintf(buf, size, "=");
		return buf;
	}
	roi_budget_fmt(o->b->quantity, fabs(delta), v, sizeof v);
	if (o->value != 0)
		snprintf(buf, size, "%s%s (%+.1f%%)", delta < 0 ? "-" : "+", v, 100 * delta / o->value);
	else
		snprintf(buf, size, "%s%s", delta < 0 ? "-" : "+", v);
	return buf;
}

static const char *side_value(const struct roi_budget_result *r, char *buf, size_t size)
{
	if (!r->present)
		snprintf(buf, size, "-");
	else
		roi_budget_fmt(r->b->quantity, r->value, buf, size);
	return buf;
}

void roi_budget_diff_text(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *old,
			  const struct roi_budget_eval *new, bool measured)
{
	struct roi_table t;
	size_t nmoved = 0;
	char where[512], what[512], ov[CELL], nv[CELL], ch[2 * CELL], lim[CELL], st[32], note[1024];

	fprintf(out, "old       %s, profile %s\n", old->in->prog.path, old->in->profile_path);
	fprintf(out, "new       %s, profile %s\n", new->in->prog.path, new->in->profile_path);
	header_models(out, new);
	for (size_t i = 0; i < new->nresults; i++)
		nmoved += roi_budget_moved(&old->results[i], &new->results[i]);
	fprintf(out, "budgets   %s, %zu budget%s, %zu moved%s\n\n", bf->path, bf->nbudgets, bf->nbudgets == 1 ? "" : "s",
		nmoved, measured ? "; measured figures where hooks measured them" : "");
	roi_table_init(&t, "llrrrrll");
	roi_table_row(&t, "where", "budget", "old", "new", "change", "limit", "status", "note");
	for (size_t i = 0; i < new->nresults; i++) {
		const struct roi_budget_result *o = &old->results[i], *n = &new->results[i];
		const struct roi_budget *b = n->b;

		snprintf(where, sizeof where, "%s:%u", bf->path, b->line);
		note[0] = '\0';
		if (!o->present)
			snprintf(note, sizeof note, "old: %s", o->missing);
		else if (!n->present)
			snprintf(note, sizeof note, "new: %s", n->missing);
		else if (o->used_measured != n->used_measured)
			snprintf(note, sizeof note, "old %s, new %s", o->used_measured ? "measured" : "estimated",
				 n->used_measured ? "measured" : "estimated");
		const char *os = o->present ? roi_budget_status_name(o->status) : "-";
		const char *ns = n->present ? roi_budget_status_name(n->status) : "-";
		if (strcmp(os, ns) == 0)
			snprintf(st, sizeof st, "%s", ns);
		else
			snprintf(st, sizeof st, "%s -> %s", os, ns);
		roi_table_row(&t, where, describe(b, what, sizeof what), side_value(o, ov, sizeof ov),
			      side_value(n, nv, sizeof nv), fmt_change(o, n, ch, sizeof ch),
			      roi_budget_fmt(b->quantity, b->limit, lim, sizeof lim), st, note);
	}
	roi_table_print(&t, out, "  ");
	fprintf(out, "\nresult    old %s (%zu pass, %zu warn, %zu fail), new %s (%zu pass, %zu warn, %zu fail)\n",
		roi_budget_overall(old), old->npass, old->nwarn, old->nfail, roi_budget_overall(new), new->npass, new->nwarn,
		new->nfail);
}
