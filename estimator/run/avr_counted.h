/* run/avr_counted.h — a counted AVR firmware run in simavr, its counters read back. */
#ifndef ROI_RUN_AVR_COUNTED_H
#define ROI_RUN_AVR_COUNTED_H

#include <cjson/cJSON.h>

#include "base/err.h"
#include "input/counts.h"
#include "input/meta.h"
#include "run/avr.h"
#include "run/common.h"

/* What "--target avr" accepts: AVR ELFs whose every unit was compiled for avr. */
extern const struct roi_run_target roi_avr_target;

/* Opens run->elf (a firmware compiled with -fplugin=roi, runtime=none) into *elf and *prog, runs it
 * (run->mcu, freq_hz, max_cycles set by the caller) and fills counts (one run). Saturated 16-bit
 * counters are warned about and listed in saturated. Not stopping within max_cycles is an error
 * ("ELF: no stop after N cycles (--max-cycles); ..."). The caller closes *elf, frees prog, counts
 * and run, also on failure. */
int roi_avr_run_counted(struct roi_avr_run *run, struct roi_elf **elf, struct roi_program *prog,
			struct roi_counts *counts, cJSON *saturated, struct roi_err *err);

#endif
