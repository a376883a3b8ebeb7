/* run_avr_counted.c — an AVR firmware built with the plugin, run in simavr to its end, with its
 * counters read out of the simulated data memory: what "roi run --target avr" and "roi calibrate"
 * both need. */
#include <elf.h>
#include <stdlib.h>

#include "run_avr_counted.h"

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
		size_t size = a->fn->nblocks * a->bytes;

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
	if (roi_run_find_counters(*elf, prog, &roi_avr_target, arrays, err) != 0 || roi_avr_run(run, err) != 0)
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
