/* builtin/calibrate.c — "roi calibrate": a cost model fitted to simavr's exact cycle counts of a
 * corpus of programs (contrib/calibration/, docs/calibration.md; the steps are
 * calibrate/calibration.h's). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/cli.h"
#include "builtin.h"
#include "calibrate/calibration.h"

static const char usage[] =
	"usage: roi calibrate --target avr --mcu MCU --base MODEL [-O LEVEL] [--cc CC] [--plugin SO]\n"
	"                     [--corpus DIR] [--programs LIST] [--energy CSV] [--leave-one-out DIR]\n"
	"                     [--work DIR] -o MODEL\n"
	"\n"
	"Builds every program of the corpus with CC and -O LEVEL twice, with the roi plugin (operation\n"
	"counts) and without it (the truth: simavr's exact cycles from main to the end), and fits one\n"
	"cost per operation so that the sum of count x cost matches the measured cycles: non-negative\n"
	"least squares on relative errors, pulled slightly towards the base model's costs where the\n"
	"corpus cannot tell operations apart. Writes a model that names the compiler, flags, corpus,\n"
	"date and the fit's error per program. See docs/calibration.md.\n"
	"\n"
	"  -t, --target T          avr (the only target with a cycle-exact simulator)\n"
	"      --mcu MCU           e.g. atmega32u4: -mmcu= and simavr's core\n"
	"      --base MODEL        the part's description (clock, supply, energy per cycle, ABI) and the\n"
	"                          prior costs, e.g. models/atmega32u4.json\n"
	"  -O LEVEL                optimisation level: 0 1 2 s (default 0); also -O0, -Os\n"
	"      --cc CC             the compiler (default avr-gcc)\n"
	"      --plugin SO         roi.so built for CC (default: build/avr/roi.so next to this roi,\n"
	"                          else CC's plugin directory)\n"
	"      --corpus DIR        the programs, DIR/*.c (default: contrib/calibration of this roi's tree)\n"
	"      --programs LIST     only the programs named in LIST (one name per line, # comments)\n"
	"      --energy CSV        measured energy per program (lines 'NAME,JOULES'): fits energy per\n"
	"                          operation too\n"
	"      --leave-one-out DIR also writes DIR/NAME.json for every program, fitted without it\n"
	"      --ridge R           how strongly a key's cost is pulled towards its prior, in proportion\n"
	"                          to what the measurements say of the key (default 0.05 at -O0, 1 at\n"
	"                          other levels)\n"
	"      --base-weight W     how strongly a key's cost is pulled towards the base model's, the same\n"
	"                          for every key (default 3e-3; 0: not at all)\n"
	"      --weights W         how much a row's error counts: 'line', relative to the row's own\n"
	"                          cycles (a chi-square: big lines count more, a line run twice little);\n"
	"                          'program', relative to its program's cycles (default: line at -O0,\n"
	"                          program at other levels)\n"
	"      --freq HZ           clock frequency for simavr (default: the base model's)\n"
	"      --work DIR          keep the ELF files in DIR (default: a temporary directory)\n"
	"      --rows FILE         write every fitted row (a source line, or a function's frame) with\n"
	"                          its measured and estimated cycles and its operations: where the\n"
	"                          model is off\n"
	"  -o, --output MODEL      where to write the model\n"
	"  -h, --help              this help\n";

struct options {
	const char *target, *mcu, *base, *opt, *cc, *plugin, *corpus, *programs, *energy, *loo, *ridge,
		*base_weight, *weights, *freq, *work, *rows, *output;
};

/* -O0 .. -Os as roi's option parser cannot take them: "-O LEVEL" becomes --opt. */
static int take_opt_levels(int argc, char **argv, char **out, const char **opt)
{
	int n = 0;

	for (int i = 0; i < argc; i++) {
		if (i > 0 && strncmp(argv[i], "-O", 2) == 0 && argv[i][2]) {
			*opt = argv[i] + 2;
			continue;
		}
		if (i > 0 && strcmp(argv[i], "-O") == 0 && i + 1 < argc) {
			*opt = argv[++i];
			continue;
		}
		out[n++] = argv[i];
	}
	return n;
}

