/* roi-profile-merge.c — reading an existing profile (docs/formats.md §3, docs/regions.md) and adding
 * it to this run's.
 *
 * Counts are added only when the file is intact and comes from the same build: the same (unit, index)
 * set, and for each the same checksum and counter count. Like gcov, anything else is refused rather
 * than mixed; the caller keeps the old file aside. Regions are not part of that check: which of them
 * ran may differ from run to run, so the merged profile has the union, calls and times added. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roi-internal.h"
#include "roi-profile-io.h"

static bool key_less(const struct roi_pf_fn *a, const struct roi_pf_fn *b)
{
	return a->unit < b->unit || (a->unit == b->unit && a->index < b->index);
}

static bool region_less(const struct roi_pf_region *a, const struct roi_pf_region *b)
{
	return a->unit < b->unit || (a->unit == b->unit && a->index < b->index);
}

/* A region of the file as this runtime keeps it: every one with its inner enters (0 in profiles
 * before 2026-11, which lack them). */
static struct roi_pf_region region_of(const struct roi_pf_record *rec)
{
	struct roi_pf_region r = rec->region;

	r.has_inner = true;
	return r;
}

/* What read_fns() found besides the runs. */
struct checked {
	uint64_t runs;
	bool transferred;       /* a "transferred" line: roi transfer wrote the counts */
	bool has_hook_cost;
	double hook_cost, hook_inside;
	size_t nregions;
	enum roi_merge_result fns;      /* ROI_MERGED, or why the fn lines cannot be added */
	char fns_why[200];
};

/* Why a sum is refused, after the name of what is summed. */
static const char too_big[] = "%llu in the profile and %llu in this run add up to more than 2^64 - 1";

/* Compares the fn line fn (its counts at counts) with prof's j-th function, and puts its counts
 * plus this run's into sums (laid out as prof->counts); the first sum that does not fit is named
 * in full. Returns 1 when it is that function, 0 when the file's function comes after it (prof's
 * is not in the file), or -1 with c->fns_why saying how the builds differ. */
static int add_fn(const struct roi_pf_fn *fn, const char *counts, const struct roi_profile *prof, size_t j,
		  uint64_t *sums, struct checked *c, char *full, size_t fullsize)
{
	const struct roi_fn *mine = j < prof->nfns ? &prof->fns[j] : NULL;
	uint64_t v, *sum = mine ? sums + (mine->counts - prof->counts) : NULL;

	if (!mine || key_less(fn, &mine->rec)) {
		snprintf(c->fns_why, sizeof c->fns_why, "function %u of unit %016llx is not in this program",
			 (unsigned)fn->index, (unsigned long long)fn->unit);
		return -1;
	}
	if (key_less(&mine->rec, fn))
		return 0;
	if (fn->checksum != mine->rec.checksum) {
		snprintf(c->fns_why, sizeof c->fns_why, "function %u of unit %016llx: checksum 0x%08x in the "
			 "profile, 0x%08x in this program", (unsigned)fn->index, (unsigned long long)fn->unit,
			 (unsigned)fn->checksum, (unsigned)mine->rec.checksum);
		return -1;
	}
	if (fn->ncounters != mine->rec.ncounters) {
		snprintf(c->fns_why, sizeof c->fns_why, "function %u of unit %016llx: %u counters in the profile, "
			 "%u in this program", (unsigned)fn->index, (unsigned long long)fn->unit,
			 (unsigned)fn->ncounters, (unsigned)mine->rec.ncounters);
		return -1;
	}
	for (uint32_t i = 0; i < fn->ncounters; i++) {
		v = __roi_pf_count(&counts);
		if (v > UINT64_MAX - mine->counts[i] && !full[0]) {
			int n = snprintf(full, fullsize, "counter %u of function %u of unit %016llx: ", (unsigned)i,
					 (unsigned)fn->index, (unsigned long long)fn->unit);
			snprintf(full + n, fullsize - (size_t)n, too_big, (unsigned long long)v,
				 (unsigned long long)mine->counts[i]);
		}
		sum[i] = mine->counts[i] + v;
	}
	return 1;
}

/* prof's function j is not in the file. */
static void missing(struct checked *c, const struct roi_profile *prof, size_t j)
{
	snprintf(c->fns_why, sizeof c->fns_why, "function %u of unit %016llx is not in the profile",
		 (unsigned)prof->fns[j].rec.index, (unsigned long long)prof->fns[j].rec.unit);
	c->fns = ROI_OTHER_BUILD;
}

/* Reads the whole file once with the profile's reader (roi-profile-io.c), checking what merging
 * needs besides (fn and region lines in the order this runtime writes them, times in ns), and walks
 * its fn lines alongside prof's functions, their sums into sums (prof's counts' layout). Whether
 * they can be added is c->fns: ROI_OTHER_BUILD at the first difference, else ROI_FULL at the first
 * sum that does not fit. Returns true, or false with the first problem of the file in why. */
