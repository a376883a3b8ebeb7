/* builtin/transfer.c — "roi transfer": a firmware's profile from a host run of the same sources
 * (docs/transfer.md; transfer/transfer.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/counts.h"
#include "input/meta.h"
#include "input/session.h"
#include "run/common.h"
#include "transfer/transfer.h"

static const char usage[] =
	"usage: roi transfer [--output PROFILE] [--json] FIRMWARE PROGRAM [PROGRAM-PROFILE]\n"
	"\n"
	"Writes the profile FIRMWARE would have had if it had run like PROGRAM did: PROGRAM is another\n"
	"build of the same sources with the plugin (on the host, say, where it ran its tests), with its\n"
	"profile (default ./<basename of PROGRAM>.roi, else PROGRAM.roi). Every statement keeps its\n"
	"source location in both builds; FIRMWARE's block counts are the ones that evaluate each\n"
	"location as often as PROGRAM did and keep every block's flow (docs/transfer.md). Build both\n"
	"with -g, so that inlined copies keep apart, and PROGRAM best at -O0. 'roi estimate FIRMWARE'\n"
	"then prices the counts with the target's model.\n"
	"\n"
	"  -o, --output PROFILE   where to write the profile (default FIRMWARE.roi)\n"
	"      --json             one JSON document on stdout\n"
	"  -h, --help             this help\n";

/* What was matched and written: a line or two, or (json) one document. */
static void report(const char *firmware, const char *program, const char *profile, const char *out_path,
		   const struct roi_transfer_stats *st, bool json)
{
	if (json) {
		cJSON *doc = cJSON_CreateObject();

		cJSON_AddStringToObject(doc, "firmware", firmware);
		cJSON_AddStringToObject(doc, "program", program);
		cJSON_AddStringToObject(doc, "program_profile", profile);
		cJSON_AddStringToObject(doc, "profile", out_path);
		cJSON_AddNumberToObject(doc, "functions", (double)st->functions);
		cJSON_AddNumberToObject(doc, "locations", (double)st->locations);
		cJSON_AddNumberToObject(doc, "matched", (double)st->matched);
		cJSON_AddNumberToObject(doc, "value_counters", (double)st->values);
		cJSON_AddNumberToObject(doc, "value_counters_matched", (double)st->values_matched);
		cJSON_AddNumberToObject(doc, "disagree", (double)st->disagree);
		cJSON_AddNumberToObject(doc, "flow_off", (double)st->flow_off);
		cJSON_AddNumberToObject(doc, "long_shift_passes", (double)st->passes);
		roi_json_string_or_null(doc, "most", st->disagree ? st->worst : NULL);
		roi_json_print(doc);
		return;
	}
	printf("%s: counts of %zu function%s from %s (%s): %zu of %zu source locations matched", firmware,
	       st->functions, st->functions == 1 ? "" : "s", program, profile, st->matched, st->locations);
	if (st->values)
		printf(", %zu of %zu value counters", st->values_matched, st->values);
	printf("; profile %s\n", out_path);
	if (st->disagree)
		printf("%zu location%s evaluated more than 1 %% otherwise than in %s (the builds differ there); "
		       "most: %s\n", st->disagree, st->disagree == 1 ? "" : "s", program, st->worst);
	if (st->flow_off)
		printf("%zu block%s where the counts coming in and going out differ by more than 1 %% (no counts "
		       "fit every location there)\n", st->flow_off, st->flow_off == 1 ? "" : "s");
	if (st->passes)
		printf("%zu shift%s of a long (first: %s) counted on %s as a 64-bit routine's passes (n / 8 + n %% 8), "
		       "where the firmware's 32-bit long shifts by n bits: not transferred exactly; run the firmware, "
		       "or shift a type of one width on both\n", st->passes, st->passes == 1 ? "" : "s", st->passes_at,
		       program);
}

/* A unit compiled without -g: GCC dropped the scopes of its inlined copies, which "locs" needs. */
static void warn_no_debug(const struct roi_program *prog)
{
	for (size_t u = 0; u < prog->nunits; u++)
		if (!prog->units[u].debug)
			roi_warn("%s: %s was compiled without -g, so the copies of an inlined function are not told "
				 "apart and their evaluations mix (docs/transfer.md)", prog->path, prog->units[u].source);
}

int cmd_transfer(int argc, char **argv)
{
	const char *output = NULL, *pos[3];
	int npos = 0, status;
	bool json = false;
	const struct roi_option opts[] = {{"output", 'o', &output, NULL}, {.name = "json", .flag = &json}};

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof *opts, pos, 3, &npos, usage, &status) != 0)
		return status;
	if (npos < 2)
		return roi_usage_error(argv[0], "needs a FIRMWARE and a PROGRAM");

	struct roi_program to = {0};
	struct roi_session from = {0};
	struct roi_counts counts = {0};
	struct roi_transfer_stats st;
	struct roi_err err = {0};
	char *out_path = NULL;
	int rc = ROI_EXIT_DATA;

	if (output)
		out_path = strdup(output);
	else if ((out_path = malloc(strlen(pos[0]) + 5)))
		sprintf(out_path, "%s.roi", pos[0]);
	if (!out_path) {
		fputs("roi: out of memory\n", stderr);
		goto out;
	}
	if (roi_program_load(pos[0], &to, &err) != 0 ||
	    roi_session_load(&from, &(struct roi_session_args){pos[1], npos > 2 ? pos[2] : NULL, NULL, false, NULL},
			     &err) != 0) {
		rc = roi_data_error(&err);
		goto out;
	}
	warn_no_debug(&to);
	warn_no_debug(&from.prog);
	/* the output names the program whose run it carries over: a chain would name only the last */
	if (from.prof.transferred)
		roi_warn("%s: its counts were themselves transferred from %s's run, not measured; the new "
			 "profile names %s", from.profile_path, from.prof.transferred, pos[1]);
	if (roi_transfer(&to, &from.prog, &from.counts, &counts, &st, &err) != 0 ||
	    (!(counts.transferred = strdup(pos[1])) && roi_err_set(&err, "out of memory")) ||
	    roi_run_write_profile(out_path, pos[0], &to, &counts, &err) != 0) {
		rc = roi_data_error(&err);
		goto out;
	}
	report(pos[0], pos[1], from.profile_path, out_path, &st, json);
	rc = roi_output_status();       /* its report lost (a full disk): not a success */
out:
	roi_counts_free(&counts);
	roi_session_free(&from);
	roi_program_free(&to);
	free(out_path);
	return rc;
}
