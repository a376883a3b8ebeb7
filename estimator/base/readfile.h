/* base/readfile.h — opening and reading the files roi is given.
 *
 * Everything roi reads is a regular file: a FIFO would block it forever and a device such as
 * /dev/zero never ends, so both are refused before a byte is read, and every whole-file read is
 * bounded by what its format can sensibly hold. */
#ifndef ROI_READFILE_H
#define ROI_READFILE_H

#include <stddef.h>
#include <sys/stat.h>

#include "base/err.h"

/* Limits of roi_read_file, by format: text written by hand (budgets, lists, CSV), cost models
 * (the shipped ones are under 300 kB), profiles (21 bytes a 64-bit count: some 50 million
 * counters), and ELF files read whole. */
#define ROI_MAX_TEXT ((size_t)16 << 20)
#define ROI_MAX_MODEL ((size_t)64 << 20)
#define ROI_MAX_PROFILE ((size_t)1 << 30)
#define ROI_MAX_ELF ((size_t)4 << 30)

/* A descriptor of path opened for reading, *st filled, when it is a regular file. Opened without
 * blocking, so that a FIFO is refused rather than waited on. Errors (returns -1): "PATH:
 * <strerror>", "PATH: Is a directory", "PATH: not a regular file". */
int roi_open_regular(const char *path, struct stat *st, struct roi_err *err);

/* Reads path, a regular file of at most max bytes, into a malloc'd buffer with a NUL byte after
 * the last one (not counted in *size). Errors: those of roi_open_regular, "PATH: <strerror>",
 * "PATH: larger than N MiB, the most roi reads of such a file" when it holds more than max
 * bytes. */
int roi_read_file(const char *path, size_t max, char **data, size_t *size, struct roi_err *err);

/* The first NUL byte of data[0, size), as "PATH:LINE:COL: NUL byte" (0 when there is none): text
 * formats read line by line would take it for the end of the line, or of the file, and silently
 * drop what follows it. */
int roi_text_check_nul(const char *path, const char *data, size_t size, struct roi_err *err);

#endif
