/* run/common.c — what both firmware runners of "roi run" share, see run/common.h. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/cli.h"
#include "input/flow.h"
#include "input/profile.h"
#include "base/atomic.h"
#include "run/common.h"

/* "an ARM": what a wrong ELF was built for. */
static const char *machine_name(unsigned machine)
{
	static const struct {
		unsigned machine;
		const char *name;
	} names[] = {
		{EM_AVR, "an AVR"}, {EM_ARM, "an ARM"}, {EM_AARCH64, "an AArch64"}, {EM_X86_64, "an x86-64"},
		{EM_386, "an x86"}, {EM_RISCV, "a RISC-V"}, {EM_MSP430, "an MSP430"}, {EM_XTENSA, "an Xtensa"},
		{EM_MIPS, "a MIPS"}, {EM_PPC, "a PowerPC"}, {EM_PPC64, "a PowerPC64"},
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].machine == machine)
			return names[i].name;
	return "another machine's";
}

/* The ELF is a linked executable for t's machine; elf stays open for the caller. */
int roi_run_open_elf(const char *path, const struct roi_run_target *t, struct roi_elf **elf, struct roi_err *err)
{
	struct roi_elf_info info;

	*elf = NULL;
	if (roi_elf_open(path, elf, err) != 0)
		return -1;
	roi_elf_info(*elf, &info);
	if (info.machine != t->machine || (t->le32 && (info.bits != 32 || !info.little_endian))) {
		char what[64];

		/* The right machine can only be wrong in its byte order: EM_ARM is the 32-bit ARM. */
		if (info.machine == t->machine)
			snprintf(what, sizeof what, "a big-endian %s", t->arch);
		else
			snprintf(what, sizeof what, "%s", machine_name(info.machine));
		return roi_err_set(err, "%s: %s ELF, not %s%s (--target %s)", path, what,
				   t->le32 ? "32-bit little-endian " : "", t->arch, t->option);
	}
	if (info.relocatable)
		return roi_err_set(err, "%s: an object file, not a linked firmware", path);
	return 0;
}

int roi_run_check_elf(const char *path, const struct roi_run_target *t, struct roi_err *err)
{
	struct roi_elf *elf;
	int rc = roi_run_open_elf(path, t, &elf, err);

	roi_elf_close(elf);
	return rc;
}

int roi_run_open(const char *path, const struct roi_run_target *t, struct roi_elf **elf, struct roi_program *prog,
		 struct roi_err *err)
{
	if (roi_run_open_elf(path, t, elf, err) != 0 || roi_program_load(path, prog, err) != 0)
		return -1;
	/* A build that only times regions (count exclude function glob:*, hooks include ...) counts
	 * nothing and is measured all the same. */
	if (prog->nfunctions == 0 && prog->nregions == 0)
		return roi_err_set(err, "%s: the roi metadata lists no functions and no regions: nothing to count "
				   "or time", path);
	return 0;
}

/* "avr" matches "avr" and "avr-elf", not "avr32". */
static bool compiled_for(const struct roi_unit *unit, const char *target)
{
	size_t n = strlen(target);

	return strncmp(unit->target, target, n) == 0 && (!unit->target[n] || unit->target[n] == '-');
}

int roi_run_find_counters(struct roi_elf *elf, const struct roi_program *prog, const struct roi_run_target *t,
			  struct roi_counter_array *arrays, struct roi_err *err)
{
	size_t k = 0;

	for (size_t u = 0; u < prog->nunits; u++) {
		const struct roi_unit *unit = &prog->units[u];

		if (t->unit_target && !compiled_for(unit, t->unit_target))
			return roi_err_set(err, "%s: %s was compiled for %s, not %s (--target %s)", prog->path,
					   unit->source, unit->target, t->arch, t->option);
		if (strcmp(unit->runtime, "none") != 0)
			return roi_err_set(err, "%s: %s was compiled with runtime=%s; a simulated firmware needs "
					   "-fplugin-arg-roi-runtime=none", prog->path, unit->source, unit->runtime);
		for (size_t f = 0; f < unit->nfunctions; f++, k++) {
			const struct roi_function *fn = &unit->functions[f];
			struct roi_counter_array *a = &arrays[k];
			struct roi_symbol sym;

			*a = (struct roi_counter_array){.fn = fn, .bytes = (size_t)unit->counter_bits / 8};
			if (roi_elf_symbol(elf, fn->counters, &sym, err) != 0) {
				/* The metadata survives --gc-sections: a function the linker dropped, with
				 * its counters, never ran. */
				if (t->gc_sections && roi_elf_symbol(elf, fn->asm_name, &sym, NULL) != 0)
					continue;
				char why[sizeof err->msg];

				snprintf(why, sizeof why, "%s", err->msg);
				return roi_err_set(err, "%.900s (the counters of function %s)", why, fn->name);
			}
			if (sym.size != fn->ncounters * a->bytes)
				return roi_err_set(err, "%s: counter array %s of function %s has %llu bytes, expected %zu "
						   "(%zu %s of %d bits)", prog->path, fn->counters, fn->name,
						   (unsigned long long)sym.size, fn->ncounters * a->bytes, fn->ncounters,
						   fn->on_edges ? "counters" : "blocks", unit->counter_bits);
			a->addr = sym.value;
			a->linked = true;
		}
	}
	return 0;
}

