/* calibrate/calibration.h — roi calibrate from start to end (docs/calibration.md), step by step:
 * what it is made from (the base model, the plugin, the corpus and its programs, the compiler's
 * version, a work directory), the corpus measured (calibrate.h: each program built with and
 * without the plugin and run in simavr), the model fitted (calib_model.h) and written as JSON,
 * with its rows (--rows) and a model without each program (--leave-one-out). */
#ifndef ROI_CALIBRATION_H
#define ROI_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/err.h"
#include "calibrate/calib_model.h"
#include "calibrate/calibrate.h"
#include "input/model.h"

/* The command's options; NULL: the default. */
struct roi_calibration_args {
	const char *cc;                 /* the compiler */
	const char *mcu;
	const char *opt;                /* "-O0" */
	const char *base;               /* the base model (--base) */
	const char *plugin;             /* roi.so for cc; default: build/avr/roi.so next to this roi, else cc's */
	const char *corpus;             /* default: contrib/calibration of this roi's tree, else the installed share/roi/calibration */
	const char *programs;           /* only the programs this file names */
	const char *freq;               /* default: the base model's clock */
	const char *work;               /* where the ELF files go; default: a temporary directory */
	struct roi_calib_fit_opts fit;
};

struct roi_calibration {
	struct roi_model bm;            /* the base model ... */
	cJSON *base;                    /* ... and its JSON, whose part fields the model copies */
	char *plugin, *corpus, *compiler;
	char **sources;                 /* the corpus programs, in order */
	size_t nsources;
	char work_tmp[4096];
	bool made_work;                 /* work is a temporary directory, removed at the end */
	struct roi_calib_build b;
	struct roi_calib_fit_opts fo;
	struct roi_calib_set set;       /* what was measured */
	double *x;                      /* executions per program and key (roi_calib_matrix) */
	double *y_e;                    /* --energy: joules per program; NULL without */
	struct roi_calib_fit cyc, en;   /* the last fit */
};

/* Step 1: everything the corpus is built and run with, from the options. */
int roi_calibration_prepare(struct roi_calibration *cal, const struct roi_calibration_args *a, struct roi_err *err);
/* Step 2: every program built and run, one line each on progress ("roi calibrate: NAME N cycles
 * (start-up S)"); with energy, the measured energy per program (CSV "NAME,JOULES") read. */
int roi_calibration_measure(struct roi_calibration *cal, const char *energy, FILE *progress, struct roi_err *err);
/* Step 3: the model fitted without the programs in skip (NULL: with all), as the JSON to write. */
cJSON *roi_calibration_fit(struct roi_calibration *cal, const unsigned char *skip);
/* The model JSON of the last fit: the base model's part fields, the fitted costs, then the base
 * model's entries for what the corpus never ran (output.c). */
cJSON *roi_calibration_model_json(const struct roi_calibration *calib, const unsigned char *skip);
/* Writes doc to path through a temporary file, so that a model is never half written. */
int roi_calibration_write(const char *path, cJSON *doc, struct roi_err *err);
/* --rows: one line per fitted row, "PROGRAM LINE MEASURED ESTIMATED [KEY]xN ...". */
int roi_calibration_rows(const struct roi_calibration *cal, const char *path, struct roi_err *err);
/* --leave-one-out: DIR/NAME.json for every program, fitted without it. */
int roi_calibration_leave_one_out(struct roi_calibration *cal, const char *dir, struct roi_err *err);
/* Frees, and removes the temporary work directory's files. */
void roi_calibration_free(struct roi_calibration *cal);

#endif
