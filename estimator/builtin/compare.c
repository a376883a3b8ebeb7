/* builtin/compare.c — "roi compare": two profiles of the same source side by side (docs/compare.md;
 * the matching is price/compare.h's). Each profile names the program it was taken from (its
 * "program" line), whose metadata says what was counted. */
#include <stdio.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/session.h"
#include "price/compare.h"
#include "price/estimate.h"
#include "report/compare.h"

static const char usage[] =
	"usage: roi compare [--program-a ELF] [--program-b ELF] [--json] PROFILE_A PROFILE_B\n"
	"\n"
	"Shows, per function and per operation, how often each ran in A and in B and the difference,\n"
	"e.g. a host run against a simavr run of the same source, or -O0 against -Os. Each profile's\n"
	"program is the one its \"program\" line names, unless --program-a/-b say otherwise.\n"
	"Operations are matched by kind, C type and detail (access, callee, source type), so a host\n"
	"'add i32 int' meets an AVR 'add i16 int'; functions by name and source file name.\n"
	"\n"
	"      --program-a ELF   the program of PROFILE_A\n"
	"      --program-b ELF   the program of PROFILE_B\n"
	"      --json            one JSON document on stdout\n"
	"  -h, --help            this help\n";

/* One side: a profile, its program, and what ran. */
struct side {
	struct roi_session in;
	struct roi_estimate est;
	bool computed;
};

static int load_side(struct side *s, const char *profile, const char *program, struct roi_err *err)
{
	if (roi_session_load(&s->in, &(struct roi_session_args){program, profile, NULL, false, NULL}, err) != 0)
		return -1;
	s->computed = true;
	return roi_estimate_compute(&s->est, &s->in.prog, &s->in.counts, NULL, err);
}

static void free_side(struct side *s)
{
	if (s->computed)
		roi_estimate_free(&s->est);
	roi_session_free(&s->in);
}

int cmd_compare(int argc, char **argv)
{
	const char *prog_a = NULL, *prog_b = NULL, *pos[2];
	bool json = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "program-a", .value = &prog_a},
		{.name = "program-b", .value = &prog_b},
		{.name = "json", .flag = &json},
	};
	struct roi_err err;
	struct side a = {0}, b = {0};
	struct roi_compare c = {0};

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 2)
		return roi_usage_error(argv[0], "need two profiles");

	if (load_side(&a, pos[0], prog_a, &err) != 0 || load_side(&b, pos[1], prog_b, &err) != 0) {
		roi_data_error(&err);
		goto out;
	}
	roi_compare(&c, &a.est, &b.est);
	if (json)
		roi_json_print(roi_compare_json(&a.est, &b.est, &c));
	else
		roi_compare_text(stdout, &a.est, &b.est, &c);
	status = roi_output_status();
out:
	roi_compare_free(&c);
	free_side(&a);
	free_side(&b);
	return status;
}
