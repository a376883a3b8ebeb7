/* profile.c — profiles read whole and written, see profile.h: the runtime's reader and writer
 * (runtime/roi-profile-io.c, included here as GCC's tools include gcov-io.c), and what roi adds:
 * the records kept in memory, and no function or region twice. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "input/profile.h"

#include "../../runtime/roi-profile-io.c"

/* A record's key and line, for finding one named twice. */
struct key {
	uint64_t unit;
	uint32_t index;
	unsigned line;
};

static int by_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* No WHAT ("function", "region") of the same unit and index twice among keys[0, n), which it sorts. */
static int check_twice(const char *path, const char *what, struct key *keys, size_t n, struct roi_err *err)
{
	if (n > 1)
		qsort(keys, n, sizeof *keys, by_key);
	for (size_t i = 1; i < n; i++)
		if (keys[i].unit == keys[i - 1].unit && keys[i].index == keys[i - 1].index)
			return roi_err_set(err, "%s:%u: %s %u of unit %016llx appears twice (first on line %u)", path,
					   keys[i].line, what, (unsigned)keys[i].index, (unsigned long long)keys[i].unit,
					   keys[i - 1].line);
	return 0;
}

static int check_duplicates(const struct roi_profile *prof, struct roi_err *err)
{
	size_t n = prof->nfns > prof->timing.nregions ? prof->nfns : prof->timing.nregions;
	struct key *keys = roi_xrealloc(NULL, n ? n : 1, sizeof *keys);
	int rc;

	for (size_t i = 0; i < prof->nfns; i++)
		keys[i] = (struct key){prof->fns[i].rec.unit, prof->fns[i].rec.index, prof->fns[i].line};
	rc = check_twice(prof->path, "function", keys, prof->nfns, err);
	for (size_t i = 0; rc == 0 && i < prof->timing.nregions; i++) {
		const struct roi_profile_region *r = &prof->timing.regions[i];

		keys[i] = (struct key){r->rec.unit, r->rec.index, r->line};
	}
	if (rc == 0)
		rc = check_twice(prof->path, "region", keys, prof->timing.nregions, err);
	free(keys);
	return rc;
}

/* The records of text data, read with the format's reader into prof's arena. */
int roi_profile_parse(const char *path, const char *data, size_t size, struct roi_profile *prof,
		      struct roi_err *err)
{
	struct roi_pf_reader r;
	struct roi_pf_record rec;
	struct roi_profile_fn *fns = NULL;      /* grow; moved into the arena at the end */
	struct roi_profile_region *regions = NULL;
	size_t cap = 0, rcap = 0, nregions = 0;
	int rc;

	memset(prof, 0, sizeof *prof);
	prof->path = roi_arena_strdup(&prof->arena, path);
	if (__roi_pf_begin(&r, data, size) != 0)
		return roi_err_set(err, "%s:%u: %s", path, r.line, r.why);
	prof->program = roi_arena_printf(&prof->arena, "%.*s", (int)r.program_len, r.program);
	prof->runs = r.runs;
	while ((rc = __roi_pf_next(&r, &rec)) > 0) {
		switch (rec.kind) {
		case ROI_PF_TRANSFERRED:
			prof->transferred = roi_arena_printf(&prof->arena, "%.*s", (int)rec.str_len, rec.str);
			break;
		case ROI_PF_HOOK_COST:
			prof->timing.has_hook_cost = true;
			prof->timing.hook_cost = prof->timing.hook_inside = rec.cost;
			break;
		case ROI_PF_HOOK_INSIDE:
			prof->timing.hook_inside = rec.cost;
			break;
		case ROI_PF_FN: {
			uint64_t *c = roi_arena_array(&prof->arena, rec.fn.ncounters, sizeof *c);
			const char *cursor = rec.counts;

			for (uint32_t i = 0; i < rec.fn.ncounters; i++)
				c[i] = __roi_pf_count(&cursor);
			if (prof->nfns == cap)
				fns = roi_xrealloc(fns, cap = cap ? 2 * cap : 64, sizeof *fns);
			fns[prof->nfns++] = (struct roi_profile_fn){rec.fn, c, rec.line};
			break;
		}
		case ROI_PF_REGION:
			if (nregions == rcap)
				regions = roi_xrealloc(regions, rcap = rcap ? 2 * rcap : 16, sizeof *regions);
			regions[nregions++] = (struct roi_profile_region){rec.region, rec.line};
			break;
		}
	}
	if (rc == 0) {
		/* Kept in the arena, so the profile is freed in one go. */
		struct roi_profile_fn *a = roi_arena_array(&prof->arena, prof->nfns, sizeof *a);
		struct roi_profile_region *g = roi_arena_array(&prof->arena, nregions, sizeof *g);

		if (prof->nfns)
			memcpy(a, fns, prof->nfns * sizeof *a);
		if (nregions)
			memcpy(g, regions, nregions * sizeof *g);
		prof->fns = a;
		prof->timing.regions = g;
		prof->timing.nregions = nregions;
		prof->timing.unit = r.unit;
	} else {
		prof->nfns = 0;
		roi_err_set(err, "%s:%u: %s", path, r.line, r.why);
	}
	free(fns);
	free(regions);
	return rc < 0 ? -1 : check_duplicates(prof, err);
}

int roi_profile_load(const char *path, struct roi_profile *prof, struct roi_err *err)
{
	char *data;
	size_t size;
	int rc;

	memset(prof, 0, sizeof *prof);
	if (roi_read_file(path, ROI_MAX_PROFILE, &data, &size, err) != 0)
		return -1;
	rc = roi_profile_parse(path, data, size, prof, err);
	free(data);
	return rc;
}

void roi_profile_free(struct roi_profile *prof)
{
	roi_arena_free(&prof->arena);
	memset(prof, 0, sizeof *prof);
}

int roi_profile_write(FILE *out, const char *program, uint64_t runs, const char *transferred,
		      const struct roi_profile_fn *fns, size_t nfns, const struct roi_profile_timing *timing,
		      struct roi_err *err)
{
	const char *unit = timing && timing->unit ? timing->unit : "ns";
	struct roi_pf_out o = {0};

	__roi_pf_put_header(&o, program, runs, transferred);
	if (timing && timing->has_hook_cost)
		__roi_pf_put_hook_cost(&o, timing->hook_cost, timing->hook_inside, unit);
	for (size_t i = 0; i < nfns; i++)
		__roi_pf_put_fn(&o, &fns[i].rec, fns[i].counts);
	for (size_t i = 0; timing && i < timing->nregions; i++)
		__roi_pf_put_region(&o, &timing->regions[i].rec, unit);
	__roi_pf_put_end(&o, nfns);
	if (o.failed) {
		free(o.text);
		return roi_err_set(err, "out of memory");
	}
	int ok = fwrite(o.text, 1, o.len, out) == o.len;
	free(o.text);
	return ok ? 0 : roi_err_set(err, "cannot write the profile");
}
