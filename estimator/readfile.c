/* readfile.c — a whole file into memory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"
#include "readfile.h"

int roi_read_file(const char *path, char **data, size_t *size, struct roi_err *err)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	size_t len = 0, cap = 4096;
	char *buf;

	if (!f)
		return roi_err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return roi_err_set(err, "%s: %s", path, strerror(EISDIR));
	}
	buf = roi_xrealloc(NULL, cap, 1);
	for (;;) {
		if (cap - len < 2)
			buf = roi_xrealloc(buf, cap *= 2, 1);
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		return roi_err_set(err, "%s: %s", path, strerror(e));
	}
	fclose(f);
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return 0;
}
