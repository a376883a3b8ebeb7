/* run/qemu.c — a Cortex-M firmware run in QEMU, see qemu.h and docs/run.md.
 *
 * QEMU starts paused (-S) with two control sockets in a private directory: its gdbstub, through which
 * roi sets a breakpoint at _exit, continues, and reads the registers and the counter arrays at the
 * stop; and QMP, whose query-replay answers QEMU's instruction counter (-icount shift=0: exact,
 * also when an exception interrupts a translated block). Then the firmware finishes: its semihosting
 * exit ends QEMU. The firmware's semihosting output goes to roi's stdout and stderr. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "input/elffile.h"
#include "input/meta.h"
#include "run/common.h"
#include "run/gdb_remote.h"
#include "run/qemu.h"

#define QEMU "qemu-system-arm"

enum { GRACE_MS = 5000 }; /* for QEMU to end after the stop */

static long ms_left(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (t->tv_sec - now.tv_sec) * 1000 + (t->tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? ms : 0;
}

static void set_deadline(struct timespec *t, double seconds)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += (time_t)seconds;
	t->tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

static int timed_out(const struct roi_qemu_run *r, struct roi_err *err)
{
	return roi_err_set(err, "%s: no stop after %g s (--max-seconds); the firmware may loop forever", r->elf,
			   r->max_seconds);
}

/* roi_wait_fn for both sockets: the run's deadline bounds every wait. */
static int wait_readable(void *ctx, int fd, struct roi_err *err)
{
	struct roi_qemu_run *r = ctx;

	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int n = poll(&p, 1, r->max_seconds > 0 ? (int)ms_left(&r->deadline) : -1);

		if (n > 0)
			return 0;
		if (n == 0)
			return timed_out(r, err);
		if (errno != EINTR)
			return roi_err_set(err, "poll: %s", strerror(errno));
	}
}

/* ---- before QEMU: the ELF must be ARM firmware with roi metadata, _exit and counter arrays ---- */

/* Registers and counters are read as little-endian words; newlib firmware is commonly linked with
 * --gc-sections, which drops unused functions but not their metadata. */
static const struct roi_run_target arm_target = {
	.option = "cortex-m", .arch = "ARM", .machine = EM_ARM, .le32 = true, .unit_target = "arm",
	.gc_sections = true,
};

static int check_firmware(struct roi_qemu_run *r, struct roi_err *err)
{
	struct roi_elf *elf = NULL;
	struct roi_symbol sym;
	int rc = -1;

	if (r->plain ? roi_run_open_elf(r->elf, &arm_target, &elf, err) != 0
		     : roi_run_open(r->elf, &arm_target, &elf, &r->prog, err) != 0)
		goto out;
	if (roi_elf_symbol(elf, ROI_QEMU_STOP_SYMBOL, &sym, err) != 0) {
		if (!strstr(err->msg, "no symbol table"))
			roi_err_set(err, "%s: no symbol " ROI_QEMU_STOP_SYMBOL " to stop at (link with newlib's rdimon: see "
				    "contrib/cortex-m/)", r->elf);
		goto out;
	}
	r->stop_addr = sym.value & ~(uint64_t)1;
	if (r->plain) {
		rc = 0;         /* no counters to find: prog has no function */
		goto out;
	}
	r->ctr = calloc(r->prog.nfunctions, sizeof *r->ctr);
	if (!r->ctr) {
		roi_err_set(err, "out of memory");
		goto out;
	}
	rc = roi_run_find_counters(elf, &r->prog, &arm_target, r->ctr, err);
out:
	roi_elf_close(elf);
	return rc;
}

/* ---- the QEMU process ---- */

/* fork+exec rather than posix_spawn: the child asks to be killed when roi dies, so that no QEMU
 * outlives roi even when roi itself is killed. */
