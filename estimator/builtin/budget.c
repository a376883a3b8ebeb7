/* builtin/budget.c — "roi budget check" and "roi budget diff" (docs/budgets.md): a budget file's
 * limits against one run, as a test suite for CI (text, JSON, JUnit XML), and how the figures
 * moved between two builds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "budget/budget.h"
#include "budget/eval.h"
#include "budget/junit.h"
#include "input/session.h"
#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "base/fmt.h"
#include "report/report.h"
#include "base/table.h"

static const char usage[] =
	"usage: roi budget check --budgets FILE [--model FILE] [--measured] [--strict] [--json] [--junit XML]\n"
	"                        PROGRAM [PROFILE]\n"
	"       roi budget diff --budgets FILE [--model FILE] [--measured] [--json] [--old-program ELF]\n"
	"                       [--new-program ELF] OLD_PROFILE NEW_PROFILE\n"
	"\n"
	"check: every budget of FILE (one limit per line on the cycles, time, energy or operations of\n"
	"the whole run, a function or a loop; docs/budgets.md) against the run of PROGRAM in PROFILE\n"
	"(default as for roi estimate): one line each with the estimate, the limit, the margin left and\n"
	"PASS, WARN or FAIL. Exit status 3 when a budget failed (or, with --strict, warned), 1 when\n"
	"the check could not run (a mistake in FILE, a subject not in PROGRAM, bad input), 2 for a\n"
	"usage error, else 0.\n"
	"diff: each budget's figure in two runs (two builds: a merge request against its base), which\n"
	"moved and by how much. Each profile's program is the one its \"program\" line names unless\n"
	"--old-program/--new-program say otherwise.\n"
	"\n"
	"  -b, --budgets FILE    the budget file\n"
	"  -m, --model FILE      cost model for budgets that name none (models/README.md)\n"
	"      --measured        where hooks measured a budget's function or loop, check that figure\n"
	"                        (simavr: exact cycles) and show the estimate beside it\n"
	"      --strict          check: a WARN fails the check too\n"
	"      --json            one JSON document on stdout (see docs/budgets.md)\n"
	"      --junit XML       check: also write JUnit XML to XML, one test case per budget\n"
	"      --old-program ELF, --new-program ELF\n"
	"                        diff: the programs of OLD_PROFILE and NEW_PROFILE\n"
	"  -h, --help            this help\n";

enum { EXIT_BUDGET_FAILED = 3 };

#define CELL 96

struct args {
	const char *budgets, *model, *junit, *old_program, *new_program;
	bool measured, strict, json;
	const char *pos[2];
	int npos;
};

/* ---- shared ---- */

static const char *per_name(const struct roi_budget *b)
{
	return b->per == ROI_BUDGET_PER_CALL ? "per call" : "per run";
}

/* "function fir cycles per call" */
static const char *describe(const struct roi_budget *b, char *buf, size_t size)
{
	char s[512], q[128];

	snprintf(buf, size, "%s %s %s", roi_budget_subject_name(b, s, sizeof s), roi_budget_quantity_name(b, q, sizeof q),
		 per_name(b));
	return buf;
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

static int print_diags(const struct roi_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "roi: %s\n", d->msg[i]);
	return ROI_EXIT_DATA;
}

