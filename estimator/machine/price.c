/* machine/price.c — a run priced from the firmware's instructions (price.h). */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "input/part.h"
#include "base/array.h"
#include "base/path.h"
#include "machine/price.h"

const char *roi_mhow_name(enum roi_mhow how)
{
	switch (how) {
	case ROI_MHOW_TABLE: return "model, typical operands";
	case ROI_MHOW_VALUE: return "model and value counters";
	case ROI_MHOW_WALK: return "its instructions (no branch)";
	case ROI_MHOW_UNPRICED: break;
	}
	return "unpriced";
}

/* The model is for this firmware's architecture and part (input/part.h). */
static int check_part(const struct roi_model *m, const struct roi_mcode *c, struct roi_err *err)
{
	return roi_model_check_part(m, c->path, c->arch == ROI_MARCH_AVR ? "avr" : "arm", c->device, err);
}

/* ---- routines ---------------------------------------------------------------------------------- */

/* Whether a counted function of the program is at addr: its own instructions are priced where it
 * runs, not at its calls. */
static bool counted_at(const struct roi_machine_estimate *e, const struct roi_mcode *c, uint64_t addr)
{
	for (size_t i = 0; i < e->nfns; i++)
		if (e->fns[i].code.nins && e->fns[i].code.addr == addr)
			return true;
	(void)c;
	return false;
}

/* A routine's cycles and instructions along its only path: it has no conditional branch or skip
 * (an unconditional jump, a call into another such routine and a table's indirect jump are
 * followed or end it). False when it has one, or goes on too long. */
static bool walk(const struct roi_machine_estimate *e, const struct roi_mcode *c, uint64_t pc, bool to_stop,
		 int depth, double *cycles, double *ins)
{
	struct roi_thumb_state st = {.flash_wait = c->flash_wait};
	int z[2] = {-1, -1};    /* AVR: r30, r31 as an ldi of this walk set them */

	for (int steps = 0; steps < 4000 && depth < 8; steps++) {
		struct roi_minsn in;

		roi_mcode_decode(c, pc, &st, &in);
		if (in.cls == ROI_MI_STOP && to_stop && strcmp(in.name, "?") != 0)
			return true;
		if (in.conditional)
			return false;
		*cycles += in.cycles;
		*ins += 1;
		if (in.reg_op == ROI_MR_LDI && (in.rd == 30 || in.rd == 31))
			z[in.rd - 30] = in.imm & 0xff;
		/* avr-gcc's -mcall-prologues: the routine loads Z with where to come back to and jumps
		 * into __prologue_saves__, whose ijmp comes back there; the rest of the routine is
		 * its own, not its end */
		if (in.cls == ROI_MI_IJUMP && z[0] >= 0 && z[1] >= 0) {
			pc = 2 * (uint64_t)(z[1] << 8 | z[0]);
			z[0] = z[1] = -1;
			continue;
		}
		switch (in.cls) {
		case ROI_MI_OP:
			pc += in.size;
			break;
		case ROI_MI_CALL:
			/* a counted function's instructions are priced by its own counts */
			if (!counted_at(e, c, in.target) && !walk(e, c, in.target, false, depth + 1, cycles, ins))
				return false;
			pc += in.size;
			break;
		case ROI_MI_JUMP:
			pc = in.target;
			break;
		case ROI_MI_SKIP: {
			/* a skip over one single-cycle instruction costs 2 cycles whichever way it goes
			 * (libgcc's sign extensions: sbrc r26,7; com r0): nothing decides it */
			struct roi_minsn next;

			roi_mcode_decode(c, pc + in.size, &st, &next);
			roi_avr_skip_cost(&in, &next);
			if (next.cls != ROI_MI_OP || in.cycles + next.cycles != in.taken)
				return false;
			*cycles += next.cycles;
			*ins += 1;
			pc = in.target;
			break;
		}
		case ROI_MI_RET:
			return !to_stop;
		case ROI_MI_IJUMP:
			return !to_stop;        /* a table's dispatch: the target is the caller's */
		default:
			return false;
		}
	}
	return false;
}

