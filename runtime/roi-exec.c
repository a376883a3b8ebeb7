/* roi-exec.c — fork and the exec family as counted code calls them: gcc-plugin/roi-exec.cc turns its
 * direct calls of NAME into calls of __roi_NAME, as GCC turns them into libgcov's __gcov_NAME for
 * -fprofile-arcs.
 *
 * exec replaces the process without running the exit writer: the wrappers write the profile first
 * with roi_dump(), which then zeroes the counters, so that after a failed exec the program goes on
 * counting from zero and nothing is counted twice. A forked child starts from zero, so that what the
 * parent counted before fork is in the profile once, written by the parent. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <unistd.h>

#include "roi-internal.h"

pid_t __roi_fork(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		__roi_threads_after_fork();
		roi_reset();
	}
	return pid;
}

int __roi_execv(const char *path, char *const argv[])
{
	roi_dump();
	return execv(path, argv);
}

int __roi_execvp(const char *file, char *const argv[])
{
	roi_dump();
	return execvp(file, argv);
}

int __roi_execve(const char *path, char *const argv[], char *const envp[])
{
	roi_dump();
	return execve(path, argv, envp);
}

int __roi_execvpe(const char *file, char *const argv[], char *const envp[])
{
	roi_dump();
	return execvpe(file, argv, envp);
}

int __roi_fexecve(int fd, char *const argv[], char *const envp[])
{
	roi_dump();
	return fexecve(fd, argv, envp);
}

/* How many arguments execl's list has from arg on, before the null pointer that ends it (arg may be
 * that one); -1 with errno past INT_MAX. */
static long count_args(const char *arg, va_list ap)
{
	long n = 0;

	for (; arg; arg = va_arg(ap, const char *))
		if (++n == INT_MAX) {
			errno = E2BIG;
			return -1;
		}
	return n;
}

int __roi_exec_list(const char *path, const char *arg, va_list *ap,
		    int (*exec_v)(const char *, char *const[]),
		    int (*exec_ve)(const char *, char *const[], char *const[]))
{
	va_list counting;
	long n;

	va_copy(counting, *ap);
	n = count_args(arg, counting);
	va_end(counting);
	if (n < 0)
		return -1;

	char *argv[n + 1], *const *envp = NULL;
	for (long i = 0; i < n; i++)
		argv[i] = (char *)(i ? va_arg(*ap, const char *) : arg);
	argv[n] = NULL;
	if (exec_ve) {
		if (n > 0)
			(void)va_arg(*ap, const char *);        /* the null pointer after the list */
		envp = va_arg(*ap, char *const *);
	}
	roi_dump();
	return exec_ve ? exec_ve(path, argv, envp) : exec_v(path, argv);
}

int __roi_execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = __roi_exec_list(path, arg, &ap, execv, NULL);
	va_end(ap);
	return ret;
}

int __roi_execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = __roi_exec_list(file, arg, &ap, execvp, NULL);
	va_end(ap);
	return ret;
}

int __roi_execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = __roi_exec_list(path, arg, &ap, NULL, execve);
	va_end(ap);
	return ret;
}
