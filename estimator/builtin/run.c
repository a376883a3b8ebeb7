/* builtin/run.c — "roi run": run a firmware in a simulator and write its profile from the counter
 * arrays left in the simulated memory (firmware built with runtime=none carries no roi code):
 * simavr for --target avr (run/avr_counted.h), QEMU for --target cortex-m (run/qemu.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/cli.h"
#include "base/json.h"
#include "base/path.h"
#include "builtin.h"
#include "input/counts.h"
#include "input/elffile.h"
#include "input/meta.h"
#include "input/dwarf_lines.h"
#include "input/measured.h"
#include "report/measured.h"
#include "stack/stack.h"
#include "run/avr_counted.h"
#include "run/avr_measure.h"
#include "run/common.h"
#include "input/part.h"
#include "run/qemu.h"
#include "run/regions.h"

static const char usage[] =
	"usage: roi run --target avr --mcu MCU [--freq HZ] [--max-cycles N] [--output PROFILE] [--json] FIRMWARE\n"
	"       roi run --target cortex-m [--machine M] [--max-seconds S] [--output PROFILE] [--json] FIRMWARE\n"
	"       roi run --target avr --mcu MCU --measured [--blocks BLOCK-LINES.elf --counted COUNTED.elf]\n"
	"               [--stop-at SYMBOL[:N]] [--max-cycles N] [--progress] [--top N] [-o FILE] [--json] FIRMWARE\n"
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
	"      --cycles-only      run a firmware built without the plugin: its cycles (cortex-m: instructions)\n"
	"                         and exit status only, no profile\n"
	"      --measured         avr: FIRMWARE as it ships (no plugin, with -g): every cycle given to its\n"
	"                         source line, function and call site; a measured profile (FIRMWARE.measured)\n"
	"      --blocks ELF       with --measured: the block-lines build (-fplugin-arg-roi-block-lines) of the\n"
	"                         same sources, for the counted blocks' cycles and counts\n"
	"      --counted ELF      with --measured: the counted build, for its metadata (blocks, loops,\n"
	"                         regions); it is not run\n"
	"      --stop-at SYMBOL[:N]  avr: stop when the PC reaches SYMBOL for the Nth time (default 1)\n"
	"      --progress         avr: the cycles simulated so far on stderr (the default on a terminal with\n"
	"                         --measured)\n"
	"      --top N            with --measured: the N costliest rows of each table\n"
	"  -h, --help             this help\n";

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

static const char *stop_reason(const struct roi_avr_run *run)
{
	return run->stop == ROI_AVR_SLEEP ? "sleep" : run->stop == ROI_AVR_SYMBOL ? "symbol"
	       : run->stop == ROI_AVR_LIMIT ? "limit" : "exit";
}

static int report(const struct roi_avr_run *run, const char *profile, const char *stop_at, const char *measured,
		  bool json, cJSON *saturated)
{
	double seconds = (double)run->cycles / run->freq_hz;
	const char *reason = stop_reason(run);
	bool exited = run->stop == ROI_AVR_EXIT && run->data_size > 25;

	if (json) {
		cJSON *doc = cJSON_CreateObject();

		cJSON_AddStringToObject(doc, "elf", run->elf);
		cJSON_AddStringToObject(doc, "mcu", run->mcu);
		cJSON_AddNumberToObject(doc, "freq_hz", run->freq_hz);
		cJSON_AddNumberToObject(doc, "cycles", (double)run->cycles);
		if (run->main_seen)
			cJSON_AddNumberToObject(doc, "main_cycle", (double)run->main_cycle);
		cJSON_AddNumberToObject(doc, "seconds", seconds);
		cJSON_AddStringToObject(doc, "stop_reason", reason);
		if (exited)
			cJSON_AddNumberToObject(doc, "exit_status", roi_avr_exit_status(run));
		else
			cJSON_AddNullToObject(doc, "exit_status");
		if (run->stop == ROI_AVR_SYMBOL)
			cJSON_AddStringToObject(doc, "stop_symbol", stop_at);
		roi_json_string_or_null(doc, "profile", profile);
		if (measured)
			cJSON_AddStringToObject(doc, "measured", measured);
		cJSON_AddItemReferenceToObject(doc, "saturated", saturated);
		roi_json_print(doc);
	} else {
		char t[32], f[32];

		format_time(t, sizeof t, seconds);
		format_freq(f, sizeof f, run->freq_hz);
		printf("%s: stopped after %llu cycles (%s at %s)%s%s%s%s%s%s%s\n", run->elf,
		       (unsigned long long)run->cycles, t, f,
		       run->stop == ROI_AVR_SLEEP ? ", asleep with interrupts off" : "",
		       run->stop == ROI_AVR_SYMBOL ? ", at " : "", run->stop == ROI_AVR_SYMBOL ? stop_at : "",
		       run->stop == ROI_AVR_LIMIT ? ", at the cycle limit (--max-cycles): measured up to there" : "",
		       profile ? "; profile " : measured ? "; measured profile " : "", profile ? profile : "",
		       measured ? measured : "");
	}
	if (roi_output_status() != ROI_EXIT_OK)
		return ROI_EXIT_DATA;
	if (exited && roi_avr_exit_status(run) != 0)
		roi_warn("%s: the firmware exited with status %d", run->elf, roi_avr_exit_status(run));
	return ROI_EXIT_OK;
}

static int report_cortex_m(const struct roi_qemu_run *r, bool json, cJSON *saturated)
{
	if (json) {
		cJSON *doc = cJSON_CreateObject();

		cJSON_AddStringToObject(doc, "elf", r->elf);
		cJSON_AddStringToObject(doc, "machine", r->machine);
		if (r->no_instructions[0])
			cJSON_AddNullToObject(doc, "instructions");
		else
			cJSON_AddNumberToObject(doc, "instructions", (double)r->instructions);
		cJSON_AddNumberToObject(doc, "exit_status", r->exit_status);
		cJSON_AddStringToObject(doc, "stop_reason", "exit");
		roi_json_string_or_null(doc, "profile", r->plain ? NULL : r->output);
		cJSON_AddItemReferenceToObject(doc, "saturated", saturated);
		roi_json_print(doc);
	} else {
		printf("%s: stopped at " ROI_QEMU_STOP_SYMBOL "(%d)", r->elf, r->exit_status);
		if (!r->no_instructions[0])
			printf(" after %llu instructions (QEMU icount, not cycles)", (unsigned long long)r->instructions);
		if (!r->plain)
			printf("; profile %s", r->output);
		putchar('\n');
	}
	return roi_output_status();
}

/* --target cortex-m: foreign is an option of --target avr that was given, or NULL. */
static int run_cortex_m(const char *cmd, const char *firmware, const char *machine, const char *max_seconds,
			const char *output, const char *foreign, bool json, bool cycles_only)
{
	struct roi_qemu_run r;
	struct roi_err err;
	char *def = NULL, *end;
	int status = ROI_EXIT_DATA;
	cJSON *saturated;

	roi_qemu_init(&r);
	r.elf = firmware;
	r.output = output;
	if (machine)
		r.machine = machine;
	if (foreign)
		return roi_usage_error(cmd, "%s is not an option of --target cortex-m", foreign);
	r.plain = cycles_only;
	if (max_seconds) {
		r.max_seconds = strtod(max_seconds, &end);
		if (end == max_seconds || *end || !(r.max_seconds >= 0 && r.max_seconds < 1e6))
			return roi_usage_error(cmd, "--max-seconds '%s' is not a number of seconds (0 for no limit)",
					       max_seconds);
	}
	if (!firmware)
		return roi_usage_error(cmd, "missing FIRMWARE");
	if (!r.output) {
		if (!(def = malloc(strlen(firmware) + 5)))
			return ROI_EXIT_DATA;
		sprintf(def, "%s.roi", firmware);
		r.output = def;
	}
	saturated = cJSON_CreateArray();

	if (roi_qemu_run(&r, &err) != 0) {
		roi_data_error(&err);
		goto out;
	}
	/* only now, after the profile: a run that failed warns of nothing */
	for (size_t i = 0; i < r.prog.nfunctions; i++)
		roi_run_warn_saturated(&r.ctr[i], saturated);
	if (r.no_instructions[0])
		roi_warn("%s: no instruction count: %s", r.elf, r.no_instructions);
	if (r.exit_status != 0)
		roi_warn("%s: the firmware exited with status %d", r.elf, r.exit_status);
	status = report_cortex_m(&r, json, saturated);
out:
	cJSON_Delete(saturated);
	roi_qemu_free(&r);
	free(def);
	return status;
}

