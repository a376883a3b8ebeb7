/* run/avr_measure.c — a firmware's run given, step by step, to lines, functions, call sites and
 * counted blocks (run/avr_measure.h). */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/path.h"
#include "machine/isa.h"
#include "run/avr_measure.h"

/* The prefix of the file names the block-lines build gives every counted function's statements
 * (roi-block-lines.cc): "roi-block:ASM-NAME", line = the block's counter index + 1. */
#define BLOCK_FILE "roi-block:"

/* Instruction words the tables cover: the largest megaAVR flash (ATmega2560, 256 KiB). */
#define MAX_WORDS 0x20000u

/* Pseudo-lines, the first three line ids. */
enum { LINE_START_UP, LINE_AFTER_MAIN, LINE_INTERRUPT, NPSEUDO };
static const char *const pseudo_name[NPSEUDO] = {"start-up", "after main", "interrupt"};

/* ---- a map of 64-bit keys to 64-bit values, open addressing ---- */

struct map {
	uint64_t *key, *val;    /* key + 1; 0: empty */
	size_t cap, n;
};

static size_t map_slot(const struct map *t, uint64_t key)
{
	uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (t->cap - 1);

	while (t->key[i] && t->key[i] != key + 1)
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* The value of key, created as 0 when new. */
static uint64_t *map_at(struct map *t, uint64_t key)
{
	if (2 * (t->n + 1) > t->cap) {
		struct map old = *t;

		t->cap = old.cap ? 2 * old.cap : 256;
		t->key = roi_xzalloc(t->cap, sizeof *t->key);
		t->val = roi_xzalloc(t->cap, sizeof *t->val);
		for (size_t i = 0; i < old.cap; i++)
			if (old.key[i]) {
				size_t j = map_slot(t, old.key[i] - 1);
				t->key[j] = old.key[i];
				t->val[j] = old.val[i];
			}
		free(old.key);
		free(old.val);
	}
	size_t i = map_slot(t, key);
	if (!t->key[i]) {
		t->key[i] = key + 1;
		t->n++;
	}
	return &t->val[i];
}

static const uint64_t *map_get(const struct map *t, uint64_t key)
{
	if (!t->cap)
		return NULL;
	size_t i = map_slot(t, key);
	return t->key[i] ? &t->val[i] : NULL;
}

static void map_free(struct map *t)
{
	free(t->key);
	free(t->val);
	memset(t, 0, sizeof *t);
}

/* ---- what the tables hold ---- */

struct sym {
	const char *name;
	uint32_t addr, size;
	int rank;               /* of the names at one address, the lowest is kept */
	bool lines;
	uint64_t self, library, inclusive, calls;
	long active;            /* activations on the shadow stack */
	long counted;           /* the gindex of the counted function of that name; -1: none */
	/* the stack, over its activations (input/measured.h's roi_mstack_fn) */
	uint64_t st_calls;
	uint16_t st_depth, st_all, st_frame;
};

struct line {
	const char *file, *what;
	unsigned line;
	uint64_t cycles, library, inclusive;
	long active;            /* calls made on it still under way */
};

struct site {
	uint32_t address;
	enum roi_mcall how;
	int caller, line, callee;       /* sym, line and sym ids; caller -1 for an interrupt */
	uint64_t calls, inclusive;
};

/* Instructions of one block run one after the other, seen but not yet decided on: their block
 * visited, or their instructions out of their block's place. */
struct run {
	long b;
	uint64_t at;            /* the cycle it began at */
	uint64_t seen;          /* its instructions */
	bool again;             /* it begins its block's next execution: it began at the block's head
				 * by a jump of the block, or at an instruction the block's latest run
				 * ran already (a block runs each of its instructions once; the way
				 * back to it went through code of another block: the latch's,
				 * labelled with the block before the loop) */
	bool seq;               /* it began where the instruction before led in sequence */
	bool cont;              /* it goes on with the block of the run before the last, which both
				 * runs between fell into and out of: that one ran inside this block's
				 * code (a latch's copy placed before the loop's test) */
	uint32_t lo, hi;        /* the lowest and highest address of its instructions */
};

/* What visiting a run that goes on with a block from another costs: it enters no block there. */
#define CONT_COST ((size_t)1 << 24)

/* The runs decided together: a block's instructions seen between two others' are weighed against
 * the way on from both. */
#define RUNS 3

/* A function activation: a call, an interrupt, a jump into another function (the tail of the frame
 * below it: it returns with it), or the run itself (frame 0). */
struct frame {
	uint32_t ret;           /* byte address it returns to */
	uint16_t sp;            /* the stack pointer once the return address was pushed */
	/* the stack: its entry (SP before the call or the interrupt pushed the return address; a
	 * jump's SP and a return address) and the lowest SP while it was active: with everything
	 * (all), interrupts that arrived left out (own), and while its own instructions ran (self) */
	uint16_t entry, low_all, low_own, low_self;
	bool irq;               /* entered by an interrupt */
	uint64_t start;         /* the cycle its first instruction began at */
	int line;               /* where its cycles without a line go: the last line it ran */
	int line_fn;            /* the sym of that line's instruction; -1: none */
	int site;               /* -1: not yet known (an interrupt before its vector's jump) */
	int fn;                 /* the callee's sym; -1 before it is known */
	int site_line;          /* the line whose call it is (active there); -1: none */
	bool outer_fn, outer_line, tail, vector;
	/* counted blocks */
	long bfn;               /* gindex of the counted function it is in; -1: none */
	long bstate;            /* the block it is in for sure; -1: at the function's entry */
	struct run runs[RUNS];  /* the runs of instructions seen since, not decided yet */
	size_t nruns;
	bool bjump;             /* its last instruction was a jump or branch taken */
	bool bcond;             /* a conditional branch taken */
	bool bseq;              /* its last instruction went on to the next in sequence (or called) */
	bool bpast;             /* the latest run passed its block's head: a jump back there begins
				 * the block's next execution; one that has not (it began with a piece
				 * of the block placed after its head, a latch's share of its code)
				 * goes on with it */
	bool bpast_before;      /* the same of the run before it (a run that goes on with that
				 * one's block, cont, has passed the head when that one had) */
	uint32_t blo, bhi;      /* lo and hi of the run that put it in block bstate */
	long bshared, bshared_as;       /* instructions of block bshared are block bshared_as's: code
					 * the compiler shared between them (shared_as); -1: none */
	long bveto;             /* a block whose instructions are no sign of it: a skip of the block
				 * skipped its instruction, the rest ran anyway; -1: none */
	uint64_t loops_in, loops_outer;         /* bit l: in loop l of bfn; its outermost entry */
	uint64_t *loop_start;   /* [max loops]: the cycle loop l was entered at */
};

struct roi_measure {
	struct roi_avr_tracer tracer;
	struct roi_arena arena;
	bool with_lines, with_blocks;
	uint32_t main_addr;
	bool has_main, main_seen;
	/* per instruction word */
	int32_t *line_of, *fn_of, *fn_at;
	long *block_of;         /* global block number (roi_function.gblock0 + index); -1: none */
	/* lines, functions, sites */
	struct line *lines;
	size_t nlines, lines_cap;
	struct map line_ids;    /* file id << 32 | line -> line id */
	const char **files;
	size_t nfiles;
	struct sym *syms;
	size_t nsyms;           /* the last is "(no symbol)" */
	struct site *sites;
	size_t nsites, sites_cap;
	struct map site_ids;    /* address << 32 | how << 28 | callee -> site id */
	struct map library;     /* sym << 32 | line -> cycles */
	/* the shadow stack */
	struct frame *frames;
	size_t depth, frames_cap;
	/* the run's stack from main's first instruction on */
	bool has_top, sp_half;
	uint16_t top, lowest, prev_sp;
	/* counted blocks */
	const struct roi_program *prog;
	const struct roi_function **fn_by_gindex;
	const struct roi_function **fn_of_block;        /* by global block number */
	bool *has_code;         /* by global block number: some instruction is the block's */
	uint32_t *words;        /* by global block number: its instruction words */
	uint32_t *head;         /* by global block number: the lowest address a jump of the block back
				 * into its code reaches, where its next execution begins; 0: none */
	uint16_t *insn;         /* per instruction word: its W_ class; NULL before the first step */
	bool heads_found;
	uint8_t *entered;       /* per word: ENTERED_OWN | ENTERED_OTHER (find_heads) */
	uint64_t *counts, *block_cycles;
	uint64_t *doubt;        /* by global block number: passes through blocks without instructions
				 * that had another as short through it or through it and others (its
				 * count is the one of the choice taken: the code does not decide) */
	size_t *loop_base;      /* by function gindex: its first loop's global number */
	size_t nloops, max_loops;
	uint8_t **member;       /* by global loop number: [block] */
	uint64_t *loop_entries, *loop_cycles;
	long *loop_active;
	struct map paths;       /* gindex << 40 | (from + 1) << 20 | (to + 1) -> pool offset + 1, or 0: none */
	long *pool;             /* [n, ambiguous, blocks...] */
	size_t npool, pool_cap;
	uint64_t ambiguous;
};

/* ---- AVR instructions ---- */

/* What the run needs of the instruction at each flash word, from machine/'s AVR decoder (the
 * estimator's one): a table, since it is asked at every step. */
enum {
	W_TWO = 1,              /* two words long: jmp, call, lds, sts */
	W_CALL = 2,             /* call, rcall (not "rcall .", which makes room on the stack), icall */
	W_RET = 4,              /* ret, reti */
	W_JUMP = 8,             /* jmp, rjmp (to itself too), ijmp */
	W_DIRECT = 16,          /* jmp, rjmp: a jump whose target is in the code */
	W_SKIP = 32,            /* cpse, sbrc, sbrs, sbic, sbis */
	W_BRANCH = 64,          /* brbs, brbc (breq, brne, brcs, ...) */
	W_OUT_SPH = 128,        /* out SPH, Rr */
	W_OUT_SPL = 256,        /* out SPL, Rr */
};

static void decode(const struct roi_measure *m, uint32_t pc, struct roi_minsn *in)
{
	roi_avr_decode(m->tracer.flash + pc, m->tracer.flash_size - pc, pc,
		       m->tracer.address_size == 3 ? ROI_AVR_PC22 : ROI_AVR_PC16, in);
}

static uint16_t word_class(const struct roi_minsn *in)
{
	bool direct = in->cls == ROI_MI_JUMP || (in->cls == ROI_MI_STOP && in->has_target);  /* rjmp . */
	bool out = strcmp(in->name, "out") == 0;

	return (uint16_t)((in->size == 4 ? W_TWO : 0) |
			 (out && in->io == 0x3e ? W_OUT_SPH : 0) | (out && in->io == 0x3d ? W_OUT_SPL : 0) |
			 (in->cls == ROI_MI_CALL || in->cls == ROI_MI_ICALL ? W_CALL : 0) |
			 (in->cls == ROI_MI_RET ? W_RET : 0) |
			 (direct || in->cls == ROI_MI_IJUMP ? W_JUMP : 0) | (direct ? W_DIRECT : 0) |
			 (in->cls == ROI_MI_SKIP ? W_SKIP : 0) | (in->cls == ROI_MI_BRANCH ? W_BRANCH : 0));
}

/* The class of every word of the flash, once, at the run's first step (the flash is the tracer's
 * from then on). */
static void decode_flash(struct roi_measure *m)
{
	m->insn = roi_xzalloc(MAX_WORDS, sizeof *m->insn);
	for (uint32_t w = 0; w < MAX_WORDS && 2 * w + 1 < m->tracer.flash_size; w++) {
		struct roi_minsn in;

		decode(m, 2 * w, &in);
		m->insn[w] = word_class(&in);
	}
}

static uint16_t insn_at(const struct roi_measure *m, uint32_t pc)
{
	return pc >> 1 < MAX_WORDS ? m->insn[pc >> 1] : 0;
}

static void step(void *ctx, const struct roi_avr_step *s);

/* ---- set-up ---- */

static int line_id(struct roi_measure *m, const char *file, unsigned line)
{
	size_t f = 0;

	while (f < m->nfiles && strcmp(m->files[f], file) != 0)
		f++;
	if (f == m->nfiles) {
		m->files = roi_xrealloc(m->files, m->nfiles + 1, sizeof *m->files);
		m->files[m->nfiles++] = roi_arena_strdup(&m->arena, file);
	}
	uint64_t *id = map_at(&m->line_ids, (uint64_t)f << 32 | line);
	if (!*id) {
		m->lines = roi_xgrow(m->lines, m->nlines, &m->lines_cap, sizeof *m->lines);
		m->lines[m->nlines] = (struct line){.file = m->files[f], .line = line};
		*id = ++m->nlines;
	}
	return (int)*id - 1;
}

/* "/a/./b.c" -> "/a/b.c": libdw joins the compilation directory and "./". */
static void tidy_path(char *p)
{
	char *s;

	while ((s = strstr(p, "/./")))
		memmove(s, s + 2, strlen(s + 2) + 1);
}

struct sym_scan {
	struct roi_measure *m;
	size_t cap;
};

/* Which of the names at one address a function is known by: a function's, a sized symbol's, a
 * global's, a weak one's, a linker script's marker (__ctors_end) last. */
static int sym_rank(const char *name, const struct roi_symbol *s)
{
	size_t n = strlen(name);
	bool marker = (n > 4 && strcmp(name + n - 4, "_end") == 0) || (n > 6 && strcmp(name + n - 6, "_start") == 0);

	if (s->function)
		return 0;
	if (s->size)
		return 1;
	return marker ? 4 : s->weak ? 3 : 2;
}

static int add_symbol(void *ctx, const char *name, const struct roi_symbol *s, struct roi_err *err)
{
	struct sym_scan *scan = ctx;
	struct roi_measure *m = scan->m;

	(void)err;
	/* code only, and not an assembler's local label (__udivmodhi4_loop) */
	if (!s->code || s->value >= 2 * MAX_WORDS || (s->local && !s->function))
		return 0;
	m->syms = roi_xgrow(m->syms, m->nsyms, &scan->cap, sizeof *m->syms);
	m->syms[m->nsyms++] = (struct sym){.name = roi_arena_strdup(&m->arena, name), .addr = (uint32_t)s->value,
					   .size = (uint32_t)s->size, .rank = sym_rank(name, s), .counted = -1};
	return 0;
}

static int by_address(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

static int load_symbols(struct roi_measure *m, struct roi_elf *elf, struct roi_err *err)
{
	struct sym_scan scan = {m, 0};
	size_t n = 0;

	if (roi_elf_each_symbol(elf, add_symbol, &scan, err) != 0)
		return -1;
	roi_sort(m->syms, m->nsyms, sizeof *m->syms, by_address);
	/* one name per address; a label inside a function of known size is no function */
	uint32_t inside_end = 0;
	for (size_t i = 0; i < m->nsyms; i++) {
		if (n && m->syms[n - 1].addr == m->syms[i].addr)
			continue;
		if (m->syms[i].addr < inside_end)
			continue;
		m->syms[n++] = m->syms[i];
		if (m->syms[i].size)
			inside_end = m->syms[i].addr + m->syms[i].size;
	}
	m->nsyms = n;
	m->syms = roi_xgrow(m->syms, m->nsyms, &scan.cap, sizeof *m->syms);
	m->syms[m->nsyms++] = (struct sym){.name = "(no symbol)", .addr = 0, .rank = 9, .counted = -1};
	for (size_t w = 0, i = 0; w < MAX_WORDS; w++) {
		while (i + 1 < n && m->syms[i + 1].addr <= 2 * w)
			i++;
		m->fn_of[w] = n && m->syms[i].addr <= 2 * w ? (int32_t)i : (int32_t)n;
		m->fn_at[w] = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (m->syms[i].addr / 2 < MAX_WORDS)
			m->fn_at[m->syms[i].addr / 2] = (int32_t)i;
		if (strcmp(m->syms[i].name, "main") == 0) {
			m->has_main = true;
			m->main_addr = m->syms[i].addr;
		}
	}
	return 0;
}

static void load_lines(struct roi_measure *m, const struct roi_line_table *t)
{
	for (size_t w = 0; w < MAX_WORDS; w++) {
		const struct roi_line_addr *l = roi_line_table_find(t, 2 * w);

		m->line_of[w] = -1;
		if (!l || !l->file)
			continue;
		char *file = roi_arena_strdup(&m->arena, l->file);
		tidy_path(file);
		m->line_of[w] = line_id(m, file, l->line);
		m->syms[m->fn_of[w]].lines = true;
	}
}

/* The counted function an assembler name is, or NULL. */
static const struct roi_function *function_named(const struct roi_program *p, const char *asm_name)
{
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++)
			if (strcmp(p->units[u].functions[f].asm_name, asm_name) == 0)
				return &p->units[u].functions[f];
	return NULL;
}

static void load_blocks(struct roi_measure *m, const struct roi_line_table *t, const struct roi_program *p)
{
	m->fn_by_gindex = roi_xzalloc(p->nfunctions, sizeof *m->fn_by_gindex);
	m->fn_of_block = roi_xzalloc(p->nblocks, sizeof *m->fn_of_block);
	m->has_code = roi_xzalloc(p->nblocks, sizeof *m->has_code);
	m->words = roi_xzalloc(p->nblocks, sizeof *m->words);
	m->head = roi_xzalloc(p->nblocks, sizeof *m->head);
	m->counts = roi_xzalloc(p->nblocks, sizeof *m->counts);
	m->doubt = roi_xzalloc(p->nblocks, sizeof *m->doubt);
	m->block_cycles = roi_xzalloc(p->nblocks, sizeof *m->block_cycles);
	m->loop_base = roi_xzalloc(p->nfunctions, sizeof *m->loop_base);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];

			m->fn_by_gindex[fn->gindex] = fn;
			for (size_t b = 0; b < fn->nblocks; b++)
				m->fn_of_block[fn->gblock0 + b] = fn;
			m->loop_base[fn->gindex] = m->nloops;
			m->nloops += fn->nloops;
			if (fn->nloops > m->max_loops)
				m->max_loops = fn->nloops;
		}
	m->member = roi_xzalloc(m->nloops, sizeof *m->member);
	m->loop_entries = roi_xzalloc(m->nloops, sizeof *m->loop_entries);
	m->loop_cycles = roi_xzalloc(m->nloops, sizeof *m->loop_cycles);
	m->loop_active = roi_xzalloc(m->nloops, sizeof *m->loop_active);
	for (size_t g = 0; g < p->nfunctions; g++) {
		const struct roi_function *fn = m->fn_by_gindex[g];

		for (size_t l = 0; l < fn->nloops; l++) {
			uint8_t *in = roi_xzalloc(fn->nblocks, 1);

			for (size_t i = 0; i < fn->loops[l].nblocks; i++)
				in[fn->loops[l].blocks[i]] = 1;
			m->member[m->loop_base[g] + l] = in;
		}
	}
	for (size_t i = 0; i < m->nsyms; i++) {
		const struct roi_function *fn = function_named(p, m->syms[i].name);

		m->syms[i].counted = fn ? (long)fn->gindex : -1;
	}
	for (size_t w = 0; w < MAX_WORDS; w++) {
		const struct roi_line_addr *l = roi_line_table_find(t, 2 * w);
		const char *file = l && l->file ? roi_base_name(l->file) : NULL;
		const struct roi_function *fn;

		m->block_of[w] = -1;
		if (!file || strncmp(file, BLOCK_FILE, strlen(BLOCK_FILE)) != 0 ||
		    !(fn = function_named(p, file + strlen(BLOCK_FILE))) || l->line < 1 || l->line > fn->nblocks ||
		    fn->blocks[l->line - 1].value)
			continue;
		m->block_of[w] = (long)(fn->gblock0 + l->line - 1);
		m->has_code[m->block_of[w]] = true;
		m->words[m->block_of[w]]++;
	}
}

