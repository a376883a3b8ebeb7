/* roi-profile-io.c — the profile's one reader and one writer (roi-profile-io.h has the grammar).
 * Compiled into libroi.a, and included by the estimator's input/profile.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roi-crc32.h"
#include "roi-profile-io.h"

/* Hidden in libroi.a, as the rest of the runtime (roi-internal.h); harmless in roi. */
#pragma GCC visibility push(hidden)

__attribute__((format(printf, 2, 3))) static int pf_bad(struct roi_pf_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next field of the current line into s, n; fields are separated by exactly one space. */
static int pf_field(struct roi_pf_reader *r, const char *what, const char **s, size_t *n)
{
	if (r->p > r->eol || (r->p == r->eol && r->p[-1] != ' '))
		return pf_bad(r, "missing %s", what);
	*s = r->p;
	for (*n = 0; *s + *n < r->eol && (*s)[*n] != ' '; ++*n)
		;
	if (*n == 0)
		return pf_bad(r, "empty %s (two spaces or a trailing space?)", what);
	r->p += *n + 1;
	return 0;
}

static int pf_decimal(struct roi_pf_reader *r, const char *what, uint64_t max, uint64_t *out)
{
	const char *s;
	size_t n;
	uint64_t v = 0;

	if (pf_field(r, what, &s, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (max - (uint64_t)(s[i] - '0')) / 10)
			return pf_bad(r, "%s '%.*s' is not a decimal number up to %llu", what, (int)(n > 32 ? 32 : n), s,
				      (unsigned long long)max);
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static int pf_hexdigit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Exactly `digits` hex digits, after prefix. */
static int pf_hex(struct roi_pf_reader *r, const char *what, const char *prefix, size_t digits, uint64_t *out)
{
	const char *s;
	size_t n, k = __roi_strlen(prefix);
	uint64_t v = 0;
	bool ok;

	if (pf_field(r, what, &s, &n) != 0)
		return -1;
	ok = n == k + digits && __roi_same(s, prefix, k);
	for (size_t i = k; ok && i < n; i++) {
		int d = pf_hexdigit(s[i]);
		ok = d >= 0;
		v = v << 4 | (uint64_t)(d & 15);
	}
	if (!ok)
		return pf_bad(r, "%s '%.*s' is not %s%zu hex digits", what, (int)(n > 32 ? 32 : n), s,
			      *prefix ? "0x and " : "", digits);
	*out = v;
	return 0;
}

static int pf_end_of_line(struct roi_pf_reader *r)
{
	return r->p < r->eol ? pf_bad(r, "unexpected data at the end of the line") : 0;
}

/* "ns" or "cycles", the same on every line of a profile. */
static int pf_time_unit(struct roi_pf_reader *r)
{
	const char *s;
	size_t n;

	if (pf_field(r, "time unit ('ns' or 'cycles')", &s, &n) != 0)
		return -1;
	if (!((n == 2 && __roi_same(s, "ns", 2)) || (n == 6 && __roi_same(s, "cycles", 6))))
		return pf_bad(r, "time unit '%.*s' is not 'ns' or 'cycles'", (int)(n > 32 ? 32 : n), s);
	if (r->unit && (__roi_strlen(r->unit) != n || !__roi_same(r->unit, s, n)))
		return pf_bad(r, "time unit '%.*s' differs from the '%s' of line %u", (int)n, s, r->unit, r->unit_line);
	if (!r->unit) {
		r->unit = n == 2 ? "ns" : "cycles";
		r->unit_line = r->line;
	}
	return 0;
}

/* "COST UNIT": a decimal number, with an optional fraction. */
static int pf_hook_cost(struct roi_pf_reader *r, double *out)
{
	const char *s;
	size_t n, whole;
	double v = 0, scale = 1;

	if (pf_field(r, "hook cost", &s, &n) != 0)
		return -1;
	whole = strspn(s, "0123456789");
	if (whole == 0 || whole > 18 || (whole < n && (s[whole] != '.' || whole + 1 == n || n - whole - 1 > 9 ||
						     strspn(s + whole + 1, "0123456789") != n - whole - 1)))
		return pf_bad(r, "hook cost '%.*s' is not a decimal number (digits, optionally '.' and digits)",
			      (int)(n > 32 ? 32 : n), s);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.')
			continue;
		if (i > whole)
			scale *= 10;
		v = v * 10 + (s[i] - '0');
	}
	*out = v / scale;
	return pf_time_unit(r) || pf_end_of_line(r);
}

static int pf_fn(struct roi_pf_reader *r, struct roi_pf_record *rec)
{
	uint64_t unit, index, checksum, n, v;
	char what[64];

	if (pf_hex(r, "unit", "", 16, &unit) || pf_decimal(r, "function index", UINT32_MAX, &index) ||
	    pf_hex(r, "checksum", "0x", 8, &checksum) || pf_decimal(r, "counter count", UINT32_MAX, &n))
		return -1;
	/* Each count takes at least two bytes ("0 "), which bounds n before anything is read. */
	if (n > (uint64_t)(r->eol - r->p + 1) / 2)
		return pf_bad(r, "%llu counters announced, the line is too short for them", (unsigned long long)n);
	rec->counts = r->p;
	for (uint64_t i = 0; i < n; i++) {
		const char *at = r->p;

		if (pf_decimal(r, "count", UINT64_MAX, &v) == 0)
			continue;
		/* The message names the count; its name is only made when it is needed. */
		snprintf(what, sizeof what, "count %llu of %llu", (unsigned long long)i + 1, (unsigned long long)n);
		r->p = at;
		pf_decimal(r, what, UINT64_MAX, &v);
		return -1;
	}
	if (r->p < r->eol)
		return pf_bad(r, "more than the %llu counts announced", (unsigned long long)n);
	rec->fn = (struct roi_pf_fn){unit, (uint32_t)index, (uint32_t)checksum, (uint32_t)n};
	return 0;
}

static int pf_region(struct roi_pf_reader *r, struct roi_pf_record *rec)
{
	uint64_t unit, index, calls, total, inner = 0;
	bool has_inner = false;

	if (pf_hex(r, "unit", "", 16, &unit) || pf_decimal(r, "region index", UINT32_MAX, &index) ||
	    pf_decimal(r, "call count", UINT64_MAX, &calls) || pf_decimal(r, "total", UINT64_MAX, &total) ||
	    pf_time_unit(r))
		return -1;
	/* The hook enters inside it; profiles before 2026-11 end with the unit. */
	if (r->p < r->eol) {
		if (pf_decimal(r, "inner hook count", UINT64_MAX, &inner) != 0)
			return -1;
		has_inner = true;
	}
	if (pf_end_of_line(r) != 0)
		return -1;
	rec->region = (struct roi_pf_region){unit, (uint32_t)index, calls, total, inner, has_inner};
	return 0;
}

/* Moves to the next line; 0, or -1 when there is none (why says so) or it holds what no line may. */
static int pf_line(struct roi_pf_reader *r)
{
	const char *nl;

	r->line++;
	if (r->next == r->end)
		return pf_bad(r, "%s", r->line == 1 ? "empty file, not a roi profile" : "missing end line (truncated profile?)");
	r->p = r->next;
	nl = __roi_find(r->p, r->end, '\n');
	r->eol = nl ? nl : r->end;
	r->next = nl ? nl + 1 : r->eol;
	if (r->eol > r->p && r->eol[-1] == '\r')
		return pf_bad(r, "carriage return at the end of the line (DOS line endings?)");
	if (__roi_find(r->p, r->eol, '\0'))
		return pf_bad(r, "%s", r->line == 1 ? "not a roi profile (binary data)" : "NUL byte in the profile");
	return 0;
}

/* Whether the current line starts with the record type word, then moved past it and its space. */
static bool pf_type(struct roi_pf_reader *r, const char *word)
{
	size_t n = __roi_strlen(word);

	if ((size_t)(r->eol - r->p) < n || !__roi_same(r->p, word, n) || (r->p + n < r->eol && r->p[n] != ' '))
		return false;
	r->p += n + (r->p + n < r->eol);
	return true;
}

int __roi_pf_begin(struct roi_pf_reader *r, const char *data, size_t size)
{
	uint64_t v;

	*r = (struct roi_pf_reader){0};
	r->data = r->next = data;
	r->end = data + size;
	if (pf_line(r) != 0)
		return -1;
	if (r->eol - r->p < 12 || !__roi_same(r->p, ROI_PROFILE_MAGIC " ", 12))
		return pf_bad(r, "not a roi profile (expected 'roi-profile 1')");
	r->p += 12;
	if (pf_decimal(r, "profile version", UINT32_MAX, &v) || pf_end_of_line(r))
		return -1;
	if (v != ROI_PROFILE_VERSION)
		return pf_bad(r, "unsupported profile version %llu (this roi reads version 1)", (unsigned long long)v);
	if (pf_line(r) != 0)
		return -1;
	if (r->eol - r->p < 9 || !__roi_same(r->p, "program ", 8))
		return pf_bad(r, "expected 'program PATH'");
	r->program = r->p + 8;
	r->program_len = (size_t)(r->eol - r->program);
	if (pf_line(r) != 0)
		return -1;
	if (r->eol - r->p < 5 || !__roi_same(r->p, "runs ", 5))
		return pf_bad(r, "expected 'runs N'");
	r->p += 5;
	return pf_decimal(r, "run count", UINT64_MAX, &r->runs) || pf_end_of_line(r);
}

/* The end line: the count of fn lines, the CRC of everything before it, nothing after it. */
static int pf_end(struct roi_pf_reader *r, const char *start)
{
	uint64_t count, crc;
	uint32_t mine = __roi_crc32(0, r->data, (size_t)(start - r->data));

	if (pf_decimal(r, "function count", UINT64_MAX, &count) || pf_hex(r, "CRC", "", 8, &crc) ||
	    pf_end_of_line(r))
		return -1;
	if (count != r->nfns)
		return pf_bad(r, "end line counts %llu functions, the profile has %llu", (unsigned long long)count,
			      (unsigned long long)r->nfns);
	if (crc != mine)
		return pf_bad(r, "CRC mismatch: end line says %08llx, content has %08x (damaged or edited profile)",
			      (unsigned long long)crc, (unsigned)mine);
	if (r->next != r->end) {
		r->line++;
		return pf_bad(r, "data after the end line");
	}
	return 0;
}

int __roi_pf_next(struct roi_pf_reader *r, struct roi_pf_record *rec)
{
	const char *start;
	unsigned header = r->transferred ? 4 : 3;       /* the last line before the hook costs */

	if (pf_line(r) != 0)
		return -1;
	*rec = (struct roi_pf_record){0};
	rec->line = r->line;
	start = r->p;
	if (pf_type(r, "end"))
		return pf_end(r, start) == 0 ? 0 : -1;
	if (pf_type(r, "transferred")) {
		if (r->line != 4)
			return pf_bad(r, "the transferred line must come right after the runs line");
		if (r->p >= r->eol)
			return pf_bad(r, "expected 'transferred PATH'");
		r->transferred = true;
		rec->kind = ROI_PF_TRANSFERRED;
		rec->str = r->p;
		rec->str_len = (size_t)(r->eol - r->p);
		return 1;
	}
	if (pf_type(r, "hook-cost")) {
		if (r->line != header + 1)
			return pf_bad(r, "the hook-cost line must come right after the runs line (or the transferred line)");
		r->has_hook_cost = true;
		rec->kind = ROI_PF_HOOK_COST;
		return pf_hook_cost(r, &rec->cost) == 0 ? 1 : -1;
	}
	if (pf_type(r, "hook-inside")) {
		if (r->line != header + 2 || !r->has_hook_cost)
			return pf_bad(r, "the hook-inside line must come right after the hook-cost line");
		rec->kind = ROI_PF_HOOK_INSIDE;
		return pf_hook_cost(r, &rec->cost) == 0 ? 1 : -1;
	}
	if (pf_type(r, "region")) {
		if (r->eol == r->end)
			return pf_bad(r, "incomplete line, missing end line (truncated profile?)");
		rec->kind = ROI_PF_REGION;
		r->nregions++;
		return pf_region(r, rec) == 0 ? 1 : -1;
	}
	if (!pf_type(r, "fn")) {
		const char *s;
		size_t n;

		return pf_field(r, "record type", &s, &n) != 0 ? -1 : pf_bad(r, "expected 'fn', 'region' or 'end'");
	}
	if (r->eol == r->end)
		return pf_bad(r, "incomplete line, missing end line (truncated profile?)");
	if (r->nregions)
		return pf_bad(r, "fn line after the region lines (fn lines come first)");
	rec->kind = ROI_PF_FN;
	r->nfns++;
	return pf_fn(r, rec) == 0 ? 1 : -1;
}

uint64_t __roi_pf_count(const char **cursor)
{
	const char *s = *cursor;
	uint64_t v = 0;

	while (*s == ' ')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	*cursor = s;
	return v;
}

/* Room for n more bytes; false (and failed set) when there is none. */
static bool pf_room(struct roi_pf_out *o, size_t n)
{
	if (o->failed)
		return false;
	if (n <= o->cap - o->len)
		return true;
	size_t cap = o->cap ? o->cap : 256;
	while (cap - o->len < n) {
		if (cap > SIZE_MAX / 2) {
			o->failed = true;
			return false;
		}
		cap *= 2;
	}
	char *text = o->text ? realloc(o->text, cap) : malloc(cap);
	if (!text) {
		o->failed = true;
		return false;
	}
	o->text = text;
	o->cap = cap;
	return true;
}

void __roi_pf_reserve(struct roi_pf_out *o, size_t bytes)
{
	pf_room(o, bytes);
}

static void pf_put_str(struct roi_pf_out *o, const char *s)
{
	size_t n = __roi_strlen(s);

	if (!pf_room(o, n + 1))
		return;
	__roi_copy(o->text + o->len, s);        /* and its NUL, which the next put overwrites */
	o->len += n;
}

static void pf_put_char(struct roi_pf_out *o, char c)
{
	if (pf_room(o, 1))
		o->text[o->len++] = c;
}

/* Decimal, without leading zeros. */
static void pf_put_dec(struct roi_pf_out *o, uint64_t v)
{
	unsigned width = 1;

	for (uint64_t rest = v / 10; rest != 0; rest /= 10)
		width++;
	if (!pf_room(o, width))
		return;
	for (unsigned i = width; i-- > 0; v /= 10)
		o->text[o->len + i] = (char)('0' + v % 10);
	o->len += width;
}

/* Lower-case hexadecimal, exactly `width` digits. */
static void pf_put_hex(struct roi_pf_out *o, uint64_t v, unsigned width)
{
	if (!pf_room(o, width))
		return;
	for (unsigned i = width; i-- > 0; v >>= 4)
		o->text[o->len + i] = "0123456789abcdef"[v & 15];
	o->len += width;
}

void __roi_pf_put_header(struct roi_pf_out *o, const char *program, uint64_t runs, const char *transferred)
{
	pf_put_str(o, ROI_PROFILE_MAGIC " ");
	pf_put_dec(o, ROI_PROFILE_VERSION);
	pf_put_str(o, "\nprogram ");
	pf_put_str(o, program);
	pf_put_str(o, "\nruns ");
	pf_put_dec(o, runs);
	pf_put_char(o, '\n');
	if (transferred) {
		pf_put_str(o, "transferred ");
		pf_put_str(o, transferred);
		pf_put_char(o, '\n');
	}
}

/* "NAME 12.34 UNIT", to the hundredth. */
static void pf_put_cost(struct roi_pf_out *o, const char *name, double cost, const char *unit)
{
	uint64_t cents = (uint64_t)(cost * 100 + 0.5);

	pf_put_str(o, name);
	pf_put_char(o, ' ');
	pf_put_dec(o, cents / 100);
	pf_put_char(o, '.');
	pf_put_char(o, (char)('0' + cents % 100 / 10));
	pf_put_char(o, (char)('0' + cents % 10));
	pf_put_char(o, ' ');
	pf_put_str(o, unit);
	pf_put_char(o, '\n');
}

void __roi_pf_put_hook_cost(struct roi_pf_out *o, double cost, double inside, const char *unit)
{
	pf_put_cost(o, "hook-cost", cost, unit);
	pf_put_cost(o, "hook-inside", inside, unit);
}

void __roi_pf_put_fn(struct roi_pf_out *o, const struct roi_pf_fn *fn, const uint64_t *counts)
{
	pf_put_str(o, "fn ");
	pf_put_hex(o, fn->unit, 16);
	pf_put_char(o, ' ');
	pf_put_dec(o, fn->index);
	pf_put_str(o, " 0x");
	pf_put_hex(o, fn->checksum, 8);
	pf_put_char(o, ' ');
	pf_put_dec(o, fn->ncounters);
	for (uint32_t c = 0; c < fn->ncounters; c++) {
		pf_put_char(o, ' ');
		pf_put_dec(o, counts[c]);
	}
	pf_put_char(o, '\n');
}

void __roi_pf_put_region(struct roi_pf_out *o, const struct roi_pf_region *r, const char *unit)
{
	pf_put_str(o, "region ");
	pf_put_hex(o, r->unit, 16);
	pf_put_char(o, ' ');
	pf_put_dec(o, r->index);
	pf_put_char(o, ' ');
	pf_put_dec(o, r->calls);
	pf_put_char(o, ' ');
	pf_put_dec(o, r->total);
	pf_put_char(o, ' ');
	pf_put_str(o, unit);
	if (r->has_inner) {
		pf_put_char(o, ' ');
		pf_put_dec(o, r->inner);
	}
	pf_put_char(o, '\n');
}

void __roi_pf_put_end(struct roi_pf_out *o, uint64_t nfns)
{
	uint32_t crc = o->failed ? 0 : __roi_crc32(0, o->text, o->len);

	pf_put_str(o, "end ");
	pf_put_dec(o, nfns);
	pf_put_char(o, ' ');
	pf_put_hex(o, crc, 8);
	pf_put_char(o, '\n');
}

#pragma GCC visibility pop
