/* report/budget_junit.h — a budget check as JUnit XML, the test report CI systems read (GitLab, Jenkins,
 * GitHub actions): one testsuite per budget file, one testcase per budget, a <failure> for each
 * budget over its limit (and, with --strict, each warning). The shape is that of the Jenkins
 * xunit plugin's junit-10.xsd; testsuite/junit.xsd checks it (docs/budgets.md). */
#ifndef ROI_REPORT_BUDGET_JUNIT_H
#define ROI_REPORT_BUDGET_JUNIT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "budget/budget.h"
#include "budget/eval.h"

void roi_budget_junit(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *ev, bool strict);

/* Writes the XML to path (through a temporary file renamed over it). Errors: "PATH: <strerror>". */
int roi_budget_junit_write(const char *path, const struct roi_budget_file *bf, const struct roi_budget_eval *ev,
			   bool strict, struct roi_err *err);

#endif
