/* builtin/ops.c — "roi ops": the static view of a program's metadata, per function and line. */
#include <stdio.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/meta.h"
#include "report/ops.h"

static const char usage[] =
	"usage: roi ops [--json] PROGRAM\n"
	"       roi ops --size [--baseline PLAIN] PROGRAM\n"
	"\n"
	"Lists, from PROGRAM's roi metadata alone, every function (name, file:line, blocks) and the\n"
	"operations of each of its source lines: \"file:line  kind type ctype [detail]  xN\", where N\n"
	"is how many times the line's blocks perform the operation when each runs once.\n"
	"\n"
	"With --size it tells what counting costs the program instead: the RAM of its counter arrays\n"
	"(exact, from the symbol table) and, given --baseline PLAIN (the same sources built without\n"
	"the plugin), the code bytes the counter increments added.\n"
	"\n"
	"      --json            one JSON document on stdout\n"
	"      --size            counter RAM and added code bytes\n"
	"      --baseline PLAIN  the program built without the plugin, for --size\n"
	"  -h, --help            this help\n";

int cmd_ops(int argc, char **argv)
{
	const char *pos[1], *baseline = NULL;
	bool json = false, size = false;
	int npos, rc, status;
	struct roi_option opts[] = {
		{.name = "json", .flag = &json},
		{.name = "size", .flag = &size},
		{.name = "baseline", .value = &baseline},
	};
	struct roi_err err;
	struct roi_program prog;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 1, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (roi_program_load(pos[0], &prog, &err) != 0) {
		roi_program_free(&prog);
		return roi_data_error(&err);
	}
	if (baseline && !size) {
		roi_program_free(&prog);
		return roi_usage_error(argv[0], "--baseline goes with --size");
	}
	if (size) {
		if (roi_ops_size(stdout, &prog, baseline, &err) != 0) {
			roi_program_free(&prog);
			return roi_data_error(&err);
		}
	} else if (json) {
		roi_json_print(roi_ops_json(&prog));
	} else {
		roi_ops_text(stdout, &prog);
	}
	status = roi_output_status();
	roi_program_free(&prog);
	return status;
}
