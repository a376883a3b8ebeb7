/* growth/report.h — roi fit's output (docs/fit.md): the sizes, the model and the forms tried, then
 * per row (the total, each function, each loop) and quantity the form fitted, its formula, its
 * held-out error and, with --at, the prediction; as a text table (text.c) or one JSON document
 * (json.c). */
#ifndef ROI_GROWTH_REPORT_H
#define ROI_GROWTH_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "growth/fit.h"

void roi_fit_text(FILE *out, const struct roi_fit *f);
cJSON *roi_fit_json(const struct roi_fit *f);

#endif
