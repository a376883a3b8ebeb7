/* gcov/gcda.c — the .gcda files a program writes, found, see check.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array.h"
#include "base/path.h"
#include "base/readfile.h"
#include "gcov/check.h"

/* The .gcda files PROGRAM writes at exit: libgcov keeps each unit's file name, as an absolute
 * path fixed at compile time, among the program's strings. Reading them, rather than taking every
 * *.gcda of a directory, keeps other programs' data out of the comparison. */
static size_t gcda_names(struct roi_gcov_check *c, const char *data, size_t size, const char ***names)
{
	static const char suffix[] = ".gcda";
	size_t n = 0, cap = 0;
	const char *p = data, *end = data + size;

	*names = NULL;
	while ((p = memmem(p, (size_t)(end - p), suffix, sizeof suffix)) != NULL) {
		const char *s = p;

		while (s > data && s[-1] >= 0x20 && s[-1] < 0x7f)
			s--;
		p += sizeof suffix;
		if (p - s <= (ptrdiff_t)sizeof suffix)
			continue;
		const char *name = roi_arena_strdup(&c->arena, s);
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp((*names)[i], name) == 0;
		if (seen)
			continue;
		*names = roi_xgrow(*names, n, &cap, sizeof **names);
		(*names)[n++] = name;
	}
	return n;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where each .gcda is: --gcda-dir only, or PROGRAM's directory, the current directory, and the
 * path PROGRAM recorded. Returns the number found; *missing gets the rest, one per line. */
int roi_gcov_find_gcda(struct roi_gcov_check *c, const char *program, const char *gcda_dir, char **missing,
		     struct roi_err *err)
{
	const char **names;
	char *data;
	size_t size, n;
	const char *slash = strrchr(program, '/');
	const char *pdir = slash ? roi_arena_printf(&c->arena, "%.*s", (int)(slash - program), program) : ".";
	size_t mlen = 0;

	if (slash == program)
		pdir = "/";
	if (roi_read_file(program, ROI_MAX_ELF, &data, &size, err) != 0)
		return -1;
	n = gcda_names(c, data, size, &names);
	free(data);
	*missing = NULL;
	if (n == 0) {
		free(names);
		return roi_err_set(err, "%s was not built with --coverage: it names no .gcda file", program);
	}
	for (size_t i = 0; i < n; i++) {
		const char *base = roi_base_name(names[i]);
		const char *cand[3];
		size_t ncand = 0, k;

		bool alike = false;

		for (size_t j = 0; j < n; j++)
			alike |= j != i && strcmp(roi_base_name(names[j]), base) == 0;
		if (alike) {
			/* two units write files of one name: only the recorded paths tell them apart */
			cand[ncand++] = names[i];
		} else if (gcda_dir) {
			cand[ncand++] = roi_arena_printf(&c->arena, "%s/%s", gcda_dir, base);
		} else {
			cand[ncand++] = roi_arena_printf(&c->arena, "%s/%s", pdir, base);
			cand[ncand++] = base;
			cand[ncand++] = names[i];
		}
		for (k = 0; k < ncand && !is_file(cand[k]); k++)
			;
		if (k == ncand) {
			const char *where = alike ? names[i] : gcda_dir ? gcda_dir
						: roi_arena_printf(&c->arena, "%s, . and %s", pdir, names[i]);
			char line[2048];
			int len = snprintf(line, sizeof line, "%s: not found (looked in %s)\n", base, where);

			if (len < 0)
				continue;
			if ((size_t)len >= sizeof line)
				len = sizeof line - 1;
			*missing = roi_xrealloc(*missing, mlen + (size_t)len + 1, 1);
			memcpy(*missing + mlen, line, (size_t)len + 1);
			mlen += (size_t)len;
			continue;
		}
		c->gcda = roi_xgrow(c->gcda, c->ngcda, &c->capgcda, sizeof *c->gcda);
		c->gcda[c->ngcda++] = (struct roi_gcov_gcda){.path = cand[k]};
	}
	free(names);
	if (c->ngcda == 0) {
		free(*missing);
		*missing = NULL;
		return roi_err_set(err, "no .gcda files found next to %s (build with --coverage and run it once)", program);
	}
	return (int)c->ngcda;
}
