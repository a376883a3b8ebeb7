/* cmd_run.c — "roi run": run a firmware in a simulator and write its profile from the counter
 * arrays left in the simulated memory (firmware built with runtime=none carries no roi code). */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "counts.h"
#include "elffile.h"
#include "meta.h"
#include "profile.h"
#include "run_avr.h"
#include "run_qemu.h"

static const char usage[] =
	"usage: roi run --target avr --mcu MCU [--freq HZ] [--max-cycles N] [--output PROFILE] [--json] FIRMWARE\n"
	"       roi run --target cortex-m [--machine M] [--max-seconds S] [--output PROFILE] [--json] FIRMWARE\n"
	"\n"
	"Runs FIRMWARE (an ELF compiled with -fplugin=roi, runtime=none) in a simulator until it stops,\n"
	"reads its roi counters out of the simulated memory and writes the profile to PROFILE (default\n"
	"FIRMWARE.roi, next to it) for 'roi estimate'. Prints the exact simulated cycle count.\n"
	"A firmware stops when it reaches \"cli; rjmp .\" (what avr-libc's exit() ends in) or sleeps with\n"
	"interrupts off. A Cortex-M firmware runs under qemu-system-arm until it calls _exit (newlib's\n"
	"rdimon: see contrib/cortex-m/); instead of cycles, QEMU's executed instruction count is printed.\n"
	"See docs/run.md.\n"
	"\n"
	"  -t, --target T         simulator: avr (simavr) or cortex-m (qemu-system-arm)\n"
	"      --mcu MCU          simulated microcontroller, e.g. atmega32u4 ('simavr --list-cores')\n"
	"      --freq HZ          clock frequency in Hz (default 16000000)\n"
	"      --max-cycles N     give up after N cycles (default 10000000000)\n"
	"      --machine M        cortex-m: QEMU machine (default mps2-an386, a Cortex-M4)\n"
	"      --max-seconds S    cortex-m: give up after S seconds of host time (default 60, 0: never)\n"
	"  -o, --output PROFILE   where to write the profile\n"
	"      --json             one JSON document on stdout\n"
	"  -h, --help             this help\n";

/* The counter array of one function, once found in the symbol table. */
struct counter_array {
	const struct roi_function *fn;
	uint64_t addr;          /* data address as the ELF gives it */
	size_t bytes;           /* per counter */
};

/* "an ARM ELF": what a wrong ELF was built for. */
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

/* A positive decimal number up to max. */
static int parse_number(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v == 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The ELF is a linked AVR executable. */
static int check_elf(const char *path, struct roi_elf **elf, struct roi_err *err)
{
	struct roi_elf_info info;

	if (roi_elf_open(path, elf, err) != 0)
		return -1;
	roi_elf_info(*elf, &info);
	if (info.machine != EM_AVR)
		return roi_err_set(err, "%s: %s ELF, not AVR (--target avr)", path, machine_name(info.machine));
	if (info.relocatable)
		return roi_err_set(err, "%s: an object file, not a linked firmware", path);
	return 0;
}

/* Every unit was compiled for AVR without a runtime, and every function's counter array is in the
 * symbol table with the size its metadata implies. */
static int find_counters(struct roi_elf *elf, const struct roi_program *p, struct counter_array *arrays,
			 struct roi_err *err)
{
	size_t k = 0;

	if (p->nfunctions == 0)
		return roi_err_set(err, "%s: the roi metadata lists no functions: nothing to count", p->path);
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		if (strncmp(unit->target, "avr", 3) != 0 || (unit->target[3] && unit->target[3] != '-'))
			return roi_err_set(err, "%s: %s was compiled for %s, not AVR (--target avr)", p->path,
					   unit->source, unit->target);
		if (strcmp(unit->runtime, "none") != 0)
			return roi_err_set(err, "%s: %s was compiled with runtime=%s; a simulated firmware needs "
					   "-fplugin-arg-roi-runtime=none", p->path, unit->source, unit->runtime);
		for (size_t f = 0; f < unit->nfunctions; f++, k++) {
			const struct roi_function *fn = &unit->functions[f];
			struct roi_symbol sym;
			size_t bytes = (size_t)unit->counter_bits / 8;

			if (roi_elf_symbol(elf, fn->counters, &sym, err) != 0) {
				char why[sizeof err->msg];

				snprintf(why, sizeof why, "%s", err->msg);
				return roi_err_set(err, "%.900s (the counters of function %s)", why, fn->name);
			}
			if (sym.size != fn->nblocks * bytes)
				return roi_err_set(err, "%s: counter array %s of function %s has %llu bytes, expected %zu "
						   "(%zu blocks of %d bits)", p->path, fn->counters, fn->name,
						   (unsigned long long)sym.size, fn->nblocks * bytes, fn->nblocks,
						   unit->counter_bits);
			arrays[k] = (struct counter_array){fn, sym.value, bytes};
		}
	}
	return 0;
}

/* Copies the counters out of the data memory; 16-bit counters stick at 65535, so say where that
 * happened: those counts are lower bounds. */
