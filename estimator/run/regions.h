/* run/regions.h — region times from the hook events of a simulated run. */
#ifndef ROI_RUN_REGIONS_H
#define ROI_RUN_REGIONS_H

#include "base/err.h"
#include "input/counts.h"
#include "input/elffile.h"
#include "input/meta.h"
#include "run/avr.h"

/* Fills counts->region (calls, inclusive cycles) from run->events, mapping each descriptor address
 * to its region through the symbols the metadata names. counts must come from roi_counts_init for
 * prog. Errors: an address that is no region's, an exit that does not match the last enter. */
int roi_avr_regions(const struct roi_program *prog, struct roi_elf *elf, const struct roi_avr_run *run,
		    struct roi_counts *counts, struct roi_err *err);

/* The profile's hook-cost lines from what the simulator measured around every hook call: a pair's
 * whole cost, and the part of its own pair a region measures, both in cycles. Nothing when no hook
 * ran. */
void roi_avr_hook_cost(const struct roi_avr_run *run, struct roi_counts *counts);

#endif
