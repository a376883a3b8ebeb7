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

/* Every line is checked to end in '\n' before it is parsed, so the parsers below can rely on that
 * '\n' to stop them and never look past the line. */

static bool take(const char **s, const char *lit)
{
	size_t i;

	for (i = 0; lit[i]; i++)
		if ((*s)[i] != lit[i])
			return false;
	*s += i;
	return true;
}

static bool dec(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;

	for (*v = 0; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (*v > (max - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	if (p == *s)
		return false;
	*s = p;
	return true;
}

/* Exactly ndigits lower-case hex digits, as the writer prints them. */
static bool hex(const char **s, int ndigits, uint64_t *v)
{
	const char *p = *s;

	for (*v = 0; p < *s + ndigits; p++) {
		if (*p >= '0' && *p <= '9')
			*v = *v << 4 | (uint64_t)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			*v = *v << 4 | (uint64_t)(*p - 'a' + 10);
		else
			return false;
	}
	*s = p;
	return true;
}

/* "UNIT INDEX 0xCHECKSUM N", after "fn ". */
static bool fn_head(const char **s, struct roi_fn *fn)
{
	uint64_t unit, index, checksum, n;

	if (!hex(s, 16, &unit) || !take(s, " ") || !dec(s, UINT32_MAX, &index) || !take(s, " 0x") ||
	    !hex(s, 8, &checksum) || !take(s, " ") || !dec(s, UINT32_MAX, &n))
		return false;
	*fn = (struct roi_fn){unit, (uint32_t)index, (uint32_t)checksum, (uint32_t)n, NULL};
	return true;
}

/* "UNIT INDEX CALLS TOTAL ns INNER", after "region " (without INNER, as roi before 2026-11 wrote it:
 * then 0). */
static bool region_line(const char **s, struct roi_region_stat *r)
{
	uint64_t unit, index, calls, total, inner = 0;

	if (!hex(s, 16, &unit) || !take(s, " ") || !dec(s, UINT32_MAX, &index) || !take(s, " ") ||
	    !dec(s, UINT64_MAX, &calls) || !take(s, " ") || !dec(s, UINT64_MAX, &total) || !take(s, " ns"))
		return false;
	if (take(s, " ") && !dec(s, UINT64_MAX, &inner))
		return false;
	if (!take(s, "\n"))
		return false;
	*r = (struct roi_region_stat){unit, (uint32_t)index, calls, total, inner};
	return true;
}

/* "COST ns" after "hook-cost ": decimal, with an optional fraction. */
static bool hook_cost_line(const char **s, double *cost)
{
	uint64_t whole, frac = 0;
	double scale = 1;
	const char *p;

	if (!dec(s, UINT32_MAX, &whole))
		return false;
	if (take(s, ".")) {
		p = *s;
		if (!dec(s, UINT32_MAX, &frac) || *s - p > 9)
			return false;
		for (; p < *s; p++)
			scale *= 10;
	}
	*cost = (double)whole + (double)frac / scale;
	return take(s, " ns\n");
}

static const char *next_line(const char *s)
{
	while (*s != '\n')
		s++;
	return s + 1;
}

static bool key_less(const struct roi_fn *a, const struct roi_fn *b)
{
	return a->unit < b->unit || (a->unit == b->unit && a->index < b->index);
}

static bool region_less(const struct roi_region_stat *a, const struct roi_region_stat *b)
{
	return a->unit < b->unit || (a->unit == b->unit && a->index < b->index);
}

/* What check() found besides the runs. */
struct checked {
	uint64_t runs;
	bool transferred;       /* a "transferred" line: roi transfer wrote the counts */
	bool has_hook_cost;
	double hook_cost, hook_inside;
	size_t nregions;
};

/* Checks the whole file: header, every line, the end line's count and CRC. Returns true, or false
 * with the first problem in why. */
static bool check(const char *text, size_t len, struct checked *c, char *why, size_t whysize)
{
	const char *end = text + len, *s, *eol;
	struct roi_fn fn, prev = {0};
	struct roi_region_stat r, prev_r = {0};
	uint64_t runs = 0, nfns = 0, v, crc;
	const char *err;
	unsigned line;

	memset(c, 0, sizeof *c);

	for (line = 1, s = text;; line++, s = eol + 1) {
		if (s == end) {
			err = line == 1 ? "empty file" : "truncated: no end line";
			break;
		}
		eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol) {
			err = "truncated line";
			break;
		}
		const char *start = s;
		if (line == 1) {
			err = !take(&s, "roi-profile ") ? "not a roi profile"
			    : !take(&s, "1\n")          ? "unsupported format version" : NULL;
		} else if (line == 2) {
			err = take(&s, "program ") ? NULL : "expected 'program PATH'";
		} else if (line == 3) {
			err = take(&s, "runs ") && dec(&s, UINT64_MAX, &runs) && *s == '\n' && runs > 0
			    ? NULL : "expected 'runs N'";
		} else if (line == 4 && take(&s, "transferred ")) {
			err = *s != '\n' ? NULL : "expected 'transferred PATH'";
			c->transferred = true;
		} else if (line == 4 + (unsigned)c->transferred && take(&s, "hook-cost ")) {
			err = hook_cost_line(&s, &c->hook_cost) ? NULL : "expected 'hook-cost NS ns'";
			c->has_hook_cost = true;
			c->hook_inside = c->hook_cost;         /* unless a hook-inside line follows */
		} else if (line == 5 + (unsigned)c->transferred && c->has_hook_cost && take(&s, "hook-inside ")) {
			err = hook_cost_line(&s, &c->hook_inside) ? NULL : "expected 'hook-inside NS ns'";
		} else if (take(&s, "region ")) {
			err = !region_line(&s, &r) ? "malformed region line"
			    : c->nregions > 0 && !region_less(&prev_r, &r) ? "region lines out of order" : NULL;
			prev_r = r;
			c->nregions++;
		} else if (take(&s, "fn ")) {
			if (c->nregions)
				err = "fn line after the region lines";
			else if (!fn_head(&s, &fn))
				err = "malformed fn line";
			else if (nfns > 0 && !key_less(&prev, &fn))
				err = "fn lines out of order";
			else
				err = NULL;
			for (uint32_t i = 0; !err && i < fn.ncounters; i++)
				if (!take(&s, " ") || !dec(&s, UINT64_MAX, &v))
					err = "fewer counts than announced, or a malformed count";
			if (!err && *s != '\n')
				err = "more counts than announced";
			prev = fn;
			nfns++;
		} else if (take(&s, "end ")) {
			if (!dec(&s, UINT64_MAX, &v) || !take(&s, " ") || !hex(&s, 8, &crc) || *s != '\n')
				err = "malformed end line";
			else if (v != nfns)
				err = "fn line count differs from the end line's";
			else if ((uint32_t)crc != __roi_crc32(0, text, (size_t)(start - text)))
				err = "CRC mismatch";
			else if (eol + 1 == end) {
				c->runs = runs;
				return true;
			} else
				err = "data after the end line";
			break;
		} else {
			err = "unknown line";
		}
		if (err)
			break;
	}
	snprintf(why, whysize, "line %u: %s", line, err);
	return false;
}

/* Why a sum is refused, after the name of what is summed. */
static const char too_big[] = "%llu in the profile and %llu in this run add up to more than 2^64 - 1";

/* Walks the fn lines of a checked file alongside prof. Without add, reports the first difference in
 * why (ROI_OTHER_BUILD), else the first count whose sum would not fit (ROI_FULL); with add, adds
 * the counts. */
static enum roi_merge_result walk(const char *text, struct roi_profile *prof, bool add, char *why,
				  size_t whysize)
{
	const char *s = text;
	struct roi_fn fn;
	size_t j = 0;
	uint64_t v;
	char full[200] = "";

	for (int i = 0; i < 3; i++)
		s = next_line(s);
	if (strncmp(s, "hook-cost ", 10) == 0)
		s = next_line(s);
	if (strncmp(s, "hook-inside ", 12) == 0)
		s = next_line(s);
	for (; take(&s, "fn "); s = next_line(s), j++) {
		fn_head(&s, &fn);
		struct roi_fn *mine = j < prof->nfns ? &prof->fns[j] : NULL;
		if (!mine || key_less(&fn, mine)) {
			snprintf(why, whysize, "function %u of unit %016llx is not in this program",
				 (unsigned)fn.index, (unsigned long long)fn.unit);
			return ROI_OTHER_BUILD;
		}
		if (key_less(mine, &fn))
			break;
		if (fn.checksum != mine->checksum) {
			snprintf(why, whysize, "function %u of unit %016llx: checksum 0x%08x in the profile, "
				 "0x%08x in this program", (unsigned)fn.index, (unsigned long long)fn.unit,
				 (unsigned)fn.checksum, (unsigned)mine->checksum);
			return ROI_OTHER_BUILD;
		}
		if (fn.ncounters != mine->ncounters) {
			snprintf(why, whysize, "function %u of unit %016llx: %u counters in the profile, "
				 "%u in this program", (unsigned)fn.index, (unsigned long long)fn.unit,
				 (unsigned)fn.ncounters, (unsigned)mine->ncounters);
			return ROI_OTHER_BUILD;
		}
		for (uint32_t c = 0; c < fn.ncounters; c++) {
			take(&s, " ");
			dec(&s, UINT64_MAX, &v);
			if (add) {
				mine->counts[c] += v;
			} else if (v > UINT64_MAX - mine->counts[c] && !full[0]) {
				int n = snprintf(full, sizeof full, "counter %u of function %u of unit %016llx: ",
						 (unsigned)c, (unsigned)fn.index, (unsigned long long)fn.unit);
				snprintf(full + n, sizeof full - (size_t)n, too_big, (unsigned long long)v,
					 (unsigned long long)mine->counts[c]);
			}
		}
	}
	if (j < prof->nfns) {
		snprintf(why, whysize, "function %u of unit %016llx is not in the profile",
			 (unsigned)prof->fns[j].index, (unsigned long long)prof->fns[j].unit);
		return ROI_OTHER_BUILD;
	}
	if (full[0]) {
		snprintf(why, whysize, "%s", full);
		return ROI_FULL;
	}
	return ROI_MERGED;
}

/* As a double: only a weight, and a sum over regions may not fit in 64 bits. */
static double region_calls(const struct roi_region_stat *r, size_t n)
{
	double calls = 0;

	for (size_t i = 0; i < n; i++)
		calls += (double)r[i].calls;
	return calls;
}

/* a + b into *sum, or false when that does not fit in 64 bits, with why naming what does not. */
static bool add_region(uint64_t a, uint64_t b, uint64_t *sum, const struct roi_region_stat *r,
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
static enum roi_merge_result merge_regions(const char *text, const struct checked *c,
					   struct roi_profile *prof, char *why, size_t whysize)
{
	struct roi_region_stat *old, *all;
	const char *s = text;
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
	for (int k = 0; k < 3; k++)
		s = next_line(s);
	while (strncmp(s, "region ", 7) != 0)
		s = next_line(s);
	for (; i < c->nregions; i++) {
		take(&s, "region ");
		region_line(&s, &old[i]);       /* up to and with its '\n' */
	}
	for (i = 0; i < c->nregions || j < prof->nregions;) {
		if (j == prof->nregions || (i < c->nregions && region_less(&old[i], &prof->regions[j]))) {
			all[n++] = old[i++];
		} else if (i == c->nregions || region_less(&prof->regions[j], &old[i])) {
			all[n++] = prof->regions[j++];
		} else {
			const struct roi_region_stat *a = &old[i++], *b = &prof->regions[j++];
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

	if (!check(text, len, &c, why, whysize))
		return ROI_CORRUPT;
	/* Counts roi transfer computed for this build from another's run are an estimate: adding a
	 * measured run to them would pass the sum off as measured. */
	if (c.transferred) {
		snprintf(why, whysize, "its counts were transferred from another build's run by roi transfer");
		return ROI_OTHER_BUILD;
	}
	/* A sum that does not fit is refused like another build, not wrapped round (2^64 - 1 and 100
	 * made 99) nor cut to 2^64 - 1: either would be a wrong count that looks true. */
	if ((result = walk(text, prof, false, why, whysize)) != ROI_MERGED)
		return result;
	if (c.runs > UINT64_MAX - prof->runs) {
		int n = snprintf(why, whysize, "runs: ");
		snprintf(why + n, whysize - (size_t)n, too_big, (unsigned long long)c.runs,
			 (unsigned long long)prof->runs);
		return ROI_FULL;
	}
	if ((result = merge_regions(text, &c, prof, why, whysize)) != ROI_MERGED)
		return result;
	walk(text, prof, true, why, whysize);
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
	return ROI_MERGED;
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
				       mul_sat(prof->fns[i].ncounters, 1 + D64)));
	if (max_regions < prof->nregions)
		max_regions = prof->nregions;
	return add_sat(n, mul_sat(max_regions, sizeof "region     ns \n" - 1 + 16 + D32 + 3 * D64));
}
