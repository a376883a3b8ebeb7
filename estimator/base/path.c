/* base/path.c — file names, see path.h. */
#include <string.h>

#include "base/path.h"

const char *roi_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}