/* --stop-at SYMBOL[:N]: the symbol's byte address in path's flash and N (1 without it). */
static int resolve_stop(const char *path, const char *spec, uint32_t *pc, uint64_t *hits, struct roi_err *err)
{
	const char *colon = strrchr(spec, ':');
	char *name = strndup(spec, colon ? (size_t)(colon - spec) : strlen(spec));
	struct roi_elf *elf = NULL;
	struct roi_symbol sym;
	int rc = -1;

	*hits = 1;
	if (!name)
		return roi_err_set(err, "out of memory");
	if (colon && parse_number(colon + 1, UINT64_MAX >> 1, hits) != 0) {
		roi_err_set(err, "--stop-at '%s': N must be a positive number", spec);
		goto out;
	}
	if (roi_elf_open(path, &elf, err) != 0 || roi_elf_symbol(elf, name, &sym, err) != 0)
		goto out;
	if (sym.value >= ROI_AVR_DATA_OFFSET || sym.value & 1) {
		roi_err_set(err, "%s: --stop-at %s: not an instruction's address (0x%llx)", path, name,
			    (unsigned long long)sym.value);
		goto out;
	}
	*pc = (uint32_t)sym.value;
	rc = 0;
out:
	roi_elf_close(elf);
	free(name);
	return rc;
}

