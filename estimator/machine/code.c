/* machine/code.c — a firmware's code, symbols and line table (code.h). */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "input/elffile.h"
#include "input/part.h"
#include "machine/code.h"

#ifndef EM_AVR
#define EM_AVR 83
#endif
/* e_flags of an AVR ELF: the architecture (avr-gcc's -mmcu family), binutils' include/elf/avr.h */
#define EF_AVR_MACH 0x7f

struct mark {
	uint64_t addr;
	bool data;
};

struct loading {
	struct roi_mcode *c;
	size_t cap;
	struct mark *marks;
	size_t nmarks;
};

static int by_mark(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	return x->addr != y->addr ? (x->addr < y->addr ? -1 : 1) : 0;
}

static int add_code(void *ctx, const char *name, uint64_t addr, const void *data, size_t size, struct roi_err *err)
{
	struct loading *l = ctx;
	struct roi_mcode *c = l->c;
	uint8_t *bytes = roi_arena_alloc(&c->arena, size);

	(void)name;
	(void)err;
	memcpy(bytes, data, size);
	c->segs = roi_xgrow(c->segs, c->nsegs, &l->cap, sizeof *c->segs);
	c->segs[c->nsegs++] = (struct roi_mseg){addr, size, bytes};
	return 0;
}

static bool in_code(const struct roi_mcode *c, uint64_t addr)
{
	size_t avail;

	return roi_mcode_bytes(c, addr, &avail) != NULL;
}

static int add_symbol(void *ctx, const char *name, const struct roi_symbol *sym, struct roi_err *err)
{
	struct loading *l = ctx;
	struct roi_mcode *c = l->c;
	uint64_t value = sym->value;
	unsigned type = sym->type;

	(void)err;
	if (type != STT_FUNC && type != STT_NOTYPE)
		return 0;
	/* ARM's mapping symbols say what the bytes are: data ($d) or Thumb code ($t) */
	if (name[0] == '$') {
		if (c->arch == ROI_MARCH_ARM && (name[1] == 'd' || name[1] == 't') && (!name[2] || name[2] == '.')) {
			l->marks = roi_xrealloc(l->marks, l->nmarks + 1, sizeof *l->marks);
			l->marks[l->nmarks++] = (struct mark){value, name[1] == 'd'};
		}
		return 0;
	}
	if (c->arch == ROI_MARCH_ARM)
		value &= ~(uint64_t)1;
	if (!in_code(c, value))
		return 0;
	c->syms = roi_xgrow(c->syms, c->nsyms, &l->cap, sizeof *c->syms);
	c->syms[c->nsyms++] = (struct roi_msym){roi_arena_strdup(&c->arena, name), value, sym->size, !sym->local,
						type == STT_FUNC};
	return 0;
}

static int by_address(const void *a, const void *b)
{
	const struct roi_msym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	if ((x->name[0] == '.') != (y->name[0] == '.'))
		return x->name[0] == '.' ? 1 : -1;
	return strcmp(x->name, y->name);
}

int roi_mcode_load(const char *path, struct roi_mcode *c, struct roi_err *err)
{
	struct roi_elf *elf = NULL;
	struct roi_elf_info info;
	struct loading l = {c, 0, NULL, 0};
	int rc = -1;

	memset(c, 0, sizeof *c);
	c->path = roi_arena_strdup(&c->arena, path);
	if (roi_elf_open(path, &elf, err) != 0)
		return -1;
	roi_elf_info(elf, &info);
	if (info.machine == EM_AVR) {
		unsigned mach = info.flags & EF_AVR_MACH;

		c->arch = ROI_MARCH_AVR;
		/* avr2 ... avr6: the megaAVRs and classic parts; avr1 has no SRAM, avrtiny (100) and the
		 * xmegas (101-107) other timings */
		if (mach < 2 || (mach > 6 && mach != 25 && mach != 31 && mach != 35 && mach != 51)) {
			roi_err_set(err, "%s: an AVR core of architecture %u (avr1, tiny or xmega): machine pricing knows "
				    "the AVRe/AVRe+ timings of the megaAVRs", path, mach);
			goto out;
		}
		c->core = mach == 6 ? ROI_AVR_PC22 : ROI_AVR_PC16;
		struct roi_avr_device dev;
		int found = roi_elf_avr_device(elf, &dev, err);
		if (found < 0)
			goto out;
		if (found) {
			c->device = dev.name[0] ? roi_arena_strdup(&c->arena, dev.name) : NULL;
			c->flash_size = dev.flash_size;
		}
	} else if (info.machine == EM_ARM) {
		c->arch = ROI_MARCH_ARM;
	} else {
		roi_err_set(err, "%s: an ELF for machine %u: machine pricing knows AVR and ARM (Cortex-M)", path,
			    info.machine);
		goto out;
	}
	if (roi_elf_each_code(elf, add_code, &l, err) != 0)
		goto out;
	if (!c->nsegs) {
		roi_err_set(err, "%s: no code", path);
		goto out;
	}
	l.cap = 0;
	if (roi_elf_each_symbol(elf, add_symbol, &l, err) != 0 || roi_elf_image_crc(elf, &c->image_crc, err) != 0)
		goto out;
	roi_sort(c->syms, c->nsyms, sizeof *c->syms, by_address);
	/* the data stretches: from a $d to the next $t */
	roi_sort(l.marks, l.nmarks, sizeof *l.marks, by_mark);
	for (size_t i = 0; i < l.nmarks; i++) {
		bool open = c->ndata % 2 == 1;

		if (l.marks[i].data != open) {
			c->data_at = roi_xrealloc(c->data_at, c->ndata + 1, sizeof *c->data_at);
			c->data_at[c->ndata++] = l.marks[i].addr;
		}
	}
	free(l.marks);
	l.marks = NULL;
	struct roi_err ignored;
	c->has_lines = roi_line_table_load(path, &c->lines, &ignored) == 0;
	rc = 0;
out:
	free(l.marks);
	roi_elf_close(elf);
	return rc;
}

