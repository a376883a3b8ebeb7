/* builtin/estimate.c — "roi estimate": metadata + profile (+ model) -> counts, cycles, time, energy
 * (docs/estimate-json.md). */
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/session.h"
#include "machine/price.h"
#include "price/estimate.h"
#include "price/order.h"
#include "report/machine.h"
#include "report/report.h"

static const char usage[] =
	"usage: roi estimate [--model FILE] [--measured-profile FILE] [--json] [--sort KEY] [--top N] PROGRAM [PROFILE]\n"
	"       roi estimate --price machine --firmware PLAIN --block-lines BLOCKS [--model FILE] [--json]\n"
	"                    [--top N] PROGRAM [PROFILE]\n"
	"\n"
	"Joins the roi metadata in PROGRAM (an ELF compiled with -fplugin=roi) with the counts in\n"
	"PROFILE (default ./<basename of PROGRAM>.roi, else PROGRAM.roi) and lists the executed operations by type,\n"
	"function and line. With a cost model it adds cycles, time and energy; a profile taken on\n"
	"the host is mapped through the model's ABI when PROGRAM was not compiled for its arch.\n"
	"\n"
	"  -m, --model FILE   cost model (JSON, see models/README.md)\n"
	"      --measured-profile FILE  a measured profile of the firmware as it ships (roi run --measured):\n"
	"                     its cycles beside the estimates, labelled measured; without PROFILE and\n"
	"                     a default one, the counts of its blocks\n"
	"      --price HOW    ops: each operation at the model's cost (the default); machine: each counted\n"
	"                     block at the cycles of its instructions in the plain firmware\n"
	"      --firmware F   machine: the firmware as it ships, built without the plugin\n"
	"      --block-lines B  machine: the same sources built with -g -fplugin=roi\n"
	"                     -fplugin-arg-roi-block-lines (names each instruction's counted block)\n"
	"      --json         one JSON document on stdout (see docs/estimate-json.md)\n"
	"      --sort KEY     text: functions and lines by cycles, ops or line (file, then line)\n"
	"      --top N        text: only the N costliest functions and lines (by --sort, else by cost:\n"
	"                     cycles with a model, operations without)\n"
	"  -h, --help         this help\n";

int cmd_estimate(int argc, char **argv)
{
	const char *model_path = NULL, *pos[2], *sort_arg = NULL, *top_arg = NULL, *measured = NULL;
	const char *price = NULL, *firmware = NULL, *block_lines = NULL;
	bool json = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "model", .short_name = 'm', .value = &model_path},
		{.name = "json", .flag = &json},
		{.name = "sort", .value = &sort_arg},
		{.name = "top", .value = &top_arg},
		{.name = "measured-profile", .value = &measured},
		{.name = "price", .value = &price},
		{.name = "firmware", .value = &firmware},
		{.name = "block-lines", .value = &block_lines},
	};
	enum roi_sort sort;
	size_t top;
	char msg[256];
	struct roi_err err;
	struct roi_session s;
	struct roi_estimate est;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (json && (sort_arg || top_arg))
		return roi_usage_error(argv[0], "--%s is for the text output", sort_arg ? "sort" : "top");
	if (roi_order_options(sort_arg, top_arg, model_path != NULL, &sort, &top, msg, sizeof msg) != 0)
		return roi_usage_error(argv[0], "%s", msg);
	bool machine = price && strcmp(price, "machine") == 0;
	if (price && !machine && strcmp(price, "ops") != 0)
		return roi_usage_error(argv[0], "--price is ops or machine, not '%s'", price);
	if (machine && (!firmware || !block_lines))
		return roi_usage_error(argv[0], "--price machine needs --firmware and --block-lines");
	if (!machine && (firmware || block_lines))
		return roi_usage_error(argv[0], "--%s is for --price machine", firmware ? "firmware" : "block-lines");
	if (machine && sort_arg)
		return roi_usage_error(argv[0], "--sort is for --price ops");

	if (roi_session_load(&s, &(struct roi_session_args){pos[0], npos > 1 ? pos[1] : NULL, model_path, true, measured},
			     &err) != 0) {
		roi_data_error(&err);
		goto out;
	}
	struct roi_source src = {s.profile_path, s.counts.runs, s.counts.transferred, s.meas};
	if (machine) {
		struct roi_machine_estimate me;

		if (roi_machine_estimate(&me, &s.prog, &s.counts, s.m, firmware, block_lines, &err) != 0) {
			roi_data_error(&err);
			roi_machine_estimate_free(&me);
			goto out;
		}
		if (json)
			roi_json_print(roi_machine_json(&me, &src));
		else
			roi_machine_text(stdout, &me, &src, top);
		roi_machine_estimate_free(&me);
		status = roi_output_status();
		goto out;
	}
	if (roi_estimate_compute(&est, &s.prog, &s.counts, s.m, &err) != 0) {
		roi_data_error(&err);
		roi_estimate_free(&est);
		goto out;
	}
	roi_estimate_order(&est, sort);
	if (json)
		roi_json_print(roi_report_json(&est, &src));
	else
		roi_report_text(stdout, &est, &src, top);
	roi_estimate_free(&est);
	status = roi_output_status();
out:
	roi_session_free(&s);
	return status;
}