/* Whether some address of the table is in a block-lines file ("roi-block:NAME"). */
static bool names_blocks(const struct roi_line_table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].file && strncmp(roi_base_name(t->rows[i].file), "roi-block:", 10) == 0)
			return true;
	return false;
}

struct measured_args {
	const char *firmware, *blocks, *counted, *output, *stop_at;
	const char *mcu;
	uint32_t freq_hz;
	uint64_t max_cycles;
	bool progress, json;
	size_t top;
};

/* Runs path with m tracing it; stop_at as given. */
static int measured_run(const struct measured_args *a, const char *path, struct roi_measure *m,
			struct roi_avr_run *run, struct roi_err *err)
{
	*run = (struct roi_avr_run){.elf = path, .mcu = a->mcu, .freq_hz = a->freq_hz, .max_cycles = a->max_cycles,
				    .tracer = roi_measure_tracer(m), .progress = a->progress};
	if (a->stop_at && resolve_stop(path, a->stop_at, &run->stop_pc, &run->stop_hits, err) != 0)
		return -1;
	return roi_avr_run(run, err);
}

/* The measured stack's RAM: the end of the static data as roi stack reads it, and what the lowest
 * stack pointer left above it. */
static int add_ram(const char *firmware, struct roi_measured *out, struct roi_err *err)
{
	struct roi_stack_ram ram;
	struct roi_mstack *st = &out->stack;

	if (!out->has_stack)
		return 0;
	if (roi_stack_ram_read(firmware, NULL, &ram, &out->arena, err) != 0)
		return -1;
	if (!ram.known)
		return 0;
	st->has_ram = true;
	st->data_end = (uint32_t)ram.data_end;
	st->margin = (long long)st->lowest + 1 - (long long)ram.data_end;
	st->heap = ram.heap;
	return 0;
}

/* --measured: the firmware as it ships, each cycle given to a line, a function and a call site;
 * with --blocks, the counted blocks too. */
