/* builtin/calibrate.c — "roi calibrate": a cost model fitted to simavr's exact cycle counts of a corpus
 * of programs (contrib/calibration/, docs/calibration.md). */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "calibrate/calibrate.h"
#include "base/cli.h"
#include "builtin.h"
#include "calibrate/calib_model.h"
#include "input/model.h"
#include "base/readfile.h"
#include "run/avr.h"

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

/* The directory this roi lives in: the build tree's build/bin, or PREFIX/bin. */
static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return strdup(buf);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The plugin for cc: next to this roi in the build tree, else installed in cc's plugin directory. */
static char *default_plugin(const char *cc)
{
	char *dir = self_dir(), path[PATH_MAX];

	if (dir) {
		snprintf(path, sizeof path, "%s/../avr/roi.so", dir);
		free(dir);
		if (exists(path))
			return realpath(path, NULL);
	}
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof cmd, "'%s' -print-file-name=plugin 2>/dev/null", cc);
	FILE *f = popen(cmd, "r");
	if (!f)
		return NULL;
	if (!fgets(path, sizeof path, f))
		path[0] = '\0';
	pclose(f);
	path[strcspn(path, "\n")] = '\0';
	strncat(path, "/roi.so", sizeof path - strlen(path) - 1);
	return exists(path) ? strdup(path) : NULL;
}

static char *default_corpus(void)
{
	char *dir = self_dir(), path[PATH_MAX];

	if (!dir)
		return NULL;
	snprintf(path, sizeof path, "%s/../../contrib/calibration", dir);
	free(dir);
	if (exists(path))
		return realpath(path, NULL);
	snprintf(path, sizeof path, "%s", ROI_DATADIR "/calibration");
	return exists(path) ? strdup(path) : NULL;
}

/* "avr-gcc 5.4.0": what the model's compiler field says, as the estimator compares it. */
static char *compiler_version(const char *cc)
{
	char cmd[PATH_MAX], v[128] = "";

	snprintf(cmd, sizeof cmd, "'%s' -dumpversion 2>/dev/null", cc);
	FILE *f = popen(cmd, "r");
	if (f) {
		if (!fgets(v, sizeof v, f))
			v[0] = '\0';
		pclose(f);
	}
	v[strcspn(v, "\n")] = '\0';
	size_t n = strlen(cc) + strlen(v) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s %s", strrchr(cc, '/') ? strrchr(cc, '/') + 1 : cc, v);
	return s;
}

/* The sources to calibrate on: DIR/NAME.c for the names in list, else every C file of DIR, sorted. */
static int corpus_sources(const char *dir, const char *list, char ***out, size_t *n, struct roi_err *err)
{
	*out = NULL;
	*n = 0;
	if (!list) {
		char pattern[PATH_MAX];
		glob_t g;

		snprintf(pattern, sizeof pattern, "%s/*.c", dir);
		if (glob(pattern, 0, NULL, &g) != 0)
			return roi_err_set(err, "%s: no programs (*.c) in the corpus", dir);
		*out = roi_xrealloc(NULL, g.gl_pathc, sizeof **out);
		for (size_t i = 0; i < g.gl_pathc; i++)
			(*out)[(*n)++] = strdup(g.gl_pathv[i]);
		globfree(&g);
		return 0;
	}
	size_t len;
	char *text = NULL;
	if (roi_read_file(list, ROI_MAX_TEXT, &text, &len, err) != 0)
		return -1;
	if (roi_text_check_nul(list, text, len, err) != 0) {
		free(text);
		return -1;
	}
	unsigned line = 0;
	for (char *s = text, *next; s && *s; s = next) {
		next = strchr(s, '\n');
		if (next)
			*next++ = '\0';
		line++;
		char *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		char *name = s + strspn(s, " \t\r");
		name[strcspn(name, " \t\r")] = '\0';
		if (!*name)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s.c", dir, name);
		if (!exists(path)) {
			/* name points into text: the message is made before text goes */
			roi_err_set(err, "%s:%u: no program '%s' in the corpus (%s)", list, line, name, path);
			free(text);
			return -1;
		}
		*out = roi_xrealloc(*out, *n + 1, sizeof **out);
		(*out)[(*n)++] = strdup(path);
	}
	free(text);
	if (*n == 0)
		return roi_err_set(err, "%s: names no programs", list);
	return 0;
}

