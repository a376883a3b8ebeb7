/* report/report.h — roi estimate's output (docs/estimate-json.md): an estimate as text for people
 * (text.c) and as JSON for tools (json.c), and the parts the other outputs share: where the counts
 * came from, the program's heading, its units, the model, the excluded functions, an operation's
 * detail. */
#ifndef ROI_REPORT_H
#define ROI_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "input/measured.h"
#include "price/estimate.h"

/* Where the counts came from, for the header. */
struct roi_source {
	const char *profile;    /* path, or a description such as "simavr run" */
	uint64_t runs;
	const char *transferred; /* the program whose run roi transfer carried onto this one, else NULL */
	const struct roi_measured *measured;    /* shown beside the estimates (--measured-profile), or NULL */
};

/* Where the counts come from, as every command that reads a profile shows it: the "profile" line of
 * the text, and the "profile", "runs" and "transferred_from" members of the JSON. */
void roi_source_text(FILE *out, const struct roi_source *src);
void roi_source_json(cJSON *o, const struct roi_source *src);

/* A measured profile's heading line ("measured  FILE: N cycles of FIRMWARE in simavr (MCU), M
 * from main's first instruction ..."), and its "measured" object for the JSON (null without one). */
void roi_measured_source_text(FILE *out, const struct roi_measured *m);
cJSON *roi_measured_source_json(const struct roi_measured *m);

/* The program a report is about, as roi estimate's and roi report's outputs begin: the "program",
 * "profile" and "compiler" lines of the text; the "program", profile ("profile", "runs",
 * "transferred_from"), "target", "compiler" and "opt" members of the JSON. */
void roi_program_text(FILE *out, const struct roi_program *p, const struct roi_source *src);
void roi_program_json(cJSON *o, const struct roi_program *p, const struct roi_source *src);

/* The distinguishing fields besides kind/type/ctype, in a fixed order:
 * "access=array volatile", "callee=printf", "from=u16 (unsigned short)", "code=...". "" if none. */
const char *roi_fmt_detail(const struct roi_opdesc *d, char *buf, size_t size);

/* top: only the first top functions and lines (roi estimate --top); 0 for all. */
void roi_report_text(FILE *out, const struct roi_estimate *e, const struct roi_source *src, size_t top);
cJSON *roi_report_json(const struct roi_estimate *e, const struct roi_source *src);

/* The calls into code without metadata (price/estimate.h), as roi estimate's and roi report's
 * totals say them, with a model: the text's total line goes on with "; N calls without metadata,
 * C cycles (...)" naming those priced as the call alone (nothing when there are none); the JSON's
 * total gets calls_without_metadata, cycles_without_metadata, fallback_calls and fallback. */
void roi_libcall_total_text(FILE *out, const struct roi_estimate *e);
void roi_libcall_total_json(cJSON *total, const struct roi_estimate *e);
/* The "without_metadata" array: each callee's calls, cycles and how they were priced. */
cJSON *roi_libcalls_json(const struct roi_estimate *e);

/* Parts of the JSON documents that other commands share: the "model" object (null without one),
 * the "excluded" array (functions a filter left uncounted). */
cJSON *roi_model_json(const struct roi_estimate *e);
cJSON *roi_excluded_json(const struct roi_program *p);
/* The "units" array of roi estimate and roi ops: each unit's id, source, compiler, target, opt and
 * runtime. */
cJSON *roi_units_json(const struct roi_program *p);

#endif
