/* run/part.h — which AVR part a firmware was built for, so that one built for another part than the
 * simulated one is said to be so, not left to crash in the simulator as if the firmware were wrong. */
#ifndef ROI_RUN_PART_H
#define ROI_RUN_PART_H

#include "base/err.h"

/* The firmware at path (an AVR ELF) was built for mcu, or says nothing of its part: avr-libc's
 * start-up files record it in the note section .note.gnu.avr.deviceinfo. Errors: "PATH: built for
 * PART (its .note.gnu.avr.deviceinfo), simulated as --mcu MCU: ...", the ELF's own. */
int roi_avr_check_part(const char *path, const char *mcu, struct roi_err *err);

#endif