/* Energy per program from CSV "NAME,JOULES" lines; every corpus program needs one. */
static int load_energy(const char *path, const struct roi_calib_set *set, double *y, struct roi_err *err)
{
	size_t len;
	char *text = NULL;
	unsigned line = 0;

	for (size_t p = 0; p < set->nprograms; p++)
		y[p] = -1;
	if (roi_read_file(path, ROI_MAX_TEXT, &text, &len, err) != 0)
		return -1;
	if (roi_text_check_nul(path, text, len, err) != 0) {
		free(text);
		return -1;
	}
	for (char *s = text, *next; s && *s; s = next) {
		next = strchr(s, '\n');
		if (next)
			*next++ = '\0';
		line++;
		s[strcspn(s, "#\r")] = '\0';
		if (!*s || strspn(s, " \t") == strlen(s) || (line == 1 && strstr(s, "program")))
			continue;
		char *comma = strchr(s, ',');
		if (!comma) {
			free(text);
			return roi_err_set(err, "%s:%u:1: expected 'NAME,JOULES'", path, line);
		}
		*comma = '\0';
		char *end;
		errno = 0;
		double j = strtod(comma + 1, &end);
		end += strspn(end, " \t");
		if (errno || end == comma + 1 || *end || !(j > 0)) {
			int col = (int)(comma - s) + 2;
			free(text);
			return roi_err_set(err, "%s:%u:%d: expected energy in joules (a positive number)", path, line, col);
		}
		size_t p = 0;
		while (p < set->nprograms && strcmp(set->programs[p].name, s) != 0)
			p++;
		if (p == set->nprograms) {
			roi_err_set(err, "%s:%u:1: '%s' is not a program of the corpus", path, line, s);
			free(text);
			return -1;
		}
		y[p] = j;
	}
	free(text);
	for (size_t p = 0; p < set->nprograms; p++)
		if (y[p] < 0)
			return roi_err_set(err, "%s: no energy for program '%s'", path, set->programs[p].name);
	return 0;
}

static cJSON *number_rounded(double v, double unit)
{
	return cJSON_CreateNumber(round(v / unit) * unit);
}

static cJSON *entry_json(const struct roi_calib_entry *c, const struct roi_calib_entry *en)
{
	cJSON *o = cJSON_CreateObject();
	char note[160];

	cJSON_AddStringToObject(o, "kind", c->key.kind);
	if (c->key.type)
		cJSON_AddStringToObject(o, "type", c->key.type);
	if (c->key.access)
		cJSON_AddStringToObject(o, "access", c->key.access);
	if (c->key.callee)
		cJSON_AddStringToObject(o, "callee", c->key.callee);
	if (c->key.from)
		cJSON_AddStringToObject(o, "from", c->key.from);
	if (c->key.operand)
		cJSON_AddStringToObject(o, "operand", c->key.operand);
	if (c->key.subscripts)
		cJSON_AddNumberToObject(o, "subscripts", (double)c->key.subscripts);
	cJSON_AddItemToObject(o, "cycles", number_rounded(c->cost, 0.001));
	if (en)
		cJSON_AddItemToObject(o, "energy_j", number_rounded(en->cost, 1e-15));
	if (c->from_base)
		snprintf(note, sizeof note, "base model's cost: no program fitted on exercises it");
	else if (c->programs)
		snprintf(note, sizeof note, "fitted: %zu programs, %.0f executions", c->programs, c->executions);
	else
		snprintf(note, sizeof note, "from the fitted structure: no program fitted on ran it");
	cJSON_AddStringToObject(o, "note", note);
	return o;
}

