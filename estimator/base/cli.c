/* base/cli.c — option parsing and messages shared by subcommands, see cli.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"

static const struct roi_option *find(const struct roi_option *opts, size_t n, const char *name, size_t len,
				     char short_name)
{
	for (size_t i = 0; i < n; i++)
		if (short_name ? opts[i].short_name == short_name
			       : strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	return NULL;
}

int roi_options(int argc, char **argv, const struct roi_option *opts, size_t nopts, const char **pos, int maxpos,
		int *npos, struct roi_err *err)
{
	bool only_pos = false;

	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *value = NULL;
		const struct roi_option *o;

		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (*npos >= maxpos)
				return roi_err_set(err, "unexpected argument '%s'", a);
			pos[(*npos)++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = true;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			return 1;
		if (strcmp(a, "--version") == 0)
			return 2;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			o = find(opts, nopts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
			if (!o)
				return roi_err_set(err, "unknown option '%.*s'", eq ? (int)(eq - a) : (int)strlen(a), a);
			if (eq && !o->value)
				return roi_err_set(err, "option '--%s' takes no value", o->name);
			value = eq ? eq + 1 : NULL;
		} else {
			o = a[2] == '\0' ? find(opts, nopts, NULL, 0, a[1]) : NULL;
			if (!o)
				return roi_err_set(err, "unknown option '%s'", a);
		}
		if (!o->value) {
			*o->flag = true;
			continue;
		}
		if (!value) {
			if (i + 1 >= argc)
				return roi_err_set(err, "option '--%s' needs a value", o->name);
			value = argv[++i];
		}
		*o->value = value;
	}
	return 0;
}

void roi_print_version(FILE *out)
{
	fprintf(out, "roi %s\n", ROI_VERSION);
}

int roi_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "roi %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'roi %s --help')\n", cmd);
	return ROI_EXIT_USAGE;
}

int roi_data_error(const struct roi_err *err)
{
	fprintf(stderr, "roi: %s\n", err->msg);
	return ROI_EXIT_DATA;
}

void roi_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("roi: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int roi_output_status(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return ROI_EXIT_OK;
	fprintf(stderr, "roi: cannot write the output\n");
	return ROI_EXIT_DATA;
}

int roi_command_options(int argc, char **argv, const struct roi_option *opts, size_t nopts, const char **pos,
			int maxpos, int *npos, const char *usage, int *status)
{
	struct roi_err err;
	int rc = roi_options(argc, argv, opts, nopts, pos, maxpos, npos, &err);

	if (rc == 1 || rc == 2) {
		if (rc == 1)
			fputs(usage, stdout);
		else
			roi_print_version(stdout);
		*status = ROI_EXIT_OK;
		return -1;
	}
	if (rc < 0) {
		*status = roi_usage_error(argv[0], "%s", err.msg);
		return -1;
	}
	return 0;
}
