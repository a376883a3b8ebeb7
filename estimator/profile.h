/* profile.h — the profile text format (docs/formats.md §3): strict reading, and writing
 * for runners that collect counts themselves (roi run). */
#ifndef ROI_PROFILE_H
#define ROI_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "err.h"

struct roi_profile_fn {
	uint64_t unit;
	uint32_t index;
	uint32_t checksum;
	size_t ncounters;
	const uint64_t *counts;
	unsigned line;          /* line of the "fn" record, for messages */
};

struct roi_profile {
	const char *path;
	const char *program;    /* the "program" line */
	uint64_t runs;
	const struct roi_profile_fn *fns;
	size_t nfns;
	struct roi_arena arena;
};

/* Reads and checks a whole profile: header, fn lines, end line with the function count and the
 * CRC-32 of everything before it. Any deviation is "PATH:LINE: <what>"; a truncated file is
 * "PATH:LINE: missing end line (truncated profile?)". Free with roi_profile_free even on failure. */
int roi_profile_load(const char *path, struct roi_profile *prof, struct roi_err *err);
int roi_profile_parse(const char *path, const char *data, size_t size, struct roi_profile *prof,
		      struct roi_err *err);
void roi_profile_free(struct roi_profile *prof);

/* Writes a profile of the given functions (their counts, in order) with its end line. */
int roi_profile_write(FILE *out, const char *program, uint64_t runs, const struct roi_profile_fn *fns,
		      size_t nfns, struct roi_err *err);

#endif
