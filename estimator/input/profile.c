/* profile.c — reading and writing profiles, see profile.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/crc32.h"
#include "base/readfile.h"
#include "input/profile.h"

/* A cursor over one line's space-separated fields. */
struct line {
	const char *p, *end;
	const char *path;
	unsigned no;
	struct roi_err *err;
};

static int bad(const struct line *l, const char *what)
{
	return roi_err_set(l->err, "%s:%u: %s", l->path, l->no, what);
}

/* The next field; fields are separated by exactly one space. */
static int field(struct line *l, const char *what, const char **s, size_t *n)
{
	char msg[128];

	if (l->p > l->end || (l->p == l->end && l->p[-1] != ' ')) {
		snprintf(msg, sizeof msg, "missing %s", what);
		return bad(l, msg);
	}
	*s = l->p;
	for (*n = 0; *s + *n < l->end && (*s)[*n] != ' '; ++*n)
		;
	if (*n == 0) {
		snprintf(msg, sizeof msg, "empty %s (two spaces or a trailing space?)", what);
		return bad(l, msg);
	}
	l->p += *n + 1;
	return 0;
}

static int decimal(struct line *l, const char *what, uint64_t max, uint64_t *out)
{
	const char *s;
	size_t n;
	uint64_t v = 0;
	char msg[128];

	if (field(l, what, &s, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (max - (uint64_t)(s[i] - '0')) / 10) {
			snprintf(msg, sizeof msg, "%s '%.*s' is not a decimal number up to %llu", what,
				 (int)(n > 32 ? 32 : n), s, (unsigned long long)max);
			return bad(l, msg);
		}
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* Exactly `digits` hex digits, after an optional required prefix. */
static int hex(struct line *l, const char *what, const char *prefix, size_t digits, uint64_t *out)
{
	const char *s;
	size_t n, k = strlen(prefix);
	char msg[128];

	if (field(l, what, &s, &n) != 0)
		return -1;
	if (n != k + digits || strncmp(s, prefix, k) != 0 || strspn(s + k, "0123456789abcdefABCDEF") < digits) {
		snprintf(msg, sizeof msg, "%s '%.*s' is not %s%zu hex digits", what, (int)(n > 32 ? 32 : n), s,
			 *prefix ? "0x and " : "", digits);
		return bad(l, msg);
	}
	*out = strtoull(s + k, NULL, 16);
	return 0;
}

static int end_of_line(struct line *l)
{
	if (l->p < l->end)
		return bad(l, "unexpected data at the end of the line");
	return 0;
}

static int parse_fn(struct line *l, struct roi_arena *a, struct roi_profile_fn *fn)
{
	uint64_t unit, index, checksum, n;
	char msg[128];

	if (hex(l, "unit", "", 16, &unit) || decimal(l, "function index", UINT32_MAX, &index) ||
	    hex(l, "checksum", "0x", 8, &checksum) || decimal(l, "counter count", UINT32_MAX, &n))
		return -1;
	/* Each count takes at least two bytes ("0 "), which bounds n before allocating. */
	if (n > (uint64_t)(l->end - l->p + 1) / 2) {
		snprintf(msg, sizeof msg, "%llu counters announced, the line is too short for them",
			 (unsigned long long)n);
		return bad(l, msg);
	}
	uint64_t *c = roi_arena_array(a, (size_t)n, sizeof *c);
	for (size_t i = 0; i < n; i++) {
		snprintf(msg, sizeof msg, "count %zu of %llu", i + 1, (unsigned long long)n);
		if (decimal(l, msg, UINT64_MAX, &c[i]) != 0)
			return -1;
	}
	if (l->p < l->end) {
		snprintf(msg, sizeof msg, "more than the %llu counts announced", (unsigned long long)n);
		return bad(l, msg);
	}
	*fn = (struct roi_profile_fn){unit, (uint32_t)index, (uint32_t)checksum, (size_t)n, c, l->no};
	return 0;
}

/* "ns" or "cycles", the same on every line of a profile. */
static int time_unit(struct line *l, struct roi_profile *prof, const char **unit_line_msg)
{
	const char *s;
	size_t n;
	char msg[160];

	if (field(l, "time unit ('ns' or 'cycles')", &s, &n) != 0)
		return -1;
	if (!((n == 2 && strncmp(s, "ns", 2) == 0) || (n == 6 && strncmp(s, "cycles", 6) == 0))) {
		snprintf(msg, sizeof msg, "time unit '%.*s' is not 'ns' or 'cycles'", (int)(n > 32 ? 32 : n), s);
		return bad(l, msg);
	}
	if (prof->timing.unit && strncmp(prof->timing.unit, s, n) != 0) {
		snprintf(msg, sizeof msg, "time unit '%.*s' differs from the '%s' of %s", (int)n, s, prof->timing.unit,
			 *unit_line_msg);
		return bad(l, msg);
	}
	if (!prof->timing.unit) {
		prof->timing.unit = n == 2 ? "ns" : "cycles";
		*unit_line_msg = roi_arena_printf(&prof->arena, "line %u", l->no);
	}
	return 0;
}

/* "COST UNIT" after "hook-cost" or "hook-inside": a decimal number, with an optional fraction. */
static int parse_hook_cost(struct line *l, struct roi_profile *prof, double *out, const char **unit_line_msg)
{
	const char *s;
	size_t n, whole;
	char msg[128];

	if (field(l, "hook cost", &s, &n) != 0)
		return -1;
	whole = strspn(s, "0123456789");
	if (whole == 0 || whole > 18 || (whole < n && (s[whole] != '.' || whole + 1 == n || n - whole - 1 > 9 ||
						     strspn(s + whole + 1, "0123456789") != n - whole - 1))) {
		snprintf(msg, sizeof msg, "hook cost '%.*s' is not a decimal number (digits, optionally '.' and digits)",
			 (int)(n > 32 ? 32 : n), s);
		return bad(l, msg);
	}
	double v = 0, scale = 1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.')
			continue;
		if (i > whole)
			scale *= 10;
		v = v * 10 + (s[i] - '0');
	}
	*out = v / scale;
	return time_unit(l, prof, unit_line_msg) || end_of_line(l);
}

static int parse_region(struct line *l, struct roi_profile *prof, struct roi_profile_region *r,
			const char **unit_line_msg)
{
	uint64_t unit, index, calls, total, inner = 0;
	bool has_inner = false;

	if (hex(l, "unit", "", 16, &unit) || decimal(l, "region index", UINT32_MAX, &index) ||
	    decimal(l, "call count", UINT64_MAX, &calls) || decimal(l, "total", UINT64_MAX, &total) ||
	    time_unit(l, prof, unit_line_msg))
		return -1;
	/* The hook enters inside it; profiles before 2026-11 end with the unit. */
	if (l->p < l->end) {
		if (decimal(l, "inner hook count", UINT64_MAX, &inner) != 0)
			return -1;
		has_inner = true;
	}
	if (end_of_line(l) != 0)
		return -1;
	*r = (struct roi_profile_region){unit, (uint32_t)index, calls, total, inner, has_inner, l->no};
	return 0;
}

static int cmp_region(const void *a, const void *b)
{
	const struct roi_profile_region *x = *(const struct roi_profile_region *const *)a;
	const struct roi_profile_region *y = *(const struct roi_profile_region *const *)b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int check_region_duplicates(const char *path, const struct roi_profile_region *r, size_t n,
				   struct roi_err *err)
{
	const struct roi_profile_region **s = roi_xrealloc(NULL, n, sizeof *s);
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		s[i] = &r[i];
	qsort(s, n, sizeof *s, cmp_region);
	for (size_t i = 1; i < n && rc == 0; i++)
		if (s[i]->unit == s[i - 1]->unit && s[i]->index == s[i - 1]->index)
			rc = roi_err_set(err, "%s:%u: region %u of unit %016llx appears twice (first on line %u)", path,
					 s[i]->line, (unsigned)s[i]->index, (unsigned long long)s[i]->unit, s[i - 1]->line);
	free(s);
	return rc;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct roi_profile_fn *x = *(const struct roi_profile_fn *const *)a;
	const struct roi_profile_fn *y = *(const struct roi_profile_fn *const *)b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int check_duplicates(const char *path, const struct roi_profile_fn *fns, size_t n, struct roi_err *err)
{
	const struct roi_profile_fn **s = roi_xrealloc(NULL, n, sizeof *s);
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		s[i] = &fns[i];
	qsort(s, n, sizeof *s, cmp_fn);
	for (size_t i = 1; i < n && rc == 0; i++)
		if (s[i]->unit == s[i - 1]->unit && s[i]->index == s[i - 1]->index)
			rc = roi_err_set(err, "%s:%u: function %u of unit %016llx appears twice (first on line %u)",
					 path, s[i]->line, (unsigned)s[i]->index, (unsigned long long)s[i]->unit,
					 s[i - 1]->line);
	free(s);
	return rc;
}

/* The parser's state between lines. */
struct parser {
	const char *data, *next;        /* whole text; start of the next line */
	size_t size;
	struct roi_profile *prof;
	struct roi_profile_fn *fns;     /* grows; moved into the arena at the end */
	size_t cap;
	struct roi_profile_region *regions;     /* likewise */
	size_t nregions, rcap;
	const char *unit_line;          /* "line N": where the time unit was first given */
};

/* The last line of the header: the runs line, or the transferred line after it. */
static unsigned header_end(const struct parser *ps)
{
	return ps->prof->transferred ? 4 : 3;
}

static int header_line(struct line *l, struct roi_profile *prof)
{
	uint64_t v;
	char msg[96];

	if (l->no == 1) {
		if (l->end - l->p < 12 || strncmp(l->p, "roi-profile ", 12) != 0)
			return bad(l, "not a roi profile (expected 'roi-profile 1')");
		l->p += 12;
		if (decimal(l, "profile version", UINT32_MAX, &v) || end_of_line(l))
			return -1;
		if (v != 1) {
			snprintf(msg, sizeof msg, "unsupported profile version %llu (this roi reads version 1)",
				 (unsigned long long)v);
			return bad(l, msg);
		}
	} else if (l->no == 2) {
		if (l->end - l->p < 9 || strncmp(l->p, "program ", 8) != 0)
			return bad(l, "expected 'program PATH'");
		prof->program = roi_arena_printf(&prof->arena, "%.*s", (int)(l->end - l->p - 8), l->p + 8);
	} else {
		if (l->end - l->p < 5 || strncmp(l->p, "runs ", 5) != 0)
			return bad(l, "expected 'runs N'");
		l->p += 5;
		if (decimal(l, "run count", UINT64_MAX, &prof->runs) || end_of_line(l))
			return -1;
	}
	return 0;
}

static int end_line(struct line *l, struct parser *ps, const char *start)
{
	uint64_t count, crc;
	uint32_t mine = roi_crc32(0, ps->data, (size_t)(start - ps->data));
	char msg[160];

	if (decimal(l, "function count", UINT64_MAX, &count) || hex(l, "CRC", "", 8, &crc) || end_of_line(l))
		return -1;
	if (count != ps->prof->nfns) {
		snprintf(msg, sizeof msg, "end line counts %llu functions, the profile has %zu",
			 (unsigned long long)count, ps->prof->nfns);
		return bad(l, msg);
	}
	if (crc != mine) {
		snprintf(msg, sizeof msg, "CRC mismatch: end line says %08llx, content has %08x "
			 "(damaged or edited profile)", (unsigned long long)crc, (unsigned)mine);
		return bad(l, msg);
	}
	if (ps->next != ps->data + ps->size) {
		l->no++;
		return bad(l, "data after the end line");
	}
	return 0;
}

/* Reads line l->no; returns 1 after a good end line, 0 to go on, -1 on error. */
static int next_line(struct line *l, struct parser *ps)
{
	const char *nl, *s;
	size_t n;

	l->no++;
	if (ps->next == ps->data + ps->size)
		return bad(l, l->no == 1 ? "empty file, not a roi profile" : "missing end line (truncated profile?)");
	l->p = ps->next;
	nl = memchr(l->p, '\n', (size_t)(ps->data + ps->size - l->p));
	l->end = nl ? nl : ps->data + ps->size;
	ps->next = nl ? nl + 1 : l->end;
	if (l->end > l->p && l->end[-1] == '\r')
		return bad(l, "carriage return at the end of the line (DOS line endings?)");
	if (memchr(l->p, '\0', (size_t)(l->end - l->p)))
		return bad(l, l->no == 1 ? "not a roi profile (binary data)" : "NUL byte in the profile");
	if (l->no <= 3)
		return header_line(l, ps->prof);
	if (field(l, "record type", &s, &n) != 0)
		return -1;
	if (n == 3 && strncmp(s, "end", 3) == 0)
		return end_line(l, ps, s) == 0 ? 1 : -1;
	if (n == 11 && strncmp(s, "transferred", 11) == 0) {
		if (l->no != 4)
			return bad(l, "the transferred line must come right after the runs line");
		if (l->p >= l->end)
			return bad(l, "expected 'transferred PATH'");
		ps->prof->transferred = roi_arena_printf(&ps->prof->arena, "%.*s", (int)(l->end - l->p), l->p);
		return 0;
	}
	if (n == 9 && strncmp(s, "hook-cost", 9) == 0) {
		if (l->no != header_end(ps) + 1)
			return bad(l, "the hook-cost line must come right after the runs line (or the transferred line)");
		ps->prof->timing.has_hook_cost = true;
		if (parse_hook_cost(l, ps->prof, &ps->prof->timing.hook_cost, &ps->unit_line) != 0)
			return -1;
		ps->prof->timing.hook_inside = ps->prof->timing.hook_cost;
		return 0;
	}
	if (n == 11 && strncmp(s, "hook-inside", 11) == 0) {
		if (l->no != header_end(ps) + 2 || !ps->prof->timing.has_hook_cost)
			return bad(l, "the hook-inside line must come right after the hook-cost line");
		return parse_hook_cost(l, ps->prof, &ps->prof->timing.hook_inside, &ps->unit_line);
	}
	if (n == 6 && strncmp(s, "region", 6) == 0) {
		if (!nl)
			return bad(l, "incomplete line, missing end line (truncated profile?)");
		if (ps->nregions == ps->rcap)
			ps->regions = roi_xrealloc(ps->regions, ps->rcap = ps->rcap ? 2 * ps->rcap : 16,
						   sizeof *ps->regions);
		if (parse_region(l, ps->prof, &ps->regions[ps->nregions], &ps->unit_line) != 0)
			return -1;
		ps->nregions++;
		return 0;
	}
	if (n != 2 || strncmp(s, "fn", 2) != 0)
		return bad(l, "expected 'fn', 'region' or 'end'");
	if (!nl)
		return bad(l, "incomplete line, missing end line (truncated profile?)");
	if (ps->nregions)
		return bad(l, "fn line after the region lines (fn lines come first)");
	if (ps->prof->nfns == ps->cap)
		ps->fns = roi_xrealloc(ps->fns, ps->cap = ps->cap ? 2 * ps->cap : 64, sizeof *ps->fns);
	if (parse_fn(l, &ps->prof->arena, &ps->fns[ps->prof->nfns]) != 0)
		return -1;
	ps->prof->nfns++;
	return 0;
}

int roi_profile_parse(const char *path, const char *data, size_t size, struct roi_profile *prof,
		      struct roi_err *err)
{
	struct line l = {data, data, path, 0, err};
	struct parser ps = {data, data, size, prof, NULL, 0, NULL, 0, 0, NULL};
	int rc;

	memset(prof, 0, sizeof *prof);
	prof->path = roi_arena_strdup(&prof->arena, path);
	while ((rc = next_line(&l, &ps)) == 0)
		;
	if (rc > 0) {
		/* Keep the array in the arena, so the profile is freed in one go. */
		struct roi_profile_fn *a = roi_arena_array(&prof->arena, prof->nfns, sizeof *a);

		if (prof->nfns)
			memcpy(a, ps.fns, prof->nfns * sizeof *a);
		prof->fns = a;
		struct roi_profile_region *r = roi_arena_array(&prof->arena, ps.nregions, sizeof *r);
		if (ps.nregions)
			memcpy(r, ps.regions, ps.nregions * sizeof *r);
		prof->timing.regions = r;
		prof->timing.nregions = ps.nregions;
	}
	free(ps.fns);
	free(ps.regions);
	if (rc < 0 || check_duplicates(path, prof->fns, prof->nfns, err) != 0)
		return -1;
	return check_region_duplicates(path, prof->timing.regions, prof->timing.nregions, err);
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

	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return roi_err_set(err, "out of memory");
	fprintf(m, "roi-profile 1\nprogram %s\nruns %llu\n", program, (unsigned long long)runs);
	if (transferred)
		fprintf(m, "transferred %s\n", transferred);
	if (timing && timing->has_hook_cost)
		fprintf(m, "hook-cost %.2f %s\nhook-inside %.2f %s\n", timing->hook_cost, unit, timing->hook_inside, unit);
	for (size_t i = 0; i < nfns; i++) {
		fprintf(m, "fn %016llx %u 0x%08x %zu", (unsigned long long)fns[i].unit, (unsigned)fns[i].index,
			(unsigned)fns[i].checksum, fns[i].ncounters);
		for (size_t c = 0; c < fns[i].ncounters; c++)
			fprintf(m, " %llu", (unsigned long long)fns[i].counts[c]);
		fputc('\n', m);
	}
	for (size_t i = 0; timing && i < timing->nregions; i++) {
		const struct roi_profile_region *r = &timing->regions[i];
		fprintf(m, "region %016llx %u %llu %llu %s", (unsigned long long)r->unit, (unsigned)r->index,
			(unsigned long long)r->calls, (unsigned long long)r->total, unit);
		if (r->has_inner)
			fprintf(m, " %llu", (unsigned long long)r->inner);
		fputc('\n', m);
	}
	if (fclose(m) != 0) {
		free(text);
		return roi_err_set(err, "out of memory");
	}
	int ok = fwrite(text, 1, len, out) == len &&
		 fprintf(out, "end %zu %08x\n", nfns, (unsigned)roi_crc32(0, text, len)) > 0;
	free(text);
	return ok ? 0 : roi_err_set(err, "cannot write the profile");
}
