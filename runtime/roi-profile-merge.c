/* roi-profile-merge.c — reading an existing profile (docs/formats.md §3, docs/regions.md) and adding
 * it to this run's.
 *
 * Counts are added only when the file is intact and comes from the same build: the same (unit, index)
 * set, and for each the same checksum and counter count. Like gcov, anything else is refused rather
 * than mixed; the caller keeps the old file aside. Regions are not part of that check: which of them
 * ran may differ from run to run, so the merged profile has the union, calls and times added. */
#include <errno.h>
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

/* Walks the fn lines of a checked file alongside prof. Without add, reports the first difference in
 * why; with add, adds the counts. */
static bool walk(const char *text, struct roi_profile *prof, bool add, char *why, size_t whysize)
{
	const char *s = text;
	struct roi_fn fn;
	size_t j = 0;
	uint64_t v;

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
			return false;
		}
		if (key_less(mine, &fn))
			break;
		if (fn.checksum != mine->checksum) {
			snprintf(why, whysize, "function %u of unit %016llx: checksum 0x%08x in the profile, "
				 "0x%08x in this program", (unsigned)fn.index, (unsigned long long)fn.unit,
				 (unsigned)fn.checksum, (unsigned)mine->checksum);
			return false;
		}
		if (fn.ncounters != mine->ncounters) {
			snprintf(why, whysize, "function %u of unit %016llx: %u counters in the profile, "
				 "%u in this program", (unsigned)fn.index, (unsigned long long)fn.unit,
				 (unsigned)fn.ncounters, (unsigned)mine->ncounters);
			return false;
		}
		for (uint32_t c = 0; add && c < fn.ncounters; c++) {
			take(&s, " ");
			dec(&s, UINT64_MAX, &v);
			mine->counts[c] += v;
		}
	}
	if (j < prof->nfns) {
		snprintf(why, whysize, "function %u of unit %016llx is not in the profile",
			 (unsigned)prof->fns[j].index, (unsigned long long)prof->fns[j].unit);
		return false;
	}
	return true;
}

static uint64_t region_calls(const struct roi_region_stat *r, size_t n)
{
	uint64_t calls = 0;

	for (size_t i = 0; i < n; i++)
		calls += r[i].calls;
	return calls;
}

/* The union of the file's region lines (c->nregions of them, checked) and prof's, both sorted. */
static bool merge_regions(const char *text, const struct checked *c, struct roi_profile *prof)
{
	struct roi_region_stat *old, *all;
	const char *s = text;
	size_t i = 0, j = 0, n = 0;

	if (c->nregions == 0)
		return true;
	old = malloc(c->nregions * sizeof *old);
	all = malloc((c->nregions + prof->nregions) * sizeof *all);
	if (!old || !all) {
		free(old);
		free(all);
		errno = ENOMEM;
		return false;
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
			all[n] = prof->regions[j++];
			all[n].calls += old[i].calls;
			all[n].inner += old[i].inner;
			all[n++].total += old[i++].total;
		}
	}
	free(old);
	free(prof->regions);
	prof->regions = all;
	prof->nregions = n;
	return true;
}

enum roi_merge_result __roi_profile_merge(const char *text, size_t len, struct roi_profile *prof,
					  char *why, size_t whysize)
{
	struct checked c;
	uint64_t mine = region_calls(prof->regions, prof->nregions), theirs;

	if (!check(text, len, &c, why, whysize))
		return ROI_CORRUPT;
	/* Counts roi transfer computed for this build from another's run are an estimate: adding a
	 * measured run to them would pass the sum off as measured. */
	if (c.transferred) {
		snprintf(why, whysize, "its counts were transferred from another build's run by roi transfer");
		return ROI_OTHER_BUILD;
	}
	if (!walk(text, prof, false, why, whysize))
		return ROI_OTHER_BUILD;
	if (!merge_regions(text, &c, prof))
		return ROI_MERGE_FAILED;
	walk(text, prof, true, why, whysize);
	prof->runs += c.runs;
	/* The hooks' cost per pair, as the mean over every region entry of both: calls x cost then
	 * stays what each run's own calibration says. */
	theirs = region_calls(prof->regions, prof->nregions) - mine;
	if (c.has_hook_cost && !prof->has_hook_cost) {
		prof->hook_cost = c.hook_cost;
		prof->hook_inside = c.hook_inside;
	} else if (c.has_hook_cost && mine + theirs > 0) {
		prof->hook_cost = (prof->hook_cost * (double)mine + c.hook_cost * (double)theirs) /
				  (double)(mine + theirs);
		prof->hook_inside = (prof->hook_inside * (double)mine + c.hook_inside * (double)theirs) /
				    (double)(mine + theirs);
	}
	prof->has_hook_cost |= c.has_hook_cost;
	return ROI_MERGED;
}