static int run_measured(const struct measured_args *a)
{
	struct roi_err err;
	struct roi_line_table lines = {0}, blocks = {0};
	struct roi_program prog = {0};
	struct roi_elf *elf = NULL, *belf = NULL;
	struct roi_measure *m = NULL, *mb = NULL;
	struct roi_avr_run run = {0}, brun = {0};
	struct roi_measured out = {0}, bout = {0};
	char *program = NULL, *blocks_program = NULL, *metadata = NULL;
	uint32_t crc, bcrc = 0;
	int status = ROI_EXIT_DATA;

	if (roi_avr_check_mcu(a->mcu, &err) != 0 || roi_run_open_elf(a->firmware, &roi_avr_target, &elf, &err) != 0 ||
	    roi_elf_image_crc(elf, &crc, &err) != 0)
		goto fail;
	if (roi_line_table_load(a->firmware, &lines, &err) != 0) {
		roi_err_set(&err, "%s: no DWARF line table: compile it with -gdwarf-2 (avr-gcc 5.4 writes STABS for a bare "
			    "-g)", a->firmware);
		goto fail;
	}
	if (names_blocks(&lines)) {
		roi_err_set(&err, "%s: a block-lines build (its line table names counted blocks, not source lines): "
			    "give the plain build as FIRMWARE and this one as --blocks", a->firmware);
		goto fail;
	}
	if (a->counted && roi_program_load(a->counted, &prog, &err) != 0)
		goto fail;
	if (a->blocks) {
		if (roi_run_open_elf(a->blocks, &roi_avr_target, &belf, &err) != 0 ||
		    roi_elf_image_crc(belf, &bcrc, &err) != 0 || roi_line_table_load(a->blocks, &blocks, &err) != 0)
			goto fail;
		if (!names_blocks(&blocks)) {
			roi_err_set(&err, "%s: not a block-lines build (compile it with -fplugin=roi "
				    "-fplugin-arg-roi-block-lines)", a->blocks);
			goto fail;
		}
	}
	bool same = a->blocks && bcrc == crc;
	if (roi_measure_new(&m, elf, &lines, same ? &blocks : NULL, a->counted ? &prog : NULL, &err) != 0 ||
	    measured_run(a, a->firmware, m, &run, &err) != 0)
		goto fail;
	program = realpath(a->firmware, NULL);
	out.program = program ? program : a->firmware;
	out.image_crc = crc;
	out.mcu = a->mcu;
	out.freq_hz = a->freq_hz;
	out.cycles = run.cycles;
	out.has_main = run.main_seen;
	out.main_cycle = run.main_cycle;
	out.stop = stop_reason(&run);
	out.stop_symbol = run.stop == ROI_AVR_SYMBOL ? a->stop_at : NULL;
	out.has_exit_status = run.stop == ROI_AVR_EXIT && run.data_size > 25;
	out.exit_status = out.has_exit_status ? roi_avr_exit_status(&run) : 0;
	out.complete = run.stop != ROI_AVR_LIMIT;
	if (roi_measure_finish(m, &run, &out, &err) != 0 || add_ram(a->firmware, &out, &err) != 0)
		goto fail;
	if (a->blocks && !same) {
		/* its code is not the plain build's (at -O0 GCC keeps a jump whose line differs from its
		 * target's): its own run gives the blocks */
		if (roi_measure_new(&mb, belf, NULL, &blocks, &prog, &err) != 0 ||
		    measured_run(a, a->blocks, mb, &brun, &err) != 0 || roi_measure_finish(mb, &brun, &bout, &err) != 0)
			goto fail;
		out.has_blocks = true;
		out.blocks_run_cycles = bout.blocks_run_cycles;
		out.ambiguous = bout.ambiguous;
		out.blocks = bout.blocks;
		out.nblocks = bout.nblocks;
		out.loops = bout.loops;
		out.nloops = bout.nloops;
		for (size_t i = 0; i < out.nregions && i < bout.nregions; i++)
			if (strcmp(out.regions[i].kind, "loop") == 0)
				out.regions[i] = bout.regions[i];
	}
	if (a->blocks) {
		blocks_program = realpath(a->blocks, NULL);
		metadata = realpath(a->counted, NULL);
		out.blocks_program = blocks_program ? blocks_program : a->blocks;
		out.metadata = metadata ? metadata : a->counted;
	}
	if (roi_measured_write(a->output, &out, &err) != 0)
		goto fail;
	if (run.stop == ROI_AVR_LIMIT)
		roi_warn("%s: no stop after %llu cycles (--max-cycles): measured up to there", a->firmware,
			 (unsigned long long)a->max_cycles);
	cJSON *saturated = cJSON_CreateArray();
	status = report(&run, NULL, a->stop_at, a->output, a->json, saturated);
	cJSON_Delete(saturated);
	if (!a->json && status == ROI_EXIT_OK) {
		out.program = a->firmware;      /* as given, in the text */
		out.blocks_program = a->blocks;
		roi_measured_text(stdout, &out, a->top);
		status = roi_output_status();
	}
	goto out;
fail:
	roi_data_error(&err);
out:
	roi_measure_free(m);
	roi_measure_free(mb);
	roi_measured_free(&out);
	roi_measured_free(&bout);
	roi_avr_run_free(&run);
	roi_avr_run_free(&brun);
	roi_line_table_free(&lines);
	roi_line_table_free(&blocks);
	roi_program_free(&prog);
	roi_elf_close(elf);
	roi_elf_close(belf);
	free(program);
	free(blocks_program);
	free(metadata);
	return status;
}

