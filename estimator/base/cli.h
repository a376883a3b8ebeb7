/* base/cli.h — what every command shares: option parsing, exit statuses, how problems are printed. */
#ifndef ROI_CLI_H
#define ROI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

enum { ROI_EXIT_OK = 0, ROI_EXIT_DATA = 1, ROI_EXIT_USAGE = 2 };

struct roi_option {
	const char *name;       /* long name without "--" */
	char short_name;        /* 0 when none */
	const char **value;     /* non-NULL: the option takes a value ("--model F", "--model=F", "-m F") */
	bool *flag;             /* otherwise: set to true */
};

/* Parses argv[1..argc-1] (argv[0] is the command's name). Options may come anywhere before "--";
 * other arguments go to pos[], at most maxpos of them. Returns 0; 1 when -h/--help was given, 2
 * for --version; -1 with a one-line message ("unknown option '--x'", "unexpected argument 'y'") otherwise. */
int roi_options(int argc, char **argv, const struct roi_option *opts, size_t nopts, const char **pos, int maxpos,
		int *npos, struct roi_err *err);

/* roi_options and what every command does with its outcome: -h/--help prints usage, --version
 * the version (exit status ROI_EXIT_OK), a bad option is a usage error (ROI_EXIT_USAGE). Returns 0 when the command
 * goes on, -1 when it should return *status. */
int roi_command_options(int argc, char **argv, const struct roi_option *opts, size_t nopts, const char **pos,
			int maxpos, int *npos, const char *usage, int *status);

/* "roi VERSION" (the VERSION file of the tree it was built from). */
void roi_print_version(FILE *out);
/* "roi CMD: MSG (see 'roi CMD --help')" on stderr; returns ROI_EXIT_USAGE. */
int roi_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "roi: MSG" on stderr; returns ROI_EXIT_DATA. */
int roi_data_error(const struct roi_err *err);
/* "roi: warning: MSG" on stderr. */
void roi_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How a command that has written its output ends: ROI_EXIT_OK, or, when stdout could not be
 * written, "roi: cannot write the output" on stderr and ROI_EXIT_DATA. */
int roi_output_status(void);

#endif
