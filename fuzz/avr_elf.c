/* fuzz/avr_elf.c — 'roi run --target avr' loading a firmware (estimator/run/avr.c: simavr's ELF
 * reader, then the simulated MCU) on arbitrary bytes.
 *
 * roi hands the firmware to simavr only after its own checks (an AVR ELF, linked: run/common.c),
 * since simavr trusts what it loads; those checks run first here too, as in builtin/run.c. A firmware
 * that passes them is loaded into an ATmega32U4 and stopped before its first instruction
 * (max_cycles 0): loading must end in a loaded MCU or one error, whatever the file holds. Running
 * the mutated code is left out on purpose: that is simavr's emulation of arbitrary instructions,
 * which writes outside its memory on some (avr_core_watch_write), not the reading of a file. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "run/avr.h"
#include "run/common.h"

static const struct roi_run_target avr = {"avr", "AVR", EM_AVR, false, "avr", true};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct roi_err err;

	if (fd < 0) {
		fd = memfd_create("fuzz-avr-elf", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (roi_run_check_elf(path, &avr, &err) != 0)
		return 0;

	struct roi_avr_run run = {.elf = path, .mcu = "atmega32u4", .freq_hz = 16000000, .max_cycles = 0};

	if (roi_avr_run(&run, &err) != 0 && strchr(err.msg, '\n'))
		abort();
	roi_avr_run_free(&run);
	return 0;
}
