/* calibrate/calibrate.c — building and running the calibration corpus for "roi calibrate" (calibrate.h). */
#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/path.h"
#include "calibrate/calibrate.h"
#include "input/dwarf_lines.h"
#include "input/elffile.h"
#include "input/types.h"
#include "price/estimate.h"
#include "run/avr_counted.h"

/* The prefix of the file names the block-lines build gives every counted function's statements
 * (roi-block-lines.cc): "roi-block:ASM-NAME", line = the block's counter index + 1. */
#define BLOCK_FILE "roi-block:"

/* Instruction addresses the cycle histogram covers: the largest megaAVR flash (ATmega2560). */
#define MAX_FLASH 0x40000u

extern char **environ;

/* Runs argv (argv[0] looked up in PATH) and waits; 0 when it exited with status 0. */
static int spawn_wait(char *const argv[], const char *source, struct roi_err *err)
{
	pid_t pid;
	int status, rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);

	if (rc != 0)
		return roi_err_set(err, "%s: cannot run %s: %s", source, argv[0], strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return roi_err_set(err, "%s: waiting for %s: %s", source, argv[0], strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return roi_err_set(err, "%s: %s %s failed (exit status %d)", source, argv[0], argv[2],
				   WEXITSTATUS(status));
	return roi_err_set(err, "%s: %s %s died of signal %d", source, argv[0], argv[2], WTERMSIG(status));
}

/* How a corpus program is built: as it ships (with a DWARF line table), with the plugin's counters,
 * or with the plugin's block lines (roi-block-lines.cc: the plain code, blocks for lines). */
enum build_kind { BUILD_PLAIN, BUILD_COUNTED, BUILD_BLOCK_LINES };

static int compile(const struct roi_calib_build *b, const char *source, const char *out, enum build_kind kind,
		   struct roi_err *err)
{
	char mmcu[128], fplugin[4096];

	snprintf(mmcu, sizeof mmcu, "-mmcu=%s", b->mcu);
	snprintf(fplugin, sizeof fplugin, "-fplugin=%s", b->plugin);
	/* Every build carries DWARF (avr-gcc 5.4 makes STABS of a bare -g; -g changes no instruction,
	 * which GCC's own -fcompare-debug checks): the plain build's line table gives its cycles to
	 * source lines, and with debug information GCC keeps the scopes of inlined copies, which the
	 * counted build's "locs" tell apart ('roi transfer'). */
	char *argv[] = {(char *)b->cc, mmcu, (char *)b->opt, (char *)source, "-o", (char *)out, "-gdwarf-2",
			kind == BUILD_PLAIN ? NULL : fplugin,
			kind == BUILD_BLOCK_LINES ? "-fplugin-arg-roi-block-lines" : NULL, NULL};
	return spawn_wait(argv, source, err);
}

/* Whether two firmware files load the same image (code and initialised data). */
static int same_image(const char *a, const char *b, bool *same, struct roi_err *err)
{
	struct roi_elf *ea = NULL, *eb = NULL;
	uint32_t ca, cb;
	int rc = -1;

	if (roi_elf_open(a, &ea, err) == 0 && roi_elf_image_crc(ea, &ca, err) == 0 &&
	    roi_elf_open(b, &eb, err) == 0 && roi_elf_image_crc(eb, &cb, err) == 0) {
		*same = ca == cb;
		rc = 0;
	}
	roi_elf_close(ea);
	roi_elf_close(eb);
	return rc;
}

/* A call to a function of the program costs what any call costs (its body is counted where it
 * runs); a call to a library function also costs the library's body, so it keeps its callee. */
static bool defined_in(const struct roi_program *p, const char *name)
{
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++)
			if (strcmp(p->units[u].functions[f].asm_name, name) == 0 ||
			    strcmp(p->units[u].functions[f].name, name) == 0)
				return true;
	return false;
}

