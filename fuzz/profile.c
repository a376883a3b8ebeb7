/* fuzz/profile.c — the profile reader (estimator/input/profile.c) on arbitrary bytes.
 *
 * A profile is written by a program at exit, or by 'roi run', and may be cut short by a full disk or
 * edited by hand: whatever it holds, roi_profile_parse must answer with a profile or one error. A
 * profile it accepts must survive being written again by roi_profile_write (what 'roi run' uses)
 * and read back with the same counts, so writer and reader agree on the format. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/profile.h"

/* The reader is given what roi_read_file gives it: the bytes and a NUL after them. */
static char *terminated(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static void same_profile(const struct roi_profile *a, const struct roi_profile *b)
{
	if (a->runs != b->runs || a->nfns != b->nfns || a->timing.nregions != b->timing.nregions ||
	    !a->transferred != !b->transferred || (a->transferred && strcmp(a->transferred, b->transferred) != 0))
		abort();
	for (size_t i = 0; i < a->nfns; i++) {
		const struct roi_profile_fn *x = &a->fns[i], *y = &b->fns[i];

		if (x->rec.unit != y->rec.unit || x->rec.index != y->rec.index || x->rec.checksum != y->rec.checksum ||
		    x->rec.ncounters != y->rec.ncounters ||
		    memcmp(x->counts, y->counts, x->rec.ncounters * sizeof *x->counts) != 0)
			abort();
	}
	for (size_t i = 0; i < a->timing.nregions; i++) {
		const struct roi_profile_region *x = &a->timing.regions[i], *y = &b->timing.regions[i];

		if (x->rec.unit != y->rec.unit || x->rec.index != y->rec.index || x->rec.calls != y->rec.calls ||
		    x->rec.total != y->rec.total)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = terminated(data, size), *again = NULL;
	struct roi_profile prof, back;
	struct roi_err err;
	size_t len = 0;

	if (roi_profile_parse("fuzz.roi", text, size, &prof, &err) == 0) {
		FILE *out = open_memstream(&again, &len);

		if (!out || roi_profile_write(out, prof.program, prof.runs, prof.transferred, prof.fns, prof.nfns,
					      prof.timing.nregions ? &prof.timing : NULL, &err) != 0 || fclose(out) != 0)
			abort();
		if (roi_profile_parse("again.roi", again, len, &back, &err) != 0) {
			fprintf(stderr, "written profile not read back: %s\n", err.msg);
			abort();
		}
		same_profile(&prof, &back);
		roi_profile_free(&back);
	} else if (!memchr(err.msg, '\0', sizeof err.msg) || strchr(err.msg, '\n')) {
		abort();        /* an error is one line */
	}
	roi_profile_free(&prof);
	free(again);
	free(text);
	return 0;
}
