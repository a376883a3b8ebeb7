/* fork-exec.c — a counted program whose child counts, then execs another program (t0120).
 *
 * Usage: fork-exec N HOW
 *   tick() runs once, then the program forks. The child runs tick() N times and execs true by
 *   HOW: execl, execlp, execle, execv, execvp, execve, execvpe or fexecve; "missing" execs a
 *   program that does not exist, and the child, back from the failed exec, runs tick() once
 *   more and exits. With "vfork" a vforked child execs true at once instead. The parent waits,
 *   runs tick() twice and exits with the child's exit status. */
#define _GNU_SOURCE             /* execvpe */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned ticks;

static void __attribute__((noinline)) tick(void)
{
	ticks++;
}

static void __attribute__((noinline)) run_true(const char *how)
{
	char *argv[] = {"true", NULL};

	if (!strcmp(how, "execl"))
		execl("/bin/true", "true", (char *)NULL);
	else if (!strcmp(how, "execlp"))
		execlp("true", "true", (char *)NULL);
	else if (!strcmp(how, "execle"))
		execle("/bin/true", "true", (char *)NULL, environ);
	else if (!strcmp(how, "execv"))
		execv("/bin/true", argv);
	else if (!strcmp(how, "execvp"))
		execvp("true", argv);
	else if (!strcmp(how, "execve"))
		execve("/bin/true", argv, environ);
	else if (!strcmp(how, "execvpe"))
		execvpe("true", argv, environ);
	else if (!strcmp(how, "fexecve"))
		fexecve(open("/bin/true", O_RDONLY | O_CLOEXEC), argv, environ);
	else
		execv("/nonexistent/true", argv);
}

/* Its own function: the child of vfork shares its parent's memory and must only exec. */
static pid_t __attribute__((noinline)) vforked(void)
{
	pid_t pid = vfork();

	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, status = 0;
	const char *how = argc > 2 ? argv[2] : "execv";
	pid_t pid;

	tick();
	if (!strcmp(how, "vfork")) {
		pid = vforked();
	} else if ((pid = fork()) == 0) {
		for (int i = 0; i < n; i++)
			tick();
		run_true(how);
		tick();
		exit(strcmp(how, "missing") ? 127 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 98;
	tick();
	tick();
	return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}
