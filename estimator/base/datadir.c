/* base/datadir.c — where roi's own files are, see datadir.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/datadir.h"

#ifndef ROI_PREFIX
#define ROI_PREFIX "/usr/local"
#endif

/* dir/../rel, resolved, when it exists. */
static char *existing(const char *dir, const char *up, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof path, "%s/%s%s", dir, up, rel) >= (int)sizeof path || stat(path, &st) != 0)
		return NULL;
	return realpath(path, NULL);
}

char *roi_data_path(const char *tree, const char *installed)
{
	char self[PATH_MAX], *found = NULL;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		/* TOP/build/bin/roi, or PREFIX/bin/roi */
		found = existing(self, "../../", tree);
		if (!found)
			found = existing(self, "../", installed);
	}
	return found ? found : existing(ROI_PREFIX, "", installed);
}
