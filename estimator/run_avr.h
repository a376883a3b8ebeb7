/* run_avr.h — running an AVR firmware to its end in simavr (libsimavr), for "roi run --target avr".
 *
 * The firmware carries no roi runtime: the caller reads the counter arrays out of the copy of the
 * data memory taken when the firmware stops. */
#ifndef ROI_RUN_AVR_H
#define ROI_RUN_AVR_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* The GNU tools place AVR data addresses at this offset in the ELF (symbol values, .bss, .data);
 * the simulator's data memory is indexed without it. */
#define ROI_AVR_DATA_OFFSET 0x800000u

enum roi_avr_stop {
	ROI_AVR_EXIT,           /* at "cli; rjmp ." with interrupts off: how avr-libc's exit() ends */
	ROI_AVR_SLEEP,          /* "sleep" with interrupts off: simavr's own graceful end (cpu_Done) */
	ROI_AVR_LIMIT,          /* still running when max_cycles were simulated */
};

struct roi_avr_run {
	const char *elf;        /* in: an AVR ELF (checked to be one by the caller: simavr trusts it) */
	const char *mcu;        /* in: simavr core name, see roi_avr_check_mcu */
	uint32_t freq_hz;       /* in: clock frequency, for simavr's timers and the time in messages */
	uint64_t max_cycles;    /* in */
	uint64_t cycles;        /* out: simulated cycles until the stop */
	enum roi_avr_stop stop; /* out */
	uint8_t *data;          /* out: the data memory at the stop (registers, I/O, SRAM) */
	size_t data_size;       /* out: RAMEND + 1 bytes */
};

/* "unknown MCU 'X' (simavr knows atmega128, ... and N more: 'simavr --list-cores')". */
int roi_avr_check_mcu(const char *mcu, struct roi_err *err);

/* Loads run->elf into a simulated run->mcu and runs it until it stops or hits the limit (both
 * return 0, see run->stop). Errors: "ELF: simavr cannot load it", "ELF: the firmware crashed at
 * PC 0x00de after 36 cycles (simavr: <its message>)". Free with roi_avr_run_free even on failure. */
int roi_avr_run(struct roi_avr_run *run, struct roi_err *err);
void roi_avr_run_free(struct roi_avr_run *run);

#endif
