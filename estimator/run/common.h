/* run/common.h — what the two firmware runners of "roi run" share: avr_counted.c (AVR, simavr) and
 * qemu.c (Cortex-M, QEMU). They differ in how they run a firmware and fetch its memory; which
 * ELF they accept, where the counters are, how raw counters become counts and how the profile is
 * written are the same, up to the roi_run_target that names the differences. */
#ifndef ROI_RUN_COMMON_H
#define ROI_RUN_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/err.h"
#include "input/counts.h"
#include "input/elffile.h"
#include "input/meta.h"

/* What one runner accepts. The strings appear in messages: "not AVR (--target avr)". */
struct roi_run_target {
	const char *option;             /* the --target value: "avr", "cortex-m" */
	const char *arch;               /* "AVR", "ARM" */
	unsigned machine;               /* e_machine: EM_AVR, EM_ARM */
	bool le32;                      /* the ELF must also be 32-bit little-endian ("not 32-bit little-endian ARM") */
	const char *unit_target;        /* every unit's configured target must be this triple or start with
					 * it and '-' ("avr"); NULL: not checked */
	bool gc_sections;               /* a function the linker dropped with its counters is left out of
					 * the profile instead of being an error */
};

/* The counter array of one function, once found in the symbol table. */
struct roi_counter_array {
	const struct roi_function *fn;
	uint64_t addr;                  /* data address as the ELF gives it */
	size_t bytes;                   /* per counter: 2, 4 or 8 */
	bool linked;                    /* false: dropped by the linker (gc_sections), nothing to read */
	size_t saturated;               /* 16-bit counters stuck at 65535, once decoded */
};

/* Only the ELF checks of roi_run_open, for a firmware built without the plugin: check_elf closes
 * the file again, open_elf leaves it open in *elf (close it even on failure). */
int roi_run_check_elf(const char *path, const struct roi_run_target *t, struct roi_err *err);
int roi_run_open_elf(const char *path, const struct roi_run_target *t, struct roi_elf **elf, struct roi_err *err);

/* Opens path, which must be a linked firmware for t, and loads its roi metadata, which must list
 * functions. Errors: "PATH: an x86-64 ELF, not AVR (--target avr)", "PATH: an object file, not a
 * linked firmware", roi_program_load's, "PATH: the roi metadata lists no functions: nothing to
 * count". Close *elf (NULL when it did not open) and free *prog even on failure. */
int roi_run_open(const char *path, const struct roi_run_target *t, struct roi_elf **elf, struct roi_program *prog,
		 struct roi_err *err);

/* Every unit was compiled for t with runtime=none, and every function's counter array is in the
 * symbol table with the size its metadata implies: fills arrays[prog->nfunctions], in program
 * order. Errors: "PATH: SOURCE was compiled with runtime=R; a simulated firmware needs ...",
 * "PATH: no symbol S (the counters of function F)", "PATH: counter array S of function F has N
 * bytes, expected M (B blocks of W bits)" (or "B counters", for a function counted on edges). */
int roi_run_find_counters(struct roi_elf *elf, const struct roi_program *prog, const struct roi_run_target *t,
			  struct roi_counter_array *arrays, struct roi_err *err);

/* The counters of a->fn as the firmware left them in mem (a copy of its array, little-endian) into
 * counts, set up by roi_counts_init, and the counts they give (roi_counts_set); a->saturated says
 * how many of them stuck at 65535. */
void roi_run_decode(struct roi_counter_array *a, const uint8_t *mem, struct roi_counts *counts);

/* When a's counters saturated: warns that its counts are lower bounds and adds {"function",
 * "unit", "counters"} to the JSON array list. Prints on stderr: for the runners' commands. */
void roi_run_warn_saturated(const struct roi_counter_array *a, cJSON *list);

/* Writes the profile of one run of program (the firmware's absolute path) with the functions
 * present in counts. Errors: "PATH: <strerror>", "PATH: cannot write the profile[: <strerror>]";
 * a profile already at path is then left as it was. */
int roi_run_write_profile(const char *path, const char *program, const struct roi_program *prog,
			  const struct roi_counts *counts, struct roi_err *err);

#endif
