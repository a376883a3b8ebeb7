/* builtin/stack.c — "roi stack": will the stack fit? Every function's frame, the worst-case depth
 * from each root, the RAM left, and the call graph (docs/stack.md; stack/stack.h, report/stack.h). */
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/meta.h"
#include "input/session.h"
#include "price/estimate.h"
#include "price/hier.h"
#include "report/stack.h"
#include "stack/stack.h"

static const char usage[] =
	"usage: roi stack [--json | --format FORMAT] [--model FILE] [--measured-profile FILE] PROGRAM [PROFILE]\n"
	"\n"
	"Will the stack fit? Every function of PROGRAM with its frame (GCC's own figure for counted\n"
	"functions, the one -fstack-usage prints; read from the code for libgcc and the C library), the\n"
	"deepest the stack gets from it (its worst path of calls), and from each root: main and every\n"
	"interrupt handler; the worst case is main at its deepest with the deepest handler on top.\n"
	"Recursion, indirect calls and frames roi cannot tell make a depth a lower bound, and say so.\n"
	"For AVR and Cortex-M firmware, the RAM: .data, .bss (roi's counters) and the margin the stack\n"
	"leaves. No run is needed; with PROFILE (and a model), the dot graph's edges carry the calls\n"
	"(and the cycles, callees included) of that run.\n"
	"\n"
	"  -f, --format FORMAT  text (the default), json (--json), or dot: the call graph for graphviz\n"
	"      --json           one JSON document on stdout (see docs/stack.md)\n"
	"  -m, --model FILE     cost model, for the cycles on the dot graph's edges (needs PROFILE)\n"
	"      --measured-profile FILE\n"
	"                       a measured profile (roi run --target avr --measured): the stack each\n"
	"                       function and the run reached, beside the static figures (text, JSON);\n"
	"                       one above a complete static figure is a bug in roi, and says so\n"
	"  -h, --help           this help\n";

/* Loudly, on stderr: a measured figure above a complete static one is a bug in roi stack. */
static void warn_above(const struct roi_stack *s)
{
	const char *why = s->same_build ? "a bug in roi stack's static analysis (please report it)"
			  : "the measured build differs, or roi stack's static analysis is wrong";

	for (size_t i = 0; i < s->nfns; i++)
		if (s->fns[i].above)
			roi_warn("%s: %s: measured %llu bytes deep in %s, above its static depth of %lld: %s", s->path,
				 s->fns[i].name, (unsigned long long)s->fns[i].measured->depth, s->meas->path,
				 s->fns[i].depth, why);
	if (s->worst_above)
		roi_warn("%s: the run's stack reached %llu bytes in %s, above the static worst case of %lld: %s", s->path,
			 (unsigned long long)s->meas->stack.peak, s->meas->path, s->worst_depth, why);
}

int cmd_stack(int argc, char **argv)
{
	const char *model = NULL, *format = NULL, *pos[2], *measured = NULL;
	bool json = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "format", .short_name = 'f', .value = &format},
		{.name = "json", .flag = &json},
		{.name = "model", .short_name = 'm', .value = &model},
		{.name = "measured-profile", .value = &measured},
	};
	struct roi_measured meas = {0};
	struct roi_err err;
	struct roi_session in = {0};
	struct roi_program prog = {0};
	struct roi_estimate est = {0};
	struct roi_hier h = {0};
	struct roi_stack s = {0};
	bool have_est = false, have_session = false;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (format && strcmp(format, "text") != 0 && strcmp(format, "json") != 0 && strcmp(format, "dot") != 0)
		return roi_usage_error(argv[0], "--format takes text, json or dot, not '%s'", format);
	if (json && format && strcmp(format, "json") != 0)
		return roi_usage_error(argv[0], "one output at a time: --json or --format %s", format);
	if (format && strcmp(format, "json") == 0)
		json = true;
	bool dot = format && strcmp(format, "dot") == 0;
	if ((npos > 1 || model) && !dot)
		return roi_usage_error(argv[0], "%s is for the dot graph's edges (--format dot)",
				       npos > 1 ? "a PROFILE" : "--model");
	if (model && npos < 2)
		return roi_usage_error(argv[0], "--model prices a run: name its PROFILE");
	if (measured && dot)
		return roi_usage_error(argv[0], "--measured-profile is shown by the text and JSON outputs");

	const struct roi_program *p = &prog;
	if (npos > 1) {
		have_session = true;
		if (roi_session_load(&in, &(struct roi_session_args){.program = pos[0], .profile = pos[1], .model = model,
								      .check = true}, &err) != 0 ||
		    roi_estimate_compute(&est, &in.prog, &in.counts, in.m, &err) != 0 ||
		    (have_est = true, roi_hier_build(&h, &est, &err) != 0)) {
			roi_data_error(&err);
			goto out;
		}
		p = &in.prog;
	} else if (roi_program_load(pos[0], &prog, &err) != 0) {
		roi_data_error(&err);
		goto out;
	}
	if (roi_stack_build(&s, p, &err) != 0 ||
	    (measured && (roi_measured_load(measured, &meas, &err) != 0 || roi_stack_add_measured(&s, &meas, &err) != 0))) {
		roi_data_error(&err);
		goto out;
	}
	warn_above(&s);
	if (have_session)
		roi_stack_add_run(&s, &h);
	if (json)
		roi_json_print(roi_stack_json(&s));
	else if (dot)
		roi_stack_dot(stdout, &s);
	else
		roi_stack_text(stdout, &s);
	status = roi_output_status();
out:
	roi_stack_free(&s);
	roi_measured_free(&meas);
	if (have_session) {
		roi_hier_free(&h);
		if (have_est)
			roi_estimate_free(&est);
		roi_session_free(&in);
	} else {
		roi_program_free(&prog);
	}
	return status;
}