/* The budget as written and as understood. */
static void budget_json(cJSON *o, const struct roi_budget_file *bf, const struct roi_budget *b)
{
	static const char *const subjects[] = {"total", "function", "region"};
	static const char *const quantities[] = {"cycles", "time", "energy", "ops"};

	cJSON_AddStringToObject(o, "file", bf->path);
	cJSON_AddNumberToObject(o, "line", b->line);
	cJSON_AddStringToObject(o, "text", b->text);
	cJSON_AddStringToObject(o, "subject", subjects[b->subject]);
	roi_json_string_or_null(o, "name", b->name);
	cJSON_AddStringToObject(o, "quantity", quantities[b->quantity]);
	roi_json_string_or_null(o, "op_kind", b->kind);
	roi_json_string_or_null(o, "op_type", b->type);
	cJSON_AddStringToObject(o, "per", b->per == ROI_BUDGET_PER_CALL ? "call" : "run");
	cJSON_AddStringToObject(o, "unit", roi_budget_unit(b->quantity));
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
	roi_json_number_or_null(o, "measured", r->has_measured, r->measured);
	roi_json_number_or_null(o, "measured_calls", r->has_measured, r->measured_calls);
	roi_json_string_or_null(o, "unmeasured", r->has_measured ? NULL : r->unmeasured);
	cJSON_AddStringToObject(o, "checked", r->used_measured ? "measured" : "estimate");
	cJSON_AddNumberToObject(o, "value", r->value);
	roi_json_number_or_null(o, "margin_pct", true, isnan(r->margin_pct) ? NAN : round(100 * r->margin_pct) / 100);
	cJSON_AddStringToObject(o, "status", roi_budget_status_name(r->status));
}

static int print_json(cJSON *doc)
{
	roi_json_print(doc);
	return roi_output_status();
}

/* ---- check ---- */

static const char *overall(const struct roi_budget_eval *ev)
{
	return ev->nfail ? "FAIL" : ev->nwarn ? "WARN" : "PASS";
}

static void check_text(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *ev,
		       const struct args *a)
{
	bool models = several_models(ev);
	struct roi_table t;
	char where[512], what[512], est[CELL], meas[CELL], lim[CELL], margin[CELL], note[512];

	fprintf(out, "program   %s\n", ev->in->prog.path);
	roi_source_text(out, &(struct roi_source){ev->in->profile_path, ev->in->counts.runs, ev->in->counts.transferred});
	header_models(out, ev);
	fprintf(out, "budgets   %s, %zu budget%s%s\n", bf->path, bf->nbudgets, bf->nbudgets == 1 ? "" : "s",
		a->measured ? "; measured figures checked where hooks measured them" : "");
	fputc('\n', out);
	roi_table_init(&t, a->measured ? "llrrrrll" : "llrrrll");
	if (a->measured)
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
				snprintf(note, sizeof note, "above the warning level %s",
					 roi_budget_fmt(b->quantity, b->warn_at, at, sizeof at));
		} else if (r->status == ROI_BUDGET_FAIL) {
			char over[CELL];
			snprintf(note, sizeof note, "over by %s",
				 roi_budget_fmt(b->quantity, r->value - b->limit, over, sizeof over));
		}
		if (a->measured) {
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
	fprintf(out, "\nresult    %s: %zu budget%s, %zu pass, %zu warn, %zu fail%s\n", overall(ev), ev->nresults,
		ev->nresults == 1 ? "" : "s", ev->npass, ev->nwarn, ev->nfail,
		a->strict && ev->nwarn ? " (--strict: a warning fails)" : "");
}

static cJSON *check_json(const struct roi_budget_file *bf, const struct roi_budget_eval *ev, const struct args *a)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	cJSON_AddNumberToObject(o, "roi_budget", 1);
	cJSON_AddStringToObject(o, "command", "check");
	cJSON_AddStringToObject(o, "program", ev->in->prog.path);
	roi_source_json(o, &(struct roi_source){ev->in->profile_path, ev->in->counts.runs, ev->in->counts.transferred});
	cJSON_AddStringToObject(o, "budgets", bf->path);
	cJSON_AddBoolToObject(o, "measured", a->measured);
	cJSON_AddBoolToObject(o, "strict", a->strict);
	cJSON_AddStringToObject(o, "status", overall(ev));
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

static int load_budgets(const struct args *a, struct roi_budget_file *bf, struct roi_diags *d)
{
	struct roi_err err;

	if (roi_budget_load(a->budgets, bf, d, &err) != 0)
		return roi_data_error(&err);
	if (d->n)
		return print_diags(d);
	return 0;
}

