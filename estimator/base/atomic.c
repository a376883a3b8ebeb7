/* base/atomic.c — files written whole, see atomic.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic.h"

int roi_atomic_open(struct roi_atomic *a, const char *path, struct roi_err *err)
{
	size_t n = strlen(path) + 8;
	int fd;

	a->path = path;
	a->f = NULL;
	a->tmp = malloc(n);
	if (!a->tmp)
		return roi_err_set(err, "out of memory");
	snprintf(a->tmp, n, "%s.XXXXXX", path);
	fd = mkstemp(a->tmp);
	if (fd < 0 || !(a->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(a->tmp);
		}
		free(a->tmp);
		a->tmp = NULL;
		return roi_err_set(err, "%s: %s", path, strerror(e));
	}
	/* mkstemp makes it private; what roi writes is as readable as any file the user creates */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return 0;
}

int roi_atomic_commit(struct roi_atomic *a, const char *what, struct roi_err *err)
{
	int e = 0;

	if (ferror(a->f))
		e = errno ? errno : EIO;
	if (fclose(a->f) != 0 && !e)
		e = errno;
	a->f = NULL;
	if (!e && rename(a->tmp, a->path) != 0)
		e = errno;
	if (e)
		unlink(a->tmp);
	free(a->tmp);
	a->tmp = NULL;
	return e ? roi_err_set(err, "%s: cannot write %s: %s", a->path, what, strerror(e)) : 0;
}

void roi_atomic_abort(struct roi_atomic *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	a->f = NULL;
	a->tmp = NULL;
}
