/* roi-profile-write.c — formatting a profile (docs/formats.md §3) and replacing the file atomically,
 * under a lock, after merging what the file already holds.
 *
 * The profile may lie in a directory that others can write to (a sticky /tmp), where any name can be
 * a symbolic link planted to make the program, perhaps run as root, write somewhere else. So the
 * directory is opened once and every name in it (the profile, its temporary, its .stale) is used
 * relative to it and never through a link: a link at the profile's name is refused, a link at the
 * other names is replaced by rename(), which does not follow it, and temporaries are created
 * O_EXCL. The only links followed are the stream names (stream_fd), which stand for this process's
 * own descriptors. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
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

/* The whole profile text, in a malloc'd buffer. */
static char *format(const struct roi_profile *prof, size_t *len)
{
	char exe[PATH_MAX], *text = NULL, *p;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	__roi_program_path(exe, sizeof exe);
	for (p = exe; (p = strchr(p, '\n')); )
		*p = '?';       /* one line per field, whatever the file system allows in names */
	__roi_pf_put_header(f, exe, prof->runs, NULL);
	if (prof->has_hook_cost)
		__roi_pf_put_hook_cost(f, prof->hook_cost, prof->hook_inside, "ns");
	for (size_t i = 0; i < prof->nfns; i++)
		__roi_pf_put_fn(f, &prof->fns[i].rec, prof->fns[i].counts);
	for (size_t i = 0; i < prof->nregions; i++)
		__roi_pf_put_region(f, &prof->regions[i], "ns");
	if (fflush(f) == 0)
		__roi_pf_put_end(f, prof->nfns, text, *len);
	int failed = ferror(f);
	if (fclose(f) != 0 || failed) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	return text;
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
			cap = cap ? (cap > bound / 2 ? bound + 1 : 2 * cap) : 4096;
			char *p = realloc(buf, cap);
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
	struct sigaction ignore = {.sa_handler = SIG_IGN};

	sigemptyset(&ignore.sa_mask);
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
static int write_into(const char *path, int fd, const struct roi_profile *prof)
{
	struct quiet_signals saved;
	size_t len;
	char *text = format(prof, &len);
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

	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	for (size_t i = 0; i < sizeof fd_dirs / sizeof fd_dirs[0]; i++) {
		size_t n = strlen(fd_dirs[i]);
		const char *p = path + n;
		long fd = 0;

		if (strncmp(path, fd_dirs[i], n) != 0 || !*p)
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
	if (fstat(fd, &now) != 0 || S_ISREG(now.st_mode) || S_ISDIR(now.st_mode)) {
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

/* Temporaries are named PROFILE.tmp.XXXXXX, the X six of these. */
static const char temp_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
#define TEMP_SUFFIX ".tmp.XXXXXX"

static int is_temp_name(const char *name, const char *base)
{
	size_t n = strlen(base), x = strlen(".tmp.");

	if (strncmp(name, base, n) != 0 || strncmp(name + n, ".tmp.", x) != 0)
		return 0;
	name += n + x;
	return strlen(name) == 6 && strspn(name, temp_chars) == 6;
}

/* A writer killed between creating its temporary and renaming it (SIGKILL) leaves the temporary
 * behind. Every writer holds the lock from creating its temporary until renaming it, so under the
 * lock every temporary of this profile is such a leftover: removed, if it is a regular file. */
static void remove_stale_temps(int dirfd, const char *base)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(dir)))
		if (is_temp_name(e->d_name, base) && fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			unlinkat(dirfd, e->d_name, 0);
	closedir(dir);
}

/* Creates name (ending in XXXXXX, filled in) in dirfd, a new file of its own. The name need not be
 * unpredictable: O_EXCL fails on anything already there, a link too, and another name is tried. */
static int create_temp(int dirfd, char *name)
{
	char *x = name + strlen(name) - 6;
	struct timespec ts;
	uint64_t r;
	int fd = -1;

	clock_gettime(CLOCK_REALTIME, &ts);
	r = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40;
	for (int tries = 0; tries < 100; tries++) {
		for (int i = 0; i < 6; i++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			x[i] = temp_chars[(r >> 33) % (sizeof temp_chars - 1)];
		}
		/* 0666 & ~umask: a profile is an ordinary file. */
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd;
}

/* Writes text to a new file tmp in dirfd ("PROFILE.tmp.XXXXXX", filled in). Returns 0, or -1 with
 * errno and no file left behind. */
static int write_temp(int dirfd, char *tmp, const char *text, size_t len)
{
	struct quiet_signals saved;
	int fd = create_temp(dirfd, tmp), err = 0;

	if (fd < 0)
		return -1;
	quiet_signals(&saved);
	if (write_all(fd, text, len) != 0 || fsync(fd) != 0)
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

/* Merges prof into the regular file (or no file) base in dirfd and replaces it, holding the lock. */
static int save_profile(const char *path, int dirfd, const char *base, struct roi_profile *prof)
{
	char tmp[PATH_MAX], stale[PATH_MAX], shown_stale[PATH_MAX + 8], why[256];
	char *old = NULL, *text = NULL;
	size_t oldlen = 0, len, bound = __roi_profile_bound(prof, __roi_regions_possible());
	enum roi_merge_result merged = ROI_MERGED;
	int oldfd = -1, ret = -1;
	struct stat st;

	if (snprintf(tmp, sizeof tmp, "%s" TEMP_SUFFIX, base) >= (int)sizeof tmp ||
	    snprintf(stale, sizeof stale, "%s.stale", base) >= (int)sizeof stale)
		return cannot_write(path, ENAMETOOLONG);
	snprintf(shown_stale, sizeof shown_stale, "%s.stale", path);
	/* The lock is the directory itself, held until it is closed: there is no lock file to leave
	 * behind. (A lock file could not be removed either: a late process would lock the unlinked file
	 * while the next one created a new one, and both would believe they held the lock.) */
	while (flock(dirfd, LOCK_EX) != 0)
		if (errno != EINTR)
			return cannot_write(path, errno);
	remove_stale_temps(dirfd, base);
	/* For writing, although it is only read: rename() would replace a read-only profile, and must
	 * refuse it as writing in place would. */
	oldfd = openat(dirfd, base, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (oldfd < 0 && errno != ENOENT) {
		errno == ELOOP ? refuse(path, is_link) : cannot_write(path, errno);
		goto out;
	}
	if (oldfd >= 0) {
		if (fstat(oldfd, &st) != 0 || !S_ISREG(st.st_mode)) {
			refuse(path, "it was replaced while the profile was written");
			goto out;
		}
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
	if (!(text = format(prof, &len)) || write_temp(dirfd, tmp, text, len) != 0) {
		cannot_write(path, errno);
		goto out;
	}
	if ((merged != ROI_MERGED && renameat(dirfd, base, dirfd, stale) != 0) ||
	    renameat(dirfd, tmp, dirfd, base) != 0) {
		cannot_write(path, errno);
		unlinkat(dirfd, tmp, 0);
		goto out;
	}
	if (merged != ROI_MERGED)
		__roi_warn("profile '%s' is %s (%s); kept it as '%s' and started a new one", path,
			   merged == ROI_CORRUPT ? "corrupt" : merged == ROI_FULL ? "full" : "from a different build",
			   why, shown_stale);
	ret = 0;
out:
	if (oldfd >= 0)
		close(oldfd);
	free(old);
	free(text);
	return ret;
}

int __roi_profile_save(const char *path, struct roi_profile *prof)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int fd = stream_fd(path), dirfd, ret;
	struct stat st;

	if (fd >= 0)
		return write_into(path, fd, prof);
	if (!*base)
		return cannot_write(path, EISDIR);
	snprintf(dir, sizeof dir, "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path), slash ? path : ".");
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return cannot_write(path, errno);
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0)
		ret = errno == ENOENT ? save_profile(path, dirfd, base, prof) : cannot_write(path, errno);
	else if (S_ISLNK(st.st_mode))
		ret = refuse(path, is_link);
	else if (S_ISDIR(st.st_mode))
		ret = cannot_write(path, EISDIR);
	else if (S_ISREG(st.st_mode))
		ret = save_profile(path, dirfd, base, prof);
	else if ((fd = open_special(path, dirfd, base, &st)) < 0)
		ret = -1;
	else {
		ret = write_into(path, fd, prof);
		close(fd);
	}
	close(dirfd);
	return ret;
}
