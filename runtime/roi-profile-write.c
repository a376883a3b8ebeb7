/* roi-profile-write.c — formatting a profile (docs/formats.md §3) and replacing the file atomically,
 * under a lock, after merging what the file already holds.
 *
 * The profile may lie in a directory that others can write to (a sticky /tmp), where any name can be
 * a symbolic link planted to make the program, perhaps run as root, write somewhere else. So the
 * directory is opened once and every name in it (the profile, its temporary, its .stale) is used
 * relative to it and never through a link: a link at the profile's name is refused, a link at the
 * other names is replaced by rename(), which does not follow it, and the temporary is created
 * O_EXCL. The only links followed are the stream names (stream_fd), which stand for this process's
 * own descriptors.
 *
 * This runs at the exit of every counted process, so it is kept cheap (docs/formats.md §3): no
 * stdio, few distinct C library functions (each costs a symbol lookup on its first call), no
 * directory listing, and no fsync unless ROI_FSYNC asks for one. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "roi-internal.h"

static int refuse(const char *path, const char *why)
{
	__roi_warn("cannot write profile '%s': %s", path, why);
	return -1;
}

static int cannot_write(const char *path, int err)
{
	return refuse(path, strerror(err));
}

static const char is_link[] = "it is a symbolic link";

/* The whole profile text, in a malloc'd buffer; room for bound bytes is taken at once. */
static char *format(const char *program, const struct roi_profile *prof, size_t bound, size_t *len)
{
	struct roi_pf_out o = {0};

	__roi_pf_reserve(&o, bound);
	__roi_pf_put_header(&o, program, prof->runs, NULL);
	if (prof->has_hook_cost)
		__roi_pf_put_hook_cost(&o, prof->hook_cost, prof->hook_inside, "ns");
	for (size_t i = 0; i < prof->nfns; i++)
		__roi_pf_put_fn(&o, &prof->fns[i].rec, prof->fns[i].counts);
	for (size_t i = 0; i < prof->nregions; i++)
		__roi_pf_put_region(&o, &prof->regions[i], "ns");
	__roi_pf_put_end(&o, prof->nfns);
	if (o.failed) {
		free(o.text);
		errno = ENOMEM;
		return NULL;
	}
	*len = o.len;
	return o.text;
}

/* Reads the open profile fd into a malloc'd buffer, but not more than bound bytes: a longer file is
 * no profile of this program (a 1 GB file at its name), and is not read further. Returns 1, 0 when
 * the file is longer than bound, or -1 with errno. */
