/* input/part.c — which AVR part a firmware was built for, see part.h. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "input/part.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool roi_avr_device_parse(const void *data, size_t size, struct roi_avr_device *d)
{
	const unsigned char *p = data;

	if (!p || size < 12)
		return false;
	uint32_t namesz = le32(p), descsz = le32(p + 4);
	size_t name_end = 12 + (((size_t)namesz + 3) & ~(size_t)3);
	if (namesz != 4 || memcmp(p + 12, "AVR", 4) != 0 || name_end > size || descsz > size - name_end ||
	    descsz < 24)
		return false;
	const unsigned char *desc = p + name_end;
	memset(d, 0, sizeof *d);
	d->flash_start = le32(desc);
	d->flash_size = le32(desc + 4);
	d->ram_start = le32(desc + 8);
	d->ram_size = le32(desc + 12);
	d->eeprom_start = le32(desc + 16);
	d->eeprom_size = le32(desc + 20);
	if (descsz >= 32) {
		uint32_t table = le32(desc + 24), off = le32(desc + 28);
		if (table >= 8 && table <= descsz - 24) {
			const char *strings = (const char *)desc + 24 + table;
			size_t left = descsz - 24 - table;
			size_t len = off < left ? strnlen(strings + off, left - off) : left;
			if (off < left && len < left - off && len < sizeof d->name)
				memcpy(d->name, strings + off, len + 1);
		}
	}
	return true;
}

struct device {
	struct roi_avr_device *d;
	bool found;
};

static int visit(void *ctx, size_t index, const char *name, const void *data, size_t size, struct roi_err *err)
{
	struct device *dev = ctx;

	(void)index;
	(void)err;
	if (!dev->found && name && strcmp(name, ".note.gnu.avr.deviceinfo") == 0)
		dev->found = roi_avr_device_parse(data, size, dev->d);
	return 0;
}

int roi_elf_avr_device(struct roi_elf *elf, struct roi_avr_device *d, struct roi_err *err)
{
	struct device dev = {d, false};

	if (roi_elf_each_section(elf, visit, &dev, err) != 0)
		return -1;
	return dev.found;
}

int roi_avr_part(const char *path, char *name, size_t size, struct roi_err *err)
{
	struct roi_elf *elf;
	struct roi_avr_device d;

	if (roi_elf_open(path, &elf, err) != 0)
		return -1;
	int rc = roi_elf_check_structure(elf, err) != 0 ? -1 : roi_elf_avr_device(elf, &d, err);
	roi_elf_close(elf);
	if (rc <= 0 || !d.name[0])
		return rc < 0 ? -1 : 0;
	snprintf(name, size, "%s", d.name);
	return 1;
}

int roi_avr_check_part(const char *path, const char *mcu, struct roi_err *err)
{
	char part[64];
	int rc = roi_avr_part(path, part, sizeof part, err);

	if (rc == 1 && strcmp(part, mcu) != 0)
		return roi_err_set(err, "%s: built for %s (its .note.gnu.avr.deviceinfo), simulated as --mcu %s: run it "
				   "with --mcu %s, or build it with -mmcu=%s", path, part, mcu, part, mcu);
	return rc < 0 ? -1 : 0;
}

int roi_model_check_part(const struct roi_model *m, const char *path, const char *target, const char *part,
			 struct roi_err *err)
{
	const char *model_part = m->mcu ? m->mcu : m->part;

	if (!roi_model_matches_target(m, target))
		return roi_err_set(err, "%s: a model of %s (%s), %s is built for %s: price it with a model of its part",
				   m->path, m->part, m->arch, path, target);
	if (part && *part && strcmp(m->arch, "avr") == 0 && strcasecmp(part, model_part) != 0)
		return roi_err_set(err, "%s: a model of %s, %s is built for %s (its .note.gnu.avr.deviceinfo): price it "
				   "with a model of its part", m->path, m->part, path, part);
	return 0;
}