static int check(const char *cmd, const struct args *a)
{
	struct roi_budget_file bf;
	struct roi_diags d = {0};
	struct roi_session in = {0};
	struct roi_budget_eval ev;
	struct roi_err err;
	struct roi_budget_options opt = {a->model, a->measured, false};
	int status;

	if (a->npos < 1)
		return roi_usage_error(cmd, "missing PROGRAM");
	status = load_budgets(a, &bf, &d);
	if (status == 0 &&
	    roi_session_load(&in, &(struct roi_session_args){a->pos[0], a->npos > 1 ? a->pos[1] : NULL, NULL, false},
			     &err) != 0) {
		status = roi_data_error(&err);
	} else if (status == 0 && roi_budget_evaluate(&ev, &bf, &in, &opt, &d, &err) != 0) {
		status = roi_data_error(&err);
		roi_budget_eval_free(&ev);
	} else if (status == 0) {
		if (d.n) {
			status = print_diags(&d);
		} else {
			if (a->json)
				status = print_json(check_json(&bf, &ev, a));
			else {
				check_text(stdout, &bf, &ev, a);
				status = roi_output_status();
			}
			if (status == ROI_EXIT_OK && a->junit &&
			    roi_budget_junit_write(a->junit, &bf, &ev, a->strict, &err) != 0)
				status = roi_data_error(&err);
			if (status == ROI_EXIT_OK && (ev.nfail || (a->strict && ev.nwarn)))
				status = EXIT_BUDGET_FAILED;
		}
		roi_budget_eval_free(&ev);
	}
	roi_session_free(&in);
	roi_budget_free(&bf);
	roi_diags_free(&d);
	return status;
}

/* ---- diff ---- */

