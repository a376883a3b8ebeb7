/* main.c — git-like dispatch: "roi <command> [options]". Adding a command is one line in the
 * table below plus its builtin/NAME.c file; builtin.h says where the libraries are. */
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "builtin.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"ops", cmd_ops, "list the operations in a program's roi metadata, per function and line"},
	{"estimate", cmd_estimate, "count executed operations; with a cost model, cycles, time and energy"},
	{"report", cmd_report, "one run level by level: function, loop, line; estimates beside measured region times"},
	{"gcov-check", cmd_gcov_check, "compare function and line counts with gcov's, for a program built with --coverage"},
	{"compare", cmd_compare, "two profiles of the same source side by side (host vs target, -O0 vs -Os)"},
	{"run", cmd_run, "run a firmware in a simulator (--target avr: simavr) and write its profile"},
	{"transfer", cmd_transfer, "a firmware's profile from a run of another build of the same sources (host)"},
	{"budget", cmd_budget, "check cycle, time, energy and operation budgets (CI: JUnit XML); diff them across builds"},
	{"stack", cmd_stack, "will the stack fit: frames, worst-case depth from main and each interrupt, RAM margin; the call graph"},
	{"fit", cmd_fit, "how cost grows with the input: forms fitted to runs at several sizes, predicted at another"},
	{"calibrate", cmd_calibrate, "fit a cost model to simavr's exact cycle counts of a corpus of programs"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: roi <command> [options] [arguments]\n"
		"       roi <command> --help\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name) {
		usage(stderr);
		return ROI_EXIT_USAGE;
	}
	if (strcmp(name, "--version") == 0) {
		roi_print_version(stdout);
		return ROI_EXIT_OK;
	}
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || (strcmp(name, "help") == 0 && argc == 2)) {
		usage(stdout);
		return ROI_EXIT_OK;
	}
	if (strcmp(name, "help") == 0) {
		/* "roi help CMD" is "roi CMD --help" */
		name = argv[2];
		argv[1] = argv[2];
		argv[2] = "--help";
	}
	if (name[0] == '-') {
		fprintf(stderr, "roi: unknown option '%s' (see 'roi --help')\n", name);
		return ROI_EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "roi: unknown command '%s' (see 'roi --help')\n", name);
	return ROI_EXIT_USAGE;
}
