/* builtin/report.c — "roi report": one run, every level, function → loop nest → line (docs/report.md;
 * the hierarchy is price/hier.h's, its outputs report/tree.h's and report/formats.h's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/json.h"
#include "budget/budget.h"
#include "budget/eval.h"
#include "builtin.h"
#include "input/session.h"
#include "price/estimate.h"
#include "price/hier.h"
#include "price/order.h"
#include "report/formats.h"
#include "report/report.h"
#include "report/tree.h"

static const char usage[] =
	"usage: roi report [--model FILE] [--measured-profile FILE] [--json | --format FORMAT | --html DIR [--budgets FILE]]\n"
	"                  [--region ID] [--suggest] [--sort KEY] [--top N] PROGRAM [PROFILE]\n"
	"\n"
	"The cost of PROGRAM level by level from one run: every function, its loop nest and its lines,\n"
	"with executed operations (and, with a cost model, cycles and energy), their share of the\n"
	"enclosing level (scope %) and of the whole program (total %). Where enter/exit hooks ran\n"
	"(-fplugin-arg-roi-filter=FILE, docs/regions.md), the measured time and calls are beside the\n"
	"estimate, with the hooks' own cost subtracted (net). PROFILE defaults as for roi estimate.\n"
	"\n"
	"  -m, --model FILE   cost model (JSON, see models/README.md)\n"
	"      --measured-profile FILE  a measured profile of the firmware as it ships (roi run --measured):\n"
	"                     exact cycles beside the estimates (text and JSON), labelled measured: a\n"
	"                     function's and a loop's inclusive, a line's with the calls made on it\n"
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
	const char *sort_arg = NULL, *top_arg = NULL, *budgets = NULL, *measured = NULL;
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
		{.name = "measured-profile", .value = &measured},
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
	if (measured && (format || html))
		return roi_usage_error(argv[0], "--measured-profile is shown by the text and JSON outputs");
	if (budgets && !html)
		return roi_usage_error(argv[0], "--budgets goes with --html (roi budget check checks budgets)");
	if ((format || html) && (region || suggest))
		return roi_usage_error(argv[0], "--%s is for the text and JSON outputs; --%s covers the whole program",
				       region ? "region" : "suggest", format ? "format" : "html");
	if ((sort_arg || top_arg) && (json || format || html || suggest))
		return roi_usage_error(argv[0], "--%s is for the text output", sort_arg ? "sort" : "top");
	if (roi_order_options(sort_arg, top_arg, model_path != NULL, &sort, &top, msg, sizeof msg) != 0)
		return roi_usage_error(argv[0], "%s", msg);
	if (roi_session_load(&s, &(struct roi_session_args){pos[0], npos > 1 ? pos[1] : NULL, model_path, true, measured},
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
	struct roi_tree_report r = {&h, &s.counts, s.counts.time_unit ? s.counts.time_unit : "ns", h.nmeasured > 0, top,
				    s.meas};
	struct roi_source src = {s.profile_path, s.counts.runs, s.counts.transferred, s.meas};
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
		cJSON *sj = roi_suggest_json(&h, target, sug, nsug, why);

		roi_json_print(roi_tree_json(&r, &src, focus, nfocus, region, sj));
	} else if (suggest) {
		roi_suggest_text(stdout, &r, target, sug, nsug, why);
	} else {
		roi_tree_text(stdout, &r, &src, focus, nfocus, region);
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