int cmd_run(int argc, char **argv)
{
	const char *target = NULL, *mcu = NULL, *freq = NULL, *max = NULL, *output = NULL, *pos[1];
	const char *machine = NULL, *max_seconds = NULL, *blocks = NULL, *counted = NULL, *stop_at = NULL;
	const char *top_arg = NULL;
	bool json = false, cycles_only = false, measured = false, progress = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "target", .short_name = 't', .value = &target},
		{.name = "mcu", .value = &mcu},
		{.name = "freq", .value = &freq},
		{.name = "max-cycles", .value = &max},
		{.name = "output", .short_name = 'o', .value = &output},
		{.name = "json", .flag = &json},
		{.name = "cycles-only", .flag = &cycles_only},
		{.name = "machine", .value = &machine},
		{.name = "max-seconds", .value = &max_seconds},
		{.name = "measured", .flag = &measured},
		{.name = "blocks", .value = &blocks},
		{.name = "counted", .value = &counted},
		{.name = "stop-at", .value = &stop_at},
		{.name = "progress", .flag = &progress},
		{.name = "top", .value = &top_arg},
	};
	uint64_t top = 0;
	uint64_t freq_hz = 16000000, max_cycles = 10000000000ull;
	struct roi_err err;
	struct roi_elf *elf = NULL;
	struct roi_program prog = {0};
	struct roi_counts counts = {0};
	struct roi_avr_run run = {0};
	cJSON *saturated = NULL;    /* created once the arguments are checked: no early return leaks it */
	char *def = NULL, *program = NULL;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 1, &npos, usage, &rc) != 0)
		return rc;
	if (cycles_only && output)
		return roi_usage_error(argv[0], "--cycles-only goes without --output");
	if (cycles_only && measured)
		return roi_usage_error(argv[0], "--cycles-only or --measured, not both");
	if (!measured && (blocks || counted || top_arg))
		return roi_usage_error(argv[0], "%s goes with --measured", blocks ? "--blocks" : counted ? "--counted" : "--top");
	if (blocks && !counted)
		return roi_usage_error(argv[0], "--blocks needs --counted COUNTED.elf: the counted build's metadata "
				       "(its blocks and their successors)");
	if (top_arg && parse_number(top_arg, SIZE_MAX, &top) != 0)
		return roi_usage_error(argv[0], "--top '%s' is not a positive number", top_arg);
	if (stop_at && (!*stop_at || *stop_at == ':'))
		return roi_usage_error(argv[0], "--stop-at needs a SYMBOL[:N]");
	if (!target)
		return roi_usage_error(argv[0], "missing --target (avr or cortex-m)");
	if (strcmp(target, "cortex-m") == 0)
		return run_cortex_m(argv[0], npos ? pos[0] : NULL, machine, max_seconds, output,
				    mcu ? "--mcu" : freq ? "--freq" : max ? "--max-cycles" : measured ? "--measured"
				    : stop_at ? "--stop-at" : progress ? "--progress" : NULL, json, cycles_only);
	if (strcmp(target, "avr") != 0)
		return roi_usage_error(argv[0], "unknown target '%s' (avr or cortex-m)", target);
	if (machine || max_seconds)
		return roi_usage_error(argv[0], "%s is not an option of --target avr", machine ? "--machine" : "--max-seconds");
	if (measured && json && top_arg)
		return roi_usage_error(argv[0], "--top is for the text output");
	if (!mcu)
		return roi_usage_error(argv[0], "missing --mcu (e.g. atmega32u4)");
	if (freq && parse_number(freq, UINT32_MAX, &freq_hz) != 0)
		return roi_usage_error(argv[0], "--freq '%s' is not a frequency in Hz (1 to %u)", freq, UINT32_MAX);
	if (max && parse_number(max, INT64_MAX, &max_cycles) != 0)
		return roi_usage_error(argv[0], "--max-cycles '%s' is not a positive number", max);
	if (npos < 1)
		return roi_usage_error(argv[0], "missing FIRMWARE");
	if (!output) {
		size_t n = strlen(pos[0]) + 10;

		def = malloc(n);
		if (!def)
			return ROI_EXIT_DATA;
		snprintf(def, n, "%s.%s", pos[0], measured ? "measured" : "roi");
		output = def;
	}
	if (measured) {
		struct measured_args a = {pos[0], blocks, counted, output, stop_at, mcu, (uint32_t)freq_hz, max_cycles,
					  progress || isatty(STDERR_FILENO), json, (size_t)top};
		status = run_measured(&a);
		free(def);
		return status;
	}

	saturated = cJSON_CreateArray();
	run = (struct roi_avr_run){.elf = pos[0], .mcu = mcu, .freq_hz = (uint32_t)freq_hz, .max_cycles = max_cycles,
				   .progress = progress};
	if (stop_at && resolve_stop(pos[0], stop_at, &run.stop_pc, &run.stop_hits, &err) != 0)
		goto fail;
	if (cycles_only) {
		/* The truth an estimate is checked against: the same firmware built without the
		 * plugin, simulated to the cycle; no metadata, no counters, no profile. */
		if (roi_avr_check_mcu(mcu, &err) != 0 || roi_run_check_elf(pos[0], &roi_avr_target, &err) != 0 ||
		    roi_avr_check_part(pos[0], mcu, &err) != 0 || roi_avr_run(&run, &err) != 0)
			goto fail;
		if (run.stop == ROI_AVR_LIMIT) {
			roi_err_set(&err, "%s: no stop after %llu cycles (--max-cycles); the firmware may loop forever",
				    pos[0], (unsigned long long)max_cycles);
			goto fail;
		}
		status = report(&run, NULL, stop_at, NULL, json, saturated);
		goto out;
	}
	program = realpath(pos[0], NULL);
	if (!program) {
		roi_err_set(&err, "%s: %s", pos[0], strerror(errno));
		goto fail;
	}
	if (roi_avr_check_mcu(mcu, &err) != 0 || roi_run_check_elf(pos[0], &roi_avr_target, &err) != 0 ||
	    roi_avr_check_part(pos[0], mcu, &err) != 0 ||
	    roi_avr_run_counted(&run, &elf, &prog, &counts, saturated, &err) != 0 ||
	    roi_avr_regions(&prog, elf, &run, &counts, &err) != 0 || (roi_avr_hook_cost(&run, &counts), false) ||
	    roi_run_write_profile(output, program, &prog, &counts, &err) != 0)
		goto fail;
	status = report(&run, output, stop_at, NULL, json, saturated);
	goto out;
fail:
	roi_data_error(&err);
out:
	cJSON_Delete(saturated);
	roi_avr_run_free(&run);
	roi_counts_free(&counts);
	roi_program_free(&prog);
	roi_elf_close(elf);
	free(program);
	free(def);
	return status;
}
