/* run/avr_counted.c — an AVR firmware built with the plugin, run in simavr to its end, with its
 * counters read out of the simulated data memory: what "roi run --target avr" and "roi calibrate"
 * both need. */
#include <elf.h>
#include <stdlib.h>

#include "base/cli.h"
#include "run/avr_counted.h"

/* simavr trusts the ELF it loads: every unit must be AVR code, not only the ELF header. */
const struct roi_run_target roi_avr_target = {
	.option = "avr", .arch = "AVR", .machine = EM_AVR, .unit_target = "avr",
};

/* Copies the counters out of the data memory; 16-bit counters stick at 65535, so say where that
 * happened: those counts are lower bounds. */
static int read_counters(const struct roi_program *p, struct roi_counter_array *arrays,
			 const struct roi_avr_run *run, struct roi_counts *counts, cJSON *saturated,
			 struct roi_err *err)
{
	roi_counts_init(counts, p);
	counts->runs = 1;
	for (size_t i = 0; i < p->nfunctions; i++) {
		struct roi_counter_array *a = &arrays[i];
		size_t size = a->fn->ncounters * a->bytes;

		if (a->addr < ROI_AVR_DATA_OFFSET || a->addr - ROI_AVR_DATA_OFFSET > run->data_size ||
		    size > run->data_size - (a->addr - ROI_AVR_DATA_OFFSET))
			return roi_err_set(err, "%s: counter array %s at 0x%llx is outside the data memory of the "
					   "%s (0x%x-0x%zx)", p->path, a->fn->counters, (unsigned long long)a->addr,
					   run->mcu, ROI_AVR_DATA_OFFSET, ROI_AVR_DATA_OFFSET + run->data_size - 1);
		roi_run_decode(a, run->data + (a->addr - ROI_AVR_DATA_OFFSET), counts);
		roi_run_warn_saturated(a, saturated);
	}
	return 0;
}

/* Where the static data ends in the data memory (without ROI_AVR_DATA_OFFSET): the first byte above
 * .data and .bss, where avr-libc's linker scripts put __bss_end, _end and __heap_start, and in any
 * case above every counter array; *counters_top the first byte above the counters, *counter_bytes
 * their size. */
static uint32_t static_data_end(struct roi_elf *elf, const struct roi_program *prog,
				const struct roi_counter_array *arrays, uint32_t *counters_top, size_t *counter_bytes)
{
	static const char *const ends[] = {"__bss_end", "_end", "__heap_start"};
	uint32_t end = 0;

	*counters_top = 0;
	*counter_bytes = 0;
	for (size_t i = 0; i < prog->nfunctions; i++) {
		const struct roi_counter_array *a = &arrays[i];
		size_t size = a->fn->ncounters * a->bytes;

		if (!a->linked || a->addr < ROI_AVR_DATA_OFFSET || a->addr - ROI_AVR_DATA_OFFSET + size > 0x10000)
			continue;
		if ((uint32_t)(a->addr - ROI_AVR_DATA_OFFSET + size) > *counters_top)
			*counters_top = (uint32_t)(a->addr - ROI_AVR_DATA_OFFSET + size);
		*counter_bytes += size;
	}
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		struct roi_symbol sym;

		if (roi_elf_symbol(elf, ends[i], &sym, NULL) == 0 && sym.value >= ROI_AVR_DATA_OFFSET &&
		    sym.value - ROI_AVR_DATA_OFFSET <= 0x10000 && sym.value - ROI_AVR_DATA_OFFSET > end)
			end = (uint32_t)(sym.value - ROI_AVR_DATA_OFFSET);
	}
	return end > *counters_top ? end : *counters_top;
}

/* Whether the stack grew into the static data, which a counted build has more of than the plain one:
 * into the counters, an error whatever happened next (they no longer hold the counts, and a crash or
 * a run that never stops follows from it); into the rest of .data and .bss, the error that explains
 * a crash or a run that never stopped, else a warning (the counts are whole, the data the firmware
 * computed with may not be). */
static int stack_overran(const struct roi_avr_run *run, bool failed, struct roi_elf *elf,
			 const struct roi_program *prog, const struct roi_counter_array *arrays, struct roi_err *err)
{
	uint32_t counters_top, end;
	size_t counter_bytes;
	bool narrow = true;

	if (!run->main_seen)
		return 0;
	end = static_data_end(elf, prog, arrays, &counters_top, &counter_bytes);
	/* the stack's lowest byte is the one above the stack pointer */
	uint32_t lowest = (uint32_t)run->stack_low + 1;
	if (lowest >= end)
		return 0;
	bool counters = lowest < counters_top;
	if (!counters && !failed) {
		roi_warn("%s: the stack grew into .data and .bss, %u bytes below their end at 0x%04x (down to "
			 "0x%04x): the data this counted build computed with may not be the plain build's",
			 run->elf, (unsigned)(end - lowest), (unsigned)end, (unsigned)run->stack_low);
		return 0;
	}
	for (size_t u = 0; u < prog->nunits; u++)
		narrow &= prog->units[u].counter_bits == 16;
	return roi_err_set(err, "%s: the stack ran into %s: the %s is at least %u bytes of RAM short for this "
			   "counted build (the stack grew down to 0x%04x, .data and .bss end at 0x%04x, the counters "
			   "take %zu bytes); count %sfewer functions (-fplugin-arg-roi-filter=FILE), or time a build "
			   "without the plugin (roi run --cycles-only)",
			   run->elf, counters ? "the counters" : ".data and .bss", run->mcu, (unsigned)(end - lowest),
			   (unsigned)run->stack_low, (unsigned)end, counter_bytes,
			   narrow ? "" : "with 16-bit counters (-fplugin-arg-roi-counter-bits=16), ");
}

int roi_avr_run_counted(struct roi_avr_run *run, struct roi_elf **elf, struct roi_program *prog,
			struct roi_counts *counts, cJSON *saturated, struct roi_err *err)
{
	struct roi_counter_array *arrays = NULL;
	int rc = -1;

	*elf = NULL;
	if (roi_avr_check_mcu(run->mcu, err) != 0 || roi_run_open(run->elf, &roi_avr_target, elf, prog, err) != 0)
		return -1;
	arrays = calloc(prog->nfunctions, sizeof *arrays);
	if (!arrays) {
		roi_err_set(err, "out of memory");
		goto out;
	}
	if (roi_run_find_counters(*elf, prog, &roi_avr_target, arrays, err) != 0)
		goto out;
	int ran = roi_avr_run(run, err);
	if (stack_overran(run, ran != 0 || run->stop == ROI_AVR_LIMIT, *elf, prog, arrays, err) != 0 || ran != 0)
		goto out;
	if (run->stop == ROI_AVR_LIMIT) {
		roi_err_set(err, "%s: no stop after %llu cycles (--max-cycles); the firmware may loop forever",
			    run->elf, (unsigned long long)run->max_cycles);
		goto out;
	}
	rc = read_counters(prog, arrays, run, counts, saturated, err);
out:
	free(arrays);
	return rc;
}
