/* fuzz/budget.c — the budget file reader (estimator/budget/budget.c) on arbitrary bytes.
 *
 * Budget files are written by hand and checked into firmware repositories (docs/budgets.md).
 * Whatever the file holds, roi_budget_parse must give budgets and diagnostics, each diagnostic one
 * line of plain text "FILE:LINE:COL: ...", and every budget it accepts must be describable as roi budget prints
 * it: subject, quantity, limit and warning in their units. An accepted limit is a finite number, and a
 * type it names one an operation can have; a NUL byte in the file is always a diagnostic (it once
 * ended the file there, and the budgets after it were never checked). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "budget/budget.h"
#include "input/types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);      /* as roi_read_file gives it: a NUL after the bytes */
	struct roi_budget_file bf;
	struct roi_diags diags;
	char a[256], b[256], c[256];

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&bf, 0, sizeof bf);
	memset(&diags, 0, sizeof diags);
	roi_budget_parse("fuzz.budget", text, size, &bf, &diags);
	if (memchr(text, '\0', size) && diags.n == 0)
		abort();
	for (size_t i = 0; i < diags.n; i++) {
		if (strncmp(diags.msg[i], "fuzz.budget:", 12) != 0)
			abort();
		for (const unsigned char *p = (const unsigned char *)diags.msg[i]; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();        /* one line of plain text */
	}
	for (size_t i = 0; i < bf.nbudgets; i++) {
		const struct roi_budget *x = &bf.budgets[i];

		if (x->line < 1 || !x->text || (x->subject != ROI_BUDGET_TOTAL && !x->name) || !(x->limit >= 0) ||
		    !isfinite(x->limit) || (x->has_warn && !isfinite(x->warn_at)) || (x->type && !roi_type_known(x->type)))
			abort();
		roi_budget_subject_name(x, a, sizeof a);
		roi_budget_quantity_name(x, b, sizeof b);
		roi_budget_fmt(x->quantity, x->limit, c, sizeof c);
		if (x->has_warn)
			roi_budget_fmt(x->quantity, x->warn_at, c, sizeof c);
		roi_budget_unit(x->quantity);
	}
	roi_budget_free(&bf);
	roi_diags_free(&diags);
	free(text);
	return 0;
}