uint64_t roi_mcode_past_data(const struct roi_mcode *c, uint64_t addr)
{
	for (size_t i = 0; i < c->ndata; i += 2)
		if (addr >= c->data_at[i] && (i + 1 == c->ndata || addr < c->data_at[i + 1]))
			return i + 1 < c->ndata ? c->data_at[i + 1] : UINT64_MAX;
	return addr;
}

size_t roi_mcode_jump_table(const struct roi_mcode *c, const struct roi_minsn *in, uint64_t *targets, size_t max)
{
	uint64_t start = in->addr + in->size, end;
	size_t n = 0, avail;
	const uint8_t *p;

	if (!in->table_entry)
		return 0;
	/* the data that follows (LDR PC's words after a nop that aligns them) */
	if (in->table_entry == 4 && roi_mcode_past_data(c, start) == start && start % 4)
		start += 2;
	end = roi_mcode_past_data(c, start);
	p = roi_mcode_bytes(c, start, &avail);
	if (end == start || !p)
		return 0;
	if (end - start < avail)
		avail = (size_t)(end - start);
	for (size_t i = 0; i + in->table_entry <= avail && n < max; i += in->table_entry) {
		uint32_t v = p[i];

		if (in->table_entry > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (in->table_entry == 4)
			targets[n++] = (v | (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24) & ~1u;
		else
			targets[n++] = in->addr + 4 + 2 * (uint64_t)v;  /* from the PC */
	}
	return n;
}

void roi_mcode_free(struct roi_mcode *c)
{
	free(c->segs);
	free(c->syms);
	free(c->data_at);
	roi_line_table_free(&c->lines);
	roi_arena_free(&c->arena);
	memset(c, 0, sizeof *c);
}

const uint8_t *roi_mcode_bytes(const struct roi_mcode *c, uint64_t addr, size_t *avail)
{
	for (size_t i = 0; i < c->nsegs; i++)
		if (addr >= c->segs[i].addr && addr - c->segs[i].addr < c->segs[i].size) {
			*avail = (size_t)(c->segs[i].size - (addr - c->segs[i].addr));
			return c->segs[i].bytes + (addr - c->segs[i].addr);
		}
	*avail = 0;
	return NULL;
}

const struct roi_msym *roi_mcode_symbol(const struct roi_mcode *c, const char *name)
{
	const struct roi_msym *local = NULL;

	for (size_t i = 0; i < c->nsyms; i++)
		if (strcmp(c->syms[i].name, name) == 0) {
			if (c->syms[i].global)
				return &c->syms[i];
			if (!local)
				local = &c->syms[i];
		}
	return local;
}

const struct roi_msym *roi_mcode_routine_at(const struct roi_mcode *c, uint64_t addr)
{
	size_t lo = 0, hi = c->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* sorted global first, names with a '.' last */
	return lo < c->nsyms && c->syms[lo].addr == addr ? &c->syms[lo] : NULL;
}

void roi_mcode_decode(const struct roi_mcode *c, uint64_t addr, struct roi_thumb_state *st, struct roi_minsn *in)
{
	size_t avail;
	const uint8_t *p = roi_mcode_bytes(c, addr, &avail);

	if (c->arch == ROI_MARCH_AVR)
		roi_avr_decode(p, p ? avail : 0, addr, c->core, in);
	else
		roi_thumb_decode(p, p ? avail : 0, addr, st, in);
}
