/* fuzz/measured.c — the measured profile reader (estimator/input/measured.c) on arbitrary bytes.
 *
 * A measured profile is JSON 'roi run --measured' writes, which a person may edit or a full disk
 * cut short: whatever it holds, roi_measured_parse must answer with a profile or one error line. A
 * profile it accepts has lines that add up to its total, survives being written again (what 'roi
 * run --measured' writes) and is read back the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/measured.h"

static char *terminated(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static void same(const struct roi_measured *a, const struct roi_measured *b)
{
	if (a->cycles != b->cycles || a->nlines != b->nlines || a->nfns != b->nfns || a->nsites != b->nsites ||
	    a->nlibrary != b->nlibrary || a->has_blocks != b->has_blocks || a->nblocks != b->nblocks ||
	    a->nloops != b->nloops || a->nregions != b->nregions || a->complete != b->complete)
		abort();
	for (size_t i = 0; i < a->nlines; i++)
		if (a->lines[i].cycles != b->lines[i].cycles || a->lines[i].library != b->lines[i].library ||
		    a->lines[i].inclusive != b->lines[i].inclusive || a->lines[i].line != b->lines[i].line)
			abort();
	for (size_t i = 0; i < a->nblocks; i++) {
		if (a->blocks[i].nblocks != b->blocks[i].nblocks)
			abort();
		for (size_t k = 0; k < a->blocks[i].nblocks; k++)
			if (a->blocks[i].counts[k] != b->blocks[i].counts[k] ||
			    a->blocks[i].value[k] != b->blocks[i].value[k] ||
			    a->blocks[i].cycles[k] != b->blocks[i].cycles[k])
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = terminated(data, size), *again = NULL;
	struct roi_measured m, back;
	struct roi_err err;

	if (roi_measured_parse("fuzz.measured", text, size, &m, &err) == 0) {
		if (roi_measured_line_sum(&m) != m.cycles || !(again = roi_measured_json_text(&m)))
			abort();
		if (roi_measured_parse("again.measured", again, strlen(again), &back, &err) != 0) {
			fprintf(stderr, "written measured profile not read back: %s\n", err.msg);
			abort();
		}
		same(&m, &back);
		roi_measured_free(&back);
	} else if (!memchr(err.msg, '\0', sizeof err.msg) || strchr(err.msg, '\n')) {
		abort();        /* an error is one line */
	}
	roi_measured_free(&m);
	free(again);
	free(text);
	return 0;
}