static int read_counters(const struct roi_program *p, const struct counter_array *arrays,
			 const struct roi_avr_run *run, struct roi_counts *counts, cJSON *saturated,
			 struct roi_err *err)
{
	roi_counts_init(counts, p);
	counts->runs = 1;
	counts->nmissing = 0;
	for (size_t i = 0; i < p->nfunctions; i++) {
		const struct counter_array *a = &arrays[i];
		size_t nsat = 0, size = a->fn->nblocks * a->bytes;

		if (a->addr < ROI_AVR_DATA_OFFSET || a->addr - ROI_AVR_DATA_OFFSET > run->data_size ||
		    size > run->data_size - (a->addr - ROI_AVR_DATA_OFFSET))
			return roi_err_set(err, "%s: counter array %s at 0x%llx is outside the data memory of the "
					   "%s (0x%x-0x%zx)", p->path, a->fn->counters, (unsigned long long)a->addr,
					   run->mcu, ROI_AVR_DATA_OFFSET, ROI_AVR_DATA_OFFSET + run->data_size - 1);
		const uint8_t *mem = run->data + (a->addr - ROI_AVR_DATA_OFFSET);
		for (size_t b = 0; b < a->fn->nblocks; b++) {
			uint64_t v = 0;

			for (size_t j = a->bytes; j-- > 0;)
				v = v << 8 | mem[b * a->bytes + j];
			counts->block[a->fn->gblock0 + b] = v;
			nsat += a->bytes == 2 && v == 0xffff;
		}
		counts->present[a->fn->gindex] = true;
		if (nsat) {
			cJSON *o = cJSON_CreateObject();

			roi_warn("%zu counter%s of function %s saturated at 65535: counts are lower bounds", nsat,
				 nsat == 1 ? "" : "s", a->fn->name);
			cJSON_AddStringToObject(o, "function", a->fn->name);
			cJSON_AddStringToObject(o, "unit", a->fn->unit->id_hex);
			cJSON_AddNumberToObject(o, "counters", (double)nsat);
			cJSON_AddItemToArray(saturated, o);
		}
	}
	return 0;
}

