/* report/machine.h — roi estimate --price machine's output: text for people, JSON for tools
 * (docs/estimate-json.md, "Machine-code pricing"). */
#ifndef ROI_REPORT_MACHINE_H
#define ROI_REPORT_MACHINE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "machine/price.h"
#include "report/report.h"

/* top: only the first top functions and lines; 0 for all. */
void roi_machine_text(FILE *out, const struct roi_machine_estimate *e, const struct roi_source *src, size_t top);
cJSON *roi_machine_json(const struct roi_machine_estimate *e, const struct roi_source *src);

#endif
