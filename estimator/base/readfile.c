/* base/readfile.c — opening and reading the files roi is given, see readfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/readfile.h"

int roi_open_regular(const char *path, struct stat *st, struct roi_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags, e;

	if (fd < 0)
		return roi_err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, st) != 0 || (flags = fcntl(fd, F_GETFL)) < 0) {
		e = errno;
		close(fd);
		return roi_err_set(err, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		if (S_ISDIR(st->st_mode))
			return roi_err_set(err, "%s: %s", path, strerror(EISDIR));
		return roi_err_set(err, "%s: not a regular file", path);
	}
	/* (a regular file's reads never block; libelf and libdw read it as any other) */
	if (fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		e = errno;
		close(fd);
		return roi_err_set(err, "%s: %s", path, strerror(e));
	}
	return fd;
}

int roi_read_file(const char *path, size_t max, char **data, size_t *size, struct roi_err *err)
{
	struct stat st;
	int fd = roi_open_regular(path, &st, err);
	size_t len = 0, cap;
	char *buf;

	if (fd < 0)
		return -1;
	/* st_size is where to start, not a promise: the file may grow, and some (in /proc) say 0 */
	cap = (uintmax_t)st.st_size <= max ? (size_t)st.st_size + 2 : 0;
	buf = cap ? roi_xrealloc(NULL, cap, 1) : NULL;
	for (;;) {
		if (!cap || len > max) {
			close(fd);
			free(buf);
			return roi_err_set(err, "%s: larger than %zu MiB, the most roi reads of such a file", path,
					   max >> 20);
		}
		if (cap - len < 2)
			buf = roi_xrealloc(buf, cap = cap < max / 2 ? 2 * cap : max + 2, 1);
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			free(buf);
			return roi_err_set(err, "%s: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return 0;
}

int roi_text_check_nul(const char *path, const char *data, size_t size, struct roi_err *err)
{
	const char *nul = memchr(data, '\0', size), *bol = data;
	unsigned line = 1;

	if (!nul)
		return 0;
	for (const char *p = data; (p = memchr(p, '\n', (size_t)(nul - p))); bol = ++p)
		line++;
	return roi_err_set(err, "%s:%u:%zu: NUL byte", path, line, (size_t)(nul - bol) + 1);
}
