/* builtin/estimate.c — "roi estimate": metadata + profile (+ model) -> counts, cycles, time, energy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/checks.h"
#include "base/cli.h"
#include "builtin.h"
#include "input/counts.h"
#include "price/estimate.h"
#include "input/model.h"
#include "price/order.h"
#include "input/profile.h"
#include "report/report.h"

static const char usage[] =
	"usage: roi estimate [--model FILE] [--json] [--sort KEY] [--top N] PROGRAM [PROFILE]\n"
	"\n"
	"Joins the roi metadata in PROGRAM (an ELF compiled with -fplugin=roi) with the counts in\n"
	"PROFILE (default ./<basename of PROGRAM>.roi, else PROGRAM.roi) and lists the executed operations by type,\n"
	"function and line. With a cost model it adds cycles, time and energy; a profile taken on\n"
	"the host is mapped through the model's ABI when PROGRAM was not compiled for its arch.\n"
	"\n"
	"  -m, --model FILE   cost model (JSON, see models/README.md)\n"
	"      --json         one JSON document on stdout (see docs/estimate-json.md)\n"
	"      --sort KEY     text: functions and lines by cycles, ops or line (file, then line)\n"
	"      --top N        text: only the N costliest functions and lines (by --sort, else by cost:\n"
	"                     cycles with a model, operations without)\n"
	"  -h, --help         this help\n";

int cmd_estimate(int argc, char **argv)
{
	const char *model_path = NULL, *pos[2], *profile_path, *sort_arg = NULL, *top_arg = NULL;
	bool json = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "model", .short_name = 'm', .value = &model_path},
		{.name = "json", .flag = &json},
		{.name = "sort", .value = &sort_arg},
		{.name = "top", .value = &top_arg},
	};
	enum roi_sort sort;
	size_t top;
	char msg[256];
	struct roi_err err;
	struct roi_program prog = {0};
	struct roi_profile prof = {0};
	struct roi_model model = {0};
	struct roi_counts counts = {0};
	struct roi_estimate est;
	char *def = NULL;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (json && (sort_arg || top_arg))
		return roi_usage_error(argv[0], "--%s is for the text output", sort_arg ? "sort" : "top");
	if (roi_order_options(sort_arg, top_arg, model_path != NULL, &sort, &top, msg, sizeof msg) != 0)
		return roi_usage_error(argv[0], "%s", msg);
	profile_path = npos > 1 ? pos[1] : NULL;
	if (!profile_path) {
		def = roi_default_profile(pos[0]);
		if (!def)
			return ROI_EXIT_DATA;
		profile_path = def;
	}

	if (roi_program_load(pos[0], &prog, &err) != 0 || roi_profile_load(profile_path, &prof, &err) != 0 ||
	    roi_counts_join(&counts, &prog, &prof, &err) != 0 ||
	    (model_path && roi_model_load(model_path, &model, &err) != 0)) {
		roi_data_error(&err);
		goto out;
	}
	roi_check_inputs(&prog, &counts, profile_path, model_path ? &model : NULL);

	struct roi_source src = {profile_path, counts.runs, counts.transferred};
	if (roi_estimate_compute(&est, &prog, &counts, model_path ? &model : NULL, &err) != 0) {
		roi_data_error(&err);
		roi_estimate_free(&est);
		goto out;
	}
	roi_estimate_order(&est, sort);
	if (json) {
		cJSON *doc = roi_report_json(&est, &src);
		char *text = cJSON_Print(doc);

		if (text)
			puts(text);
		free(text);
		cJSON_Delete(doc);
	} else {
		roi_report_text(stdout, &est, &src, top);
	}
	roi_estimate_free(&est);
	status = fflush(stdout) == 0 && !ferror(stdout) ? ROI_EXIT_OK : ROI_EXIT_DATA;
	if (status != ROI_EXIT_OK)
		fprintf(stderr, "roi: cannot write the output\n");
out:
	roi_counts_free(&counts);
	roi_model_free(&model);
	roi_profile_free(&prof);
	roi_program_free(&prog);
	free(def);
	return status;
}