static size_t key_index(struct roi_calib_set *set, const struct roi_opdesc *d, const struct roi_program *p)
{
	struct roi_calib_key k = {d->kind, d->type, d->access, d->callee, d->from, d->operand, d->subscripts, NULL};

	if (k.type && strcmp(k.type, "void") == 0)
		k.type = NULL;
	if (k.callee && (k.callee[0] == '*' || defined_in(p, k.callee)))
		k.callee = NULL;
	char *text = roi_calib_key_text(&set->arena, &k);
	for (size_t i = 0; i < set->nkeys; i++)
		if (strcmp(set->keys[i].text, text) == 0)
			return i;
	if (set->nkeys == set->keys_cap)
		set->keys = roi_xrealloc(set->keys, set->keys_cap = set->keys_cap ? 2 * set->keys_cap : 64,
					 sizeof *set->keys);
	k.kind = roi_arena_strdup(&set->arena, k.kind);
	k.type = k.type ? roi_arena_strdup(&set->arena, k.type) : NULL;
	k.access = k.access ? roi_arena_strdup(&set->arena, k.access) : NULL;
	k.callee = k.callee ? roi_arena_strdup(&set->arena, k.callee) : NULL;
	k.from = k.from ? roi_arena_strdup(&set->arena, k.from) : NULL;
	k.operand = k.operand ? roi_arena_strdup(&set->arena, k.operand) : NULL;
	k.text = text;
	set->keys[set->nkeys] = k;
	return set->nkeys++;
}


/* What the plugin says ran on one line: (line, key, executions). */
struct line_op {
	unsigned line;
	size_t key, block, fn;  /* the program-wide numbers of its block and its function */
	double n;
	long frame;             /* a return, a saved register, a frame or anything else on the function's
				 * own line (the parameters' spills): its function's row (the prologue and
				 * epilogue are paid once per call, like the return), else -1 */
};

/* The function a line of the source belongs to: the one declared last at or above it. */
static size_t function_of(const unsigned *decl, size_t nfn, unsigned line)
{
	size_t best = nfn;

	for (size_t f = 0; f < nfn; f++)
		if (decl[f] <= line && (best == nfn || decl[f] > decl[best]))
			best = f;
	return best;
}

/* Rows with nothing in them say nothing. */
static void drop_empty_rows(struct roi_calib_program *p)
{
	size_t kept = 0;

	for (size_t r = 0; r < p->nrows; r++) {
		bool any = p->rows[r].y > 0;

		for (size_t k = 0; k < p->rows[r].nx && !any; k++)
			any = p->rows[r].x[k] != 0;
		if (any)
			p->rows[kept++] = p->rows[r];
		else
			free(p->rows[r].x);
	}
	p->nrows = kept;
}

/* Whether an operation is paid once per call, like its function's prologue and epilogue: a
 * return, a saved register, the frame. */
static bool per_call_kind(const char *kind)
{
	return roi_kind_is(kind, ROI_KIND(RET), ROI_KIND(SAVE), ROI_KIND(FRAME));
}

/* The same by lines: anything on the function's own line too (at -O0 the parameters' stores). */
static bool per_call(const char *kind, const struct roi_op_row *row, const struct roi_function *fn)
{
	return per_call_kind(kind) || row->line == fn->line;
}

/* p->rows from the plain run's cycles per address (a library routine's given to its caller) and
 * the counted run's operations per line. */
