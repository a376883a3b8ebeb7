/* report/compare.h — roi compare's output (docs/compare.md): the two runs, then per function (calls
 * and operations) and per operation (kind, type in A and B, detail) the executions of A and B and
 * their difference, as text or one JSON document. */
#ifndef ROI_REPORT_COMPARE_H
#define ROI_REPORT_COMPARE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "price/compare.h"
#include "price/estimate.h"

void roi_compare_text(FILE *out, const struct roi_estimate *a, const struct roi_estimate *b, const struct roi_compare *c);
cJSON *roi_compare_json(const struct roi_estimate *a, const struct roi_estimate *b, const struct roi_compare *c);

#endif