void roi_run_decode(struct roi_counter_array *a, const uint8_t *mem, struct roi_counts *counts)
{
	const struct roi_function *fn = a->fn;
	uint64_t *v = roi_xrealloc(NULL, fn->ncounters ? fn->ncounters : 1, sizeof *v);

	a->saturated = 0;
	for (size_t k = 0; k < fn->ncounters; k++) {
		v[k] = 0;
		for (size_t j = a->bytes; j-- > 0;)
			v[k] = v[k] << 8 | mem[k * a->bytes + j];
		/* 16-bit counters saturate instead of wrapping (roi-counters.cc): 65535 means at least that */
		a->saturated += a->bytes == 2 && v[k] == 0xffff;
	}
	/* (no sum of a firmware's counters passes 64 bits: they are 64 bits wide at most, a few
	 * thousand of them) */
	roi_counts_set(counts, fn, v, false, a->bytes == 2 ? 0xffff : 0);
	free(v);
}

void roi_run_warn_saturated(const struct roi_counter_array *a, cJSON *list)
{
	cJSON *o;

	if (!a->saturated)
		return;
	roi_warn("%zu counter%s of function %s saturated at 65535: counts are lower bounds", a->saturated,
		 a->saturated == 1 ? "" : "s", a->fn->name);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "function", a->fn->name);
	cJSON_AddStringToObject(o, "unit", a->fn->unit->id_hex);
	cJSON_AddNumberToObject(o, "counters", (double)a->saturated);
	cJSON_AddItemToArray(list, o);
}

/* Written whole or not at all (base/atomic.h): never a partial profile. */
int roi_run_write_profile(const char *path, const char *program, const struct roi_program *prog,
			  const struct roi_counts *counts, struct roi_err *err)
{
	struct roi_profile_fn *fns = calloc(prog->nfunctions, sizeof *fns);
	struct roi_profile_region *regions = calloc(prog->nregions ? prog->nregions : 1, sizeof *regions);
	size_t nfns = 0, nregions = 0;
	uint64_t *counters = calloc(prog->ncounters ? prog->ncounters : 1, sizeof *counters);
	struct roi_atomic out;
	int rc = -1;

	if (!fns || !regions || !counters) {
		roi_err_set(err, "out of memory");
		goto out;
	}
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++) {
			const struct roi_function *fn = &prog->units[u].functions[f];
			uint64_t *mine = &counters[fn->gcounter0];

			/* Its counters, as the run left them, or as a run with these counts would (roi
			 * transfer's, which obey flow conservation); else a count per block, under the
			 * checksum that says so. */
			if (!counts->present[fn->gindex])
				continue;
			bool edges = counts->raw[fn->gindex];
			if (edges)
				memcpy(mine, &counts->counter[fn->gcounter0], fn->ncounters * sizeof *mine);
			else
				edges = roi_flow_counters_from_blocks(fn, &counts->block[fn->gblock0],
								      prog->units[u].counter_bits == 16 ? 0xffff : 0, mine);
			fns[nfns++] = (struct roi_profile_fn){
				{prog->units[u].id, (uint32_t)fn->index, edges ? fn->checksum : fn->block_checksum,
				 (uint32_t)(edges ? fn->ncounters : fn->nblocks)},
				edges ? mine : &counts->block[fn->gblock0], 0};
		}
	/* Region times a runner measured (simavr's cycle-stamped hook events), in region order. */
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t r = 0; r < prog->units[u].nregions; r++) {
			const struct roi_region *reg = &prog->units[u].regions[r];
			const struct roi_region_result *res = &counts->region[reg->gindex];

			if (res->ran)
				regions[nregions++] = (struct roi_profile_region){
					{prog->units[u].id, (uint32_t)reg->index, res->calls, res->total, res->inner,
					 res->has_inner}, 0};
		}
	struct roi_profile_timing timing = {regions, nregions, counts->has_hook_cost, counts->hook_cost,
					   counts->hook_inside, counts->time_unit};
	if (roi_atomic_open(&out, path, err) != 0)
		goto out;
	if (roi_profile_write(out.f, program, 1, counts->transferred, fns, nfns, nregions ? &timing : NULL, err) != 0) {
		roi_atomic_abort(&out);
		roi_err_set(err, "%s: cannot write the profile", path);
		goto out;
	}
	rc = roi_atomic_commit(&out, "the profile", err);
out:
	free(counters);
	free(fns);
	free(regions);
	return rc;
}