/* Whether a base model entry has the match fields of one of ours: ours stands for it. */
static bool replaced(const cJSON *e, const struct roi_calib_fit *fit)
{
	static const char *const f[6] = {"kind", "type", "access", "callee", "from", "operand"};

	if (cJSON_GetObjectItemCaseSensitive(e, "class"))
		return false;
	for (size_t k = 0; k < fit->nentries; k++) {
		const struct roi_calib_key *key = &fit->entries[k].key;
		const char *kv[6] = {key->kind, key->type, key->access, key->callee, key->from, key->operand};
		bool same = true;

		for (int i = 0; i < 6 && same; i++) {
			const char *bv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, f[i]));
			same = (!bv && !kv[i]) || (bv && kv[i] && strcmp(bv, kv[i]) == 0);
		}
		const cJSON *subs = cJSON_GetObjectItemCaseSensitive(e, "subscripts");
		same = same && (cJSON_IsNumber(subs) ? (long long)subs->valuedouble : 0) == key->subscripts;
		if (same)
			return true;
	}
	return false;
}

/* How the costs are fitted: the pulls of roi_calib_fit, and how each row's error counts (by_line:
 * relative to the row's own cycles, else to its program's). */
struct fit_opts {
	double ridge, base_weight;
	bool by_line;
};

/* The model as JSON: the base model's part fields, the fitted costs, then the base model's entries
 * for what the corpus never ran. */
static cJSON *model_json(const cJSON *base, const struct roi_model *bm, const struct roi_calib_set *set,
			 const double *x, const struct roi_calib_fit *cyc, const struct roi_calib_fit *en,
			 const unsigned char *skip, const struct roi_calib_build *b, const char *compiler,
			 const char *corpus, const struct fit_opts *fo)
{
	cJSON *doc = cJSON_CreateObject(), *costs = cJSON_CreateArray(), *cal = cJSON_CreateObject();
	static const char *const copied[] = {"part", "arch", "core", "clock_hz", "supply_v", "energy_per_cycle_j",
					     "energy_source"};
	size_t nk = set->nkeys, nfit = 0;
	double mean = 0, max = 0;
	char date[32], flags[256], prov[1024];
	time_t now = getenv("SOURCE_DATE_EPOCH") ? (time_t)strtoll(getenv("SOURCE_DATE_EPOCH"), NULL, 10)
						  : time(NULL);

	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	snprintf(flags, sizeof flags, "-mmcu=%s %s", b->mcu, b->opt);
	cJSON_AddNumberToObject(doc, "roi_model", 1);
	for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(base, copied[i]);
		if (v)
			cJSON_AddItemToObject(doc, copied[i], cJSON_Duplicate(v, true));
	}
	cJSON_AddStringToObject(doc, "mcu", b->mcu);
	cJSON_AddStringToObject(doc, "compiler", compiler);
	cJSON_AddStringToObject(doc, "opt", b->opt + 1);     /* "O0", as the metadata says it */
	cJSON_AddStringToObject(doc, "flags", flags);
	cJSON_AddItemToObject(doc, "abi", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(base, "abi"), true));

	for (size_t p = 0; p < set->nprograms; p++)
		nfit += !(skip && skip[p]);
	cJSON *progs = cJSON_CreateArray();
	for (size_t p = 0; p < set->nprograms; p++) {
		const struct roi_calib_program *pr = &set->programs[p];
		double est = 0;

		/* with the costs as written, so that roi estimate computes the same */
		for (size_t k = 0; k < nk; k++)
			est += x[p * nk + k] * (round(cyc->entries[k].cost / 0.001) * 0.001);
		double e = (est - (double)pr->cycles) / (double)pr->cycles;
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", pr->name);
		cJSON_AddNumberToObject(o, "measured_cycles", (double)pr->cycles);
		cJSON_AddNumberToObject(o, "startup_cycles", (double)pr->startup);
		cJSON_AddStringToObject(o, "rows", pr->by_block ? "block" : "line");
		cJSON_AddItemToObject(o, "estimated_cycles", number_rounded(est, 0.1));
		cJSON_AddItemToObject(o, "error", number_rounded(e, 1e-5));
		if (skip && skip[p]) {
			cJSON_AddBoolToObject(o, "left_out", true);
		} else {
			mean += fabs(e) / (double)nfit;
			max = fmax(max, fabs(e));
		}
		cJSON_AddItemToArray(progs, o);
	}
	snprintf(prov, sizeof prov,
		 "calibrated by 'roi calibrate' on %s: simavr's exact cycle counts (main to exit) of %zu programs "
		 "of %s built with %s %s, given to source lines through the DWARF line table; costs fitted to "
		 "the lines' cycles by robust non-negative least squares, a shared structure per kind, class, "
		 "width, operand and access first, then each key's own cost shrunk towards the base model's "
		 "cost (else the structure's; ridge %g, base weight %g, rows weighed %s, docs/calibration.md); "
		 "fit error on its own programs: mean %.2f %%, max %.2f %%",
		 date, nfit, corpus, compiler, flags, fo->ridge, fo->base_weight,
		 fo->by_line ? "by their own cycles" : "by their program's cycles", 100 * mean, 100 * max);
	cJSON_AddStringToObject(doc, "provenance", prov);
	cJSON_AddStringToObject(cal, "date", date);
	cJSON_AddStringToObject(cal, "corpus", corpus);
	cJSON_AddStringToObject(cal, "base", bm->path);
	cJSON_AddStringToObject(cal, "simulator", "simavr (libsimavr), cycle-exact");
	cJSON_AddNumberToObject(cal, "ridge", fo->ridge);
	cJSON_AddNumberToObject(cal, "base_weight", fo->base_weight);
	cJSON_AddStringToObject(cal, "weights", fo->by_line ? "line" : "program");
	cJSON_AddNumberToObject(cal, "programs_fitted", (double)nfit);
	cJSON_AddItemToObject(cal, "mean_abs_error", number_rounded(mean, 1e-5));
	cJSON_AddItemToObject(cal, "max_abs_error", number_rounded(max, 1e-5));
	cJSON_AddItemToObject(cal, "programs", progs);
	cJSON_AddItemToObject(doc, "calibration", cal);

	for (size_t k = 0; k < cyc->nentries; k++)
		cJSON_AddItemToArray(costs, entry_json(&cyc->entries[k], en ? &en->entries[k] : NULL));
	/* The base model's entries stand for what the structure cannot cost (other kinds, classes). */
	const cJSON *e;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(base, "costs")) {
		if (replaced(e, cyc))
			continue;
		cJSON *o = cJSON_Duplicate(e, true);
		cJSON_DeleteItemFromObjectCaseSensitive(o, "note");
		cJSON_AddStringToObject(o, "note", "base model's cost: not in the corpus");
		cJSON_AddItemToArray(costs, o);
	}
	cJSON_AddItemToObject(doc, "costs", costs);
	return doc;
}

