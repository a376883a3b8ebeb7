/* roi-register.c — the registry of instrumented units (like gcov's __gcov_init), and what walks it:
 * zeroing the counters and taking a snapshot of them (and of the regions, roi-region.c) as a
 * profile. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "roi-internal.h"

struct range {
	const struct roi_fn_desc *start, *stop;
};

/* A program has a unit or a few: the first ones need no allocation at start-up. */
static struct range first_ranges[16];
static struct range *ranges = first_ranges;
static size_t nranges, ranges_cap = sizeof first_ranges / sizeof first_ranges[0];

static int counter_bits_ok(uint32_t bits)
{
	return bits == 16 || bits == 32 || bits == 64;
}

void __roi_register_unit(uint32_t abi_version, const struct roi_fn_desc *start,
			 const struct roi_fn_desc *stop)
{
	if (abi_version != ROI_ABI_VERSION) {
		__roi_warn("unit built for runtime ABI %u, this runtime has ABI %u; its counts are not recorded",
			 (unsigned)abi_version, (unsigned)ROI_ABI_VERSION);
		return;
	}
	if (!start || stop < start)
		return;
	/* With one unit in several objects the linker merges their sections and every constructor
	 * passes the same bounds; record them once. Partial overlaps are removed in __roi_snapshot. */
	for (size_t i = 0; i < nranges; i++)
		if (ranges[i].start == start && ranges[i].stop == stop)
			return;
	for (const struct roi_fn_desc *d = start; d < stop; d++)
		if (!counter_bits_ok(d->counter_bits))
			__roi_warn("function %u of unit %016llx has %u-bit counters; ignored", (unsigned)d->index,
				 (unsigned long long)d->unit, (unsigned)d->counter_bits);
	if (nranges == ranges_cap) {
		size_t cap = 2 * ranges_cap;
		struct range *r = malloc(cap * sizeof *r);
		if (!r) {
			__roi_warn("out of memory; counts of unit %016llx are not recorded",
				 (unsigned long long)(stop > start ? start->unit : 0));
			return;
		}
		memcpy(r, ranges, nranges * sizeof *r);
		if (ranges != first_ranges)
			free(ranges);
		ranges = r;
		ranges_cap = cap;
	}
	ranges[nranges++] = (struct range){start, stop};
	__roi_arm_exit_writer();
}

size_t __roi_registered_units(void)
{
	return nranges;
}

void roi_reset(void)
{
	__roi_threads_reset();
	for (size_t i = 0; i < nranges; i++)
		for (const struct roi_fn_desc *d = ranges[i].start; d < ranges[i].stop; d++)
			if (counter_bits_ok(d->counter_bits))
				memset(d->counters, 0, (size_t)d->ncounters * (d->counter_bits / 8));
	__roi_regions_reset();
}

static uint64_t counter(const struct roi_fn_desc *d, uint32_t i)
{
	switch (d->counter_bits) {
	case 16: return ((const uint16_t *)d->counters)[i];
	case 32: return ((const uint32_t *)d->counters)[i];
	default: return ((const uint64_t *)d->counters)[i];
	}
}

/* Order by (unit, index), then by address so that one descriptor reached twice ends up adjacent. */
static int desc_cmp(const void *a, const void *b)
{
	const struct roi_fn_desc *x = *(const struct roi_fn_desc *const *)a;
	const struct roi_fn_desc *y = *(const struct roi_fn_desc *const *)b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x < y ? -1 : x > y;
}

int __roi_snapshot(struct roi_profile *prof)
{
	size_t n = 0, ncounts = 0;
	const struct roi_fn_desc **all;

	memset(prof, 0, sizeof *prof);
	/* (the threads' copies first: the units' counters then hold every count) */
	__roi_threads_merge();
	for (size_t i = 0; i < nranges; i++)
		for (const struct roi_fn_desc *d = ranges[i].start; d < ranges[i].stop; d++)
			if (counter_bits_ok(d->counter_bits)) {
				n++;
				ncounts += d->ncounters;
			}
	all = malloc((n ? n : 1) * sizeof *all);
	prof->fns = malloc((n ? n : 1) * sizeof *prof->fns);
	prof->counts = malloc((ncounts ? ncounts : 1) * sizeof *prof->counts);
	if (!all || !prof->fns || !prof->counts || __roi_regions_snapshot(prof) != 0) {
		free(all);
		__roi_profile_free(prof);
		errno = ENOMEM;
		return -1;
	}
	n = 0;
	for (size_t i = 0; i < nranges; i++)
		for (const struct roi_fn_desc *d = ranges[i].start; d < ranges[i].stop; d++)
			if (counter_bits_ok(d->counter_bits))
				all[n++] = d;
	/* One unit's descriptors are laid out in index order: most programs need no sort. */
	for (size_t i = 1; i < n; i++)
		if (desc_cmp(&all[i - 1], &all[i]) > 0) {
			qsort(all, n, sizeof *all, desc_cmp);
			break;
		}

	uint64_t *next = prof->counts;
	for (size_t i = 0; i < n; i++) {
		const struct roi_fn_desc *d = all[i];
		struct roi_fn *last = prof->nfns ? &prof->fns[prof->nfns - 1] : NULL;

		if (i > 0 && d == all[i - 1])
			continue;       /* overlapping ranges */
		if (last && last->rec.unit == d->unit && last->rec.index == d->index) {
			/* Two copies of one function (one source linked twice): the same structure
			 * adds up, a different one cannot be told apart in the profile. */
			if (last->rec.checksum != d->checksum || last->rec.ncounters != d->ncounters) {
				__roi_warn("function %u of unit %016llx is linked twice with different code; "
					 "counting only one copy", (unsigned)d->index, (unsigned long long)d->unit);
				continue;
			}
			for (uint32_t c = 0; c < d->ncounters; c++)
				last->counts[c] += counter(d, c);
		} else {
			last = &prof->fns[prof->nfns++];
			*last = (struct roi_fn){{d->unit, d->index, d->checksum, d->ncounters}, next};
			next += d->ncounters;
			for (uint32_t c = 0; c < d->ncounters; c++)
				last->counts[c] = counter(d, c);
		}
	}
	free(all);
	prof->runs = 1;
	return 0;
}

void __roi_profile_free(struct roi_profile *prof)
{
	free(prof->fns);
	free(prof->counts);
	free(prof->regions);
	prof->fns = NULL;
	prof->counts = NULL;
	prof->regions = NULL;
	prof->nfns = 0;
	prof->nregions = 0;
}