/* Per calling block, what its calls of one routine add up to. */
struct site {
	const struct roi_function *fn;
	long block;
	const char *routine;
	uint64_t addr;
	double calls;
	size_t line;            /* index into the lines being gathered */
	double fixed;           /* the value per call the instructions before it fix (a constant shift
				 * amount), else -1 */
	const struct roi_mfunc *code;
};

struct gather {
	struct roi_machine_estimate *e;
	const struct roi_mcode *code;
	const struct roi_counts *counts;
	struct site *sites;
	size_t nsites, csites;
	struct roi_mline_total *lines;
	size_t nlines, clines;
};

static size_t line_index(struct gather *g, const char *file, unsigned line)
{
	for (size_t i = g->nlines; i-- > 0;)
		if (g->lines[i].line == line && strcmp(g->lines[i].file, file) == 0)
			return i;
	g->lines = roi_xgrow(g->lines, g->nlines, &g->clines, sizeof *g->lines);
	g->lines[g->nlines] = (struct roi_mline_total){file, line, 0, 0};
	return g->nlines++;
}

/* The source line of an instruction of f: the plain firmware's line table, else its block's first
 * line, else the function's. */
static size_t line_of(struct gather *g, const struct roi_mfunc *f, size_t i)
{
	const struct roi_function *fn = f->fn;
	const struct roi_line_addr *l = g->code->has_lines ? roi_line_table_find(&g->code->lines, f->ins[i].addr) : NULL;

	if (l && l->file)
		return line_index(g, roi_base_name(l->file), l->line);
	if (f->owner[i] >= 0 && fn->blocks[f->owner[i]].nlines) {
		const struct roi_line *bl = &fn->blocks[f->owner[i]].lines[0];
		return line_index(g, roi_base_name(fn->unit->files[bl->file]), bl->line);
	}
	return line_index(g, roi_base_name(fn->unit->files[fn->file]), fn->line);
}

/* The model's entry of the routine at addr, by any of its names (avr-libc's __cmpsf2 is __eqsf2,
 * __lesf2... too). */
static const struct roi_routine_cost *model_routine(const struct roi_model *m, const struct roi_mcode *c,
						    uint64_t addr)
{
	for (size_t i = 0; i < c->nsyms; i++)
		if (c->syms[i].addr == addr && c->syms[i].global) {
			const struct roi_routine_cost *r = roi_model_routine(m, c->syms[i].name);
			if (r)
				return r;
		}
	return NULL;
}

/* Prices the gathered call sites: each routine's total, its callers' and their lines'. */
static void add_site(struct gather *g, const struct roi_mfunc *code, long block, const char *routine, uint64_t addr,
		     double calls, size_t line, double fixed)
{
	const struct roi_function *fn = code->fn;

	for (size_t i = 0; i < g->nsites; i++)
		if (g->sites[i].fn == fn && g->sites[i].block == block && strcmp(g->sites[i].routine, routine) == 0 &&
		    g->sites[i].line == line && g->sites[i].fixed == fixed) {
			g->sites[i].calls += calls;
			return;
		}
	g->sites = roi_xgrow(g->sites, g->nsites, &g->csites, sizeof *g->sites);
	g->sites[g->nsites++] = (struct site){fn, block, routine, addr, calls, line, fixed, code};
}

/* The passes of a libgcc 64-bit shift whose amount the call's own code loads as a constant into
 * the routine's register (ldi r16, K: K / 8 + K % 8, as the plugin counts them), else -1. */
