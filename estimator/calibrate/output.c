/* calibrate/output.c — what roi calibrate writes: the model as JSON, its rows, see calibration.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic.h"
#include "calibrate/calibration.h"

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

cJSON *roi_calibration_model_json(const struct roi_calibration *calib, const unsigned char *skip)
{
	const cJSON *base = calib->base;
	const struct roi_model *bm = &calib->bm;
	const struct roi_calib_set *set = &calib->set;
	const double *x = calib->x;
	const struct roi_calib_fit *cyc = &calib->cyc, *en = calib->y_e ? &calib->en : NULL;
	const struct roi_calib_build *b = &calib->b;
	const char *compiler = calib->compiler, *corpus = calib->corpus;
	const struct roi_calib_fit_opts *fo = &calib->fo;
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
	/* the library routines' prices (machine pricing) are the part's, whatever the fit */
	const char *const kept[] = {"routines", "routines_source", "flash_wait_states"};
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (cJSON_GetObjectItemCaseSensitive(base, kept[i]))
			cJSON_AddItemToObject(doc, kept[i],
					      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(base, kept[i]), true));
	return doc;
}

/* --rows: one line per fitted row, "PROGRAM LINE MEASURED ESTIMATED [KEY]xN ...", the rows of a
 * program in the order of its lines. */

int roi_calibration_rows(const struct roi_calibration *cal, const char *path, struct roi_err *err)
{
	const struct roi_calib_set *set = &cal->set;
	const struct roi_calib_fit *cyc = &cal->cyc;
	struct roi_atomic out;

	if (roi_atomic_open(&out, path, err) != 0)
		return -1;
	FILE *f = out.f;
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
	return roi_atomic_commit(&out, "the rows", err);
}

int roi_calibration_write(const char *path, cJSON *doc, struct roi_err *err)
{
	char *text = cJSON_Print(doc);
	struct roi_atomic out;

	if (!text)
		return roi_err_set(err, "out of memory");
	if (roi_atomic_open(&out, path, err) != 0) {
		free(text);
		return -1;
	}
	fputs(text, out.f);
	fputc('\n', out.f);
	free(text);
	return roi_atomic_commit(&out, "the model", err);
}
