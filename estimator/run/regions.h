/* run/regions.h — region times from the hook events of a simulated run. */
#ifndef ROI_RUN_REGIONS_H
#define ROI_RUN_REGIONS_H

#include "input/counts.h"
#include "input/elffile.h"
#include "base/err.h"
#include "input/meta.h"
#include "run/avr.h"

/* Fills counts->region (calls, inclusive cycles) from run->events, mapping each descriptor address
 * to its region through the symbols the metadata names. counts must come from roi_counts_init for
 * prog. Errors: an address that is no region's, an exit that does not match the last enter. */
int roi_avr_regions(const struct roi_program *prog, struct roi_elf *elf, const struct roi_avr_run *run,
		    struct roi_counts *counts, struct roi_err *err);

#endif
