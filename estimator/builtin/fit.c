/* builtin/fit.c — "roi fit": how a program's cost grows with its input, from runs at several sizes
 * (docs/fit.md; the fit is growth/fit.h's). */
#include <stdio.h>
#include <stdlib.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "growth/fit.h"
#include "report/fit.h"

static const char usage[] =
	"usage: roi fit [--model FILE] [--json] [--region ID] [--at SIZES] [--max-error PCT]\n"
	"               [--write-profile FILE] [PROGRAM] SIZES:PROFILE SIZES:PROFILE...\n"
	"\n"
	"How the cost of a program grows with its input: each PROFILE is a run at the SIZES given\n"
	"before it (n=64, or n=64,m=8 for two size parameters), of PROGRAM, or without PROGRAM of the\n"
	"build its \"program\" line names (one build per size, for sizes fixed at compile time). The\n"
	"whole run's, every function's and every loop's calls, operations (and, with a cost model,\n"
	"cycles and energy) are fitted to the form that best predicts each size from the others: 1,\n"
	"log2(n), n, 2^n, n*log2(n), n^2, n^3, n+m, n*m, each with its lower terms (docs/fit.md).\n"
	"With --at, what each costs at SIZES, where its form predicted the sizes measured within\n"
	"--max-error. Exit status 3 when --at was given and the total (or --region's figures) could\n"
	"not be predicted, or --write-profile not written for that reason; 1 for bad input, 2 for a\n"
	"usage error, else 0.\n"
	"\n"
	"  -m, --model FILE        cost model (JSON, see models/README.md): cycles and energy too\n"
	"      --json              one JSON document on stdout (see docs/fit.md)\n"
	"  -r, --region ID         only that function or loop and the loops inside it: a function's\n"
	"                          name or a loop's FUNCTION:LINE, as roi report names them\n"
	"      --at SIZES          predict at these sizes (n=1000, or n=1000,m=64)\n"
	"      --max-error PCT     predict only from forms whose held-out error is at most PCT\n"
	"                          percent (default 2)\n"
	"      --write-profile FILE  with --at and one PROGRAM: every counter predicted at SIZES,\n"
	"                          written as a profile of one run (for roi budget check, roi report)\n"
	"  -h, --help              this help\n";

enum { EXIT_NOT_PREDICTED = 3 };

int cmd_fit(int argc, char **argv)
{
	const char *pos[ROI_FIT_MAXPOINTS + 1], *max_error = NULL, *why, *what;
	int npos, rc, status;
	bool json = false;
	char msg[4096];
	struct roi_err err;
	struct roi_fit f = {0};
	struct roi_option opts[] = {
		{.name = "model", .short_name = 'm', .value = &f.model_path},
		{.name = "json", .flag = &json},
		{.name = "region", .short_name = 'r', .value = &f.region},
		{.name = "at", .value = &f.at_spec},
		{.name = "max-error", .value = &max_error},
		{.name = "write-profile", .value = &f.write_profile},
	};

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, ROI_FIT_MAXPOINTS + 1, &npos, usage,
				&rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing SIZES:PROFILE");
	if (f.region && !*f.region)
		return roi_usage_error(argv[0], "--region needs a function name or FUNCTION:LINE");
	f.max_error = 0.02;
	if (max_error) {
		char *end;
		double v = strtod(max_error, &end);

		if (end == max_error || *end || !(v > 0 && v < 100))
			return roi_usage_error(argv[0], "--max-error takes a percentage above 0 and below 100, got '%s'",
					       max_error);
		f.max_error = v / 100;
	}
	if (f.write_profile && !f.at_spec)
		return roi_usage_error(argv[0], "--write-profile needs --at: the sizes to predict the counters at");
	/* PROGRAM, unless the first argument is a point: then each profile names its own */
	f.program_path = roi_fit_is_point(pos[0]) ? NULL : pos[0];
	if (roi_fit_points(&f, pos + !!f.program_path, npos - !!f.program_path, msg, sizeof msg) != 0) {
		status = roi_usage_error(argv[0], "%s", msg);
		goto out;
	}
	if (roi_fit_build(&f, &err) != 0) {
		status = roi_data_error(&err);
		goto out;
	}
	if (f.write_profile && !f.prog) {
		status = roi_usage_error(argv[0], "--write-profile needs one program for every profile; these name %zu "
					 "(give PROGRAM if they are runs of one build)", f.nprogs);
		goto out;
	}
	if (json)
		roi_json_print(roi_fit_json(&f));
	else
		roi_fit_text(stdout, &f);
	status = roi_output_status();
	if (status != ROI_EXIT_OK)
		goto out;
	if (f.has_at && !roi_fit_headline_predicted(&f, &why, &what))
		status = EXIT_NOT_PREDICTED;
	if (f.write_profile) {
		int w = roi_fit_write_profile(&f, &err);

		if (w != 0)
			roi_data_error(&err);
		if (w > 0 && status == ROI_EXIT_OK)
			status = EXIT_NOT_PREDICTED;
		if (w < 0)
			status = ROI_EXIT_DATA;
	}
out:
	roi_fit_free(&f);
	return status;
}