static int start_qemu(struct roi_qemu_run *r, struct roi_err *err)
{
	const char *tmp = getenv("TMPDIR");
	char gdb[128], qmp[128];
	int pipefd[2], e = 0;
	pid_t parent = getpid();

	if (!tmp || !*tmp || strlen(tmp) > 40) /* the socket paths must fit in sun_path */
		tmp = "/tmp";
	snprintf(r->dir, sizeof r->dir, "%s/roi-qemu-XXXXXX", tmp);
	if (!mkdtemp(r->dir)) {
		e = errno;
		r->dir[0] = '\0';
		return roi_err_set(err, "%s: %s", tmp, strerror(e));
	}
	snprintf(gdb, sizeof gdb, "unix:%s/gdb,server=on,wait=off", r->dir);
	snprintf(qmp, sizeof qmp, "unix:%s/qmp,server=on,wait=off", r->dir);
	const char *argv[] = {QEMU, "-M", r->machine, "-display", "none", "-serial", "none", "-monitor", "none",
			      "-parallel", "none", "-semihosting-config", "enable=on,target=native", "-icount",
			      "shift=0", "-kernel", r->elf, "-gdb", gdb, "-qmp", qmp, "-S", NULL};

	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return roi_err_set(err, "pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	r->pid = fork();
	if (r->pid == 0) {
		close(pipefd[0]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == parent)
			execvp(argv[0], (char **)argv);
		e = errno;
		ssize_t told = write(pipefd[1], &e, sizeof e); /* why, for the parent */
		_exit(told == sizeof e ? 127 : 126);
	}
	close(pipefd[1]);
	if (r->pid < 0) {
		close(pipefd[0]);
		return roi_err_set(err, "fork: %s", strerror(errno));
	}
	ssize_t n;
	while ((n = read(pipefd[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	if (n == sizeof e) {
		waitpid(r->pid, NULL, 0);
		r->pid = -1;
		return roi_err_set(err, QEMU ": %s%s", strerror(e),
				   e == ENOENT ? " (install Debian's qemu-system-arm)" : "");
	}
	return 0;
}

/* QEMU ended: true, with the message, when it did. */
static bool qemu_ended(struct roi_qemu_run *r, struct roi_err *err)
{
	int st;

	if (r->pid <= 0 || waitpid(r->pid, &st, WNOHANG) != r->pid)
		return false;
	r->pid = -1;
	if (WIFEXITED(st))
		roi_err_set(err, "%s: " QEMU " exited with status %d before the firmware ran (its message is above)",
			    r->elf, WEXITSTATUS(st));
	else
		roi_err_set(err, "%s: " QEMU " died of signal %d", r->elf, WTERMSIG(st));
	return true;
}

/* Ends QEMU: waits up to ms for it to exit by itself, then kills it. */
static void stop_qemu(struct roi_qemu_run *r, long ms)
{
	for (; r->pid > 0 && ms > 0; ms -= 10) {
		if (waitpid(r->pid, NULL, WNOHANG) == r->pid)
			r->pid = -1;
		else
			nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = -1;
	}
}

/* The socket files are only needed to connect. */
static void remove_dir(struct roi_qemu_run *r)
{
	char path[sizeof r->dir + 8];

	if (!r->dir[0])
		return;
	snprintf(path, sizeof path, "%s/gdb", r->dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/qmp", r->dir);
	unlink(path);
	rmdir(r->dir);
	r->dir[0] = '\0';
}

/* QEMU creates its sockets while it starts: retry until they accept. */
static int connect_socket(struct roi_qemu_run *r, const char *name, int *out, struct roi_err *err)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};

	snprintf(a.sun_path, sizeof a.sun_path, "%s/%s", r->dir, name);
	for (;;) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), e;

		if (fd < 0)
			return roi_err_set(err, "socket: %s", strerror(errno));
		if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
			*out = fd;
			return 0;
		}
		e = errno;
		close(fd);
		if (e != ENOENT && e != ECONNREFUSED)
			return roi_err_set(err, "%s: %s", a.sun_path, strerror(e));
		if (qemu_ended(r, err))
			return -1;
		if (r->max_seconds > 0 && ms_left(&r->deadline) == 0)
			return timed_out(r, err);
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
}

/* ---- QMP: one JSON object per line ---- */

/* The next message that is not an event. */
static cJSON *qmp_read(struct roi_qemu_run *r, struct roi_err *err)
{
	char line[4096];

	for (;;) {
		size_t n = 0;
		char c;

		do {
			ssize_t got;

			if (wait_readable(r, r->qmp_fd, err) != 0)
				return NULL;
			got = read(r->qmp_fd, &c, 1); /* few, short messages: byte by byte is enough */
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				roi_err_set(err, QEMU ": QMP: connection closed");
				return NULL;
			}
			if (n + 1 < sizeof line)
				line[n++] = c;
		} while (c != '\n');
		line[n] = '\0';
		cJSON *msg = cJSON_Parse(line);
		if (!msg) {
			roi_err_set(err, QEMU ": QMP: not JSON: %.100s", line);
			return NULL;
		}
		if (!cJSON_GetObjectItemCaseSensitive(msg, "event"))
			return msg;
		cJSON_Delete(msg);
	}
}

/* Runs a QMP command; its "return" value, or NULL with QEMU's error. Free the message: *msg. */
static const cJSON *qmp_execute(struct roi_qemu_run *r, const char *cmd, cJSON **msg, struct roi_err *err)
{
	char req[128];
	int n = snprintf(req, sizeof req, "{\"execute\": \"%s\"}\n", cmd);
	const cJSON *ret, *desc;

	if (send(r->qmp_fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
		roi_err_set(err, QEMU ": QMP: %s", strerror(errno));
		return NULL;
	}
	if (!(*msg = qmp_read(r, err)))
		return NULL;
	if ((ret = cJSON_GetObjectItemCaseSensitive(*msg, "return")))
		return ret;
	desc = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(*msg, "error"), "desc");
	roi_err_set(err, QEMU ": QMP %s: %s", cmd, cJSON_IsString(desc) ? desc->valuestring : "failed");
	return NULL;
}

/* Executed instructions from reset to now, from QEMU's icount (reported by query-replay also when
 * nothing is recorded). A failure only loses the count. */
static void read_icount(struct roi_qemu_run *r)
{
	struct roi_err err;
	cJSON *msg = NULL;
	const cJSON *ret = qmp_execute(r, "query-replay", &msg, &err), *n;

	n = cJSON_GetObjectItemCaseSensitive(ret, "icount");
	if (!ret)
		snprintf(r->no_instructions, sizeof r->no_instructions, "%.200s", err.msg);
	else if (!cJSON_IsNumber(n) || n->valuedouble < 0 || n->valuedouble >= 9007199254740992.0)
		snprintf(r->no_instructions, sizeof r->no_instructions, QEMU ": QMP query-replay: no usable icount");
	else
		r->instructions = (uint64_t)n->valuedouble;
	cJSON_Delete(msg);
}

/* ---- the run ---- */

/* A stop reply: 'T'/'S' stopped, 'W' exited, 'X' killed. */
static int expect_stop(struct roi_qemu_run *r, const char *reply, struct roi_err *err)
{
	unsigned v = (unsigned)strtoul(reply + 1, NULL, 16);

	if (reply[0] == 'T' || reply[0] == 'S')
		return 0;
	if (reply[0] == 'W')
		return roi_err_set(err, "%s: the firmware ended (status %u) without calling " ROI_QEMU_STOP_SYMBOL
				   ": no counters to read", r->elf, v);
	if (reply[0] == 'X')
		return roi_err_set(err, "%s: " QEMU " was killed by signal %u", r->elf, v);
	return roi_err_set(err, QEMU ": unexpected stop reply '%.20s'", reply);
}

/* Registers from a 'g' reply: r0..r15, 8 hex digits each, target byte order (little-endian). */
static uint32_t reg(const char *g, int n)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--) {
		char b[3] = {g[8 * n + 2 * i], g[8 * n + 2 * i + 1], 0};
		v = v << 8 | (uint32_t)strtoul(b, NULL, 16);
	}
	return v;
}