static bool read_fns(const char *text, size_t len, const struct roi_profile *prof, uint64_t *sums,
		     struct checked *c, char *why, size_t whysize)
{
	struct roi_pf_reader r;
	struct roi_pf_record rec;
	struct roi_pf_fn prev = {0};
	struct roi_pf_region reg, prev_r = {0};
	char full[200] = "";
	size_t j = 0;
	int rc;

	memset(c, 0, sizeof *c);
	c->fns = ROI_MERGED;
	if (__roi_pf_begin(&r, text, len) != 0)
		goto bad;
	while ((rc = __roi_pf_next(&r, &rec)) > 0) {
		switch (rec.kind) {
		case ROI_PF_TRANSFERRED:
			c->transferred = true;
			break;
		case ROI_PF_HOOK_COST:
			c->has_hook_cost = true;
			c->hook_cost = c->hook_inside = rec.cost;     /* unless a hook-inside line follows */
			break;
		case ROI_PF_HOOK_INSIDE:
			c->hook_inside = rec.cost;
			break;
		case ROI_PF_FN:
			if (r.nfns > 1 && !key_less(&prev, &rec.fn)) {
				snprintf(r.why, sizeof r.why, "fn lines out of order");
				goto bad;
			}
			prev = rec.fn;
			if (c->fns != ROI_MERGED)
				break;          /* the first difference is the one named */
			switch (add_fn(&rec.fn, rec.counts, prof, j, sums, c, full, sizeof full)) {
			case 1:
				j++;
				break;
			case 0:
				missing(c, prof, j);
				break;
			default:
				c->fns = ROI_OTHER_BUILD;
			}
			break;
		case ROI_PF_REGION:
			reg = region_of(&rec);
			if (c->nregions > 0 && !region_less(&prev_r, &reg)) {
				snprintf(r.why, sizeof r.why, "region lines out of order");
				goto bad;
			}
			prev_r = reg;
			c->nregions++;
			break;
		}
	}
	if (rc < 0)
		goto bad;
	if (r.unit && strcmp(r.unit, "ns") != 0) {
		r.line = r.unit_line;
		snprintf(r.why, sizeof r.why, "times in %s, where this program measures ns", r.unit);
		goto bad;
	}
	if (c->fns == ROI_MERGED && j < prof->nfns)
		missing(c, prof, j);
	if (c->fns == ROI_MERGED && full[0]) {
		snprintf(c->fns_why, sizeof c->fns_why, "%s", full);
		c->fns = ROI_FULL;
	}
	c->runs = r.runs;
	return true;
bad:
	snprintf(why, whysize, "line %u: %s", r.line, r.why);
	return false;
}

/* The records of a checked text, one kind at a time: the next one of that kind, or false. */
static bool next_of(struct roi_pf_reader *r, enum roi_pf_kind kind, struct roi_pf_record *rec)
{
	while (__roi_pf_next(r, rec) > 0)
		if (rec->kind == kind)
			return true;
	return false;
}

/* As a double: only a weight, and a sum over regions may not fit in 64 bits. */
static double region_calls(const struct roi_pf_region *r, size_t n)
{
	double calls = 0;

	for (size_t i = 0; i < n; i++)
		calls += (double)r[i].calls;
	return calls;
}

/* a + b into *sum, or false when that does not fit in 64 bits, with why naming what does not. */
static bool add_region(uint64_t a, uint64_t b, uint64_t *sum, const struct roi_pf_region *r,
		       const char *what, char *why, size_t whysize)
{
	if (a > UINT64_MAX - b) {
		int n = snprintf(why, whysize, "%s of region %u of unit %016llx: ", what, (unsigned)r->index,
				 (unsigned long long)r->unit);
		snprintf(why + n, whysize - (size_t)n, too_big, (unsigned long long)a, (unsigned long long)b);
		return false;
	}
	*sum = a + b;
	return true;
}

/* The union of the file's region lines (c->nregions of them, checked) and prof's, both sorted.
 * Returns ROI_MERGED, ROI_FULL with why, or ROI_MERGE_FAILED with errno; prof is only changed when
 * merged. */
static enum roi_merge_result merge_regions(const char *text, size_t len, const struct checked *c,
					   struct roi_profile *prof, char *why, size_t whysize)
{
	struct roi_pf_region *old, *all;
	struct roi_pf_reader r;
	struct roi_pf_record rec;
	size_t i = 0, j = 0, n = 0;

	if (c->nregions == 0)
		return ROI_MERGED;
	old = malloc(c->nregions * sizeof *old);
	all = malloc((c->nregions + prof->nregions) * sizeof *all);
	if (!old || !all) {
		free(old);
		free(all);
		errno = ENOMEM;
		return ROI_MERGE_FAILED;
	}
	__roi_pf_begin(&r, text, len);
	for (; i < c->nregions && next_of(&r, ROI_PF_REGION, &rec); i++)
		old[i] = region_of(&rec);
	for (i = 0; i < c->nregions || j < prof->nregions;) {
		if (j == prof->nregions || (i < c->nregions && region_less(&old[i], &prof->regions[j]))) {
			all[n++] = old[i++];
		} else if (i == c->nregions || region_less(&prof->regions[j], &old[i])) {
			all[n++] = prof->regions[j++];
		} else {
			const struct roi_pf_region *a = &old[i++], *b = &prof->regions[j++];
			all[n] = *b;
			if (!add_region(a->calls, b->calls, &all[n].calls, b, "calls", why, whysize) ||
			    !add_region(a->total, b->total, &all[n].total, b, "time", why, whysize) ||
			    !add_region(a->inner, b->inner, &all[n].inner, b, "inner enters", why, whysize)) {
				free(old);
				free(all);
				return ROI_FULL;
			}
			n++;
		}
	}
	free(old);
	free(prof->regions);
	prof->regions = all;
	prof->nregions = n;
	return ROI_MERGED;
}