static double fixed_value(const struct roi_model *m, const struct roi_mcode *c, const struct roi_mfunc *f, size_t i)
{
	const struct roi_routine_cost *r = m ? model_routine(m, c, f->ins[i].target) : NULL;

	if (!r || r->value_register < 0)
		return -1;
	for (size_t k = i, n = 0; k-- > 0 && n < 8 && f->ins[k].cls == ROI_MI_OP; n++)
		if (f->ins[k].reg_op == ROI_MR_LDI && f->ins[k].rd == (unsigned)r->value_register)
			return f->ins[k].imm / 8 + f->ins[k].imm % 8;
		else if (f->ins[k].rd == (unsigned)r->value_register && f->ins[k].reg_op != ROI_MR_NONE)
			break;
	return -1;
}

/* The sum of the value counters of fn's block b that measure what r depends on, and of b's own
 * rows of a memory routine's bytes (a length the compiler knows is a row of n bytes, not a
 * counter: formats.md); false when the block has none. A memory routine's bytes of a constant
 * length per execution that one of the block's constant copy loops moves is the compiler's inline
 * copy, not a call's (code: fn's). */
static bool site_value(const struct roi_counts *counts, const struct roi_mfunc *code, long b,
		       const struct roi_routine_cost *r, double *v)
{
	const struct roi_function *fn = code->fn;
	bool any = false, *used = roi_xzalloc(code->ncopies + 1, sizeof *used);
	double runs = b >= 0 ? (double)roi_block_count(counts, fn, (size_t)b) : 0;

	*v = 0;
	if (!r->value_kind || b < 0) {
		free(used);
		return false;
	}
	for (size_t k = 0; k < fn->nblocks; k++) {
		const struct roi_block *blk = &fn->blocks[k];

		bool own = (long)k == b && !blk->value && r->value_callee;

		if (!own && (!blk->value || blk->site != b))
			continue;
		for (size_t i = 0; i < blk->nops; i++) {
			const struct roi_op *op = &fn->unit->ops[blk->ops[i].op];

			if (strcmp(op->kind, r->value_kind) != 0 || (r->value_type && (!op->type ||
			    strcmp(op->type, r->value_type) != 0)) || (r->value_callee && (!op->callee ||
			    strcmp(op->callee, r->value_callee) != 0)) ||
			    (r->value_from && (!op->from || strcmp(op->from, r->value_from) != 0)) ||
			    (r->value_width && (!op->type || strtol(op->type + 1, NULL, 10) != r->value_width)))
				continue;
			double x = (double)roi_block_count(counts, fn, k) * (double)blk->ops[i].n;
			bool inline_copy = false;
			for (size_t c = 0; c < code->ncopies && !inline_copy && r->value_callee && runs > 0; c++)
				if (!used[c] && code->copies[c].block == b && x == code->copies[c].trips * runs)
					inline_copy = used[c] = true;
			if (inline_copy)
				continue;
			*v += x;
			any = true;
		}
	}
	free(used);
	return any;
}

static struct roi_mroutine *routine_entry(struct roi_machine_estimate *e, const char *name, size_t *cap)
{
	for (size_t i = 0; i < e->nroutines; i++)
		if (strcmp(e->routines[i].name, name) == 0)
			return &e->routines[i];
	e->routines = roi_xgrow(e->routines, e->nroutines, cap, sizeof *e->routines);
	e->routines[e->nroutines] = (struct roi_mroutine){.name = name, .how = ROI_MHOW_UNPRICED};
	return &e->routines[e->nroutines++];
}

/* Whether two routines' entries take the same value counters. */
static bool same_value(const struct roi_routine_cost *a, const struct roi_routine_cost *b)
{
#define EQ(x, y) ((!(x) && !(y)) || ((x) && (y) && strcmp((x), (y)) == 0))
	return a->value_kind && b->value_kind && EQ(a->value_kind, b->value_kind) && EQ(a->value_type, b->value_type) &&
	       EQ(a->value_callee, b->value_callee) && EQ(a->value_from, b->value_from) &&
	       a->value_width == b->value_width;
#undef EQ
}

