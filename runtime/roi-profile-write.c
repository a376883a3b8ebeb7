/* roi-profile-write.c — formatting a profile (docs/formats.md §3) and replacing the file atomically,
 * under a lock, after merging what the file already holds. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "roi-internal.h"

static int cannot_write(const char *path, int err)
{
	__roi_warn("cannot write profile '%s': %s", path, strerror(err));
	return -1;
}

/* "NAME 12.34 ns": not with %f, which writes a decimal comma when the program set such a locale. */
static void put_ns(FILE *f, const char *name, double ns)
{
	uint64_t cents = (uint64_t)(ns * 100 + 0.5);

	fprintf(f, "%s %llu.%02u ns\n", name, (unsigned long long)(cents / 100), (unsigned)(cents % 100));
}

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
	fprintf(f, "roi-profile 1\nprogram %s\nruns %llu\n", exe, (unsigned long long)prof->runs);
	if (prof->has_hook_cost) {
		put_ns(f, "hook-cost", prof->hook_cost);
		put_ns(f, "hook-inside", prof->hook_inside);
	}
	for (size_t i = 0; i < prof->nfns; i++) {
		const struct roi_fn *fn = &prof->fns[i];
		fprintf(f, "fn %016llx %u 0x%08x %u", (unsigned long long)fn->unit, (unsigned)fn->index,
			(unsigned)fn->checksum, (unsigned)fn->ncounters);
		for (uint32_t c = 0; c < fn->ncounters; c++)
			fprintf(f, " %llu", (unsigned long long)fn->counts[c]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < prof->nregions; i++) {
		const struct roi_region_stat *r = &prof->regions[i];
		fprintf(f, "region %016llx %u %llu %llu ns %llu\n", (unsigned long long)r->unit, (unsigned)r->index,
			(unsigned long long)r->calls, (unsigned long long)r->total, (unsigned long long)r->inner);
	}
	if (fflush(f) == 0)
		fprintf(f, "end %zu %08x\n", prof->nfns, (unsigned)__roi_crc32(0, text, *len));
	int failed = ferror(f);
	if (fclose(f) != 0 || failed) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	return text;
}

/* Reads path into a malloc'd buffer. Returns 1, 0 when there is no such file, or -1 with errno. */
static int read_file(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	size_t cap = 0;
	char *buf = NULL;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	for (*len = 0;;) {
		if (*len == cap) {
			char *p = realloc(buf, cap = cap ? 2 * cap : 4096);
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
	close(fd);
	if (err) {
		free(buf);
		errno = err;
		return -1;
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

/* Writes text to a new file tmp ("PATH.tmp.XXXXXX", filled in). Returns 0, or -1 with errno and
 * no file left behind. */
static int write_temp(char *tmp, const char *text, size_t len)
{
	struct sigaction ignore = {.sa_handler = SIG_IGN}, saved;
	mode_t mask = umask(0);
	int fd, err = 0;

	umask(mask);    /* umask can only be read by setting it */
	/* mkstemp creates the file 0600; a profile is an ordinary file, 0666 & ~umask. */
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	/* Over a file size limit the write must fail with EFBIG, not kill the program with SIGXFSZ. */
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGXFSZ, &ignore, &saved);
	if (fchmod(fd, 0666 & ~mask) != 0 || write_all(fd, text, len) != 0 || fsync(fd) != 0)
		err = errno;
	if (close(fd) != 0 && !err)
		err = errno;
	sigaction(SIGXFSZ, &saved, NULL);
	if (err) {
		unlink(tmp);
		errno = err;
		return -1;
	}
	return 0;
}

/* PATH is not a regular file (ROI_OUTPUT=/dev/null, /dev/stdout, a FIFO): the profile is written
 * into it as it is. Renaming a new file over it, as for a profile, would replace the device itself:
 * as root, ROI_OUTPUT=/dev/null turned /dev/null into a regular file for every process. */
static int save_to_special(const char *path, const struct roi_profile *prof)
{
	size_t len;
	char *text = format(prof, &len);
	int fd, err = 0;

	if (!text)
		return cannot_write(path, errno);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, text, len) != 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	free(text);
	return err ? cannot_write(path, err) : 0;
}

/* A symbolic link to a profile: the new profile replaces the file it points to, never the link
 * (ROI_OUTPUT=/dev/stdout, with stdout a file, renamed the link /dev/stdout away). A link to a
 * profile not written yet is followed by its text, up to 8 links deep. */
static const char *link_target(const char *path, char *buf, size_t size)
{
	char target[PATH_MAX], next[PATH_MAX];
	struct stat st;

	if (stat(path, &st) == 0)
		return lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, buf) ? buf : path;
	for (int i = 0; i < 8 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode); i++) {
		ssize_t n = readlink(path, target, sizeof target - 1);
		const char *slash = strrchr(path, '/');

		if (n < 0)
			break;
		target[n] = '\0';
		if (snprintf(next, sizeof next, "%.*s%s", target[0] == '/' || !slash ? 0 : (int)(slash - path + 1),
			     path, target) >= (int)sizeof next || strlen(next) >= size)
			break;
		strcpy(buf, next);
		path = buf;
	}
	return path;
}

int __roi_profile_save(const char *path, struct roi_profile *prof)
{
	char lock[PATH_MAX], tmp[PATH_MAX], stale[PATH_MAX], why[256];
	char *old = NULL, *text = NULL;
	size_t oldlen = 0, len;
	enum roi_merge_result merged = ROI_MERGED;
	int lockfd, ret = -1;
	char real[PATH_MAX];
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? cannot_write(path, EISDIR) : save_to_special(path, prof);
	path = link_target(path, real, sizeof real);

	if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock ||
	    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof tmp ||
	    snprintf(stale, sizeof stale, "%s.stale", path) >= (int)sizeof stale)
		return cannot_write(path, ENAMETOOLONG);
	/* The lock file stays: removing it would let a late process lock an unlinked inode while the
	 * next one creates a new file, and both would believe they hold the lock. */
	lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (lockfd < 0)
		return cannot_write(path, errno);
	while (flock(lockfd, LOCK_EX) != 0)
		if (errno != EINTR) {
			cannot_write(path, errno);
			goto out;
		}
	/* rename() would replace a read-only profile; refuse it as writing in place would. */
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0 && errno != ENOENT) {
		cannot_write(path, errno);
		goto out;
	}
	switch (read_file(path, &old, &oldlen)) {
	case -1:
		__roi_warn("cannot read profile '%s': %s", path, strerror(errno));
		goto out;
	case 1:
		merged = __roi_profile_merge(old, oldlen, prof, why, sizeof why);
		if (merged == ROI_MERGE_FAILED) {
			cannot_write(path, errno);
			goto out;
		}
		break;
	}
	if (!(text = format(prof, &len)) || write_temp(tmp, text, len) != 0) {
		cannot_write(path, errno);
		goto out;
	}
	if ((merged != ROI_MERGED && rename(path, stale) != 0) || rename(tmp, path) != 0) {
		cannot_write(path, errno);
		unlink(tmp);
		goto out;
	}
	if (merged != ROI_MERGED)
		__roi_warn("profile '%s' is %s (%s); kept it as '%s' and started a new one", path,
			 merged == ROI_CORRUPT ? "corrupt" : merged == ROI_FULL ? "full" : "from a different build",
			 why, stale);
	ret = 0;
out:
	free(old);
	free(text);
	close(lockfd);
	return ret;
}