int roi_measure_new(struct roi_measure **out, struct roi_elf *elf, const struct roi_line_table *lines,
		    const struct roi_line_table *blocks, const struct roi_program *prog, struct roi_err *err)
{
	struct roi_measure *m = roi_xzalloc(1, sizeof *m);

	*out = m;
	m->tracer.step = step;
	m->tracer.ctx = m;
	m->line_of = roi_xzalloc(MAX_WORDS, sizeof *m->line_of);
	m->fn_of = roi_xzalloc(MAX_WORDS, sizeof *m->fn_of);
	m->fn_at = roi_xzalloc(MAX_WORDS, sizeof *m->fn_at);
	for (int i = 0; i < NPSEUDO; i++) {
		m->lines = roi_xgrow(m->lines, m->nlines, &m->lines_cap, sizeof *m->lines);
		m->lines[m->nlines++] = (struct line){.what = pseudo_name[i]};
	}
	if (load_symbols(m, elf, err) != 0)
		return -1;
	m->with_lines = lines != NULL;
	if (lines)
		load_lines(m, lines);
	else
		for (size_t w = 0; w < MAX_WORDS; w++)
			m->line_of[w] = -1;
	m->with_blocks = blocks && prog;
	m->prog = prog;
	if (m->with_blocks) {
		m->block_of = roi_xzalloc(MAX_WORDS, sizeof *m->block_of);
		load_blocks(m, blocks, prog);
	}
	m->frames_cap = 64;
	m->frames = roi_xzalloc(m->frames_cap, sizeof *m->frames);
	m->frames[0] = (struct frame){.line = LINE_START_UP, .line_fn = -1, .site = -1, .fn = -1, .site_line = -1,
				      .bfn = -1, .bveto = -1, .bshared = -1};
	m->frames[0].loop_start = roi_xzalloc(m->max_loops + 1, sizeof(uint64_t));
	m->frames[0].low_all = m->frames[0].low_own = m->frames[0].low_self = 0xffff;
	m->depth = 1;
	m->lowest = 0xffff;
	return 0;
}