static int read_bounded(int fd, const struct stat *st, size_t bound, char **text, size_t *len)
{
	size_t cap = 0;
	char *buf = NULL;
	int err = 0;

	if (bound == SIZE_MAX)
		bound--;
	if ((uint64_t)st->st_size > bound)
		return 0;
	for (*len = 0;;) {
		if (*len == cap) {
			if (cap > bound)
				break;          /* read bound + 1 bytes: too long */
			/* The size fstat gave, and one byte more to see the end; more only for a
			 * file that grows meanwhile (a writer that does not take the lock). */
			cap = cap ? (cap > bound / 2 ? bound + 1 : 2 * cap) : (size_t)st->st_size + 1;
			char *p = buf ? realloc(buf, cap) : malloc(cap);
			if (!p) {
				err = ENOMEM;
				break;
			}
			buf = p;
		}
		ssize_t n = read(fd, buf + *len, cap - *len);
		if (n > 0)
			*len += (size_t)n;
		else if (n == 0)
			break;
		else if (errno != EINTR) {
			err = errno;
			break;
		}
	}
	if (err || *len > bound) {
		free(buf);
		errno = err;
		return err ? -1 : 0;
	}
	*text = buf;
	return 1;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = ENOSPC;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* While the profile is written, over a file size limit a write must fail with EFBIG, not kill the
 * program with SIGXFSZ, and a pipe or FIFO whose reader went away must give EPIPE, not SIGPIPE: the
 * exit status stays the program's own. */
struct quiet_signals {
	struct sigaction xfsz, pipe;
};

static void quiet_signals(struct quiet_signals *saved)
{
	struct sigaction ignore = {.sa_handler = SIG_IGN};       /* and an empty sa_mask */

	sigaction(SIGXFSZ, &ignore, &saved->xfsz);
	sigaction(SIGPIPE, &ignore, &saved->pipe);
}

static void restore_signals(const struct quiet_signals *saved)
{
	sigaction(SIGXFSZ, &saved->xfsz, NULL);
	sigaction(SIGPIPE, &saved->pipe, NULL);
}

/* Writes the profile into fd as it is: a stream or a device, never renamed over (as root,
 * ROI_OUTPUT=/dev/null once turned /dev/null into a regular file for every process), nor merged. */
static int write_into(const char *path, int fd, const char *program, const struct roi_profile *prof)
{
	struct quiet_signals saved;
	size_t len;
	char *text = format(program, prof, 0, &len);
	int err = 0;

	if (!text)
		return cannot_write(path, errno);
	quiet_signals(&saved);
	if (write_all(fd, text, len) != 0)
		err = errno;
	restore_signals(&saved);
	free(text);
	return err ? cannot_write(path, err) : 0;
}

/* The descriptor a stream name stands for: /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N,
 * links the system makes to this process's own descriptors, written into at their own offset; or
 * -1 for any other name. */
static int stream_fd(const char *path)
{
	static const char *const fd_dirs[] = {"/dev/fd/", "/proc/self/fd/"};

	size_t len = __roi_strlen(path);

	if (len == 11 && __roi_same(path, "/dev/stdout", 11))
		return 1;
	if (len == 11 && __roi_same(path, "/dev/stderr", 11))
		return 2;
	for (size_t i = 0; i < sizeof fd_dirs / sizeof fd_dirs[0]; i++) {
		size_t n = __roi_strlen(fd_dirs[i]);
		const char *p = path + n;
		long fd = 0;

		if (len <= n || !__roi_same(path, fd_dirs[i], n))
			continue;
		for (; *p >= '0' && *p <= '9' && fd <= INT_MAX / 10; p++)
			fd = fd * 10 + (*p - '0');
		if (!*p && fd <= INT_MAX)
			return (int)fd;
	}
	return -1;
}

/* A device, FIFO or socket at the profile's name itself (ROI_OUTPUT=/dev/null, a FIFO): opened to
 * write the profile into it. A FIFO with no reader would block open() for writing until one came,
 * maybe forever: it is opened without blocking, and a reader started with the program is given a
 * second to open its end. Returns the descriptor, or -1 after printing one line. */
static int open_special(const char *path, int dirfd, const char *base, const struct stat *st)
{
	struct timespec pause = {0, 10000000};
	struct stat now;
	int fd, tries = 0;

	while ((fd = openat(dirfd, base, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)) < 0 &&
	       errno == ENXIO && S_ISFIFO(st->st_mode) && tries++ < 100)
		nanosleep(&pause, NULL);
	if (fd < 0)
		return errno == ELOOP ? refuse(path, is_link)
		     : errno == ENXIO && S_ISFIFO(st->st_mode) ? refuse(path, "no process has the FIFO open for reading")
		     : cannot_write(path, errno);
	/* A file put in its place since it was looked at would be written into, not replaced whole. */
	if (fstatat(fd, "", &now, AT_EMPTY_PATH) != 0 || S_ISREG(now.st_mode) || S_ISDIR(now.st_mode)) {
		close(fd);
		return refuse(path, "it was replaced while the profile was written");
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		int err = errno;
		close(fd);
		return cannot_write(path, err);
	}
	return fd;
}

/* The temporary is PROFILE.tmp, one name: every writer holds the lock from creating it until
 * renaming it, so under the lock anything at that name is what a writer killed in between
 * (SIGKILL) left behind, and no directory needs to be listed to find it. It is removed (a link
 * itself, never what it points to) and the temporary created anew, O_EXCL. Returns the
 * descriptor, or -1 with errno, and *in_the_way set when what is there cannot be removed (a
 * directory). */
static int create_temp(int dirfd, const char *name, bool *in_the_way)
{
	int fd = -1;

	*in_the_way = false;
	for (int tries = 0; tries < 2; tries++) {
		/* 0666 & ~umask: a profile is an ordinary file. */
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
		if (unlinkat(dirfd, name, 0) != 0) {
			*in_the_way = true;
			break;
		}
	}
	return fd;
}

/* ROI_FSYNC=1: the profile is on the disk before the program exits (see write_temp). */
static int want_fsync(void)
{
	const char *env = getenv("ROI_FSYNC");

	return env && *env && !(env[0] == '0' && !env[1]);
}

/* Writes text to the new file tmp in dirfd. Returns 0, or -1 with errno and no file left behind.
 *
 * The rename that follows makes the profile whole or absent, whatever happens to the process (a
 * kill, a full disk). What it does not cover without fsync is the machine stopping (power loss, a
 * kernel crash) before the kernel has written the data back, a few seconds: then the profile may
 * be the previous one, or empty or cut short, which the end line's count and CRC reject (the
 * runtime keeps such a file aside as .stale). fsync is what covers it, at 1 to 10 ms a process on
 * an ordinary disk, several seconds for a test suite of a thousand processes, which gcov does not
 * pay either; ROI_FSYNC=1 pays it, for the file and then for the directory's rename. */
static int write_temp(int dirfd, const char *tmp, const char *text, size_t len, int sync, bool *in_the_way)
{
	struct quiet_signals saved;
	int fd = create_temp(dirfd, tmp, in_the_way), err = 0;

	if (fd < 0)
		return -1;
	quiet_signals(&saved);
	if (write_all(fd, text, len) != 0 || (sync && fsync(fd) != 0))
		err = errno;
	if (close(fd) != 0 && !err)
		err = errno;
	restore_signals(&saved);
	if (err) {
		unlinkat(dirfd, tmp, 0);
		errno = err;
		return -1;
	}
	return 0;
}

/* dst = a followed by b; -1 when that does not fit. */
static int join(char *dst, size_t size, const char *a, const char *b)
{
	if (__roi_strlen(a) + __roi_strlen(b) >= size)
		return -1;
	__roi_copy(__roi_copy(dst, a), b);
	return 0;
}

/* Merges prof into the regular file (or no file) base in dirfd and replaces it, holding the lock. */
static int save_profile(const char *path, int dirfd, const char *base, const char *program,
			struct roi_profile *prof)
{
	char tmp[PATH_MAX], stale[PATH_MAX], why[256];
	char *old = NULL, *text = NULL;
	size_t oldlen = 0, len, bound;
	enum roi_merge_result merged = ROI_MERGED;
	int oldfd = -1, ret = -1, sync = want_fsync();
	bool in_the_way = false;
	struct stat st;

	if (join(tmp, sizeof tmp, base, ".tmp") != 0 || join(stale, sizeof stale, base, ".stale") != 0)
		return cannot_write(path, ENAMETOOLONG);
	/* The lock is the directory itself, held until it is closed: there is no lock file to leave
	 * behind. (A lock file could not be removed either: a late process would lock the unlinked file
	 * while the next one created a new one, and both would believe they held the lock.) */
	while (flock(dirfd, LOCK_EX) != 0)
		if (errno != EINTR)
			return cannot_write(path, errno);
	/* For writing, although it is only read: rename() would replace a read-only profile, and must
	 * refuse it as writing in place would. */
	oldfd = openat(dirfd, base, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (oldfd < 0 && errno != ENOENT) {
		errno == ELOOP ? refuse(path, is_link) : cannot_write(path, errno);
		goto out;
	}
	if (oldfd >= 0) {
		if (fstatat(oldfd, "", &st, AT_EMPTY_PATH) != 0 || !S_ISREG(st.st_mode)) {
			refuse(path, "it was replaced while the profile was written");
			goto out;
		}
		/* The regions the process could hold are counted (in every loaded object) only for a
		 * file longer than the ones it holds make possible. */
		bound = __roi_profile_bound(prof, prof->nregions);
		if ((uint64_t)st.st_size > bound)
			bound = __roi_profile_bound(prof, __roi_regions_possible());
		switch (read_bounded(oldfd, &st, bound, &old, &oldlen)) {
		case -1:
			__roi_warn("cannot read profile '%s': %s", path, strerror(errno));
			goto out;
		case 0:
			merged = ROI_CORRUPT;
			snprintf(why, sizeof why, "more than the %zu bytes a profile of this program can hold", bound);
			break;
		default:
			merged = __roi_profile_merge(old, oldlen, prof, why, sizeof why);
			if (merged == ROI_MERGE_FAILED) {
				cannot_write(path, errno);
				goto out;
			}
		}
	}
	if (!(text = format(program, prof, __roi_profile_bound(prof, prof->nregions), &len)) ||
	    write_temp(dirfd, tmp, text, len, sync, &in_the_way) != 0) {
		if (in_the_way)
			__roi_warn("cannot write profile '%s': '%s.tmp' is in the way (%s)", path, path, strerror(errno));
		else
			cannot_write(path, errno);
		goto out;
	}
	if ((merged != ROI_MERGED && renameat(dirfd, base, dirfd, stale) != 0) ||
	    renameat(dirfd, tmp, dirfd, base) != 0 || (sync && fsync(dirfd) != 0)) {
		cannot_write(path, errno);
		unlinkat(dirfd, tmp, 0);
		goto out;
	}
	if (merged != ROI_MERGED)
		__roi_warn("profile '%s' is %s (%s); kept it as '%s.stale' and started a new one", path,
			   merged == ROI_CORRUPT ? "corrupt" : merged == ROI_FULL ? "full" : "from a different build",
			   why, path);
	ret = 0;
out:
	if (oldfd >= 0)
		close(oldfd);
	free(old);
	free(text);
	return ret;
}

int __roi_profile_save(const char *path, const char *program, struct roi_profile *prof)
{
	char dir[PATH_MAX];
	const char *base = path;
	int fd = stream_fd(path), dirfd, ret;
	struct stat st;

	if (fd >= 0)
		return write_into(path, fd, program, prof);
	for (const char *p = path; *p; p++)
		if (*p == '/')
			base = p + 1;
	if (!*base)
		return cannot_write(path, EISDIR);
	/* The directory: "." for a bare name, "/" for one in the root, else what is before the last
	 * slash (shorter than path, which fits in PATH_MAX). */
	if (base == path) {
		dir[0] = '.';
		dir[1] = '\0';
	} else {
		size_t n = base - 1 == path ? 1 : (size_t)(base - 1 - path);
		if (n >= sizeof dir)
			return cannot_write(path, ENAMETOOLONG);
		for (size_t i = 0; i < n; i++)
			dir[i] = path[i];
		dir[n] = '\0';
	}
	dirfd = openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return cannot_write(path, errno);
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0)
		ret = errno == ENOENT ? save_profile(path, dirfd, base, program, prof) : cannot_write(path, errno);
	else if (S_ISLNK(st.st_mode))
		ret = refuse(path, is_link);
	else if (S_ISDIR(st.st_mode))
		ret = cannot_write(path, EISDIR);
	else if (S_ISREG(st.st_mode))
		ret = save_profile(path, dirfd, base, program, prof);
	else if ((fd = open_special(path, dirfd, base, &st)) < 0)
		ret = -1;
	else {
		ret = write_into(path, fd, program, prof);
		close(fd);
	}
	close(dirfd);
	return ret;
}
