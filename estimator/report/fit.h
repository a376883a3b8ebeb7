/* report/fit.h — roi fit's output (docs/fit.md): the sizes, the model and the forms tried, then per
 * row (the total, each function, each loop) and quantity the form fitted, its formula, its
 * held-out error and, with --at, the prediction; as a text table (fit_text.c) or one JSON document
 * (fit_json.c). The fit is growth/fit.h's. */
#ifndef ROI_REPORT_FIT_H
#define ROI_REPORT_FIT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "growth/fit.h"

void roi_fit_text(FILE *out, const struct roi_fit *f);
cJSON *roi_fit_json(const struct roi_fit *f);

#endif