struct roi_avr_tracer *roi_measure_tracer(struct roi_measure *m)
{
	return &m->tracer;
}

/* ---- counted blocks: the path a frame takes through its function's blocks ---- */

/* The edges out of node u (find_path's numbering) that keep a path as short as the best, to nodes
 * on: the paths from src through u added to its successors' (fwd), or the paths to dst from its
 * successors added to u's (back). */
static void tight_edges(const struct roi_measure *m, const struct roi_function *fn, long from, size_t src,
			size_t dst, size_t u, const size_t *cost, const size_t *len, const bool *on, double *paths,
			bool back)
{
	static const int entry_succ[1] = {0};
	size_t n = fn->nblocks;
	const int *succ = u == src ? (from < 0 ? entry_succ : fn->blocks[from].succ) : fn->blocks[u].succ;
	size_t nsucc = u == src ? (from < 0 ? 1 : fn->blocks[from].nsucc) : fn->blocks[u].nsucc;
	size_t through = u != src ? m->words[fn->gblock0 + u] : 0;

	for (size_t i = 0; i < nsucc; i++) {
		size_t v = succ[i] < 0 ? n : (size_t)succ[i];

		if ((v < n && fn->blocks[v].value) || (v != dst && v == (size_t)from && from >= 0) || !on[v] ||
		    cost[u] + through != cost[v] || len[u] + 1 != len[v])
			continue;
		if (back)
			paths[u] += paths[v];
		else
			paths[v] += paths[u];
	}
}

/* The path from block `from` (-1: the function's entry) to `to` (-1: its exit) that passes through
 * the fewest instructions unseen, then the fewest blocks: its blocks after from, to included
 * (the exit not), as the offset of a pool entry {cost, ambiguous, n, blocks..., nt, tied...}; -1
 * when to cannot be reached.
 * A block with instructions passed through unseen had them run elsewhere (hoisted, sunk, merged
 * with another block's) and costs their number; cost 0 is a path whose every block was seen or has
 * none.
 * ambiguous: another path as good exists (the first is taken); tied: the blocks between from and
 * to on any path as good, whose counts the choice decides (none when not ambiguous). from == to: a
 * loop back to it. */