static int read_counters(struct roi_qemu_run *r, struct roi_gdb *g, struct roi_err *err)
{
	roi_counts_init(&r->counts, &r->prog);
	for (size_t i = 0; i < r->prog.nfunctions; i++) {
		struct roi_counter_array *c = &r->ctr[i];
		size_t size = c->fn->ncounters * c->bytes;
		unsigned char *mem;

		if (!c->linked)
			continue;
		if (!(mem = malloc(size)))
			return roi_err_set(err, "out of memory");
		if (roi_gdb_read_memory(g, c->addr, mem, size, err) != 0) {
			free(mem);
			return -1;
		}
		roi_run_decode(c, mem, &r->counts);
		free(mem);
	}
	return 0;
}

static int run_qemu(struct roi_qemu_run *r, struct roi_err *err)
{
	struct roi_gdb g;
	char reply[1024], req[64];
	cJSON *msg = NULL;

	if (start_qemu(r, err) != 0 || connect_socket(r, "qmp", &r->qmp_fd, err) != 0 ||
	    connect_socket(r, "gdb", &r->gdb_fd, err) != 0)
		return -1;
	remove_dir(r);
	/* the greeting, then leave capabilities negotiation mode */
	if (!(msg = qmp_read(r, err)))
		return -1;
	cJSON_Delete(msg);
	if (!qmp_execute(r, "qmp_capabilities", &msg, err)) {
		cJSON_Delete(msg);
		return -1;
	}
	cJSON_Delete(msg);

	roi_gdb_init(&g, r->gdb_fd, wait_readable, r, QEMU);
	snprintf(req, sizeof req, "Z0,%llx,2", (unsigned long long)r->stop_addr);
	if (roi_gdb_exchange(&g, "?", reply, sizeof reply, err) != 0 || expect_stop(r, reply, err) != 0 ||
	    roi_gdb_exchange(&g, req, reply, sizeof reply, err) != 0)
		return -1;
	if (strcmp(reply, "OK") != 0)
		return roi_err_set(err, QEMU ": cannot set a breakpoint at " ROI_QEMU_STOP_SYMBOL " (reply '%.20s')", reply);
	if (roi_gdb_exchange(&g, "c", reply, sizeof reply, err) != 0 || expect_stop(r, reply, err) != 0 ||
	    roi_gdb_exchange(&g, "g", reply, sizeof reply, err) != 0)
		return -1;
	if (strlen(reply) < 16 * 8 || strspn(reply, "0123456789abcdefABCDEF") < 16 * 8)
		return roi_err_set(err, QEMU ": registers: unexpected reply '%.20s'", reply);
	if (reg(reply, 15) != r->stop_addr)
		return roi_err_set(err, "%s: the firmware stopped at 0x%08x, not at " ROI_QEMU_STOP_SYMBOL, r->elf, reg(reply, 15));
	r->exit_status = (int32_t)reg(reply, 0);
	read_icount(r);
	if (read_counters(r, &g, err) != 0)
		return -1;

	/* Let the firmware finish: _exit's semihosting call ends QEMU, and the gdbstub says "W".
	 * The counters are read, so from here on every wait is bounded by the grace period alone,
	 * and nothing that goes wrong is an error. */
	struct roi_err ignored;

	snprintf(req, sizeof req, "z0,%llx,2", (unsigned long long)r->stop_addr);
	r->max_seconds = GRACE_MS / 1000.0;
	set_deadline(&r->deadline, r->max_seconds);
	if (roi_gdb_exchange(&g, req, reply, sizeof reply, &ignored) == 0 && roi_gdb_send(&g, "c", &ignored) == 0)
		roi_gdb_recv(&g, reply, sizeof reply, &ignored);
	stop_qemu(r, ms_left(&r->deadline));
	return 0;
}