static void price_sites(struct gather *g)
{
	struct roi_machine_estimate *e = g->e;
	const struct roi_model *m = e->model;
	size_t cap = 0;
	const struct roi_routine_cost **rc = roi_xzalloc(g->nsites + 1, sizeof *rc);

	for (size_t i = 0; i < g->nsites; i++)
		rc[i] = m ? model_routine(m, g->code, g->sites[i].addr) : NULL;
	for (size_t i = 0; i < g->nsites; i++) {
		const struct site *s = &g->sites[i];
		const struct roi_routine_cost *r = rc[i];
		struct roi_mroutine *t = routine_entry(e, s->routine, &cap);
		double cyc = 0, ins = 0, v, calls = 0;
		enum roi_mhow how;

		/* a block's value counters of one kind are shared by its calls that take them (a block
		 * with an add and a subtract of floats has the alignment passes of both) */
		for (size_t k = 0; r && k < g->nsites; k++)
			if (rc[k] && g->sites[k].fn == s->fn && g->sites[k].block == s->block && same_value(rc[k], r))
				calls += g->sites[k].calls;
		/* the routine's value: a constant its call loads, else this call's share of the block's
		 * value counters (or rows); none: its typical operands */
		bool valued = false;
		if (r && s->fixed >= 0) {
			v = s->fixed * s->calls;
			valued = true;
		} else if (r && calls > 0 && site_value(g->counts, s->code, s->block, r, &v)) {
			v *= s->calls / calls;
			valued = true;
		}
		if (valued) {
			how = ROI_MHOW_VALUE;
			cyc = s->calls * (r->cycles - r->per_value * r->typical_value) + r->per_value * v;
			if (r->instructions >= 0)
				ins = s->calls * (r->instructions - r->per_value_instructions * r->typical_value) +
				      r->per_value_instructions * v;
			t->value += v;
			t->value_kind = r->value_kind;
		} else if (r) {
			how = ROI_MHOW_TABLE;
			cyc = s->calls * r->cycles;
			ins = r->instructions >= 0 ? s->calls * r->instructions : 0;
		} else if (walk(g->e, g->code, s->addr, false, 0, &cyc, &ins)) {
			how = ROI_MHOW_WALK;
			cyc *= s->calls;
			ins *= s->calls;
		} else {
			how = ROI_MHOW_UNPRICED;
			cyc = ins = 0;
			e->unpriced_calls += s->calls;
		}
		if (cyc < 0)
			cyc = 0;
		if (ins < 0)
			ins = 0;
		/* one name, one way: the least certain of its call sites' */
		if (t->calls == 0 || how > t->how || (t->how == ROI_MHOW_VALUE && how == ROI_MHOW_TABLE))
			t->how = how;
		t->calls += s->calls;
		t->cycles += cyc;
		t->instructions += ins;
		for (size_t f = 0; f < e->nfns; f++)
			if (e->fns[f].fn == s->fn) {
				e->fns[f].routine_cycles += cyc;
				e->fns[f].routine_instructions += ins;
			}
		g->lines[s->line].cycles += cyc;
		g->lines[s->line].instructions += ins;
	}
	free(rc);
}

/* ---- the functions ---------------------------------------------------------------------------- */

static void price_function(struct gather *g, struct roi_mfn_total *t)
{
	const struct roi_mfunc *f = &t->code;
	const struct roi_mcode *c = g->code;

	for (size_t i = 0; i < f->nins; i++) {
		const struct roi_minsn *in = &f->ins[i];
		double n = f->count[i], cyc;

		if (n <= 0)
			continue;
		switch (in->cls) {
		case ROI_MI_BRANCH: case ROI_MI_SKIP: case ROI_MI_CRET:
			cyc = in->cycles * (n - f->taken[i]) + in->taken * f->taken[i];
			break;
		default:
			cyc = in->cycles * n;
		}
		size_t line = line_of(g, f, i);
		t->cycles += cyc;
		t->instructions += n;
		g->lines[line].cycles += cyc;
		g->lines[line].instructions += n;

		/* what it calls: a routine without metadata */
		bool out = in->has_target && (in->target < f->addr || in->target >= f->addr + f->size);
		if ((in->cls == ROI_MI_CALL || (in->cls == ROI_MI_JUMP && out)) && !counted_at(g->e, c, in->target)) {
			const struct roi_msym *s = roi_mcode_routine_at(c, in->target);
			const char *name = s ? s->name : roi_arena_printf(&g->e->arena, "0x%llx",
									   (unsigned long long)in->target);
			add_site(g, f, f->owner[i], name, in->target, n, line, fixed_value(g->e->model, c, f, i));
		}
	}
}