static long find_path(struct roi_measure *m, const struct roi_function *fn, long from, long to)
{
	uint64_t key = (uint64_t)fn->gindex << 40 | (uint64_t)(from + 1) << 20 | (uint64_t)(to + 1);
	const uint64_t *hit = map_get(&m->paths, key);

	if (hit)
		return (long)*hit - 1;

	/* Dijkstra on (cost, length); node i: block i, node n: the exit, node n + 1: from itself */
	size_t n = fn->nblocks, src = n + 1, dst = to < 0 ? n : (size_t)to;
	size_t *cost = roi_xzalloc(n + 2, sizeof *cost), *len = roi_xzalloc(n + 2, sizeof *len);
	long *prev = roi_xzalloc(n + 2, sizeof *prev);
	unsigned *ways = roi_xzalloc(n + 2, sizeof *ways);
	bool *done = roi_xzalloc(n + 2, sizeof *done);
	const int entry_succ[1] = {0};

	for (size_t v = 0; v < n + 2; v++)
		cost[v] = len[v] = SIZE_MAX;
	cost[src] = len[src] = 0;
	ways[src] = 1;
	for (;;) {
		size_t u = SIZE_MAX;

		for (size_t v = 0; v < n + 2; v++)
			if (!done[v] && cost[v] != SIZE_MAX &&
			    (u == SIZE_MAX || cost[v] < cost[u] || (cost[v] == cost[u] && len[v] < len[u])))
				u = v;
		if (u == SIZE_MAX || (u == dst && u != src))
			break;
		done[u] = true;
		const int *succ = u == src ? (from < 0 ? entry_succ : fn->blocks[from].succ) : u == n ? NULL
				  : fn->blocks[u].succ;
		size_t nsucc = u == src ? (from < 0 ? 1 : fn->blocks[from].nsucc) : u == n ? 0 : fn->blocks[u].nsucc;
		/* passing through u (not from, not the end) unseen costs its instructions */
		size_t through = u != src && u < n ? m->words[fn->gblock0 + u] : 0;
		for (size_t i = 0; i < nsucc; i++) {
			size_t v = succ[i] < 0 ? n : (size_t)succ[i];

			if (v < n && fn->blocks[v].value)
				continue;
			size_t c = cost[u] + through, l = len[u] + 1;
			if (v != dst && v == (size_t)from && from >= 0)
				continue;       /* from itself is no block to pass through */
			if (c < cost[v] || (c == cost[v] && l < len[v])) {
				cost[v] = c;
				len[v] = l;
				prev[v] = (long)u;
				ways[v] = ways[u];
			} else if (c == cost[v] && l == len[v] && prev[v] != (long)u) {
				ways[v] = ways[v] + ways[u] < 2 ? ways[v] + ways[u] : 2;
			}
		}
	}
	uint64_t *slot = map_at(&m->paths, key);
	*slot = 0;
	if (cost[dst] != SIZE_MAX && !(dst == src)) {
		size_t nb = len[dst] - (to < 0);        /* the blocks entered: the exit is none */
		bool *on = roi_xzalloc(n + 2, sizeof *on);
		size_t nt = 0;

		/* the blocks of every path as good: back from dst along the edges that keep a path
		 * as short */
		on[dst] = ways[dst] > 1;
		for (bool more = on[dst]; more;) {
			more = false;
			for (size_t u = 0; u < n + 2; u++) {
				if (on[u] || (!done[u] && u != src) || cost[u] == SIZE_MAX || u == n)
					continue;
				const int *succ = u == src ? (from < 0 ? entry_succ : fn->blocks[from].succ)
						  : fn->blocks[u].succ;
				size_t nsucc = u == src ? (from < 0 ? 1 : fn->blocks[from].nsucc) : fn->blocks[u].nsucc;
				size_t through = u != src && u < n ? m->words[fn->gblock0 + u] : 0;
				for (size_t i = 0; i < nsucc && !on[u]; i++) {
					size_t v = succ[i] < 0 ? n : (size_t)succ[i];

					if ((v < n && fn->blocks[v].value) || (v != dst && v == (size_t)from && from >= 0))
						continue;
					if (on[v] && cost[u] + through == cost[v] && len[u] + 1 == len[v])
						on[u] = more = true;
				}
			}
		}
		/* of those, the ones not on every such path: how many there are through each */
		if (on[dst]) {
			double *fwd = roi_xzalloc(n + 2, sizeof *fwd), *bwd = roi_xzalloc(n + 2, sizeof *bwd);

			on[src] = true;
			fwd[src] = 1;
			bwd[dst] = 1;
			for (size_t l = 0; l <= len[dst]; l++)
				for (size_t u = 0; u < n + 2; u++)
					if (on[u] && len[u] == l && u != n)
						tight_edges(m, fn, from, src, dst, u, cost, len, on, fwd, false);
			for (size_t l = len[dst] + 1; l-- > 0;)
				for (size_t u = 0; u < n + 2; u++)
					if (on[u] && len[u] == l && u != n)
						tight_edges(m, fn, from, src, dst, u, cost, len, on, bwd, true);
			for (size_t u = 0; u < n; u++)
				on[u] = on[u] && fwd[u] * bwd[u] < fwd[dst];
			free(fwd);
			free(bwd);
		}
		for (size_t u = 0; u < n; u++)
			nt += on[u] && u != dst && (long)u != from;
		m->pool = roi_xrealloc(m->pool, m->npool + nb + nt + 4, sizeof *m->pool);
		long *path = &m->pool[m->npool];
		path[0] = (long)cost[dst];
		path[1] = ways[dst] > 1;
		path[2] = (long)nb;
		size_t i = nb;
		if (to >= 0)
			path[3 + --i] = to;
		for (long u = prev[dst]; u >= 0 && (size_t)u != src; u = prev[u])
			path[3 + --i] = u;
		path[3 + nb] = (long)nt;
		for (size_t u = 0, k = 0; u < n; u++)
			if (on[u] && u != dst && (long)u != from)
				path[4 + nb + k++] = (long)u;
		free(on);
		*slot = m->npool + 1;
		m->npool += nb + nt + 4;
	}
	free(cost);
	free(len);
	free(prev);
	free(ways);
	free(done);
	return (long)*slot - 1;
}

/* Frame f moves into block b (-1: out of the function) at cycle `at`: the loops of its function it
 * enters and leaves. */
static void move_to(struct roi_measure *m, struct frame *f, const struct roi_function *fn, long b, uint64_t at)
{
	size_t base = m->loop_base[fn->gindex];

	for (size_t l = 0; l < fn->nloops && l < 64; l++) {
		uint64_t bit = 1ull << l;
		bool in = b >= 0 && m->member[base + l][b];

		if (in && !(f->loops_in & bit)) {
			f->loops_in |= bit;
			m->loop_entries[base + l]++;
			if (m->loop_active[base + l]++ == 0) {
				f->loops_outer |= bit;
				f->loop_start[l] = at;
			}
		} else if (!in && (f->loops_in & bit)) {
			f->loops_in &= ~bit;
			m->loop_active[base + l]--;
			if (f->loops_outer & bit) {
				f->loops_outer &= ~bit;
				m->loop_cycles[base + l] += at - f->loop_start[l];
			}
		}
	}
	if (b >= 0)
		m->counts[fn->gblock0 + (size_t)b]++;
}

/* Frame f walks the path at pool offset path, at cycle at. */
static void take(struct roi_measure *m, struct frame *f, long path, uint64_t at)
{
	const struct roi_function *fn = m->fn_by_gindex[f->bfn];
	const long *p = &m->pool[path];

	m->ambiguous += p[1] != 0;
	for (long i = 0; i < p[3 + p[2]]; i++)
		m->doubt[fn->gblock0 + (size_t)p[4 + p[2] + i]]++;
	for (long i = 0; i < p[2]; i++)
		move_to(m, f, fn, p[3 + i], at);
}

/* What visiting run r from block `from` costs (SIZE_MAX: it cannot be reached), and the path there
 * (-1: none, it stays). */
static size_t visit_cost(struct roi_measure *m, const struct roi_function *fn, long from, const struct run *r,
			 long *path)
{
	*path = -1;
	if (r->b == from && !r->again)
		return 0;
	*path = find_path(m, fn, from, r->b);
	return *path < 0 ? SIZE_MAX : (size_t)m->pool[*path] + (r->cont ? CONT_COST : 0);
}

/* Decides frame f's first pending run: of every way to visit or leave out the pending runs (and,
 * with to_exit, to reach the exit after them), the cheapest, counting the instructions of a run
 * left out (they ran out of their block's place: hoisted, sunk, merged with another block's) and
 * those of the blocks a path passes through unseen; of ways as cheap, the one that visits more,
 * the earlier. The first run is visited (its path taken) or dropped. */
static void decide(struct roi_measure *m, struct frame *f, bool to_exit)
{
	const struct roi_function *fn = m->fn_by_gindex[f->bfn];
	size_t n = f->nruns, best = SIZE_MAX;
	unsigned best_mask = 0, best_visits = 0;

	for (unsigned mask = 0; mask < 1u << n; mask++) {
		size_t cost = 0;
		unsigned visits = 0;
		long at = f->bstate, path;

		for (size_t i = 0; i < n && cost != SIZE_MAX; i++) {
			const struct run *r = &f->runs[i];

			if (mask & 1u << i) {
				size_t c = visit_cost(m, fn, at, r, &path);
				cost = c == SIZE_MAX ? SIZE_MAX : cost + c;
				at = r->b;
				visits++;
			} else {
				cost += r->seen;
			}
		}
		if (to_exit && cost != SIZE_MAX && at >= 0) {
			path = find_path(m, fn, at, -1);
			cost = path < 0 ? SIZE_MAX : cost + (size_t)m->pool[path];
		}
		/* the bits in reverse: the earlier a run is visited, the higher */
		unsigned order = 0, best_order = 0;
		for (size_t i = 0; i < n; i++) {
			order = order << 1 | (mask >> i & 1);
			best_order = best_order << 1 | (best_mask >> i & 1);
		}
		if (cost < best || (cost == best && cost != SIZE_MAX &&
				    (visits > best_visits || (visits == best_visits && order > best_order)))) {
			best = cost;
			best_mask = mask;
			best_visits = visits;
		}
	}
	const struct run *r = &f->runs[0];
	if (best != SIZE_MAX && (best_mask & 1)) {
		long path;
		visit_cost(m, fn, f->bstate, r, &path);
		if (path >= 0)
			take(m, f, path, r->at);
		f->bstate = r->b;
		f->blo = r->lo;
		f->bhi = r->hi;
	}
	memmove(&f->runs[0], &f->runs[1], (n - 1) * sizeof *r);
	f->nruns--;
}