/* --rows: one line per fitted row, "PROGRAM LINE MEASURED ESTIMATED [KEY]xN ...", the rows of a
 * program in the order of its lines. */
static int write_rows(const char *path, const struct roi_calib_set *set, const struct roi_calib_fit *cyc,
		      struct roi_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return roi_err_set(err, "%s: %s", path, strerror(errno));
	fprintf(f, "# program line measured estimated operations (line 0: outside any line; a function's first "
		   "line: its prologue, epilogue and returns; FUNCTION#N@LINE: counted block N, its first "
		   "operation's line)\n");
	for (size_t p = 0; p < set->nprograms; p++) {
		const struct roi_calib_program *pr = &set->programs[p];

		for (size_t r = 0; r < pr->nrows; r++) {
			const struct roi_calib_row *row = &pr->rows[r];
			double est = 0;

			for (size_t k = 0; k < row->nx; k++)
				est += row->x[k] * cyc->entries[k].cost;
			if (row->block)
				fprintf(f, "%s %s@%u %.0f %.1f", pr->name, row->block, row->line, row->y, est);
			else
				fprintf(f, "%s %u %.0f %.1f", pr->name, row->line, row->y, est);
			for (size_t k = 0; k < row->nx; k++)
				if (row->x[k] != 0)
					fprintf(f, " [%s]x%.0f", set->keys[k].text, row->x[k]);
			fputc('\n', f);
		}
	}
	if (fclose(f) != 0)
		return roi_err_set(err, "%s: %s", path, strerror(errno));
	return 0;
}

