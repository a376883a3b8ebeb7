/* report/report.h — an estimate as text for people and as JSON for tools (docs/estimate-json.md). */
#ifndef ROI_REPORT_H
#define ROI_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "price/estimate.h"

/* Where the counts came from, for the header. */
struct roi_source {
	const char *profile;    /* path, or a description such as "simavr run" */
	uint64_t runs;
	const char *transferred; /* the program whose run roi transfer carried onto this one, else NULL */
};

/* Where the counts come from, as every command that reads a profile shows it: the "profile" line of
 * the text, and the "profile", "runs" and "transferred_from" members of the JSON. */
void roi_source_text(FILE *out, const struct roi_source *src);
void roi_source_json(cJSON *o, const struct roi_source *src);

/* top: only the first top functions and lines (roi estimate --top); 0 for all. */
void roi_report_text(FILE *out, const struct roi_estimate *e, const struct roi_source *src, size_t top);
cJSON *roi_report_json(const struct roi_estimate *e, const struct roi_source *src);

/* Parts of the JSON document that roi report shares: the "model" object (null without one) and
 * the "excluded" array (functions a filter left uncounted). */
cJSON *roi_model_json(const struct roi_estimate *e);
cJSON *roi_excluded_json(const struct roi_program *p);

#endif