/* Frame f leaves its counted function at cycle `at`: the pending runs decided, through the blocks
 * between the last and the exit, and out of every loop. */
static void leave_function(struct roi_measure *m, struct frame *f, uint64_t at)
{
	if (f->bfn < 0)
		return;
	const struct roi_function *fn = m->fn_by_gindex[f->bfn];
	while (f->nruns)
		decide(m, f, true);
	long path = f->bstate >= 0 ? find_path(m, fn, f->bstate, -1) : -1;
	if (path >= 0)
		take(m, f, path, at);
	move_to(m, f, fn, -1, at);
	f->bfn = -1;
	f->bstate = -1;
}

/* A new run of block b's instructions in frame f, from cycle at; again: b's head reached again by
 * a jump. The oldest of the window is decided first when it is full. */
static void start_run(struct roi_measure *m, struct frame *f, long b, uint64_t at, uint32_t pc, bool again)
{
	const struct run *x = f->nruns ? &f->runs[f->nruns - 1] : NULL;
	long before = f->nruns > 1 ? f->runs[f->nruns - 2].b : f->bstate;
	bool cont = !again && f->bseq && x && x->seq && before == b;
	size_t i = f->nruns;

	while (i > 0 && f->runs[i - 1].b != b)
		i--;
	if (i > 0 ? pc >= f->runs[i - 1].lo && pc <= f->runs[i - 1].hi
		  : f->bstate == b && pc >= f->blo && pc <= f->bhi)
		again = true, cont = false;
	if (f->nruns == RUNS)
		decide(m, f, false);
	f->runs[f->nruns++] = (struct run){b, at, 0, again, f->bseq, cont, pc, pc};
	bool past = cont && f->bpast_before;
	f->bpast_before = f->bpast;
	f->bpast = past;
}

/* Where a jump or branch at pc goes, from the flash; -1 when it is none or computed (ijmp). */
static long jump_target(const struct roi_measure *m, uint32_t pc)
{
	struct roi_minsn in;

	if (pc + 1 >= m->tracer.flash_size || !(insn_at(m, pc) & (W_DIRECT | W_BRANCH)))
		return -1;
	decode(m, pc, &in);
	return (long)in.target;
}

/* How an instruction is reached: from its own block's instruction before it, which goes on to it,
 * by a jump of another block's code. Code reached both ways is code the compiler shared between
 * blocks: another block's copy of it was left out and jumps there (shared_as); a loop's jump back
 * to its head is not that. */
enum { ENTERED_OWN = 1, ENTERED_OTHER = 2 };

/* Each block's head: the lowest address a jump or branch of the block reaches back in its code:
 * where a loop of the block (through its latch) starts its next execution. The jump need not end
 * the block's code: GCC gives the instructions after a loop's branch the loop's block too (the
 * next statement's first move). A loop inside the block (a shift by several bits, a copy) jumps
 * back too, higher up; such a jump begins no execution where the block loops only through
 * others' code (loops_alone). Also how each instruction is reached (entered). */
static void find_heads(struct roi_measure *m)
{
	uint32_t size = m->tracer.flash_size;

	m->heads_found = true;
	m->entered = roi_xzalloc(MAX_WORDS, sizeof *m->entered);
	for (uint32_t w = 0; w + 1 < MAX_WORDS && 2 * w + 3 < size;) {
		uint16_t k = insn_at(m, 2 * w);
		uint32_t next = w + (k & W_TWO ? 2 : 1);

		if (next < MAX_WORDS && m->block_of[w] >= 0 && m->block_of[next] == m->block_of[w] &&
		    !(k & (W_JUMP | W_RET)))
			m->entered[next] |= ENTERED_OWN;
		w = next;
	}
	for (uint32_t w = 0; w < MAX_WORDS && 2 * w + 1 < size; w++) {
		long gb = m->block_of[w], to = gb >= 0 ? jump_target(m, 2 * w) : -1;

		if (to < 0 || to / 2 >= MAX_WORDS)
			continue;
		if (m->block_of[to / 2] != gb)
			m->entered[to / 2] |= ENTERED_OTHER;
		if (to > 2 * (long)w || to / 2 >= MAX_WORDS || m->block_of[to / 2] != gb)
			continue;
		if (!m->head[gb] || (uint32_t)to < m->head[gb])
			m->head[gb] = (uint32_t)to;
	}
}

/* Whether block b loops back to itself through blocks without instructions: a jump back to its
 * head begins its next execution. A jump back within its code that no such loop explains is a
 * loop the compiler made of one statement (a shift by a constant count, "dec; brne"), which runs
 * inside one execution; a latch's copy placed inside b's code is a run of its own (cont) and
 * needs no allowance here. A block whose pieces bb-reorder placed apart (the rare arms of an
 * if-converted abs) jumps back from one into another without looping. */
static bool loops_alone(struct roi_measure *m, const struct roi_function *fn, long b)
{
	long p = find_path(m, fn, b, b);

	return p >= 0 && m->pool[p] == 0;
}

/* Where a way on from block b through blocks without instructions first reaches one with
 * instructions (-1: the exit). */
static long way_on(const struct roi_measure *m, const struct roi_function *fn, long b)
{
	for (size_t hops = 0; b >= 0 && !m->words[fn->gblock0 + (size_t)b] && fn->blocks[b].nsucc == 1 &&
	     hops <= fn->nblocks; hops++)
		b = fn->blocks[b].succ[0];
	return b;
}

/* Whether block x, which has no instructions, is the same code as block b: its ways on lead where
 * b's do (a case's "count it and go on" that cross-jumping left one copy of, under another case's
 * line), or where b's next block's one way on does (the rest of the tail the compiler shared:
 * kernel-state-machine's "errors++; state = 0" at -Os, the second statement the code on an edge). */
static bool mirrors(const struct roi_measure *m, const struct roi_function *fn, long x, long b)
{
	if (fn->blocks[x].nsucc != fn->blocks[b].nsucc || fn->blocks[x].value)
		return false;
	for (size_t i = 0; i < fn->blocks[b].nsucc; i++) {
		long to = way_on(m, fn, fn->blocks[b].succ[i]);
		bool found = false;

		for (size_t j = 0; j < fn->blocks[x].nsucc && !found; j++) {
			long xto = way_on(m, fn, fn->blocks[x].succ[j]);

			found = xto == to || (to >= 0 && fn->blocks[to].nsucc == 1 &&
					      way_on(m, fn, fn->blocks[to].succ[0]) == xto);
		}
		if (!found)
			return false;
	}
	return true;
}

/* Code GCC shares between blocks (cross-jumping, tail merging) runs for the block that entered it,
 * not for the one whose line it has: the block instructions of block b run for, after block cur,
 * when no way from cur reaches b without passing instructions unseen.
 * - a block after cur without instructions whose ways on lead where b's do: its copy was left out,
 *   b's runs for it;
 * - else, when cur jumped into b's code, into code b's instruction before it also goes on to:
 *   by a conditional branch, cur's one successor without instructions (cur decided, and the next
 *   block's code was left out: the scan loop's test i < len in kernel-state-machine is the main
 *   loop's); by a jump, cur itself, when it has a successor without instructions (the tail of
 *   its own code was left out for b's identical one). */