/* main's return into the C library's exit, to where the core stops (avr-libc: cli, rjmp .): what
 * the cycles from main to the stop include. */
static void price_exit(struct roi_machine_estimate *e, const struct roi_mcode *c)
{
	const struct roi_mfn_total *main_fn = NULL;
	double returns = 0;

	for (size_t i = 0; i < e->nfns; i++)
		if (strcmp(e->fns[i].fn->asm_name, "main") == 0)
			main_fn = &e->fns[i];
	if (!main_fn || !main_fn->code.nins)
		return;
	for (size_t i = 0; i < main_fn->code.nins; i++)
		if (main_fn->code.ins[i].cls == ROI_MI_RET)
			returns += main_fn->code.count[i];
	if (returns <= 0)
		return;
	/* the call of main in the start-up code */
	for (size_t s = 0; s < c->nsegs; s++)
		for (uint64_t a = c->segs[s].addr; a < c->segs[s].addr + c->segs[s].size;) {
			struct roi_thumb_state st = {.flash_wait = c->flash_wait};
			struct roi_minsn in;
			double cyc = 0, ins = 0;

			roi_mcode_decode(c, a, &st, &in);
			if (in.cls == ROI_MI_CALL && in.target == main_fn->code.addr &&
			    (a < main_fn->code.addr || a >= main_fn->code.addr + main_fn->code.size)) {
				if (walk(e, c, a + in.size, true, 0, &cyc, &ins)) {
					e->exit_cycles = cyc * returns;
					e->exit_instructions = ins * returns;
				}
				return;
			}
			a += in.size ? in.size : 2;
		}
}

static int fn_by_cycles(const void *a, const void *b)
{
	const struct roi_mfn_total *x = a, *y = b;
	double cx = x->cycles + x->routine_cycles, cy = y->cycles + y->routine_cycles;

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->fn->asm_name, y->fn->asm_name);
}

