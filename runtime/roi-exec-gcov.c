/* roi-exec-gcov.c — roi-exec.c's wrappers for a unit also built with -fprofile-arcs (--coverage, as
 * roi gcov-check wants it). There GCC would call libgcov's wrappers of fork and exec, which write
 * gcov's counters before exec and zero them in a forked child; the plugin calls these instead, which
 * do roi's part and then call libgcov's, so that neither tool loses counts. A file of its own: only
 * such a program links it, and it links libgcov anyway. */
#include <stdarg.h>
#include <unistd.h>

#include "roi-internal.h"

/* libgcov's (libgcc/libgcov-interface.c), which GCC declares only to itself. */
pid_t __gcov_fork(void);
int __gcov_execv(const char *path, char *const argv[]);
int __gcov_execvp(const char *file, char *const argv[]);
int __gcov_execve(const char *path, char *const argv[], char *const envp[]);

pid_t __roi_gcov_fork(void)
{
	pid_t pid = __gcov_fork();

	if (pid == 0)
		roi_reset();
	return pid;
}

int __roi_gcov_execv(const char *path, char *const argv[])
{
	roi_dump();
	return __gcov_execv(path, argv);
}

int __roi_gcov_execvp(const char *file, char *const argv[])
{
	roi_dump();
	return __gcov_execvp(file, argv);
}

int __roi_gcov_execve(const char *path, char *const argv[], char *const envp[])
{
	roi_dump();
	return __gcov_execve(path, argv, envp);
}

int __roi_gcov_execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = __roi_exec_list(path, arg, &ap, __gcov_execv, NULL);
	va_end(ap);
	return ret;
}

int __roi_gcov_execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = __roi_exec_list(file, arg, &ap, __gcov_execvp, NULL);
	va_end(ap);
	return ret;
}

int __roi_gcov_execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = __roi_exec_list(path, arg, &ap, NULL, __gcov_execve);
	va_end(ap);
	return ret;
}