static long shared_as(struct roi_measure *m, const struct roi_function *fn, long cur, long b, bool jumped,
		      bool cond, uint32_t pc)
{
	if (cur < 0 || cur == b)
		return b;
	/* (a jump into the middle of b's code, which b's instruction before goes on to) */
	bool into = jumped && m->entered && pc >> 1 < MAX_WORDS && m->entered[pc >> 1] == (ENTERED_OWN | ENTERED_OTHER);
	long path = find_path(m, fn, cur, b);
	if (path >= 0 && m->pool[path] == 0) {
		/* cur leads to b, but jumped into b's tail: the way there is cur's arm without
		 * instructions that b mirrors (kernel-debounce-struct's last andi of two arms) */
		for (size_t i = 0; into && i < fn->blocks[cur].nsucc; i++) {
			long x = fn->blocks[cur].succ[i];

			if (x >= 0 && x != b && !m->words[fn->gblock0 + (size_t)x] && mirrors(m, fn, x, b))
				return x;
		}
		return b;
	}
	long empty = -1;
	size_t nempty = 0;
	for (size_t i = 0; i < fn->blocks[cur].nsucc; i++) {
		long x = fn->blocks[cur].succ[i];

		if (x < 0 || m->words[fn->gblock0 + (size_t)x] || fn->blocks[x].value)
			continue;
		if (mirrors(m, fn, x, b))
			return x;
		empty = x;
		nempty++;
	}
	if (!into || !nempty)
		return b;
	return !cond ? cur : nempty == 1 ? empty : b;
}

static void block_step(struct roi_measure *m, struct frame *f, long gb, const struct roi_avr_step *s)
{
	const struct roi_function *fn = m->fn_of_block[gb];
	long b = (long)((size_t)gb - fn->gblock0);
	uint64_t at = s->cycle - s->cycles;
	uint16_t k = insn_at(m, s->pc);
	uint32_t next = s->pc + (k & W_TWO ? 4 : 2);

	if (f->bfn != (long)fn->gindex) {
		leave_function(m, f, at);
		f->bfn = (long)fn->gindex;
		f->bstate = -1;
		f->bshared = -1;
	}
	long cur = f->nruns ? f->runs[f->nruns - 1].b : f->bstate;
	if (f->bshared != b)
		f->bshared = -1;
	/* (not where b's code goes on after an island of cur's amid it: a latch's copy, an
	 * invariant placed there; start_run's cont) */
	long before = f->nruns > 1 ? f->runs[f->nruns - 2].b : f->nruns ? f->bstate : -1;
	if (f->bshared == b || (b != cur && b != before && !(k & W_SKIP) && b != f->bveto)) {
		long as = f->bshared == b ? f->bshared_as : shared_as(m, fn, cur, b, f->bjump, f->bcond, s->pc);

		if (as != b) {
			f->bshared = b;
			f->bshared_as = as;
			b = as;
			gb = (long)fn->gblock0 + as;
		}
	}
	m->block_cycles[gb] += s->cycles;      /* (shared code's: the entering block's) */
	/* An if-converted arm: the skip decides whether the block runs, by its instruction after,
	 * which it skips or not; what else of the block's runs either way (GCC gives a spill after
	 * it the arm's location too). A skip over a jump of its block is none: the two are the
	 * block's conditional branch (a loop's test, "sbrc; rjmp out"), and the block ran either
	 * way. */
	if ((k & W_SKIP) && next >> 1 < MAX_WORDS && m->block_of[next >> 1] == gb &&
	    !(insn_at(m, next) & W_JUMP)) {
		f->bveto = s->next != next ? b : -1;
		f->bjump = f->bcond = false;
		f->bseq = s->next == next;
		return;
	}
	if (b == f->bveto && b != cur) {
		f->bjump = f->bcond = false;
		f->bseq = s->next == next;
		return;
	}
	f->bveto = -1;
	if (b != cur)
		start_run(m, f, b, at, s->pc, false);
	else if (f->bjump && s->pc == m->head[gb] && f->bpast && loops_alone(m, fn, b))
		/* this block's head again by a jump: around a loop of blocks without instructions (a
		 * latch), or of the block alone */
		start_run(m, f, b, at, s->pc, true);
	if (s->pc == m->head[gb])
		f->bpast = true;
	if (f->nruns && f->runs[f->nruns - 1].b == b) {
		struct run *r = &f->runs[f->nruns - 1];

		r->seen++;
		r->lo = s->pc < r->lo ? s->pc : r->lo;
		r->hi = s->pc > r->hi ? s->pc : r->hi;
	}
	f->bjump = s->next != next && (k & (W_JUMP | W_BRANCH));
	f->bcond = f->bjump && (k & W_BRANCH);
	f->bseq = s->next == next || (k & W_CALL);
}

/* ---- the shadow call stack ---- */

static struct frame *push(struct roi_measure *m, const struct frame *init)
{
	if (m->depth == m->frames_cap) {
		m->frames = roi_xrealloc(m->frames, 2 * m->frames_cap, sizeof *m->frames);
		memset(m->frames + m->frames_cap, 0, m->frames_cap * sizeof *m->frames);
		m->frames_cap *= 2;
	}
	struct frame *f = &m->frames[m->depth++];
	uint64_t *loop_start = f->loop_start;

	*f = *init;
	f->loop_start = loop_start ? loop_start : roi_xzalloc(m->max_loops + 1, sizeof(uint64_t));
	f->bfn = -1;
	f->nruns = 0;
	f->bveto = -1;
	f->bshared = -1;
	return f;
}

/* The call site of frame f, once its callee is known: counted, and the callee's activation. */
static void enter(struct roi_measure *m, struct frame *f, uint32_t address, enum roi_mcall how, int caller)
{
	uint64_t key = (uint64_t)address << 32 | (uint64_t)how << 28 | (uint64_t)f->fn;
	uint64_t *id = map_at(&m->site_ids, key);

	if (!*id) {
		m->sites = roi_xgrow(m->sites, m->nsites, &m->sites_cap, sizeof *m->sites);
		m->sites[m->nsites] = (struct site){address, how, caller, f->site_line < 0 ? LINE_INTERRUPT : f->site_line,
						    f->fn, 0, 0};
		*id = ++m->nsites;
	}
	f->site = (int)*id - 1;
	m->sites[f->site].calls++;
	m->syms[f->fn].calls++;
	f->outer_fn = m->syms[f->fn].active++ == 0;
	/* a counted function's entry block runs once a call (formats.md), whether or not an
	 * instruction of it is the block's in the line table (GCC gives a one-block function's
	 * return value the location of its end) */
	if (m->with_blocks && m->syms[f->fn].counted >= 0) {
		f->bfn = m->syms[f->fn].counted;
		f->bstate = -1;
		long path = find_path(m, m->fn_by_gindex[f->bfn], -1, 0);
		if (path >= 0)
			take(m, f, path, f->start);
		f->bstate = 0;
	}
}

static void call(struct roi_measure *m, const struct roi_avr_step *s, uint32_t ret, enum roi_mcall how)
{
	struct frame *caller = &m->frames[m->depth - 1];
	int line = caller->line, caller_fn = m->fn_of[s->pc >> 1];
	struct frame init = {
		.ret = how == ROI_MCALL_JUMP ? caller->ret : ret,
		.sp = how == ROI_MCALL_JUMP ? caller->sp : (uint16_t)(s->sp),
		.entry = (uint16_t)(s->sp + m->tracer.address_size),
		.low_all = s->sp, .low_own = s->sp, .low_self = s->sp,
		.start = s->cycle, .line = line, .line_fn = caller->line_fn, .site_line = line,
		.tail = how == ROI_MCALL_JUMP,
		.fn = s->next >> 1 < MAX_WORDS ? m->fn_of[s->next >> 1] : (int)m->nsyms - 1,
	};
	struct frame *f = push(m, &init);

	f->outer_line = m->lines[line].active++ == 0;
	enter(m, f, s->pc, how, caller_fn);
	/* the stack the start-up code set: before the call of main */
	if (!m->has_top && m->has_main && m->syms[f->fn].addr == m->main_addr && f->fn != (int)m->nsyms - 1) {
		m->has_top = true;
		m->top = f->entry;
	}
}

static void interrupt(struct roi_measure *m, const struct roi_avr_step *s)
{
	uint16_t sp = (uint16_t)(s->sp - m->tracer.address_size);
	struct frame init = {
		.ret = s->next, .sp = sp, .entry = s->sp, .low_all = sp, .low_own = sp, .low_self = sp, .irq = true,
		.start = s->cycle,
		.line = LINE_INTERRUPT, .line_fn = -1, .site = -1, .fn = -1, .site_line = -1, .vector = true,
	};

	push(m, &init);
	if (m->main_seen && sp < m->lowest)
		m->lowest = sp;
}

/* An interrupt's function: the one its vector jumps to (or the vector's, when it does not jump). */
static void vector_step(struct roi_measure *m, struct frame *f, const struct roi_avr_step *s)
{
	uint32_t to = insn_at(m, s->pc) & W_JUMP ? s->next : s->pc;

	f->vector = false;
	f->fn = to >> 1 < MAX_WORDS ? m->fn_of[to >> 1] : (int)m->nsyms - 1;
	enter(m, f, s->pc, ROI_MCALL_INTERRUPT, -1);
}

