/* report/lcov.c — line execution counts for coverage tools (docs/report.md, "lcov and gcov's
 * JSON"): an lcov tracefile (lcov, genhtml, editors' coverage gutters) and the JSON gcov writes
 * with --json-format, which gcovr also takes as a tracefile (-a).
 *
 * A line's count is how often it ran as gcov counts it (gcov/lines.h: at -O0 gcov's own count for
 * the same runs); a function's, its entries; a branch's, how often its way was taken (the edge's
 * count, input/counts.h), on the line of the branch. Both formats hold counts only: a cost in a hit count
 * would turn a line of less than half a cycle into an uncovered one, and lcov -a would add cycles
 * to the counts of another tracefile. Costs per line are in the callgrind output and the HTML
 * report. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "report/formats.h"
#include "report/lines.h"

/* A function as the coverage formats list it: copies of one (a static inline function of a
 * header, compiled into several units) are one, their entries added up. */
struct cfn {
	const struct roi_function *fn;
	uint64_t calls;
	size_t blocks, executed;
	unsigned end_line;
};

static size_t functions_of(const struct roi_hier *h, const struct roi_src_file *f, struct cfn *out)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nfns; i++) {
		const struct roi_function *fn = f->fns[i].fn;
		size_t k;

		for (k = 0; k < n && (out[k].fn->line != fn->line || strcmp(out[k].fn->name, fn->name) != 0); k++)
			;
		if (k == n)
			out[n++] = (struct cfn){fn, 0, 0, 0, fn->line};
		out[k].calls += f->fns[i].calls;
		for (size_t b = 0; b < fn->nblocks; b++) {
			if (fn->blocks[b].value)
				continue;
			out[k].blocks++;
			out[k].executed += roi_block_count(h->e->counts, fn, b) > 0;
			for (size_t l = 0; l < fn->blocks[b].nlines; l++)
				if (fn->blocks[b].lines[l].file == fn->file && fn->blocks[b].lines[l].line > out[k].end_line)
					out[k].end_line = fn->blocks[b].lines[l].line;
		}
	}
	return n;
}

/* A branch: way `branch` out of a block of two or more ways, on the line of its branch or switch.
 * Its count is the edge's (input/counts.h). */
struct branch {
	unsigned line;
	size_t block, branch;
	uint64_t count;
	bool ran;               /* its block ran */
};

static int branch_cmp(const void *pa, const void *pb)
{
	const struct branch *a = pa, *b = pb;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	return a->branch < b->branch ? -1 : a->branch > b->branch;
}

/* The branches of the functions of f on their own file's lines, by line, block and way; copies of
 * one function (a static inline function of a header in several units) added up. *n their count. */
static struct branch *branches_of(const struct roi_hier *h, const struct roi_src_file *f, size_t *n)
{
	size_t cap = 0, k = 0;
	struct branch *v = NULL;

	for (size_t i = 0; i < f->nfns; i++) {
		const struct roi_function *fn = f->fns[i].fn;

		for (size_t b = 0; b < fn->nblocks; b++) {
			const struct roi_block *blk = &fn->blocks[b];
			const struct roi_op_row *at = NULL;

			if (blk->nsucc < 2)
				continue;
			for (size_t r = 0; r < blk->nops; r++) {
				const char *kind = fn->unit->ops[blk->ops[r].op].kind;

				if (strcmp(kind, "br") == 0 || strcmp(kind, "switch") == 0)
					at = &blk->ops[r];
			}
			if (!at || at->file != fn->file)
				continue;
			for (size_t e = 0; e < blk->nsucc; e++) {
				struct branch x = {at->line, b, e, roi_edge_count(h->e->counts, fn, b, (int)e),
						   roi_block_count(h->e->counts, fn, b) > 0};
				size_t j;

				for (j = 0; j < k && branch_cmp(&v[j], &x) != 0; j++)
					;
				if (j < k) {
					v[j].count += x.count;
					v[j].ran |= x.ran;
					continue;
				}
				if (k == cap)
					v = roi_xrealloc(v, cap = cap ? 2 * cap : 16, sizeof *v);
				v[k++] = x;
			}
		}
	}
	if (k)
		qsort(v, k, sizeof *v, branch_cmp);
	*n = k;
	return v;
}

static bool listed(const struct roi_src_file *f)
{
	if (f->nfns)
		return true;
	for (size_t i = 0; i < f->nlines; i++)
		if (f->lines[i].has_count)
			return true;
	return false;
}

void roi_write_lcov(FILE *out, const struct roi_hier *h)
{
	struct roi_src_files s;

	roi_src_files_build(&s, h);
	for (size_t i = 0; i < s.n; i++) {
		const struct roi_src_file *f = &s.v[i];
		struct cfn *fns = roi_xrealloc(NULL, f->nfns ? f->nfns : 1, sizeof *fns);
		size_t nfns = functions_of(h, f, fns), hit = 0, lf = 0, lh = 0;

		if (!listed(f)) {
			free(fns);
			continue;
		}
		fprintf(out, "TN:\nSF:%s\n", f->path);
		for (size_t k = 0; k < nfns; k++)
			fprintf(out, "FN:%u,%s\n", fns[k].fn->line, fns[k].fn->name);
		for (size_t k = 0; k < nfns; k++) {
			fprintf(out, "FNDA:%llu,%s\n", (unsigned long long)fns[k].calls, fns[k].fn->name);
			hit += fns[k].calls > 0;
		}
		fprintf(out, "FNF:%zu\nFNH:%zu\n", nfns, hit);
		size_t nbr, brh = 0;
		struct branch *br = branches_of(h, f, &nbr);
		for (size_t k = 0; k < nbr; k++) {
			if (br[k].ran)
				fprintf(out, "BRDA:%u,%zu,%zu,%llu\n", br[k].line, br[k].block, br[k].branch,
					(unsigned long long)br[k].count);
			else
				fprintf(out, "BRDA:%u,%zu,%zu,-\n", br[k].line, br[k].block, br[k].branch);
			brh += br[k].count > 0;
		}
		if (nbr)
			fprintf(out, "BRF:%zu\nBRH:%zu\n", nbr, brh);
		free(br);
		for (size_t k = 0; k < f->nlines; k++) {
			const struct roi_src_line *l = &f->lines[k];

			if (!l->has_count)
				continue;
			fprintf(out, "DA:%u,%llu\n", l->line, (unsigned long long)l->count);
			lf++;
			lh += l->count > 0;
		}
		fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
		free(fns);
	}
	roi_src_files_free(&s);
}