static bool moved(const struct roi_budget_result *o, const struct roi_budget_result *n)
{
	if (!o->present || !n->present)
		return o->present != n->present;
	double scale = fmax(fabs(o->value), fabs(n->value));
	return fabs(n->value - o->value) > 1e-9 * scale || o->status != n->status;
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
	if (!moved(o, n)) {
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

static void diff_text(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *old,
		      const struct roi_budget_eval *new, const struct args *a)
{
	struct roi_table t;
	size_t nmoved = 0;
	char where[512], what[512], ov[CELL], nv[CELL], ch[2 * CELL], lim[CELL], st[32], note[1024];

	fprintf(out, "old       %s, profile %s\n", old->in->prog.path, old->in->profile_path);
	fprintf(out, "new       %s, profile %s\n", new->in->prog.path, new->in->profile_path);
	header_models(out, new);
	for (size_t i = 0; i < new->nresults; i++)
		nmoved += moved(&old->results[i], &new->results[i]);
	fprintf(out, "budgets   %s, %zu budget%s, %zu moved%s\n\n", bf->path, bf->nbudgets, bf->nbudgets == 1 ? "" : "s",
		nmoved, a->measured ? "; measured figures where hooks measured them" : "");
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
		overall(old), old->npass, old->nwarn, old->nfail, overall(new), new->npass, new->nwarn, new->nfail);
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

static cJSON *diff_json(const struct roi_budget_file *bf, const struct roi_budget_eval *old,
			const struct roi_budget_eval *new, const struct args *a)
{
	cJSON *o = cJSON_CreateObject(), *arr, *s;

	cJSON_AddNumberToObject(o, "roi_budget", 1);
	cJSON_AddStringToObject(o, "command", "diff");
	cJSON_AddStringToObject(o, "budgets", bf->path);
	cJSON_AddBoolToObject(o, "measured", a->measured);
	s = cJSON_AddObjectToObject(o, "old");
	cJSON_AddStringToObject(s, "program", old->in->prog.path);
	cJSON_AddStringToObject(s, "profile", old->in->profile_path);
	cJSON_AddStringToObject(s, "status", overall(old));
	s = cJSON_AddObjectToObject(o, "new");
	cJSON_AddStringToObject(s, "program", new->in->prog.path);
	cJSON_AddStringToObject(s, "profile", new->in->profile_path);
	cJSON_AddStringToObject(s, "status", overall(new));
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
		cJSON_AddBoolToObject(x, "moved", moved(ro, rn));
		roi_json_number_or_null(x, "change", both, rn->value - ro->value);
		roi_json_number_or_null(x, "change_pct", both && ro->value != 0,
				   both && ro->value != 0 ? round(1e4 * (rn->value - ro->value) / ro->value) / 100 : 0);
		cJSON_AddItemToArray(arr, x);
	}
	return o;
}

static int diff(const char *cmd, const struct args *a)
{
	struct roi_budget_file bf;
	struct roi_diags d = {0};
	struct roi_session in_old = {0}, in_new = {0};
	struct roi_budget_eval old, new;
	struct roi_err err;
	struct roi_budget_options opt = {a->model, a->measured, true};
	bool have_old = false, have_new = false;
	int status;

	if (a->npos < 2)
		return roi_usage_error(cmd, "diff needs OLD_PROFILE and NEW_PROFILE");
	if (a->junit || a->strict)
		return roi_usage_error(cmd, "%s is for 'roi budget check'", a->junit ? "--junit" : "--strict");
	status = load_budgets(a, &bf, &d);
	/* each profile names its program, as for roi compare */
	if (status == 0 &&
	    (roi_session_load(&in_old, &(struct roi_session_args){a->old_program, a->pos[0], NULL, false}, &err) != 0 ||
	     roi_session_load(&in_new, &(struct roi_session_args){a->new_program, a->pos[1], NULL, false}, &err) != 0))
		status = roi_data_error(&err);
	if (status == 0) {
		have_old = true;
		if (roi_budget_evaluate(&old, &bf, &in_old, &opt, &d, &err) != 0)
			status = roi_data_error(&err);
	}
	if (status == 0) {
		have_new = true;
		if (roi_budget_evaluate(&new, &bf, &in_new, &opt, &d, &err) != 0)
			status = roi_data_error(&err);
	}
	/* a subject may come or go between builds, but not be in neither */
	for (size_t i = 0; status == 0 && i < bf.nbudgets; i++)
		if (!old.results[i].present && !new.results[i].present && old.results[i].missing)
			roi_diag(&d, bf.path, bf.budgets[i].line, bf.budgets[i].subject_col, "%s; %s",
				 old.results[i].missing, new.results[i].missing);
	if (status == 0 && d.n)
		status = print_diags(&d);
	if (status == 0) {
		if (a->json) {
			status = print_json(diff_json(&bf, &old, &new, a));
		} else {
			diff_text(stdout, &bf, &old, &new, a);
			status = roi_output_status();
		}
	}
	if (have_new)
		roi_budget_eval_free(&new);
	if (have_old)
		roi_budget_eval_free(&old);
	roi_session_free(&in_new);
	roi_session_free(&in_old);
	roi_budget_free(&bf);
	roi_diags_free(&d);
	return status;
}

int cmd_budget(int argc, char **argv)
{
	struct args a = {0};
	struct roi_option opts[] = {
		{.name = "budgets", .short_name = 'b', .value = &a.budgets},
		{.name = "model", .short_name = 'm', .value = &a.model},
		{.name = "junit", .value = &a.junit},
		{.name = "old-program", .value = &a.old_program},
		{.name = "new-program", .value = &a.new_program},
		{.name = "measured", .flag = &a.measured},
		{.name = "strict", .flag = &a.strict},
		{.name = "json", .flag = &a.json},
	};
	const char *pos[3];
	int npos, rc;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 3, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing a subcommand: check or diff");
	if (strcmp(pos[0], "check") != 0 && strcmp(pos[0], "diff") != 0)
		return roi_usage_error(argv[0], "unknown subcommand '%s': check or diff", pos[0]);
	if (!a.budgets)
		return roi_usage_error(argv[0], "missing --budgets FILE");
	if (npos > 3 || (strcmp(pos[0], "check") == 0 && (a.old_program || a.new_program)))
		return roi_usage_error(argv[0], "--old-program and --new-program are for 'roi budget diff'");
	a.npos = npos - 1;
	for (int i = 1; i < npos; i++)
		a.pos[i - 1] = pos[i];
	return strcmp(pos[0], "check") == 0 ? check(argv[0], &a) : diff(argv[0], &a);
}