/* Frame f's stack figures to its function's, and its lowest SP to the frame below it (the one it
 * returns to), an interrupt's to that frame's figure with interrupts only. */
static void close_stack(struct roi_measure *m, struct frame *f)
{
	if (f > m->frames) {
		struct frame *below = f - 1;

		if (f->low_all < below->low_all)
			below->low_all = f->low_all;
		if (!f->irq && f->low_own < below->low_own)
			below->low_own = f->low_own;
	}
	if (f->fn < 0 || f->site < 0 || f->fn == (int)m->nsyms - 1)
		return;
	struct sym *y = &m->syms[f->fn];
	uint16_t all = f->entry > f->low_all ? (uint16_t)(f->entry - f->low_all) : 0,
		 own = f->entry > f->low_own ? (uint16_t)(f->entry - f->low_own) : 0,
		 self = f->entry > f->low_self ? (uint16_t)(f->entry - f->low_self) : 0;

	y->st_calls++;
	if (all > y->st_all)
		y->st_all = all;
	if (own > y->st_depth)
		y->st_depth = own;
	if (self > y->st_frame)
		y->st_frame = self;
}

/* The stack pointer after a step: the lowest of the frame running and of the run. A prologue
 * writes SPH, then SREG, then SPL: in between SP is the new high byte with the old low one (up to
 * 255 bytes off, interrupts off, no code sees it), and is not sampled. */
static void sample_sp(struct roi_measure *m, const struct roi_avr_step *s)
{
	struct frame *f = &m->frames[m->depth - 1];

	if ((insn_at(m, s->pc) & W_OUT_SPH) && !s->asleep)
		m->sp_half = true;
	else if ((insn_at(m, s->pc) & W_OUT_SPL) && !s->asleep)
		m->sp_half = false;
	if (m->sp_half)
		return;
	m->prev_sp = s->sp;
	if (s->sp < f->low_all)
		f->low_all = s->sp;
	if (s->sp < f->low_own)
		f->low_own = s->sp;
	if (s->sp < f->low_self)
		f->low_self = s->sp;
	if (m->main_seen && s->sp < m->lowest)
		m->lowest = s->sp;
}

static void close_frame(struct roi_measure *m, struct frame *f, uint64_t end)
{
	uint64_t inclusive = end - f->start;

	close_stack(m, f);

	if (m->with_blocks)
		leave_function(m, f, end);
	if (f->site < 0)
		return;         /* an interrupt stopped on its vector */
	m->sites[f->site].inclusive += inclusive;
	m->syms[f->fn].active--;
	if (f->outer_fn)
		m->syms[f->fn].inclusive += inclusive;
	if (f->site_line >= 0) {
		m->lines[f->site_line].active--;
		if (f->outer_line)
			m->lines[f->site_line].inclusive += inclusive;
	}
}

/* A ret or reti to `to` with the stack pointer at sp afterwards: the frame it returns from, and the
 * jumps into other functions that return with it. A return that matches no call is a jump (an
 * address pushed and "returned" to); one that matches a frame further down returns from every
 * frame above it too (a longjmp-like unwinding). */
static void ret(struct roi_measure *m, uint32_t to, uint16_t sp, uint64_t end)
{
	size_t t = m->depth;

	while (--t > 0)
		if (m->frames[t].ret == to && (uint16_t)(m->frames[t].sp + m->tracer.address_size) == sp)
			break;
	if (t == 0)
		return;
	while (t > 1 && m->frames[t].tail)
		t--;
	while (m->depth > t)
		close_frame(m, &m->frames[--m->depth], end);
	if (m->depth == 1 && m->main_seen)
		m->frames[0].line = LINE_AFTER_MAIN;
}

static void step(void *ctx, const struct roi_avr_step *s)
{
	struct roi_measure *m = ctx;
	struct frame *f = &m->frames[m->depth - 1];
	uint32_t w = s->pc >> 1;
	int line = w < MAX_WORDS ? m->line_of[w] : -1, fn = w < MAX_WORDS ? m->fn_of[w] : (int)m->nsyms - 1;
	bool own = line >= 0;

	if (!m->insn)
		decode_flash(m);
	if (!m->main_seen && m->has_main && s->pc == m->main_addr) {
		m->main_seen = true;
		if (!m->has_top) {      /* main reached by a jump: the stack as it was */
			m->has_top = true;
			m->top = m->prev_sp;
		}
	}
	/* back in the function that jumped into another without a return (a switch's jump through
	 * libgcc's __tablejump2__, call-prologues' __prologue_saves__): that was no tail call */
	while (f->tail && m->depth > 2 && fn == m->frames[m->depth - 2].fn) {
		close_frame(m, f, s->cycle - s->cycles);
		f = &m->frames[--m->depth - 1];
	}
	bool at_vector = f->vector && !s->asleep;
	if (at_vector)
		vector_step(m, f, s);
	if (own) {
		f->line = line;
		f->line_fn = fn;
	} else {
		line = f->line;
		if (f->line_fn >= 0)
			m->syms[f->line_fn].library += s->cycles;
	}
	m->lines[line].cycles += s->cycles;
	if (!own)
		m->lines[line].library += s->cycles;
	if (!m->lines[line].active)
		m->lines[line].inclusive += s->cycles;
	m->syms[fn].self += s->cycles;
	if (!own && m->with_lines)
		*map_at(&m->library, (uint64_t)fn << 32 | (uint32_t)line) += s->cycles;
	if (s->asleep) {
		sample_sp(m, s);
		if (s->interrupt)
			interrupt(m, s);
		return;
	}
	if (m->with_blocks && !m->heads_found)
		find_heads(m);
	if (m->with_blocks && w < MAX_WORDS && m->block_of[w] >= 0)
		block_step(m, f, m->block_of[w], s);
	else {
		f->bjump = f->bcond = false;
		f->bseq = s->next == s->pc + (insn_at(m, s->pc) & W_TWO ? 4 : 2) || (insn_at(m, s->pc) & W_CALL);
	}

	uint16_t k = insn_at(m, s->pc);
	uint32_t next_seq = s->pc + (k & W_TWO ? 4 : 2);

	if (k & W_CALL) {
		call(m, s, next_seq, ROI_MCALL_CALL);
	} else if (k & W_RET) {
		ret(m, s->next, s->sp, s->cycle);
	} else if ((k & W_JUMP) && m->depth > 1 && s->next >> 1 < MAX_WORDS && m->fn_at[s->next >> 1] >= 0 &&
		   m->fn_at[s->next >> 1] != fn && !at_vector) {
		/* a jump to another function's first instruction: a tail call (not an interrupt vector's
		 * jump to its handler, which the interrupt entered) */
		call(m, s, 0, ROI_MCALL_JUMP);
	}
	sample_sp(m, s);
	if (s->interrupt)
		interrupt(m, s);
}

/* ---- the result ---- */

