/* builtin/budget.c — "roi budget check" and "roi budget diff" (docs/budgets.md): a budget file's
 * limits against one run, as a test suite for CI (text, JSON, JUnit XML), and how the figures
 * moved between two builds (budget/; the outputs are report/budget.h's). */
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "base/json.h"
#include "budget/budget.h"
#include "budget/eval.h"
#include "builtin.h"
#include "input/session.h"
#include "report/budget.h"
#include "report/budget_junit.h"

static const char usage[] =
	"usage: roi budget check --budgets FILE [--model FILE] [--measured] [--measured-profile FILE] [--strict]\n"
	"                        [--json] [--junit XML] PROGRAM [PROFILE]\n"
	"       roi budget diff --budgets FILE [--model FILE] [--measured] [--json] [--old-program ELF]\n"
	"                       [--new-program ELF] OLD_PROFILE NEW_PROFILE\n"
	"\n"
	"check: every budget of FILE (one limit per line on the cycles, time, energy or operations of\n"
	"the whole run, a function or a loop, or on the stack and the RAM margin; docs/budgets.md)\n"
	"against the run of PROGRAM in PROFILE (default as for roi estimate; none needed when every\n"
	"budget is a stack or ram-margin one, which roi stack reads from PROGRAM): one line each with\n"
	"the estimate, the limit, the margin left and PASS, WARN or FAIL. Exit status 3 when a budget\n"
	"failed (or, with --strict, warned), 1 when the check could not run (a mistake in FILE, a\n"
	"subject not in PROGRAM, bad input), 2 for a usage error, else 0.\n"
	"diff: each budget's figure in two runs (two builds: a merge request against its base), which\n"
	"moved and by how much. Each profile's program is the one its \"program\" line names unless\n"
	"--old-program/--new-program say otherwise.\n"
	"\n"
	"  -b, --budgets FILE    the budget file\n"
	"  -m, --model FILE      cost model for budgets that name none (models/README.md)\n"
	"      --measured        where hooks measured a budget's function or loop, check that figure\n"
	"                        (simavr: exact cycles) and show the estimate beside it\n"
	"      --measured-profile FILE\n"
	"                        check: the figures of a measured profile (roi run --measured: the firmware\n"
	"                        as it ships, exact cycles) beside the estimates; with --measured they decide;\n"
	"                        stack and ram-margin budgets check its stack figures, the static beside\n"
	"      --strict          check: a WARN fails the check too\n"
	"      --json            one JSON document on stdout (see docs/budgets.md)\n"
	"      --junit XML       check: also write JUnit XML to XML, one test case per budget\n"
	"      --old-program ELF, --new-program ELF\n"
	"                        diff: the programs of OLD_PROFILE and NEW_PROFILE\n"
	"  -h, --help            this help\n";

enum { EXIT_BUDGET_FAILED = 3 };

struct args {
	const char *budgets, *model, *junit, *old_program, *new_program, *measured_profile;
	bool measured, strict, json;
	const char *pos[2];
	int npos;
};

static int print_diags(const struct roi_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "roi: %s\n", d->msg[i]);
	return ROI_EXIT_DATA;
}

static int print_json(cJSON *doc)
{
	roi_json_print(doc);
	return roi_output_status();
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
	if (status == 0 && a->npos < 2 && roi_budget_file_static(&bf)) {
		/* stack and ram-margin budgets only: the program is all they read */
		in.program_path = a->pos[0];
		if (roi_program_load(a->pos[0], &in.prog, &err) != 0 ||
		    (a->measured_profile && (in.meas = &in.measured,
					     roi_measured_load(a->measured_profile, &in.measured, &err) != 0)))
			status = roi_data_error(&err);
	} else if (status == 0 &&
		   roi_session_load(&in, &(struct roi_session_args){a->pos[0], a->npos > 1 ? a->pos[1] : NULL, NULL,
								    false, a->measured_profile}, &err) != 0) {
		status = roi_data_error(&err);
	}
	if (status != 0) {
		/* (the outcome is printed) */
	} else if (status == 0 && roi_budget_evaluate(&ev, &bf, &in, &opt, &d, &err) != 0) {
		status = roi_data_error(&err);
		roi_budget_eval_free(&ev);
	} else if (status == 0) {
		if (d.n) {
			status = print_diags(&d);
		} else {
			if (a->json)
				status = print_json(roi_budget_check_json(&bf, &ev, a->measured, a->strict));
			else {
				roi_budget_check_text(stdout, &bf, &ev, a->measured, a->strict);
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
	if (a->junit || a->strict || a->measured_profile)
		return roi_usage_error(cmd, "%s is for 'roi budget check'", a->junit ? "--junit" : a->strict ? "--strict"
				       : "--measured-profile");
	status = load_budgets(a, &bf, &d);
	/* each profile names its program, as for roi compare */
	if (status == 0 &&
	    (roi_session_load(&in_old, &(struct roi_session_args){a->old_program, a->pos[0], NULL, false, NULL}, &err) != 0 ||
	     roi_session_load(&in_new, &(struct roi_session_args){a->new_program, a->pos[1], NULL, false, NULL}, &err) != 0))
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
			status = print_json(roi_budget_diff_json(&bf, &old, &new, a->measured));
		} else {
			roi_budget_diff_text(stdout, &bf, &old, &new, a->measured);
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
		{.name = "measured-profile", .value = &a.measured_profile},
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