static void line_rows(struct roi_calib_set *set, struct roi_calib_program *p, const struct roi_line_table *t,
		      const uint64_t *pc_cycles, const struct roi_line_addr *const *pc_line, const struct roi_program *prog,
		      const struct roi_counts *counts)
{
	const char *src = roi_base_name(p->source);
	unsigned maxline = 0;

	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].file && strcmp(roi_base_name(t->rows[i].file), src) == 0 && t->rows[i].line > maxline)
			maxline = t->rows[i].line;

	/* the operations by line, with their keys */
	struct line_op *ops = NULL;
	size_t nops = 0, nfn = 0, nblocks = 0, nfns = 0;
	unsigned *decl = NULL;
	for (size_t u = 0; u < prog->nunits; u++) {
		const struct roi_unit *unit = &prog->units[u];

		for (size_t f = 0; f < unit->nfunctions; f++, nfns++) {
			const struct roi_function *fn = &unit->functions[f];
			long frame = -1;

			if (strcmp(roi_base_name(unit->files[fn->file]), src) == 0) {
				decl = roi_xrealloc(decl, nfn + 1, sizeof *decl);
				frame = (long)nfn;
				decl[nfn++] = fn->line;
			}
			for (size_t b = 0; b < fn->nblocks; b++, nblocks++)
				for (size_t r = 0; r < fn->blocks[b].nops; r++) {
					const struct roi_op_row *row = &fn->blocks[b].ops[r];
					double n = (double)roi_block_count(counts, fn, b) * (double)row->n;
					struct roi_opdesc d;

					if (n == 0)
						continue;
					roi_opdesc_of(&d, &unit->ops[row->op], NULL);
					/* (a conversion's normalisation passes: what --price machine prices its
					 * routine by; the conversion is its conv row) */
					if (strcmp(d.kind, "norm") == 0)
						continue;
					ops = roi_xrealloc(ops, nops + 1, sizeof *ops);
					ops[nops++] = (struct line_op){row->line, key_index(set, &d, prog), nblocks, nfns, n,
								       per_call(d.kind, row, fn) ? frame : -1};
					if (row->line > maxline)
						maxline = row->line;
				}
		}
	}

	/* An inlined function's statements keep their own lines in the plugin's rows, but avr-gcc 5.4
	 * gives their instructions the line of the call in the line table (at -Os: q16_mul's multiply
	 * runs on the line that calls it). An operation on a line the table does not have goes to the
	 * row of the next operation of its block on a line it has (the statement that uses the inlined
	 * result), else of the one before; a block of such lines alone (an inlined loop) to the next
	 * or previous such operation of its function: not to a row of no cycles. */
	bool *in_table = calloc((size_t)maxline + 2, sizeof *in_table);
	if (!in_table)
		abort();
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].file && strcmp(roi_base_name(t->rows[i].file), src) == 0)
			in_table[t->rows[i].line] = true;
#define PLACED(o) ((o).frame < 0 && (o).line <= maxline && in_table[(o).line])
	for (size_t i = 0; i < nops; i++) {
		if (ops[i].frame >= 0 || PLACED(ops[i]))
			continue;
		size_t to = nops;
		for (int by_block = 1; by_block >= 0 && to == nops; by_block--) {
			for (size_t k = i + 1; k < nops && ops[k].fn == ops[i].fn &&
			     (!by_block || ops[k].block == ops[i].block) && to == nops; k++)
				if (PLACED(ops[k]))
					to = k;
			for (size_t k = i; k-- > 0 && ops[k].fn == ops[i].fn &&
			     (!by_block || ops[k].block == ops[i].block) && to == nops;)
				if (PLACED(ops[k]))
					to = k;
		}
		if (to < nops)
			ops[i].line = ops[to].line;
	}
#undef PLACED
	free(in_table);

	/* the cycles by line (those of addresses without a line of this source, before main's first
	 * line ran, on line 0) */
	double *cyc = calloc((size_t)maxline + 2, sizeof *cyc);
	bool *has_ops = calloc((size_t)maxline + 2, sizeof *has_ops);
	long *row_of = malloc(((size_t)maxline + 2) * sizeof *row_of);
	if (!cyc || !has_ops || !row_of)
		abort();
	for (size_t pc = 0; pc < MAX_FLASH; pc++)
		cyc[pc_line[pc] ? pc_line[pc]->line : 0] += (double)pc_cycles[pc];
	for (size_t i = 0; i < nops; i++)
		if (ops[i].frame < 0)
			has_ops[ops[i].line] = true;

	/* one row per line with both, one per function for the rest (and one for lines of no function) */
	size_t nk = set->nkeys, nrest = nfn + 1;
	p->nrows = 0;
	p->rows = roi_xrealloc(NULL, (size_t)maxline + 2 + nrest, sizeof *p->rows);
	for (size_t f = 0; f < nrest; f++)
		p->rows[p->nrows++] = (struct roi_calib_row){.line = f < nfn ? decl[f] : 0,
							     .x = calloc(nk + 1, sizeof(double)), .nx = nk};
	for (unsigned l = 0; l <= maxline; l++) {
		row_of[l] = (long)function_of(decl, nfn, l);
		if (cyc[l] > 0 && has_ops[l]) {
			row_of[l] = (long)p->nrows;
			p->rows[p->nrows++] = (struct roi_calib_row){.line = l, .x = calloc(nk + 1, sizeof(double)),
								     .nx = nk};
		}
		p->rows[row_of[l]].y += cyc[l];
	}
	for (size_t i = 0; i < nops; i++)
		p->rows[ops[i].frame >= 0 ? (size_t)ops[i].frame : (size_t)row_of[ops[i].line]].x[ops[i].key] += ops[i].n;
	drop_empty_rows(p);
	free(cyc);
	free(has_ops);
	free(row_of);
	free(ops);
	free(decl);
}

