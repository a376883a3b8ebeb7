/* builtin/gcov-check.c — "roi gcov-check": roi's counts against gcov's (docs/gcov-check.md; the
 * comparison is gcov/check.h's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "builtin.h"
#include "gcov/check.h"
#include "input/session.h"

static const char usage[] =
	"usage: roi gcov-check [--profile FILE] [--gcda-dir DIR] [--gcov CMD] [-v] PROGRAM\n"
	"\n"
	"Cross-checks roi against gcov for PROGRAM, built with both --coverage and -fplugin=roi and\n"
	"run: every function's entry count must equal gcov's execution count and, for units compiled\n"
	"at -O0, every source line's count (computed from roi's block counts as gcov computes it)\n"
	"must equal gcov's. Prints one line per disagreement, notes for what cannot be compared, and a\n"
	"summary; exits 1 when anything disagrees. See docs/gcov-check.md.\n"
	"\n"
	"  -p, --profile FILE   roi profile (default ./<basename of PROGRAM>.roi)\n"
	"      --gcda-dir DIR   where the .gcda files are (default: PROGRAM's directory, then the\n"
	"                       current directory, then where PROGRAM writes them)\n"
	"      --gcov CMD       the gcov of the compiler that built PROGRAM (default gcov)\n"
	"  -v, --verbose        also list what agrees, and the .gcda files read\n"
	"  -h, --help           this help\n";

int cmd_gcov_check(int argc, char **argv)
{
	const char *profile_path = NULL, *gcda_dir = NULL, *gcov = "gcov", *pos[1];
	bool verbose = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "profile", .short_name = 'p', .value = &profile_path},
		{.name = "gcda-dir", .value = &gcda_dir},
		{.name = "gcov", .value = &gcov},
		{.name = "verbose", .short_name = 'v', .flag = &verbose},
	};
	struct roi_err err;
	struct roi_session s;
	struct roi_gcov_check c = {0};
	char *missing = NULL;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 1, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (!*gcov)
		return roi_usage_error(argv[0], "--gcov needs a command");
	c.prog = &s.prog;
	c.counts = &s.counts;
	c.gcov = gcov;
	c.verbose = verbose;

	if (roi_session_load(&s, &(struct roi_session_args){pos[0], profile_path, NULL, false, NULL}, &err) != 0 ||
	    roi_gcov_load_inline_sites(&c, &err) != 0 || roi_gcov_find_gcda(&c, pos[0], gcda_dir, &missing, &err) < 0) {
		roi_data_error(&err);
		goto out;
	}
	if (s.counts.nmissing)
		roi_warn("%s: no counts for %zu of %zu functions of %s; they count as never run", s.profile_path,
			 s.counts.nmissing, s.prog.nfunctions, s.prog.path);
	for (size_t d = 0; d < c.ngcda; d++) {
		char *text = NULL;

		if (verbose)
			printf("note: reading %s\n", c.gcda[d].path);
		if (roi_gcov_run(&c, c.gcda[d].path, &text, &err) != 0) {
			roi_data_error(&err);
			goto out;
		}
		rc = roi_gcov_parse(&c, d, text, &err);
		free(text);
		if (rc != 0) {
			roi_data_error(&err);
			goto out;
		}
	}

	roi_gcov_match(&c);
	if (missing) {
		/* a unit's data is missing: what roi counts there cannot be checked */
		fputs(missing, stdout);
		for (const char *p = missing; (p = strchr(p, '\n')) != NULL; p++)
			c.ndisagree++;
	}
	roi_gcov_compare_functions(&c, stdout);
	roi_gcov_compare_lines(&c, stdout);
	printf("gcov-check: %zu function%s, %zu line%s compared, %zu disagreement%s\n", c.nfunctions,
	       c.nfunctions == 1 ? "" : "s", c.nlines, c.nlines == 1 ? "" : "s", c.ndisagree,
	       c.ndisagree == 1 ? "" : "s");
	if (roi_output_status() == ROI_EXIT_OK)
		status = c.ndisagree ? ROI_EXIT_DATA : ROI_EXIT_OK;
out:
	free(missing);
	roi_gcov_check_free(&c);
	roi_session_free(&s);
	return status;
}