static int write_json(const char *path, cJSON *doc, struct roi_err *err)
{
	char *text = cJSON_Print(doc), tmp[PATH_MAX];
	FILE *f;

	if (!text)
		return roi_err_set(err, "out of memory");
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		free(text);
		return roi_err_set(err, "%s: %s", path, strerror(errno));
	}
	bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
	ok = fclose(f) == 0 && ok;
	free(text);
	if (!ok || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		return roi_err_set(err, "%s: cannot write the model: %s", path, strerror(e));
	}
	return 0;
}

/* Fits cycles (and energy when y_energy) with the programs in skip left out. Cycles are fitted to
 * every program's source lines, which tell apart operations that always run together in a whole
 * program; a line's error counts relative to its own cycles (fo->by_line: at -O0, where a line's
 * cycles are its own, the big lines decide and one run twice in start-up code does not) or to its
 * program's total. Energy, measured per program only, is fitted to the programs, each error
 * relative to its program's energy. */
static void fit_all(const struct roi_calib_set *set, const double *x, const double *y_energy,
		    const struct roi_model *base, const unsigned char *skip, const struct fit_opts *fo,
		    struct roi_calib_fit *cyc, struct roi_calib_fit *en)
{
	size_t nlines, *line_program, np = set->nprograms;
	double *line_y, *line_x = roi_calib_line_matrix(set, &nlines, &line_y, &line_program);
	double *w = roi_xrealloc(NULL, nlines + 1, sizeof *w);
	size_t *program = roi_xrealloc(NULL, np + 1, sizeof *program);

	for (size_t r = 0; r < nlines; r++) {
		double total = (double)set->programs[line_program[r]].cycles;
		w[r] = fo->by_line ? (line_y[r] > 0 ? 1 / line_y[r] : 0) : 1 / (total * total);
	}
	roi_calib_fit(set, x, &(struct roi_calib_rows){nlines, line_x, line_y, w, line_program}, skip, base, false,
		      fo->ridge, fo->base_weight, cyc);
	if (y_energy) {
		for (size_t p = 0; p < np; p++)
			program[p] = p;
		roi_calib_fit(set, x, &(struct roi_calib_rows){np, x, y_energy, NULL, program}, skip, base, true,
			      fo->ridge, fo->base_weight, en);
	}
	free(line_x);
	free(line_y);
	free(line_program);
	free(w);
	free(program);
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
	char *plugin = NULL, *corpus = NULL, *compiler = NULL, **sources = NULL, work_tmp[] = "/tmp/roi-calibrate.XXXXXX";
	char optflag[16];
	size_t nsources = 0;
	double *x = NULL, *y_e = NULL;
	struct fit_opts fo = {0};
	struct roi_calib_fit cyc = {0}, en = {0};
	struct roi_err err;
	struct roi_model bm = {0};
	struct roi_calib_set set = {0};
	cJSON *base = NULL;
	bool made_work = false;

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

	if (roi_model_load(o.base, &bm, &err) != 0)
		goto fail;
	{
		size_t len;
		char *text;
		if (roi_read_file(o.base, ROI_MAX_MODEL, &text, &len, &err) != 0)
			goto fail;
		base = cJSON_ParseWithLength(text, len);
		free(text);
	}
	uint64_t freq = o.freq ? strtoull(o.freq, NULL, 10) : (uint64_t)bm.clock_hz;
	if (freq == 0 || freq > UINT32_MAX) {
		roi_err_set(&err, "--freq '%s' is not a frequency in Hz", o.freq ? o.freq : "");
		goto fail;
	}
	plugin = o.plugin ? realpath(o.plugin, NULL) : default_plugin(o.cc);
	if (!plugin) {
		roi_err_set(&err, o.plugin ? "%s: %s" : "no roi plugin for %s%s: build it ('make avr') or name it with --plugin",
			    o.plugin ? o.plugin : o.cc, o.plugin ? strerror(errno) : "");
		goto fail;
	}
	corpus = o.corpus ? strdup(o.corpus) : default_corpus();
	if (!corpus) {
		roi_err_set(&err, "no calibration corpus found: name it with --corpus DIR");
		goto fail;
	}
	compiler = compiler_version(o.cc);
	if (corpus_sources(corpus, o.programs, &sources, &nsources, &err) != 0)
		goto fail;
	if (!o.work) {
		if (!mkdtemp(work_tmp)) {
			roi_err_set(&err, "%s: %s", work_tmp, strerror(errno));
			goto fail;
		}
		made_work = true;
		o.work = work_tmp;
	} else if (mkdir(o.work, 0777) != 0 && errno != EEXIST) {
		roi_err_set(&err, "%s: %s", o.work, strerror(errno));
		goto fail;
	}