/* The function a line belongs to: the last one of the file starting at or before it. */
static const char *function_at(const struct cfn *fns, size_t n, unsigned line)
{
	const char *name = NULL;

	for (size_t k = 0; k < n; k++)
		if (fns[k].fn->line <= line && line <= fns[k].end_line)
			name = fns[k].fn->asm_name;
	return name;
}

void roi_write_gcov_json(FILE *out, const struct roi_hier *h, const struct roi_source *src)
{
	const struct roi_program *p = h->e->prog;
	struct roi_src_files s;
	cJSON *doc = cJSON_CreateObject(), *files;
	char cwd[PATH_MAX], *text;

	roi_src_files_build(&s, h);
	/* gcov's JSON of GCC 12 is version 1; gcovr 5.2 (Debian 12) takes it as its own tracefile
	 * version 0.3, whose extra members it needs are added. */
	cJSON_AddStringToObject(doc, "format_version", "1");
	cJSON_AddStringToObject(doc, "gcc_version", roi_program_common(p, offsetof(struct roi_unit, compiler)));
	cJSON_AddStringToObject(doc, "current_working_directory", getcwd(cwd, sizeof cwd) ? cwd : ".");
	cJSON_AddStringToObject(doc, "data_file", src->profile);
	cJSON_AddStringToObject(doc, "gcovr/format_version", "0.3");
	files = cJSON_AddArrayToObject(doc, "files");
	for (size_t i = 0; i < s.n; i++) {
		const struct roi_src_file *f = &s.v[i];
		struct cfn *fns = roi_xrealloc(NULL, f->nfns ? f->nfns : 1, sizeof *fns);
		size_t nfns = functions_of(h, f, fns);
		cJSON *file, *a;

		if (!listed(f)) {
			free(fns);
			continue;
		}
		file = cJSON_CreateObject();
		cJSON_AddItemToArray(files, file);
		cJSON_AddStringToObject(file, "file", f->path);
		a = cJSON_AddArrayToObject(file, "functions");
		for (size_t k = 0; k < nfns; k++) {
			cJSON *x = cJSON_CreateObject();

			cJSON_AddStringToObject(x, "name", fns[k].fn->asm_name);
			cJSON_AddStringToObject(x, "demangled_name", fns[k].fn->name);
			cJSON_AddNumberToObject(x, "start_line", fns[k].fn->line);
			cJSON_AddNumberToObject(x, "start_column", 0);
			cJSON_AddNumberToObject(x, "end_line", fns[k].end_line);
			cJSON_AddNumberToObject(x, "end_column", 0);
			cJSON_AddNumberToObject(x, "blocks", (double)fns[k].blocks);
			cJSON_AddNumberToObject(x, "blocks_executed", (double)fns[k].executed);
			cJSON_AddNumberToObject(x, "execution_count", (double)fns[k].calls);
			cJSON_AddNumberToObject(x, "lineno", fns[k].fn->line);
			cJSON_AddItemToArray(a, x);
		}
		a = cJSON_AddArrayToObject(file, "lines");
		size_t nbr, kb = 0;
		struct branch *br = branches_of(h, f, &nbr);
		for (size_t k = 0; k < f->nlines; k++) {
			const struct roi_src_line *l = &f->lines[k];
			const char *fn = function_at(fns, nfns, l->line);
			cJSON *x, *branches;

			if (!l->has_count)
				continue;
			x = cJSON_CreateObject();
			cJSON_AddNumberToObject(x, "line_number", l->line);
			if (fn)
				cJSON_AddStringToObject(x, "function_name", fn);
			cJSON_AddNumberToObject(x, "count", (double)l->count);
			cJSON_AddBoolToObject(x, "unexecuted_block", l->unexecuted);
			branches = cJSON_AddArrayToObject(x, "branches");
			while (kb < nbr && br[kb].line < l->line)
				kb++;
			for (; kb < nbr && br[kb].line == l->line; kb++) {
				cJSON *y = cJSON_CreateObject();

				cJSON_AddNumberToObject(y, "count", (double)br[kb].count);
				cJSON_AddBoolToObject(y, "throw", false);
				cJSON_AddBoolToObject(y, "fallthrough", false);
				cJSON_AddItemToArray(branches, y);
			}
			cJSON_AddBoolToObject(x, "gcovr/noncode", false);
			cJSON_AddBoolToObject(x, "gcovr/excluded", false);
			cJSON_AddItemToArray(a, x);
		}
		free(br);
		free(fns);
	}
	text = cJSON_Print(doc);
	if (text)
		fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(doc);
	roi_src_files_free(&s);
}