/* p->rows from the plain run's cycles per address, given to the counted blocks the block-lines
 * build's line table names (its code is the plain build's), and the counted run's operations per
 * block: a row per block, one per function for what is paid once per call (the prologue and
 * epilogue, on the function's own lines), one for the rest. */
static void block_rows(struct roi_calib_set *set, struct roi_calib_program *p,
		       const struct roi_line_addr *const *pc_line, const uint64_t *pc_cycles,
		       const struct roi_program *prog, const struct roi_counts *counts)
{
	const char *src = roi_base_name(p->source);
	const struct roi_function **fns = NULL;
	size_t nfn = 0, *first = NULL, nrows;
	unsigned *decl = NULL;

	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t f = 0; f < prog->units[u].nfunctions; f++) {
			const struct roi_function *fn = &prog->units[u].functions[f];

			if (strcmp(roi_base_name(prog->units[u].files[fn->file]), src) != 0)
				continue;
			fns = roi_xrealloc(fns, nfn + 1, sizeof *fns);
			decl = roi_xrealloc(decl, nfn + 1, sizeof *decl);
			first = roi_xrealloc(first, nfn + 1, sizeof *first);
			fns[nfn] = fn;
			decl[nfn] = fn->line;
			nfn++;
		}
	/* rows: the functions', the one of no function, then every function's blocks */
	nrows = nfn + 1;
	for (size_t f = 0; f < nfn; f++) {
		first[f] = nrows;
		nrows += fns[f]->nblocks;
	}

	/* the operations by row, with their keys (all known before the rows are made) */
	struct block_op {
		size_t row, key;
		double n;
	} *ops = NULL;
	size_t nops = 0;
	for (size_t f = 0; f < nfn; f++) {
		const struct roi_function *fn = fns[f];

		for (size_t b = 0; b < fn->nblocks; b++)
			for (size_t r = 0; r < fn->blocks[b].nops; r++) {
				const struct roi_op_row *row = &fn->blocks[b].ops[r];
				double n = (double)roi_block_count(counts, fn, b) * (double)row->n;
				struct roi_opdesc d;
				long long at = (long long)b;

				if (n == 0)
					continue;
				roi_opdesc_of(&d, &fn->unit->ops[row->op], NULL);
				/* a value counter's operations run in the block of its statement */
				if (fn->blocks[b].value)
					at = fn->blocks[b].site;
				ops = roi_xrealloc(ops, nops + 1, sizeof *ops);
				/* (by kind only: a statement an optimiser made, an induction variable's
				 * step, has the function's line, but its block's instructions) */
				ops[nops++] = (struct block_op){per_call_kind(d.kind) || at < 0 ? f : first[f] + (size_t)at,
								key_index(set, &d, prog), n};
			}
	}

	size_t nk = set->nkeys;
	p->rows = roi_xrealloc(NULL, nrows + 1, sizeof *p->rows);
	p->nrows = nrows;
	for (size_t r = 0; r < nrows; r++)
		p->rows[r] = (struct roi_calib_row){.line = r < nfn ? decl[r] : 0, .x = calloc(nk + 1, sizeof(double)),
						    .nx = nk};
	for (size_t f = 0; f < nfn; f++)
		for (size_t b = 0; b < fns[f]->nblocks; b++) {
			const struct roi_block *blk = &fns[f]->blocks[b];

			p->rows[first[f] + b].block = roi_arena_printf(&set->arena, "%s#%zu", fns[f]->asm_name, b);
			p->rows[first[f] + b].line = blk->nops ? blk->ops[0].line : fns[f]->line;
		}
	for (size_t i = 0; i < nops; i++)
		p->rows[ops[i].row].x[ops[i].key] += ops[i].n;

	for (size_t pc = 0; pc < MAX_FLASH; pc++) {
		const struct roi_line_addr *l;

		if (!pc_cycles[pc] || !(l = pc_line[pc]))
			continue;
		size_t row = nfn;
		const char *file = roi_base_name(l->file);   /* (libdw joins it to the unit's directory) */
		if (strncmp(file, BLOCK_FILE, strlen(BLOCK_FILE)) == 0) {
			for (size_t f = 0; f < nfn; f++)
				if (strcmp(fns[f]->asm_name, file + strlen(BLOCK_FILE)) == 0)
					row = l->line >= 1 && l->line <= fns[f]->nblocks ? first[f] + l->line - 1 : f;
		} else if (strcmp(file, src) == 0) {
			row = function_of(decl, nfn, l->line);
		}
		p->rows[row].y += (double)pc_cycles[pc];
	}
	drop_empty_rows(p);
	free(ops);
	free(fns);
	free(first);
	free(decl);
}

