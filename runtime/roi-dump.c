/* roi-dump.c — when and where the profile is written: roi_dump(), the exit writer, the output path. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* program_invocation_name */
#endif
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "roi-internal.h"

void __roi_warn(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	/* Formatted first and written by one call, so that lines of parallel processes do not mix. */
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "roi: %s\n", line);
}

/* The executable's absolute path from /proc/self/exe rather than argv[0], which may be relative, a
 * symlink's name or changed by the program; argv[0] only where /proc is not mounted. */
void __roi_program_path(char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";     /* the executable was replaced while running */
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	size_t len = n > 0 ? (size_t)n : 0, cut = strlen(deleted);

	if (len == 0) {
		snprintf(buf, size, "%s", program_invocation_name);
		return;
	}
	buf[len] = '\0';
	if (len > cut && strcmp(buf + len - cut, deleted) == 0)
		buf[len - cut] = '\0';
}

/* $ROI_OUTPUT, else ./<program name>.roi. */
static int output_path(char *path, size_t size)
{
	const char *env = getenv("ROI_OUTPUT");
	char exe[PATH_MAX];
	int len;

	if (env && *env) {
		len = snprintf(path, size, "%s", env);
	} else {
		__roi_program_path(exe, sizeof exe);
		len = snprintf(path, size, "./%s.roi", strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe);
	}
	if (len < 0 || (size_t)len >= size) {
		__roi_warn("cannot write profile '%.200s...': %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

int roi_dump(void)
{
	char path[PATH_MAX];
	struct roi_profile prof;
	int ret;

	if (__roi_registered_units() == 0 && !__roi_regions_ran())
		return 0;
	if (output_path(path, sizeof path) != 0)
		return -1;
	__roi_regions_close_open();
	if (__roi_snapshot(&prof) != 0) {
		__roi_warn("cannot write profile '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = __roi_profile_save(path, &prof);
	__roi_profile_free(&prof);
	if (ret == 0)
		roi_reset();
	return ret;
}

void __roi_exit_writer(void)
{
	int saved = errno;

	roi_dump();
	errno = saved;
}
