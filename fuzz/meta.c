/* fuzz/meta.c — the .roi.meta reader (estimator/meta.c) on arbitrary bytes, and what uses its result.
 *
 * The input is a section's contents: records separated by NUL bytes, as roi_elf_meta_records cuts
 * them. meta.h promises that a program it accepts can be indexed without checks (op, file, block
 * and loop indices in range), and the estimator relies on that everywhere; so an accepted program
 * is also joined with counts, estimated (counts only, and with a model for another target, which maps
 * every type through the model's ABI), built into roi report's hierarchy and reported as JSON,
 * which is where a broken promise would show. FUZZ_MODEL names the model (the Makefile's). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "estimate.h"
#include "filter.h"
#include "hier.h"
#include "meta.h"
#include "model.h"
#include "report.h"

static struct roi_model model;
static bool have_model;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct roi_err err;

	(void)argc;
	(void)argv;
	have_model = roi_model_load(FUZZ_MODEL, &model, &err) == 0;
	if (!have_model)
		fprintf(stderr, "fuzz-meta: %s (going on without a model)\n", err.msg);
	return 0;
}

/* Every block ran (b + 1) times, so costs and shares are neither all zero nor all equal. */
static void use(const struct roi_program *prog)
{
	struct roi_counts counts;
	struct roi_estimate est;
	struct roi_hier hier;
	struct roi_unmatched_rule *rules;
	struct roi_source src = {"fuzz.roi", 1, NULL};

	roi_counts_init(&counts, prog);
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++) {
			const struct roi_function *fn = &prog->units[u].functions[f];

			for (size_t b = 0; b < fn->nblocks; b++)
				counts.block[fn->gblock0 + b] = b + 1;
			counts.present[fn->gindex] = true;
		}
	counts.nmissing = 0;
	counts.runs = 1;
	for (int with_model = 0; with_model <= have_model; with_model++) {
		struct roi_err err;

		/* a model's costs are bounded and every count is small: its totals are finite */
		if (roi_estimate_compute(&est, prog, &counts, with_model ? &model : NULL, &err) != 0) {
			fprintf(stderr, "estimate failed: %s\n", err.msg);
			abort();
		}
		/* a chain of calls in loops can multiply costs past a double: an error, one line */
		if (roi_hier_build(&hier, &est, &err) != 0 && strchr(err.msg, '\n'))
			abort();
		cJSON_Delete(roi_report_json(&est, &src));
		roi_hier_free(&hier);
		roi_estimate_free(&est);
	}
	roi_counts_free(&counts);
	roi_filter_unmatched(prog, &rules);
	free(rules);
	free(roi_filter_excluded_list(prog));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	const char **text = malloc((size / 2 + 1) * sizeof *text);
	struct roi_program prog;
	struct roi_err err;
	size_t n = 0;

	if (!buf || !text)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	/* As roi_elf_meta_records: pieces between NUL bytes, empty ones skipped. */
	for (size_t i = 0; i < size; i++)
		if (buf[i] != '\0' && (i == 0 || buf[i - 1] == '\0'))
			text[n++] = buf + i;
	if (n > 0) {
		if (roi_program_from_records("fuzz.elf", text, n, &prog, &err) == 0)
			use(&prog);
		else if (strchr(err.msg, '\n'))
			abort();        /* an error is one line */
		roi_program_free(&prog);
	}
	free(text);
	free(buf);
	return 0;
}
