/* run/part.c — which AVR part a firmware was built for, see part.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "input/elffile.h"
#include "run/part.h"

struct device {
	char name[64];
	bool found;
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The note: namesz, descsz, type, "AVR\0", then the description: flash start and size, SRAM start
 * and size, EEPROM start and size, the length in bytes of the offset table (its own 4 included),
 * the offsets into the string table that follows it (the first names the device), the strings. */
static int visit(void *ctx, size_t index, const char *name, const void *data, size_t size, struct roi_err *err)
{
	struct device *d = ctx;
	const unsigned char *p = data;

	(void)index;
	(void)err;
	if (strcmp(name, ".note.gnu.avr.deviceinfo") != 0 || size < 12)
		return 0;
	uint32_t namesz = le32(p), descsz = le32(p + 4), name_end = 12 + ((namesz + 3) & ~3u);
	if (name_end > size || descsz > size - name_end || descsz < 32)
		return 0;
	const unsigned char *desc = p + name_end;
	uint32_t table = le32(desc + 24);
	if (table < 8 || table > descsz - 24)
		return 0;
	uint32_t offset = le32(desc + 28), strings = 24 + table;
	if (offset >= descsz - strings)
		return 0;
	const char *s = (const char *)desc + strings + offset;
	size_t len = strnlen(s, descsz - strings - offset);
	if (len == 0 || len >= sizeof d->name)
		return 0;
	memcpy(d->name, s, len);
	d->name[len] = '\0';
	d->found = true;
	return 0;
}

int roi_avr_check_part(const char *path, const char *mcu, struct roi_err *err)
{
	struct roi_elf *elf;
	struct device d = {.found = false};

	if (roi_elf_open(path, &elf, err) != 0)
		return -1;
	int rc = roi_elf_check_structure(elf, err) != 0 ? -1 : roi_elf_each_section(elf, visit, &d, err);
	roi_elf_close(elf);
	if (rc != 0)
		return -1;
	if (d.found && strcmp(d.name, mcu) != 0)
		return roi_err_set(err, "%s: built for %s (its .note.gnu.avr.deviceinfo), simulated as --mcu %s: run it "
				   "with --mcu %s, or build it with -mmcu=%s", path, d.name, mcu, d.name, mcu);
	return 0;
}
