/* input/elffile.h — what roi reads from an ELF file (object or executable), through libelf:
 * the .roi.meta records and, for runners that read counters out of a simulator, symbols. */
#ifndef ROI_ELFFILE_H
#define ROI_ELFFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct roi_elf;

struct roi_elf_info {
	unsigned machine;       /* e_machine: EM_AVR, EM_ARM, EM_X86_64, ... */
	unsigned bits;          /* 32 or 64 */
	bool little_endian;
	bool relocatable;       /* ET_REL: an object file, addresses are not final */
	unsigned flags;         /* e_flags: AVR's core family, ARM's EABI version */
	uint64_t entry;         /* e_entry */
};

struct roi_symbol {
	uint64_t value;         /* st_value: the address in an executable */
	uint64_t size;          /* st_size in bytes */
	unsigned shndx;         /* section index, or SHN_UNDEF/SHN_ABS/SHN_COMMON... */
	const char *section;    /* name of that section, NULL for special indices; valid while open */
	bool local;             /* STB_LOCAL (roi's counter arrays are local) */
	bool weak, function;    /* STB_WEAK; STT_FUNC (roi_elf_each_symbol only) */
	bool code;              /* in a section of instructions (roi_elf_each_symbol only) */
	unsigned type;          /* STT_* (roi_elf_each_symbol only) */
};

/* The .roi.meta records: pieces of the section(s) between NUL bytes, empty pieces (alignment
 * padding) skipped. Each text is NUL-terminated; record numbers in messages count from 1. */
struct roi_records {
	char *buf;
	size_t n;
	const char **text;
	size_t *len;
};

/* Errors: "PATH: <strerror>", "PATH: not an ELF file", "PATH: damaged ELF file: <libelf>". */
int roi_elf_open(const char *path, struct roi_elf **elf, struct roi_err *err);
void roi_elf_close(struct roi_elf *elf);
const char *roi_elf_path(const struct roi_elf *elf);
void roi_elf_info(const struct roi_elf *elf, struct roi_elf_info *info);

/* Errors: "PATH: no roi metadata (was it compiled with -fplugin=roi?)" when there is no
 * .roi.meta section or it holds no record; "PATH: .roi.meta record N: not NUL-terminated ...". */
int roi_elf_meta_records(struct roi_elf *elf, struct roi_records *records, struct roi_err *err);
void roi_records_free(struct roi_records *records);

/* Looks name up in .symtab; the first definition wins (roi's symbol names are unique per unit).
 * Errors: "PATH: no symbol table (stripped?)", "PATH: no symbol NAME". */
int roi_elf_symbol(struct roi_elf *elf, const char *name, struct roi_symbol *sym, struct roi_err *err);

/* Calls visit for every named symbol defined in a section (not SHN_UNDEF, SHN_ABS, ...) in table
 * order, until one returns non-zero, which is returned. Errors: "PATH: no symbol table
 * (stripped?)", "PATH: damaged ELF file: ...". */
typedef int (*roi_symbol_visit)(void *ctx, const char *name, const struct roi_symbol *sym, struct roi_err *err);
int roi_elf_each_symbol(struct roi_elf *elf, roi_symbol_visit visit, void *ctx, struct roi_err *err);

/* Every section's header, name and contents can be read, and so can every symbol and its name: what
 * a reader that trusts the file dereferences unchecked (simavr's elf_read_firmware, which roi run
 * calls). Errors: "PATH: damaged ELF file: section N: <what>". */
int roi_elf_check_structure(struct roi_elf *elf, struct roi_err *err);

/* Calls visit for every section in order, with its contents (NULL and 0 for SHT_NOBITS), until one
 * returns non-zero, which is returned. For a file roi_elf_check_structure accepted. */
typedef int (*roi_section_visit)(void *ctx, size_t index, const char *name, const void *data, size_t size,
				 struct roi_err *err);
int roi_elf_each_section(struct roi_elf *elf, roi_section_visit visit, void *ctx, struct roi_err *err);

/* Calls visit for every allocated, executable section with its load address and contents. */
typedef int (*roi_code_visit)(void *ctx, const char *name, uint64_t addr, const void *data, size_t size,
			      struct roi_err *err);
int roi_elf_each_code(struct roi_elf *elf, roi_code_visit visit, void *ctx, struct roi_err *err);

/* A section as roi stack reads it: its header, and its contents while the file is open. */
struct roi_elf_section {
	const char *name;
	uint64_t addr, size;
	bool alloc, write, exec;
	const unsigned char *data;      /* NULL for SHT_NOBITS (.bss) */
};

/* Every section but the null one, in order (out[i] is section i + 1, as symbols index them): *out
 * is malloc'd (free it), its names and contents valid while elf is open. Errors: "PATH: damaged
 * ELF file: ...". */
int roi_elf_sections(struct roi_elf *elf, struct roi_elf_section **out, size_t *n, struct roi_err *err);

/* A defined symbol of .symtab. */
struct roi_elf_sym {
	const char *name;               /* valid while elf is open */
	uint64_t value, size;
	unsigned type;                  /* STT_FUNC, STT_OBJECT, STT_NOTYPE, ... */
	bool local, weak;
	unsigned shndx;                 /* its section's index, or SHN_ABS ... */
};

/* Every defined symbol with a name, in table order: *out is malloc'd (free it). No symbol table
 * is no error: *n is 0. */
int roi_elf_symbols(struct roi_elf *elf, struct roi_elf_sym **out, size_t *n, struct roi_err *err);

/* Bytes of code: the sizes of the allocated, executable sections added up. */
int roi_elf_code_size(struct roi_elf *elf, uint64_t *bytes, struct roi_err *err);

/* CRC-32 of the image the firmware loads: every allocated section's address, size and contents
 * (code and initialised data), so two builds of the same code have the same one. */
int roi_elf_image_crc(struct roi_elf *elf, uint32_t *crc, struct roi_err *err);

#endif
