/* run/regions.c — region times from the hook events a simulator stamped (docs/regions.md).
 *
 * Each event names a region by its descriptor's address; the ELF symbol table maps the address
 * back to the region the metadata describes. Inclusive time per region: from an enter to its
 * matching exit; a region entered again while open (recursion) counts the call but only the
 * outermost entry's time, as the host runtime does. */
#include <stdlib.h>
#include <string.h>

#include "input/elffile.h"
#include "run/avr.h"
#include "run/regions.h"

struct open_entry {
	size_t region;          /* gindex */
	uint64_t start;
	uint64_t entered;       /* enters so far, this one included */
};

/* The gindex of the region whose descriptor is at data address addr, or -1. */
static long region_at(const uint64_t *addr, size_t n, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (addr[i] == a)
			return (long)i;
	return -1;
}

int roi_avr_regions(const struct roi_program *prog, struct roi_elf *elf, const struct roi_avr_run *run,
		    struct roi_counts *counts, struct roi_err *err)
{
	uint64_t *addr = NULL;
	struct open_entry *stack = NULL;
	size_t depth = 0;
	uint64_t entered = 0;
	int rc = -1;

	if (!prog->nregions) {
		if (run->nevents)
			return roi_err_set(err, "%s: region hooks ran, but the roi metadata lists no regions",
					   run->elf);
		return 0;
	}
	if (run->events_lost)
		return roi_err_set(err, "%s: out of memory recording region events", run->elf);
	addr = calloc(prog->nregions, sizeof *addr);
	stack = calloc(run->nevents ? run->nevents : 1, sizeof *stack);
	if (!addr || !stack) {
		roi_err_set(err, "out of memory");
		goto out;
	}
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t r = 0; r < prog->units[u].nregions; r++) {
			const struct roi_region *reg = &prog->units[u].regions[r];
			struct roi_symbol sym;

			if (roi_elf_symbol(elf, reg->symbol, &sym, err) != 0)
				goto out;
			addr[reg->gindex] = sym.value - ROI_AVR_DATA_OFFSET;
		}

	for (size_t e = 0; e < run->nevents; e++) {
		const struct roi_avr_event *ev = &run->events[e];
		long g = region_at(addr, prog->nregions, ev->region);

		if (g < 0) {
			roi_err_set(err, "%s: a region hook at cycle %llu names address 0x%04x, no region of "
				    "the metadata", run->elf, (unsigned long long)ev->cycle, ev->region);
			goto out;
		}
		struct roi_region_result *res = &counts->region[g];
		if (ev->code == 1) {
			res->calls++;
			res->ran = true;
			res->has_inner = true;
			stack[depth++] = (struct open_entry){(size_t)g, ev->cycle, ++entered};
			continue;
		}
		if (!depth || stack[depth - 1].region != (size_t)g) {
			roi_err_set(err, "%s: region exit at cycle %llu does not match the last enter "
				    "(unbalanced hooks)", run->elf, (unsigned long long)ev->cycle);
			goto out;
		}
		depth--;
		bool outermost = true;
		for (size_t i = 0; i < depth; i++)
			outermost &= stack[i].region != (size_t)g;
		if (outermost) {
			res->total += ev->cycle - stack[depth].start;
			res->inner += entered - stack[depth].entered;
		}
	}
	/* Regions still open when the firmware stopped (exit() inside one) end at the stop. */
	while (depth) {
		depth--;
		bool outermost = true;
		for (size_t i = 0; i < depth; i++)
			outermost &= stack[i].region != stack[depth].region;
		if (outermost) {
			counts->region[stack[depth].region].total += run->cycles - stack[depth].start;
			counts->region[stack[depth].region].inner += entered - stack[depth].entered;
		}
	}
	for (size_t g = 0; g < prog->nregions; g++)
		counts->nregions_ran += counts->region[g].ran;
	counts->time_unit = counts->nregions_ran ? "cycles" : NULL;
	rc = 0;
out:
	free(addr);
	free(stack);
	return rc;
}

/* What the simulator measured around every hook call, as the profile's hook-cost lines: a pair's
 * whole cost, and the part of its own pair a region measures (after the enter hook's stamp, before
 * the exit hook's), both in cycles. Every call of a hook costs the same; the means say so. */
void roi_avr_hook_cost(const struct roi_avr_run *run, struct roi_counts *counts)
{
	const struct roi_avr_hook_cost *in = &run->hook_enter, *out = &run->hook_exit;

	if (!in->calls || !out->calls)
		return;
	counts->has_hook_cost = true;
	counts->hook_cost = (double)in->cycles / in->calls + (double)out->cycles / out->calls;
	counts->hook_inside = (double)in->after / in->calls + (double)out->before / out->calls;
}
