/* builtin/run.c — "roi run": run a firmware in a simulator and write its profile from the counter
 * arrays left in the simulated memory (firmware built with runtime=none carries no roi code):
 * simavr for --target avr (run/avr_counted.h), QEMU for --target cortex-m (run/qemu.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/counts.h"
#include "input/elffile.h"
#include "input/meta.h"
#include "run/avr_counted.h"
#include "run/common.h"
#include "run/part.h"
#include "run/qemu.h"
#include "run/regions.h"

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
	"      --cycles-only      run a firmware built without the plugin: its cycles (cortex-m: instructions)\n"
	"                         and exit status only, no profile\n"
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

static int report(const struct roi_avr_run *run, const char *profile, bool json, cJSON *saturated)
{
	double seconds = (double)run->cycles / run->freq_hz;
	const char *reason = run->stop == ROI_AVR_SLEEP ? "sleep" : "exit";
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
		roi_json_string_or_null(doc, "profile", profile);
		cJSON_AddItemReferenceToObject(doc, "saturated", saturated);
		roi_json_print(doc);
	} else {
		char t[32], f[32];

		format_time(t, sizeof t, seconds);
		format_freq(f, sizeof f, run->freq_hz);
		printf("%s: stopped after %llu cycles (%s at %s)%s%s%s\n", run->elf,
		       (unsigned long long)run->cycles, t, f,
		       run->stop == ROI_AVR_SLEEP ? ", asleep with interrupts off" : "",
		       profile ? "; profile " : "", profile ? profile : "");
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

int cmd_run(int argc, char **argv)
{
	const char *target = NULL, *mcu = NULL, *freq = NULL, *max = NULL, *output = NULL, *pos[1];
	const char *machine = NULL, *max_seconds = NULL;
	bool json = false, cycles_only = false;
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
	};
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
	if (!target)
		return roi_usage_error(argv[0], "missing --target (avr or cortex-m)");
	if (strcmp(target, "cortex-m") == 0)
		return run_cortex_m(argv[0], npos ? pos[0] : NULL, machine, max_seconds, output,
				    mcu ? "--mcu" : freq ? "--freq" : max ? "--max-cycles" : NULL, json, cycles_only);
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

	saturated = cJSON_CreateArray();
	run = (struct roi_avr_run){.elf = pos[0], .mcu = mcu, .freq_hz = (uint32_t)freq_hz, .max_cycles = max_cycles};
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
		status = report(&run, NULL, json, saturated);
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
	free(program);
	free(def);
	return status;
}
