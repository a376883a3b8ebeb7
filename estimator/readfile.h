/* readfile.h — a whole file into memory. */
#ifndef ROI_READFILE_H
#define ROI_READFILE_H

#include <stddef.h>

#include "err.h"

/* Reads path into a malloc'd buffer with a NUL byte after the last one (not counted in *size).
 * Errors: "PATH: <strerror>". */
int roi_read_file(const char *path, char **data, size_t *size, struct roi_err *err);

#endif
