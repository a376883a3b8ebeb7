/* input/part.h — which AVR part a firmware was built for, from avr-libc's device note, so that one
 * built for another part than the simulated one, or priced with another part's model, is said to be
 * so, not left to crash in the simulator as if the firmware were wrong or priced with costs that are
 * not its own. One reader of the note for roi run, roi stack and both pricings. */
#ifndef ROI_INPUT_PART_H
#define ROI_INPUT_PART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "input/elffile.h"
#include "input/model.h"

/* avr-libc's start-up files (crt1.S, "Device information") put in .note.gnu.avr.deviceinfo: the
 * note header, "AVR\0", then flash start and size, SRAM start and size, EEPROM start and size, an
 * offset table (its length in bytes, itself included; the device name's offset into the strings
 * after it), the strings. */
struct roi_avr_device {
	uint32_t flash_start, flash_size, ram_start, ram_size, eeprom_start, eeprom_size;
	char name[64];          /* "atmega32u4"; "" when the note names none */
};

/* Whether data (size bytes, the section's contents) is that note; *d filled when it is. */
bool roi_avr_device_parse(const void *data, size_t size, struct roi_avr_device *d);

/* The note of an open ELF: 1 and *d, or 0 when it has none; -1 and err when it cannot be read. */
int roi_elf_avr_device(struct roi_elf *elf, struct roi_avr_device *d, struct roi_err *err);

/* The part the AVR firmware at path was built for, into name (size bytes): 1, or 0 when its ELF
 * says nothing of it; -1 and err when it cannot be read. */
int roi_avr_part(const char *path, char *name, size_t size, struct roi_err *err);

/* The firmware at path (an AVR ELF) was built for mcu, or says nothing of its part. Errors: "PATH:
 * built for PART (its .note.gnu.avr.deviceinfo), simulated as --mcu MCU: ...", the ELF's own. */
int roi_avr_check_part(const char *path, const char *mcu, struct roi_err *err);

/* Whether model m may price code at path built for target (a triple, or an arch: "avr", "arm") and,
 * on AVR, for part (NULL: unknown). A firmware priced with another architecture's or another
 * part's costs is a wrong number, not an estimate. Errors: "MODEL: a model of PART (ARCH), PATH is
 * built for TARGET: price it with a model of its part", the same naming the part. */
int roi_model_check_part(const struct roi_model *m, const char *path, const char *target, const char *part,
			 struct roi_err *err);

#endif