int roi_calib_add(struct roi_calib_set *set, const struct roi_calib_build *b, const char *source,
		  struct roi_err *err)
{
	const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
	size_t len = strlen(base) > 2 && strcmp(base + strlen(base) - 2, ".c") == 0 ? strlen(base) - 2 : strlen(base);
	char *name = roi_arena_printf(&set->arena, "%.*s", (int)len, base);
	char *counted = roi_arena_printf(&set->arena, "%s/%s-count.elf", b->work, name);
	char *plain = roi_arena_printf(&set->arena, "%s/%s-plain.elf", b->work, name);
	char *blocks = roi_arena_printf(&set->arena, "%s/%s-blocks.elf", b->work, name);
	uint64_t *pc_cycles = calloc(MAX_FLASH, sizeof *pc_cycles);
	bool *pc_owned = calloc(MAX_FLASH, sizeof *pc_owned);
	/* the line-table row of every address of this source (or its blocks); NULL: another's */
	const struct roi_line_addr **pc_line = calloc(MAX_FLASH, sizeof *pc_line);
	struct roi_avr_run run = {.elf = plain, .mcu = b->mcu, .freq_hz = b->freq_hz, .max_cycles = b->max_cycles,
				  .pc_cycles = pc_cycles, .pc_owned = pc_owned, .pc_cycles_size = MAX_FLASH};
	struct roi_line_table lines = {0};
	struct roi_calib_program p = {.name = name, .source = roi_arena_strdup(&set->arena, source)};
	struct roi_elf *elf = NULL;
	struct roi_program prog = {0};
	struct roi_counts counts = {0};
	cJSON *saturated = cJSON_CreateArray();
	int rc = -1;

