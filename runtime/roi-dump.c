/* roi-dump.c — when and where the profile is written: roi_dump(), the exit writer, the output path. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "roi-internal.h"

void __roi_warn(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n = snprintf(line, sizeof line - 1, "roi: ");

	/* Formatted first and written by one call, so that lines of parallel processes do not mix. */
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof line - 1 - (size_t)n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	while (write(2, line, (size_t)n) < 0 && errno == EINTR)
		;
}

/* The executable's absolute path from /proc/self/exe rather than argv[0], which may be relative, a
 * symlink's name or changed by the program; argv[0] only where /proc is not mounted. A newline is
 * written '?': the path is one line of the profile, whatever the file system allows in names. */
void __roi_program_path(char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";     /* the executable was replaced while running */
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	size_t len = n > 0 ? (size_t)n : 0, cut = sizeof deleted - 1;

	if (len == 0) {
		const char *name = (const char *)getauxval(AT_EXECFN);    /* the path exec was given */
		snprintf(buf, size, "%s", name ? name : "");
		len = __roi_strlen(buf);
	}
	buf[len] = '\0';
	if (len > cut && __roi_same(buf + len - cut, deleted, cut))
		buf[len -= cut] = '\0';
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\n')
			buf[i] = '?';
}

/* $ROI_OUTPUT, else ./<program name>.roi, with exe the program's path. */
static int output_path(char *path, size_t size, const char *exe)
{
	const char *env = getenv("ROI_OUTPUT"), *name = exe;
	size_t n;

	if (env && *env) {
		n = __roi_strlen(env);
		if (n < size)
			__roi_copy(path, env);
	} else {
		for (const char *p = exe; *p; p++)
			if (*p == '/')
				name = p + 1;
		n = 2 + __roi_strlen(name) + 4;
		if (n < size)
			__roi_copy(__roi_copy(__roi_copy(path, "./"), name), ".roi");
	}
	if (n >= size) {
		__roi_warn("cannot write profile '%s%.200s...': %s", env && *env ? "" : "./", env && *env ? env : name,
			   strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

int roi_dump(void)
{
	char path[PATH_MAX], exe[PATH_MAX];
	struct roi_profile prof;
	int ret;

	if (__roi_registered_units() == 0 && !__roi_regions_ran())
		return 0;
	__roi_program_path(exe, sizeof exe);
	if (output_path(path, sizeof path, exe) != 0)
		return -1;
	__roi_regions_close_open();
	if (__roi_snapshot(&prof) != 0) {
		__roi_warn("cannot write profile '%s': %s", path, strerror(errno));
		return -1;
	}
	ret = __roi_profile_save(path, exe, &prof);
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