static int by_cycles(const void *a, const void *b)
{
	const struct roi_mfunction *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int lines_in_order(const void *a, const void *b)
{
	const struct roi_mline *x = a, *y = b;

	if (!x->file != !y->file)
		return x->file ? -1 : 1;
	if (!x->file)
		return strcmp(x->what, y->what);
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int sites_in_order(const void *a, const void *b)
{
	const struct roi_msite *x = a, *y = b;

	if (x->inclusive != y->inclusive)
		return x->inclusive > y->inclusive ? -1 : 1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return strcmp(x->callee, y->callee);
}

static int library_in_order(const void *a, const void *b)
{
	const struct roi_mlibrary *x = a, *y = b;
	int c = strcmp(x->routine, y->routine);

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

static void finish_lines(struct roi_measure *m, struct roi_measured *out)
{
	struct roi_arena *a = &out->arena;

	out->lines = roi_arena_array(a, m->nlines, sizeof *out->lines);
	for (size_t i = 0; i < m->nlines; i++) {
		const struct line *l = &m->lines[i];

		if (!l->cycles && !l->inclusive)
			continue;
		out->lines[out->nlines++] = (struct roi_mline){
			l->file ? roi_arena_strdup(a, l->file) : NULL, l->what, l->line, l->cycles, l->library, l->inclusive};
	}
	roi_sort(out->lines, out->nlines, sizeof *out->lines, lines_in_order);
	out->fns = roi_arena_array(a, m->nsyms, sizeof *out->fns);
	for (size_t i = 0; i < m->nsyms; i++) {
		const struct sym *s = &m->syms[i];

		if (s->self || s->calls || s->library)
			out->fns[out->nfns++] = (struct roi_mfunction){roi_arena_strdup(a, s->name), s->addr, s->lines,
								       s->calls, s->self, s->library, s->inclusive};
	}
	roi_sort(out->fns, out->nfns, sizeof *out->fns, by_cycles);
	out->sites = roi_arena_array(a, m->nsites, sizeof *out->sites);
	for (size_t i = 0; i < m->nsites; i++) {
		const struct site *s = &m->sites[i];
		const struct line *l = &m->lines[s->line];

		out->sites[out->nsites++] = (struct roi_msite){
			s->address, s->how, s->caller >= 0 ? roi_arena_strdup(a, m->syms[s->caller].name) : NULL,
			l->file ? roi_arena_strdup(a, l->file) : NULL, l->what, l->line,
			roi_arena_strdup(a, m->syms[s->callee].name),
			s->calls, s->inclusive};
	}
	roi_sort(out->sites, out->nsites, sizeof *out->sites, sites_in_order);
	out->library = roi_arena_array(a, m->library.n, sizeof *out->library);
	for (size_t i = 0; i < m->library.cap; i++) {
		if (!m->library.key[i])
			continue;
		uint64_t k = m->library.key[i] - 1;
		const struct line *l = &m->lines[(uint32_t)k];

		out->library[out->nlibrary++] = (struct roi_mlibrary){
			roi_arena_strdup(a, m->syms[k >> 32].name), l->file ? roi_arena_strdup(a, l->file) : NULL, l->what,
			l->line, m->library.val[i]};
	}
	roi_sort(out->library, out->nlibrary, sizeof *out->library, library_in_order);
}

static void finish_blocks(struct roi_measure *m, const struct roi_avr_run *run, struct roi_measured *out)
{
	struct roi_arena *a = &out->arena;
	const struct roi_program *p = m->prog;

	out->has_blocks = true;
	out->blocks_run_cycles = run->cycles;
	out->ambiguous = m->ambiguous;
	out->blocks = roi_arena_array(a, p->nfunctions, sizeof *out->blocks);
	out->loops = roi_arena_array(a, m->nloops, sizeof *out->loops);
	for (size_t g = 0; g < p->nfunctions; g++) {
		const struct roi_function *fn = m->fn_by_gindex[g];
		struct roi_mblocks *b = &out->blocks[out->nblocks++];

		*b = (struct roi_mblocks){fn->unit->id_hex, fn->index, fn->asm_name, fn->checksum, fn->nblocks,
					  roi_arena_array(a, fn->nblocks, sizeof(uint64_t)),
					  roi_arena_array(a, fn->nblocks, sizeof(bool)),
					  roi_arena_array(a, fn->nblocks, sizeof(uint64_t)), NULL};
		for (size_t k = 0; k < fn->nblocks; k++)
			b->value[k] = fn->blocks[k].value;
		memcpy(b->counts, &m->counts[fn->gblock0], fn->nblocks * sizeof(uint64_t));
		memcpy(b->cycles, &m->block_cycles[fn->gblock0], fn->nblocks * sizeof(uint64_t));
		for (size_t k = 0; k < fn->nblocks; k++)
			if (m->doubt[fn->gblock0 + k] && !b->ambiguous) {
				b->ambiguous = roi_arena_array(a, fn->nblocks, sizeof(uint64_t));
				memcpy(b->ambiguous, &m->doubt[fn->gblock0], fn->nblocks * sizeof(uint64_t));
			}
		for (size_t l = 0; l < fn->nloops; l++)
			out->loops[out->nloops++] = (struct roi_mloop){
				fn->unit->id_hex, fn->index, l, roi_arena_printf(a, "%s:%u", fn->name, fn->loops[l].line),
				m->loop_entries[m->loop_base[g] + l], m->loop_cycles[m->loop_base[g] + l]};
	}
}

/* The regions of the metadata: a function's from its symbol's activations, a loop's from the blocks
 * (NULL loops: not measured). */
static void finish_regions(struct roi_measure *m, const struct roi_program *p, struct roi_measured *out)
{
	out->regions = roi_arena_array(&out->arena, p->nregions, sizeof *out->regions);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t r = 0; r < p->units[u].nregions; r++) {
			const struct roi_region *reg = &p->units[u].regions[r];
			struct roi_mregion *o = &out->regions[out->nregions++];

			*o = (struct roi_mregion){p->units[u].id_hex, reg->index, reg->name,
						  reg->kind == ROI_REGION_FUNCTION ? "function" : "loop", false, 0, 0};
			if (reg->kind == ROI_REGION_FUNCTION) {
				const struct roi_function *fn = reg->function >= 0 ? &p->units[u].functions[reg->function]
								: NULL;
				for (size_t i = 0; i < m->nsyms; i++)
					if (strcmp(m->syms[i].name, fn ? fn->asm_name : reg->name) == 0) {
						o->measured = true;
						o->calls = m->syms[i].calls;
						o->cycles = m->syms[i].inclusive;
					}
			} else if (out->has_blocks && reg->function >= 0) {
				const struct roi_function *fn = &p->units[u].functions[reg->function];

				for (size_t l = 0; l < fn->nloops; l++)
					if ((long)fn->loops[l].header == reg->header) {
						o->measured = true;
						o->calls = m->loop_entries[m->loop_base[fn->gindex] + l];
						o->cycles = m->loop_cycles[m->loop_base[fn->gindex] + l];
					}
			}
		}
}

static int deepest_first(const void *a, const void *b)
{
	const struct roi_mstack_fn *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The run's stack, when main ran; the RAM (data_end, margin) is the caller's to add. */
static void finish_stack(struct roi_measure *m, struct roi_measured *out)
{
	struct roi_mstack *st = &out->stack;

	if (!m->main_seen || !m->has_top)
		return;
	out->has_stack = true;
	st->top = m->top;
	st->lowest = m->lowest < m->top ? m->lowest : m->top;
	st->peak = st->top - st->lowest;
	st->fns = roi_arena_array(&out->arena, m->nsyms, sizeof *st->fns);
	for (size_t i = 0; i + 1 < m->nsyms; i++) {
		const struct sym *y = &m->syms[i];

		if (y->st_calls)
			st->fns[st->nfns++] = (struct roi_mstack_fn){roi_arena_strdup(&out->arena, y->name), y->st_calls,
								     y->st_depth, y->st_all, y->st_frame};
	}
	roi_sort(st->fns, st->nfns, sizeof *st->fns, deepest_first);
}

int roi_measure_finish(struct roi_measure *m, const struct roi_avr_run *run, struct roi_measured *out,
		       struct roi_err *err)
{
	/* what is under way at the stop ends there */
	while (m->depth > 1)
		close_frame(m, &m->frames[--m->depth], run->cycles);
	if (m->with_blocks)
		leave_function(m, &m->frames[0], run->cycles);
	uint64_t sum = 0;
	for (size_t i = 0; i < m->nlines; i++)
		sum += m->lines[i].cycles;
	if (sum != run->cycles)
		return roi_err_set(err, "%s: the lines add up to %llu cycles, not the run's %llu", run->elf,
				   (unsigned long long)sum, (unsigned long long)run->cycles);
	if (m->with_lines)
		finish_lines(m, out);
	if (m->with_blocks)
		finish_blocks(m, run, out);
	if (m->prog)
		finish_regions(m, m->prog, out);
	finish_stack(m, out);
	return 0;
}

void roi_measure_free(struct roi_measure *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->frames_cap; i++)
		free(m->frames[i].loop_start);
	free(m->frames);
	free(m->line_of);
	free(m->fn_of);
	free(m->fn_at);
	free(m->block_of);
	free(m->lines);
	free(m->files);
	free(m->syms);
	free(m->sites);
	map_free(&m->line_ids);
	map_free(&m->site_ids);
	map_free(&m->library);
	map_free(&m->paths);
	free(m->pool);
	if (m->member)
		for (size_t l = 0; l < m->nloops; l++)
			free(m->member[l]);
	free(m->member);
	free(m->fn_by_gindex);
	free(m->fn_of_block);
	free(m->has_code);
	free(m->words);
	free(m->head);
	free(m->entered);
	free(m->insn);
	free(m->counts);
	free(m->doubt);
	free(m->block_cycles);
	free(m->loop_base);
	free(m->loop_entries);
	free(m->loop_cycles);
	free(m->loop_active);
	roi_arena_free(&m->arena);
	free(m);
}