	struct roi_calib_build b = {o.cc, o.mcu, optflag, plugin, o.work, (uint32_t)freq, 2000000000ull};
	for (size_t i = 0; i < nsources; i++) {
		if (roi_calib_add(&set, &b, sources[i], &err) != 0)
			goto fail;
		fprintf(stderr, "roi calibrate: %-28s %10llu cycles (start-up %llu)\n", set.programs[i].name,
			(unsigned long long)set.programs[i].cycles, (unsigned long long)set.programs[i].startup);
	}
	x = roi_calib_matrix(&set);
	if (o.energy) {
		y_e = calloc(set.nprograms + 1, sizeof *y_e);
		if (load_energy(o.energy, &set, y_e, &err) != 0)
			goto fail;
	}
	fit_all(&set, x, y_e, &bm, NULL, &fo, &cyc, &en);
	cJSON *doc = model_json(base, &bm, &set, x, &cyc, y_e ? &en : NULL, NULL, &b, compiler, corpus, &fo);
	rc = write_json(o.output, doc, &err);
	double mean = cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "calibration"), "mean_abs_error"));
	double max = cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "calibration"), "max_abs_error"));
	cJSON_Delete(doc);
	if (rc != 0)
		goto fail;
	printf("%s: %zu programs, %zu operation keys; fit error mean %.2f %%, max %.2f %%\n", o.output, set.nprograms,
	       set.nkeys, 100 * mean, 100 * max);
	if (o.rows && write_rows(o.rows, &set, &cyc, &err) != 0)
		goto fail;

	if (o.loo) {
		unsigned char *skip = calloc(set.nprograms + 1, 1);

		if (mkdir(o.loo, 0777) != 0 && errno != EEXIST) {
			roi_err_set(&err, "%s: %s", o.loo, strerror(errno));
			free(skip);
			goto fail;
		}
		for (size_t p = 0; p < set.nprograms && rc == 0; p++) {
			char path[PATH_MAX];

			memset(skip, 0, set.nprograms);
			skip[p] = 1;
			roi_calib_fit_free(&cyc);
			roi_calib_fit_free(&en);
			fit_all(&set, x, y_e, &bm, skip, &fo, &cyc, &en);
			doc = model_json(base, &bm, &set, x, &cyc, y_e ? &en : NULL, skip, &b, compiler, corpus, &fo);
			snprintf(path, sizeof path, "%s/%s.json", o.loo, set.programs[p].name);
			rc = write_json(path, doc, &err);
			cJSON_Delete(doc);
		}
		free(skip);
		if (rc != 0)
			goto fail;
		printf("%s: %zu models, each fitted without one program\n", o.loo, set.nprograms);
	}
	status = roi_output_status();
	goto out;
fail:
	roi_data_error(&err);
out:
	if (made_work) {
		for (size_t p = 0; p < set.nprograms; p++) {
			char path[PATH_MAX];
			snprintf(path, sizeof path, "%s/%s-count.elf", o.work, set.programs[p].name);
			unlink(path);
			snprintf(path, sizeof path, "%s/%s-plain.elf", o.work, set.programs[p].name);
			unlink(path);
		}
		rmdir(o.work);
	}
	for (size_t i = 0; i < nsources; i++)
		free(sources[i]);
	free(sources);
	free(x);
	free(y_e);
	roi_calib_fit_free(&cyc);
	roi_calib_fit_free(&en);
	free(plugin);
	free(corpus);
	free(compiler);
	cJSON_Delete(base);
	roi_calib_free(&set);
	roi_model_free(&bm);
	return status;
}
