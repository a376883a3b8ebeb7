/* fuzz/meta.c — the .roi.meta reader (estimator/input/meta.c) on arbitrary bytes, and what uses its result.
 *
 * The input is a section's contents: records separated by NUL bytes, as roi_elf_meta_records cuts
 * them. meta.h promises that a program it accepts can be indexed without checks (op, file, block
 * and loop indices in range), and the estimator relies on that everywhere; so an accepted program
 * is also joined with counts, estimated (counts only, and with a model for another target, which maps
 * every type through the model's ABI), built into roi report's hierarchy and reported as JSON,
 * which is where a broken promise would show. FUZZ_MODEL names the model (the Makefile's).
 *
 * The program is also joined with counts near 2^64, through roi_counts_join as a profile's are:
 * counts whose operations fit 64 bits must give an estimate whose total is exact, and one count
 * more of each block must be refused (the sums are checked here in 128 bits). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/counts.h"
#include "input/filter.h"
#include "input/meta.h"
#include "input/model.h"
#include "price/estimate.h"
#include "price/hier.h"
#include "report/report.h"

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

/* Every block counts base: a profile as roi transfer would write it (a count per block, under a
 * function's block checksum where it is counted on edges), joined, then estimated. 1 when
 * roi_counts_join refused it, 0 when the estimate's total is exact; aborts otherwise. */
static int join_counts(const struct roi_program *prog, uint64_t base, unsigned __int128 *ops)
{
	struct roi_profile_fn *fns = calloc(prog->nfunctions ? prog->nfunctions : 1, sizeof *fns);
	uint64_t *counts = malloc((prog->nblocks ? prog->nblocks : 1) * sizeof *counts);
	struct roi_profile prof;
	struct roi_counts c;
	struct roi_estimate est;
	struct roi_err err;
	int refused;

	if (!fns || !counts)
		abort();
	for (size_t i = 0; i < prog->nblocks; i++)
		counts[i] = base;
	*ops = 0;
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++) {
			const struct roi_function *fn = &prog->units[u].functions[f];

			fns[fn->gindex] = (struct roi_profile_fn){
				{prog->units[u].id, (uint32_t)f, fn->on_edges ? fn->block_checksum : fn->checksum,
				 (uint32_t)fn->nblocks}, &counts[fn->gblock0], 1};
			for (size_t b = 0; b < fn->nblocks; b++)
				for (size_t r = 0; r < fn->blocks[b].nops; r++)
					*ops += (unsigned __int128)base * fn->blocks[b].ops[r].n;
		}
	memset(&prof, 0, sizeof prof);
	prof.path = "huge.roi";
	prof.runs = 1;
	prof.fns = fns;
	prof.nfns = prog->nfunctions;
	refused = roi_counts_join(&c, prog, &prof, &err) != 0;
	if (refused && strchr(err.msg, '\n'))
		abort();
	if (!refused) {
		if (roi_estimate_compute(&est, prog, &c, NULL, &err) != 0 || est.total_ops != *ops)
			abort();        /* a total that wrapped */
		roi_estimate_free(&est);
	}
	roi_counts_free(&c);
	free(counts);
	free(fns);
	return refused;
}

/* The largest count each block may have for the operations to fit 64 bits, and one more. */
static void huge_counts(const struct roi_program *prog)
{
	unsigned __int128 n = 0, ops, blocks = prog->nblocks, edges = 0;

	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++) {
			const struct roi_function *fn = &prog->units[u].functions[f];

			for (size_t b = 0; b < fn->nblocks; b++) {
				edges += fn->blocks[b].nsucc + fn->blocks[b].fake;
				for (size_t r = 0; r < fn->blocks[b].nops; r++)
					n += fn->blocks[b].ops[r].n;
			}
		}
	if (n == 0 || n > UINT64_MAX)
		return;
	uint64_t base = UINT64_MAX / (uint64_t)n;
	/* (the block and edge executions are checked too: with as many blocks or edges as operations,
	 * base still fits them, and otherwise a refusal is right) */
	if (join_counts(prog, base, &ops) && (unsigned __int128)base * blocks <= UINT64_MAX &&
	    (unsigned __int128)base * edges <= UINT64_MAX)
		abort();        /* refused counts that fit */
	if (base < UINT64_MAX && !join_counts(prog, base + 1, &ops))
		abort();        /* accepted operations past 2^64 */
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
		if (roi_program_from_records("fuzz.elf", text, n, &prog, &err) == 0) {
			use(&prog);
			huge_counts(&prog);
		}
		else if (strchr(err.msg, '\n'))
			abort();        /* an error is one line */
		roi_program_free(&prog);
	}
	free(text);
	free(buf);
	return 0;
}