static int routine_order(const void *a, const void *b)
{
	const struct roi_mroutine *x = a, *y = b;

	if ((x->how == ROI_MHOW_UNPRICED) != (y->how == ROI_MHOW_UNPRICED))
		return x->how == ROI_MHOW_UNPRICED ? 1 : -1;
	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int line_order(const void *a, const void *b)
{
	const struct roi_mline_total *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

int roi_machine_estimate(struct roi_machine_estimate *e, const struct roi_program *prog,
			 const struct roi_counts *counts, const struct roi_model *model, const char *plain_path,
			 const char *blocks_path, struct roi_err *err)
{
	struct roi_mcode plain, blocks;
	struct gather g = {.e = e, .code = &plain, .counts = counts};
	int rc = -1;

	memset(e, 0, sizeof *e);
	memset(&blocks, 0, sizeof blocks);
	e->prog = prog;
	e->model = model;
	e->plain_path = plain_path;
	e->blocks_path = blocks_path;
	if (roi_mcode_load(plain_path, &plain, err) != 0 || roi_mcode_load(blocks_path, &blocks, err) != 0)
		goto out;
	if (plain.arch != blocks.arch) {
		roi_err_set(err, "%s: not a build for %s's architecture", blocks_path, plain_path);
		goto out;
	}
	if (!blocks.has_lines) {
		roi_err_set(err, "%s: no DWARF line table: not a block-lines build (-g "
			    "-fplugin-arg-roi-block-lines)?", blocks_path);
		goto out;
	}
	if (model && check_part(model, &plain, err) != 0)
		goto out;
	plain.flash_wait = blocks.flash_wait = model ? (unsigned)model->flash_wait_states : 0;
	e->arch = plain.arch;
	e->device = plain.device ? roi_arena_strdup(&e->arena, plain.device) : NULL;
	e->core = plain.arch == ROI_MARCH_ARM ? "Cortex-M4 (TRM timings)"
		: plain.core == ROI_AVR_PC22 ? "AVRe+, 22-bit PC (AVR instruction set manual)"
		: "AVRe/AVRe+, 16-bit PC (AVR instruction set manual)";

	e->fns = roi_xzalloc(prog->nfunctions, sizeof *e->fns);
	for (size_t u = 0; u < prog->nunits; u++)
		for (size_t i = 0; i < prog->units[u].nfunctions; i++) {
			const struct roi_function *fn = &prog->units[u].functions[i];
			struct roi_mfn_total *t = &e->fns[e->nfns];

			t->fn = fn;
			t->calls = (double)roi_block_count(counts, fn, 0);
			/* a function that never ran may be gone from the plain build (inlined everywhere) */
			if (!roi_mcode_symbol(&plain, fn->asm_name) && t->calls == 0) {
				e->nfns++;
				continue;
			}
			if (roi_mfunc_build(&t->code, &plain, &blocks, fn, err) != 0) {
				e->nfns++;
				goto out;
			}
			roi_mfunc_solve(&t->code, &plain, counts);
			e->guessed += t->code.guessed;
			e->loops_counted += t->code.loops_counted;
			e->branches_counted += t->code.branches_counted;
			e->loops_guessed += t->code.loops_guessed;
			e->off += t->code.off;
			e->shared += t->code.shared;
			e->aligned |= t->code.aligned;
			e->nfns++;
		}
	for (size_t i = 0; i < e->nfns; i++)
		price_function(&g, &e->fns[i]);
	price_sites(&g);
	price_exit(e, &plain);

	for (size_t i = 0; i < e->nfns; i++) {
		e->cycles += e->fns[i].cycles + e->fns[i].routine_cycles;
		e->instructions += e->fns[i].instructions + e->fns[i].routine_instructions;
	}
	e->cycles += e->exit_cycles;
	e->instructions += e->exit_instructions;
	if (model) {
		e->seconds = e->cycles / model->clock_hz;
		e->energy_j = e->cycles * model->energy_per_cycle_j;
	}
	roi_sort(e->fns, e->nfns, sizeof *e->fns, fn_by_cycles);
	roi_sort(e->routines, e->nroutines, sizeof *e->routines, routine_order);
	e->lines = g.lines;
	e->nlines = g.nlines;
	g.lines = NULL;
	roi_sort(e->lines, e->nlines, sizeof *e->lines, line_order);
	for (size_t i = 0; i < e->nroutines; i++)
		e->routines[i].name = roi_arena_strdup(&e->arena, e->routines[i].name);
	for (size_t i = 0; i < e->nlines; i++)
		e->lines[i].file = roi_arena_strdup(&e->arena, e->lines[i].file);
	if (!isfinite(e->cycles)) {
		roi_err_set(err, "%s: the estimate is not a finite number", plain_path);
		goto out;
	}
	rc = 0;
out:
	free(g.sites);
	free(g.lines);
	roi_mcode_free(&plain);
	roi_mcode_free(&blocks);
	return rc;
}

void roi_machine_estimate_free(struct roi_machine_estimate *e)
{
	for (size_t i = 0; i < e->nfns; i++)
		roi_mfunc_free(&e->fns[i].code);
	free(e->fns);
	free(e->routines);
	free(e->lines);
	roi_arena_free(&e->arena);
	memset(e, 0, sizeof *e);
}