enum roi_merge_result __roi_profile_merge(const char *text, size_t len, struct roi_profile *prof,
					  char *why, size_t whysize)
{
	struct checked c;
	enum roi_merge_result result;
	double mine = region_calls(prof->regions, prof->nregions), theirs;
	size_t ncounts = prof->nfns ? (size_t)(prof->fns[prof->nfns - 1].counts - prof->counts) +
					      prof->fns[prof->nfns - 1].rec.ncounters : 0;
	uint64_t *sums = malloc((ncounts ? ncounts : 1) * sizeof *sums);

	if (!sums) {
		errno = ENOMEM;
		return ROI_MERGE_FAILED;
	}
	if (!read_fns(text, len, prof, sums, &c, why, whysize)) {
		result = ROI_CORRUPT;
		goto out;
	}
	/* Counts roi transfer computed for this build from another's run are an estimate: adding a
	 * measured run to them would pass the sum off as measured. */
	if (c.transferred) {
		snprintf(why, whysize, "its counts were transferred from another build's run by roi transfer");
		result = ROI_OTHER_BUILD;
		goto out;
	}
	/* A sum that does not fit is refused like another build, not wrapped round (2^64 - 1 and 100
	 * made 99) nor cut to 2^64 - 1: either would be a wrong count that looks true. */
	if ((result = c.fns) != ROI_MERGED) {
		snprintf(why, whysize, "%s", c.fns_why);
		goto out;
	}
	if (c.runs > UINT64_MAX - prof->runs) {
		int n = snprintf(why, whysize, "runs: ");
		snprintf(why + n, whysize - (size_t)n, too_big, (unsigned long long)c.runs,
			 (unsigned long long)prof->runs);
		result = ROI_FULL;
		goto out;
	}
	if ((result = merge_regions(text, len, &c, prof, why, whysize)) != ROI_MERGED)
		goto out;
	/* The sums become prof's counts. */
	for (size_t i = 0; i < prof->nfns; i++)
		prof->fns[i].counts = sums + (prof->fns[i].counts - prof->counts);
	free(prof->counts);
	prof->counts = sums;
	sums = NULL;
	prof->runs += c.runs;
	/* The hooks' cost per pair, as the mean over every region entry of both: calls x cost then
	 * stays what each run's own calibration says. */
	theirs = region_calls(prof->regions, prof->nregions) - mine;
	if (c.has_hook_cost && !prof->has_hook_cost) {
		prof->hook_cost = c.hook_cost;
		prof->hook_inside = c.hook_inside;
	} else if (c.has_hook_cost && mine + theirs > 0) {
		prof->hook_cost = (prof->hook_cost * mine + c.hook_cost * theirs) / (mine + theirs);
		prof->hook_inside = (prof->hook_inside * mine + c.hook_inside * theirs) / (mine + theirs);
	}
	prof->has_hook_cost |= c.has_hook_cost;
out:
	free(sums);
	return result;
}

/* a + b, or SIZE_MAX when that does not fit; a * b the same. */
static size_t add_sat(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static size_t mul_sat(size_t a, size_t b)
{
	return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

/* The longest each line can be: 20 digits for a 64-bit number, 10 for a 32-bit one (the writer
 * never writes leading zeros), PATH_MAX for a path, 9 for a hook cost's fraction. A profile this
 * program can merge has its fn lines, no more. */
#define D64 20
#define D32 10

size_t __roi_profile_bound(const struct roi_profile *prof, size_t max_regions)
{
	size_t n = sizeof "roi-profile 1\n" - 1 + sizeof "program \n" - 1 + PATH_MAX + sizeof "runs \n" - 1 + D64 +
		   sizeof "transferred \n" - 1 + PATH_MAX + 2 * (sizeof "hook-inside . ns\n" - 1 + D32 + 9) +
		   sizeof "end  \n" - 1 + D64 + 8;

	for (size_t i = 0; i < prof->nfns; i++)
		n = add_sat(n, add_sat(sizeof "fn  0x \n" - 1 + 16 + D32 + 8 + D32,
				       mul_sat(prof->fns[i].rec.ncounters, 1 + D64)));
	if (max_regions < prof->nregions)
		max_regions = prof->nregions;
	return add_sat(n, mul_sat(max_regions, sizeof "region     ns \n" - 1 + 16 + D32 + 3 * D64));
}