/* Writes the profile next to where it goes and renames it there: never a partial profile. */
static int write_profile(const char *path, const char *program, const struct roi_program *p,
			 const struct roi_counts *counts, struct roi_err *err)
{
	struct roi_profile_fn *fns = calloc(p->nfunctions, sizeof *fns);
	size_t n = strlen(path) + 8, k = 0;
	char *tmp = malloc(n);
	FILE *out = NULL;
	int fd = -1, rc = -1;

	if (!fns || !tmp) {
		roi_err_set(err, "out of memory");
		goto out;
	}
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++, k++) {
			const struct roi_function *fn = &p->units[u].functions[f];

			fns[k] = (struct roi_profile_fn){p->units[u].id, (uint32_t)fn->index, fn->checksum, fn->nblocks,
							 &counts->block[fn->gblock0], 0};
		}
	snprintf(tmp, n, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		roi_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	fd = -1;
	if (roi_profile_write(out, program, 1, fns, p->nfunctions, err) != 0) {
		roi_err_set(err, "%s: cannot write the profile", path);
		goto out;
	}
	rc = fclose(out);
	out = NULL;
	if (rc != 0 || rename(tmp, path) != 0) {
		rc = roi_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	*tmp = '\0';
out:
	if (out)
		fclose(out);
	if (fd >= 0)
		close(fd);
	if (tmp && *tmp)
		unlink(tmp);
	free(tmp);
	free(fns);
	return rc;
}

/* "771.6 us", "16 MHz". */
static void format_time(char *buf, size_t n, double s)
{
	static const char *const unit[] = {"s", "ms", "us", "ns"};
	size_t u = 0;

	for (; u < 3 && s != 0 && s < 1; u++)
		s *= 1000;
	snprintf(buf, n, "%.4g %s", s, unit[u]);
}

static void format_freq(char *buf, size_t n, uint32_t hz)
{
	if (hz >= 1000000)
		snprintf(buf, n, "%g MHz", hz / 1e6);
	else if (hz >= 1000)
		snprintf(buf, n, "%g kHz", hz / 1e3);
	else
		snprintf(buf, n, "%u Hz", (unsigned)hz);
}

static int report(const struct roi_avr_run *run, const char *profile, bool json, cJSON *saturated)
{
	double seconds = (double)run->cycles / run->freq_hz;
	const char *reason = run->stop == ROI_AVR_SLEEP ? "sleep" : "exit";

	if (json) {
		cJSON *doc = cJSON_CreateObject();

		cJSON_AddStringToObject(doc, "elf", run->elf);
		cJSON_AddStringToObject(doc, "mcu", run->mcu);
		cJSON_AddNumberToObject(doc, "freq_hz", run->freq_hz);
		cJSON_AddNumberToObject(doc, "cycles", (double)run->cycles);
		cJSON_AddNumberToObject(doc, "seconds", seconds);
		cJSON_AddStringToObject(doc, "stop_reason", reason);
		cJSON_AddStringToObject(doc, "profile", profile);
		cJSON_AddItemReferenceToObject(doc, "saturated", saturated);
		char *text = cJSON_Print(doc);
		if (text)
			puts(text);
		free(text);
		cJSON_Delete(doc);
	} else {
		char t[32], f[32];

		format_time(t, sizeof t, seconds);
		format_freq(f, sizeof f, run->freq_hz);
		printf("%s: stopped after %llu cycles (%s at %s)%s; profile %s\n", run->elf,
		       (unsigned long long)run->cycles, t, f,
		       run->stop == ROI_AVR_SLEEP ? ", asleep with interrupts off" : "", profile);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "roi: cannot write the output\n");
		return ROI_EXIT_DATA;
	}
	return ROI_EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
	const char *target = NULL, *mcu = NULL, *freq = NULL, *max = NULL, *output = NULL, *pos[1];
	const char *machine = NULL, *max_seconds = NULL;
	bool json = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "target", .short_name = 't', .value = &target},
		{.name = "mcu", .value = &mcu},
		{.name = "freq", .value = &freq},
		{.name = "max-cycles", .value = &max},
		{.name = "output", .short_name = 'o', .value = &output},
		{.name = "json", .flag = &json},
		{.name = "machine", .value = &machine},
		{.name = "max-seconds", .value = &max_seconds},
	};
	uint64_t freq_hz = 16000000, max_cycles = 10000000000ull;
	struct roi_err err;
	struct roi_elf *elf = NULL;
	struct roi_program prog = {0};
	struct roi_counts counts = {0};
	struct roi_avr_run run = {0};
	struct counter_array *arrays = NULL;
	cJSON *saturated = cJSON_CreateArray();
	char *def = NULL, *program = NULL;

	rc = roi_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 1, &npos, &err);
	if (rc == 1) {
		fputs(usage, stdout);
		return ROI_EXIT_OK;
	}
	if (rc < 0)
		return roi_usage_error(argv[0], "%s", err.msg);
	if (!target)
		return roi_usage_error(argv[0], "missing --target (avr or cortex-m)");
	if (strcmp(target, "cortex-m") == 0)
		return roi_run_cortex_m(&(struct roi_qemu_args){argv[0], npos ? pos[0] : NULL, machine, max_seconds, output,
								mcu ? "--mcu" : freq ? "--freq" : max ? "--max-cycles" : NULL,
								json});
	if (strcmp(target, "avr") != 0)
		return roi_usage_error(argv[0], "unknown target '%s' (avr or cortex-m)", target);
	if (machine || max_seconds)
		return roi_usage_error(argv[0], "%s is not an option of --target avr", machine ? "--machine" : "--max-seconds");
	if (!mcu)
		return roi_usage_error(argv[0], "missing --mcu (e.g. atmega32u4)");
	if (freq && parse_number(freq, UINT32_MAX, &freq_hz) != 0)
		return roi_usage_error(argv[0], "--freq '%s' is not a frequency in Hz (1 to %u)", freq, UINT32_MAX);
	if (max && parse_number(max, INT64_MAX, &max_cycles) != 0)
		return roi_usage_error(argv[0], "--max-cycles '%s' is not a positive number", max);
	if (npos < 1)
		return roi_usage_error(argv[0], "missing FIRMWARE");
	if (!output) {
		size_t n = strlen(pos[0]) + 5;

		def = malloc(n);
		if (!def)
			return ROI_EXIT_DATA;
		snprintf(def, n, "%s.roi", pos[0]);
		output = def;
	}

	run = (struct roi_avr_run){.elf = pos[0], .mcu = mcu, .freq_hz = (uint32_t)freq_hz, .max_cycles = max_cycles};
	if (roi_avr_check_mcu(mcu, &err) != 0 || check_elf(pos[0], &elf, &err) != 0 ||
	    roi_program_load(pos[0], &prog, &err) != 0)
		goto fail;
	arrays = calloc(prog.nfunctions ? prog.nfunctions : 1, sizeof *arrays);
	program = realpath(pos[0], NULL);
	if (!arrays || !program) {
		roi_err_set(&err, "%s: %s", pos[0], arrays ? strerror(errno) : "out of memory");
		goto fail;
	}
	if (find_counters(elf, &prog, arrays, &err) != 0 || roi_avr_run(&run, &err) != 0)
		goto fail;
	if (run.stop == ROI_AVR_LIMIT) {
		roi_err_set(&err, "%s: no stop after %llu cycles (--max-cycles); the firmware may loop forever", pos[0],
			    (unsigned long long)max_cycles);
		goto fail;
	}
	if (read_counters(&prog, arrays, &run, &counts, saturated, &err) != 0 ||
	    write_profile(output, program, &prog, &counts, &err) != 0)
		goto fail;
	status = report(&run, output, json, saturated);
	goto out;
fail:
	roi_data_error(&err);
out:
	cJSON_Delete(saturated);
	roi_avr_run_free(&run);
	roi_counts_free(&counts);
	roi_program_free(&prog);
	roi_elf_close(elf);
	free(arrays);
	free(program);
	free(def);
	return status;
}