	if (!pc_cycles || !pc_owned || !pc_line)
		abort();
	/* Rows of blocks where optimised code moves instructions across lines, if the block-lines
	 * build is the plain one (at -O0 GCC keeps a jump whose line differs from its target's, so it
	 * is not; there no instruction leaves its line, and the lines are the rows). */
	bool try_blocks = strcmp(b->opt, "-O0") != 0;
	if (compile(b, source, plain, BUILD_PLAIN, err) != 0 || compile(b, source, counted, BUILD_COUNTED, err) != 0 ||
	    (try_blocks && (compile(b, source, blocks, BUILD_BLOCK_LINES, err) != 0 ||
			    same_image(plain, blocks, &p.by_block, err) != 0)) ||
	    roi_line_table_load(p.by_block ? blocks : plain, &lines, err) != 0)
		goto out;
	/* One look-up per address serves both: which addresses are the program's own (for the run)
	 * and which line or block their cycles go to (for the rows). */
	for (size_t pc = 0; pc < MAX_FLASH; pc++) {
		const struct roi_line_addr *l = roi_line_table_find(&lines, pc);

		pc_owned[pc] = l && l->file && (strcmp(roi_base_name(l->file), roi_base_name(source)) == 0 ||
						strncmp(roi_base_name(l->file), BLOCK_FILE, strlen(BLOCK_FILE)) == 0);
		pc_line[pc] = pc_owned[pc] ? l : NULL;
	}
	if (roi_run_check_elf(plain, &roi_avr_target, err) != 0 || roi_avr_run(&run, err) != 0)
		goto out;
	if (run.stop == ROI_AVR_LIMIT) {
		roi_err_set(err, "%s: no stop after %llu cycles; the program may loop forever", plain,
			    (unsigned long long)b->max_cycles);
		goto out;
	}
	if (!run.main_seen) {
		roi_err_set(err, "%s: the plain firmware never reached main", plain);
		goto out;
	}
	p.cycles = run.cycles - run.main_cycle;
	p.startup = run.main_cycle;
	roi_avr_run_free(&run);
	run = (struct roi_avr_run){.elf = counted, .mcu = b->mcu, .freq_hz = b->freq_hz, .max_cycles = b->max_cycles};
	if (roi_avr_run_counted(&run, &elf, &prog, &counts, saturated, err) != 0)
		goto out;
	if (cJSON_GetArraySize(saturated) > 0) {
		roi_err_set(err, "%s: 16-bit counters saturated: the program runs too long for calibration", source);
		goto out;
	}
	if (p.by_block)
		block_rows(set, &p, pc_line, pc_cycles, &prog, &counts);
	else
		line_rows(set, &p, &lines, pc_cycles, pc_line, &prog, &counts);
	/* the program's executions per key: its rows added up */
	p.nx = set->nkeys;
	p.x = roi_xrealloc(NULL, p.nx + 1, sizeof *p.x);
	memset(p.x, 0, (p.nx + 1) * sizeof *p.x);
	for (size_t r = 0; r < p.nrows; r++)
		for (size_t k = 0; k < p.rows[r].nx; k++)
			p.x[k] += p.rows[r].x[k];
	set->programs = roi_xrealloc(set->programs, set->nprograms + 1, sizeof *set->programs);
	set->programs[set->nprograms++] = p;
	rc = 0;
out:
	free(pc_cycles);
	free(pc_owned);
	free(pc_line);
	roi_line_table_free(&lines);
	cJSON_Delete(saturated);
	roi_avr_run_free(&run);
	roi_counts_free(&counts);
	roi_program_free(&prog);
	roi_elf_close(elf);
	return rc;
}

char *roi_calib_key_text(struct roi_arena *a, const struct roi_calib_key *k)
{
	/* a key is a model cost's match fields: the model's own formatter writes them */
	const struct roi_cost c = {.kind = k->kind, .type = k->type, .access = k->access, .callee = k->callee,
				   .from = k->from, .operand = k->operand, .subscripts = k->subscripts};
	char buf[512];

	return roi_arena_strdup(a, roi_cost_describe(&c, buf, sizeof buf));
}

double *roi_calib_matrix(const struct roi_calib_set *set)
{
	size_t n = set->nkeys;
	double *x = roi_xrealloc(NULL, set->nprograms * n + 1, sizeof *x);

	memset(x, 0, (set->nprograms * n + 1) * sizeof *x);
	for (size_t p = 0; p < set->nprograms; p++)
		memcpy(&x[p * n], set->programs[p].x, set->programs[p].nx * sizeof *x);
	return x;
}

double *roi_calib_line_matrix(const struct roi_calib_set *set, size_t *nrows, double **y, size_t **program)
{
	size_t n = set->nkeys, total = 0, r = 0;

	for (size_t p = 0; p < set->nprograms; p++)
		total += set->programs[p].nrows;
	double *x = roi_xrealloc(NULL, total * n + 1, sizeof *x);
	*y = roi_xrealloc(NULL, total + 1, sizeof **y);
	*program = roi_xrealloc(NULL, total + 1, sizeof **program);
	memset(x, 0, (total * n + 1) * sizeof *x);
	for (size_t p = 0; p < set->nprograms; p++)
		for (size_t i = 0; i < set->programs[p].nrows; i++, r++) {
			memcpy(&x[r * n], set->programs[p].rows[i].x, set->programs[p].rows[i].nx * sizeof *x);
			(*y)[r] = set->programs[p].rows[i].y;
			(*program)[r] = p;
		}
	*nrows = total;
	return x;
}

void roi_calib_free(struct roi_calib_set *set)
{
	for (size_t p = 0; p < set->nprograms; p++) {
		for (size_t r = 0; r < set->programs[p].nrows; r++)
			free(set->programs[p].rows[r].x);
		free(set->programs[p].rows);
		free(set->programs[p].x);
	}
	free(set->programs);
	free(set->keys);
	roi_arena_free(&set->arena);
	memset(set, 0, sizeof *set);
}
