/* input/part.h — which AVR part a firmware was built for, so that one built for another part than the
 * simulated one, or priced with another part's model, is said to be so, not left to crash in the
 * simulator as if the firmware were wrong or priced with costs that are not its own. */
#ifndef ROI_INPUT_PART_H
#define ROI_INPUT_PART_H

#include "base/err.h"

/* The firmware at path (an AVR ELF) was built for mcu, or says nothing of its part: avr-libc's
 * start-up files record it in the note section .note.gnu.avr.deviceinfo. Errors: "PATH: built for
 * PART (its .note.gnu.avr.deviceinfo), simulated as --mcu MCU: ...", the ELF's own. */
int roi_avr_check_part(const char *path, const char *mcu, struct roi_err *err);

/* The part the AVR firmware at path was built for, into name (size bytes): 1, or 0 when its ELF
 * says nothing of it; -1 and err when it cannot be read. */
int roi_avr_part(const char *path, char *name, size_t size, struct roi_err *err);

#endif