/* The profile names the firmware by its absolute path: 'roi compare' loads it from there. */
static int write_profile(const struct roi_qemu_run *r, struct roi_err *err)
{
	char *program = realpath(r->elf, NULL);
	int rc;

	if (!program)
		return roi_err_set(err, "%s", strerror(errno));
	rc = roi_run_write_profile(r->output, program, &r->prog, &r->counts, err);
	free(program);
	return rc;
}

void roi_qemu_free(struct roi_qemu_run *r)
{
	if (r->gdb_fd >= 0)
		close(r->gdb_fd);
	if (r->qmp_fd >= 0)
		close(r->qmp_fd);
	stop_qemu(r, 0);
	remove_dir(r);
	free(r->ctr);
	roi_counts_free(&r->counts);
	roi_program_free(&r->prog);
}

void roi_qemu_init(struct roi_qemu_run *r)
{
	memset(r, 0, sizeof *r);
	r->machine = "mps2-an386";
	r->max_seconds = 60;
	r->pid = -1;
	r->gdb_fd = r->qmp_fd = -1;
}

int roi_qemu_run(struct roi_qemu_run *r, struct roi_err *err)
{
	if (r->max_seconds > 0)
		set_deadline(&r->deadline, r->max_seconds);
	if (check_firmware(r, err) != 0 || run_qemu(r, err) != 0 || (!r->plain && write_profile(r, err) != 0))
		return -1;
	return 0;
}
