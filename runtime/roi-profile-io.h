/* roi-profile-io.h — the profile, PROGRAM.roi: its grammar, one reader and one writer.
 *
 * Like gcov's gcov-io.h and gcov-io.c, which GCC, gcov and libgcov share, this is the one
 * implementation of the format: libroi.a compiles roi-profile-io.c to merge and write a profile at
 * exit, and roi (estimator/input/profile.c) includes the same file to read the profiles it is given
 * and to write the ones roi run and roi transfer make. docs/formats.md §3 and docs/regions.md say
 * what the records mean.
 *
 *   profile    = header [transferred] [hook-cost [hook-inside]] {fn} {region} end
 *   header     = "roi-profile 1" NL "program " PATH NL "runs " DEC NL
 *   transferred = "transferred " PATH NL          counts roi transfer carried from PATH's run
 *   hook-cost  = "hook-cost " COST " " UNIT NL    an enter+exit pair of hooks, as a region measures it
 *   hook-inside = "hook-inside " COST " " UNIT NL what a region measures of its own pair
 *   fn         = "fn " HEX16 " " DEC32 " 0x" HEX8 " " N {" " DEC}   N counts: unit, index, checksum
 *   region     = "region " HEX16 " " DEC32 " " CALLS " " TOTAL " " UNIT [" " INNER]
 *   end        = "end " NFN " " HEX8 NL           the fn lines, the CRC-32 of every byte before
 *   UNIT       = "ns" | "cycles"                  one unit in a whole profile
 *   COST       = DEC ["." DEC]                    at most 18 digits, 9 after the point
 *
 * Fields are separated by exactly one space, lines end in "\n" alone, DEC is decimal without
 * sign (at most 64 bits; DEC32 32 bits), HEX lower-case hexadecimal of exactly its width on
 * output (either case on input). The reader checks all of it, the end line's count and CRC, and
 * that nothing follows; it allocates nothing.
 *
 * In libroi.a every name here is hidden and reserved (__roi_), as the rest of the runtime's. */
#ifndef ROI_PROFILE_IO_H
#define ROI_PROFILE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The runtime writes the profile at the exit of every counted process, where each distinct C library
 * function costs a symbol lookup on its first call (some 700 instructions in a lazily bound program,
 * as much as reading a small profile): the reader, the writer and the runtime's exit path use these
 * small loops instead of the string functions. */
static inline size_t __roi_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

/* Whether a[0, n) and b[0, n) are the same bytes. */
static inline bool __roi_same(const char *a, const char *b, size_t n)
{
	for (; n > 0 && *a == *b; a++, b++)
		n--;
	return n == 0;
}

/* The first c in [p, end), or NULL. */
static inline const char *__roi_find(const char *p, const char *end, char c)
{
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
}

/* Copies the string s to d; returns the end of the copy (its NUL). */
static inline char *__roi_copy(char *d, const char *s)
{
	while ((*d = *s++) != '\0')
		d++;
	return d;
}

#define ROI_PROFILE_MAGIC "roi-profile"
#define ROI_PROFILE_VERSION 1

enum roi_pf_kind {
	ROI_PF_TRANSFERRED,     /* str: the program whose run roi transfer carried onto this build */
	ROI_PF_HOOK_COST,       /* cost, in the profile's time unit */
	ROI_PF_HOOK_INSIDE,     /* cost */
	ROI_PF_FN,              /* fn */
	ROI_PF_REGION,          /* region */
};

/* A "fn" record: a function's counters. */
struct roi_pf_fn {
	uint64_t unit;
	uint32_t index;
	uint32_t checksum;
	uint32_t ncounters;
};

/* A "region" record: a region that ran, its calls and inclusive time. */
struct roi_pf_region {
	uint64_t unit;
	uint32_t index;
	uint64_t calls, total;
	uint64_t inner;         /* hook enters inside its outermost calls, when has_inner */
	bool has_inner;         /* profiles before 2026-11 lack it */
};

/* One record after the header, as the reader returns it. Pointers point into the text read. */
struct roi_pf_record {
	enum roi_pf_kind kind;
	unsigned line;
	const char *str;        /* transferred: the path, str_len bytes */
	size_t str_len;
	double cost;            /* hook-cost, hook-inside */
	struct roi_pf_fn fn;
	const char *counts;     /* fn: its counts' text, checked; take them with __roi_pf_count */
	struct roi_pf_region region;
};

/* The reader's state. After the header, program/program_len and runs hold its lines; unit the
 * time unit ("ns" or "cycles", NULL before the first line that names one). */
struct roi_pf_reader {
	const char *data, *end, *next;  /* the text; the start of the next line */
	const char *p, *eol;            /* the current line: the cursor in it, its end */
	unsigned line;
	const char *program;
	size_t program_len;
	uint64_t runs;
	uint64_t nfns, nregions;
	bool transferred, has_hook_cost;
	const char *unit;
	unsigned unit_line;             /* where the unit was first named */
	char why[200];                  /* the problem, when a call returned -1 */
};

/* Starts reading data[0, size) and reads its header. Returns 0, or -1 with the problem in why and
 * its line in line. */
int __roi_pf_begin(struct roi_pf_reader *r, const char *data, size_t size);

/* The next record after the header: 1 with *rec filled, 0 after a good end line (the count of fn
 * lines, the CRC and that nothing follows checked), -1 with the problem in why and line. */
int __roi_pf_next(struct roi_pf_reader *r, struct roi_pf_record *rec);

/* The next of a fn record's counts, from *cursor (start at rec->counts); only for a record the
 * reader returned, whose counts it has checked. */
uint64_t __roi_pf_count(const char **cursor);

/* The writer appends to a text in memory, formatting numbers itself: no stdio, whose streams and
 * printf cost the runtime more than the rest of its exit (and whose %f writes a decimal comma
 * where the program set such a locale). Start from a zeroed struct, optionally reserve the bytes
 * the whole profile needs, put the header, then what follows in the grammar's order, then
 * __roi_pf_put_end (which seals the text so far with its CRC). unit is the time unit of the hook
 * and region lines. When memory runs out, failed is set and the text is incomplete; text is
 * malloc'd (the caller frees it). */
struct roi_pf_out {
	char *text;
	size_t len, cap;
	bool failed;
};

void __roi_pf_reserve(struct roi_pf_out *o, size_t bytes);
void __roi_pf_put_header(struct roi_pf_out *o, const char *program, uint64_t runs, const char *transferred);
void __roi_pf_put_hook_cost(struct roi_pf_out *o, double cost, double inside, const char *unit);
void __roi_pf_put_fn(struct roi_pf_out *o, const struct roi_pf_fn *fn, const uint64_t *counts);
void __roi_pf_put_region(struct roi_pf_out *o, const struct roi_pf_region *r, const char *unit);
void __roi_pf_put_end(struct roi_pf_out *o, uint64_t nfns);

#endif /* ROI_PROFILE_IO_H */