int cmd_calibrate(int argc, char **argv)
{
	struct options o = {0};
	const char *pos[1], *level = "0";
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "target", .short_name = 't', .value = &o.target},
		{.name = "mcu", .value = &o.mcu},
		{.name = "base", .value = &o.base},
		{.name = "cc", .value = &o.cc},
		{.name = "plugin", .value = &o.plugin},
		{.name = "corpus", .value = &o.corpus},
		{.name = "programs", .value = &o.programs},
		{.name = "energy", .value = &o.energy},
		{.name = "leave-one-out", .value = &o.loo},
		{.name = "ridge", .value = &o.ridge},
		{.name = "base-weight", .value = &o.base_weight},
		{.name = "weights", .value = &o.weights},
		{.name = "freq", .value = &o.freq},
		{.name = "work", .value = &o.work},
		{.name = "rows", .value = &o.rows},
		{.name = "output", .short_name = 'o', .value = &o.output},
	};
	char **args = calloc((size_t)argc + 1, sizeof *args);
	char optflag[16];
	struct roi_calib_fit_opts fo = {0};
	struct roi_err err;
	struct roi_calibration cal = {0};
	cJSON *doc;

	if (!args)
		return ROI_EXIT_DATA;
	argc = take_opt_levels(argc, argv, args, &level);
	if (roi_command_options(argc, args, opts, sizeof opts / sizeof opts[0], pos, 0, &npos, usage, &rc) != 0) {
		free(args);
		return rc;
	}
	free(args);
	if (!o.target || strcmp(o.target, "avr") != 0)
		return roi_usage_error(argv[0], o.target ? "unknown target '%s' (avr: simavr is the only cycle-exact "
					"simulator roi runs; Cortex-M models come from contrib/models)"
					: "missing --target (avr)", o.target);
	if (!o.mcu)
		return roi_usage_error(argv[0], "missing --mcu (e.g. atmega32u4)");
	if (!o.base)
		return roi_usage_error(argv[0], "missing --base MODEL (the part's description and prior costs)");
	if (!o.output)
		return roi_usage_error(argv[0], "missing -o MODEL");
	if (strlen(level) != 1 || !strchr("0123sgz", level[0]))
		return roi_usage_error(argv[0], "-O%s is not an optimisation level (0 1 2 3 s g z)", level);
	/* The defaults are what leave-one-out on contrib/calibration liked (docs/calibration.md). At
	 * -O0 a line's cycles are its operations' own; optimising, a block's cycles also hold what the
	 * register allocator did around them, which a program's few blocks can hand to any of its
	 * keys, and the prior (the same operation compiled alone at the level) is worth as much as
	 * the rows: leave-one-out at -Os 3.79 % -> 3.44 % mean, max 25 % -> 14 %. */
	fo.ridge = strcmp(level, "0") == 0 ? 0.05 : 1;
	if (o.ridge) {
		char *end;
		fo.ridge = strtod(o.ridge, &end);
		if (*end || !(fo.ridge > 0))
			return roi_usage_error(argv[0], "--ridge '%s' is not a positive number", o.ridge);
	}
	fo.base_weight = 3e-3;
	if (o.base_weight) {
		char *end;
		fo.base_weight = strtod(o.base_weight, &end);
		if (*end || !(fo.base_weight >= 0) || !isfinite(fo.base_weight))
			return roi_usage_error(argv[0], "--base-weight '%s' is not a number >= 0", o.base_weight);
	}
	fo.by_line = strcmp(level, "0") == 0;
	if (o.weights) {
		if (strcmp(o.weights, "line") != 0 && strcmp(o.weights, "program") != 0)
			return roi_usage_error(argv[0], "--weights '%s' is not 'line' or 'program'", o.weights);
		fo.by_line = strcmp(o.weights, "line") == 0;
	}
	snprintf(optflag, sizeof optflag, "-O%s", level);
	if (!o.cc)
		o.cc = "avr-gcc";

	struct roi_calibration_args ca = {o.cc, o.mcu, optflag, o.base, o.plugin, o.corpus, o.programs, o.freq, o.work, fo};
	if (roi_calibration_prepare(&cal, &ca, &err) != 0 ||
	    roi_calibration_measure(&cal, o.energy, stderr, &err) != 0)
		goto fail;
	doc = roi_calibration_fit(&cal, NULL);
	rc = roi_calibration_write(o.output, doc, &err);
	const cJSON *fitted = cJSON_GetObjectItem(doc, "calibration");
	double mean = cJSON_GetNumberValue(cJSON_GetObjectItem(fitted, "mean_abs_error"));
	double max = cJSON_GetNumberValue(cJSON_GetObjectItem(fitted, "max_abs_error"));
	cJSON_Delete(doc);
	if (rc != 0)
		goto fail;
	printf("%s: %zu programs, %zu operation keys; fit error mean %.2f %%, max %.2f %%\n", o.output,
	       cal.set.nprograms, cal.set.nkeys, 100 * mean, 100 * max);
	if (o.rows && roi_calibration_rows(&cal, o.rows, &err) != 0)
		goto fail;
	if (o.loo) {
		if (roi_calibration_leave_one_out(&cal, o.loo, &err) != 0)
			goto fail;
		printf("%s: %zu models, each fitted without one program\n", o.loo, cal.set.nprograms);
	}
	status = roi_output_status();
	goto out;
fail:
	roi_data_error(&err);
out:
	roi_calibration_free(&cal);
	return status;
}
