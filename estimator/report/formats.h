/* report/formats.h — roi report's output for the tools firmware engineers already use
 * (docs/report.md, "Other formats"): the callgrind format (KCachegrind, callgrind_annotate), lcov
 * tracefiles and gcov's JSON (genhtml, gcovr, editors' coverage gutters), folded stacks (flame
 * graphs) and an HTML report with annotated sources.
 *
 * Each writer takes the report's hierarchy (hier.h) of the whole program. The stream writers
 * leave the checking of write errors to the caller (ferror); roi_write_html returns -1 with err
 * set when it cannot write a file. */
#ifndef ROI_REPORT_FORMATS_H
#define ROI_REPORT_FORMATS_H

#include <stdio.h>

#include "base/err.h"
#include "budget/eval.h"
#include "price/hier.h"
#include "report/report.h"

/* Integer scales of the callgrind events (the format has integer costs only). */
#define ROI_CALLGRIND_CYCLES_SCALE 100          /* Cycles_x100: cycles x 100 */
#define ROI_CALLGRIND_ENERGY_SCALE 1e12         /* Energy_pJ: picojoules */

void roi_write_callgrind(FILE *out, const struct roi_hier *h, const struct roi_source *src);
void roi_write_lcov(FILE *out, const struct roi_hier *h);
void roi_write_gcov_json(FILE *out, const struct roi_hier *h, const struct roi_source *src);
void roi_write_folded(FILE *out, const struct roi_hier *h);

/* DIR/index.html (summary, function table, loop tree) and DIR/src-N.html, one annotated page per
 * source file with code; DIR is created when missing. budgets: the results of budget file bf
 * for the same program and profile (roi budget check's), or NULL. */
int roi_write_html(const char *dir, const struct roi_hier *h, const struct roi_source *src,
		   const struct roi_budget_file *bf, const struct roi_budget_eval *budgets, struct roi_err *err);

#endif
