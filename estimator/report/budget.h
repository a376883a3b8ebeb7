/* report/budget.h — roi budget's output (docs/budgets.md): a check, one row per budget with the
 * figure, the limit, the margin left and PASS, WARN or FAIL, and a diff of two runs, each budget's
 * figure in both and how far it moved; as text tables (budget_text.c) and one JSON document
 * (budget_json.c). JUnit XML is budget_junit.h's. The figures are budget/eval.h's. measured:
 * --measured was given; strict: --strict. */
#ifndef ROI_REPORT_BUDGET_H
#define ROI_REPORT_BUDGET_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "budget/budget.h"
#include "budget/eval.h"

void roi_budget_check_text(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *ev, bool measured,
			   bool strict);
cJSON *roi_budget_check_json(const struct roi_budget_file *bf, const struct roi_budget_eval *ev, bool measured,
			     bool strict);

void roi_budget_diff_text(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *old,
			  const struct roi_budget_eval *new, bool measured);
cJSON *roi_budget_diff_json(const struct roi_budget_file *bf, const struct roi_budget_eval *old,
			    const struct roi_budget_eval *new, bool measured);

#endif
