/* machine/flow.c — instruction counts of a counted function from its block counts (flow.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/path.h"
#include "machine/flow.h"

/* The prefix of the file names the block-lines build gives a counted function's statements
 * (roi-block-lines.cc): "roi-block:ASM-NAME", line = the block's counter index + 1. */
#define BLOCK_FILE "roi-block:"

uint64_t roi_machine_edge_count(const struct roi_counts *c, const struct roi_function *fn, size_t b, size_t k)
{
	const struct roi_block *blk = &fn->blocks[b];
	uint64_t n = roi_block_count(c, fn, b), others = 0;

	if (blk->nsucc == 1)
		return n;
	if (blk->succ[k] >= 0)
		return roi_block_count(c, fn, (size_t)blk->succ[k]);
	/* the way out of a block that also goes elsewhere: what the others do not take */
	for (size_t i = 0; i < blk->nsucc; i++)
		if (blk->succ[i] >= 0)
			others += roi_block_count(c, fn, (size_t)blk->succ[i]);
	return others < n ? n - others : 0;
}

/* ---- decoding and owners ---------------------------------------------------------------------- */

static struct roi_minsn *decode_range(const struct roi_mcode *c, uint64_t addr, uint64_t size, size_t *n)
{
	struct roi_minsn *ins = NULL;
	size_t cap = 0;
	struct roi_thumb_state st = {.flash_wait = c->flash_wait};

	*n = 0;
	for (uint64_t a = addr; a < addr + size;) {
		uint64_t past = roi_mcode_past_data(c, a);

		if (past != a) {        /* a literal pool, a table: no instructions */
			a = past;
			continue;
		}
		ins = roi_xgrow(ins, *n, &cap, sizeof *ins);
		roi_mcode_decode(c, a, &st, &ins[*n]);
		a += ins[*n].size;
		(*n)++;
	}
	for (size_t i = 0; i + 1 < *n; i++)
		if (ins[i].cls == ROI_MI_SKIP)
			roi_avr_skip_cost(&ins[i], &ins[i + 1]);
	return ins;
}

/* The counted block the block-lines build's line table names for addr, else ROI_OWN_FN. */
static long block_of(const struct roi_mcode *blocks, const struct roi_function *fn, uint64_t addr)
{
	const struct roi_line_addr *l = roi_line_table_find(&blocks->lines, addr);
	const char *file = l && l->file ? roi_base_name(l->file) : NULL;

	if (!file || strncmp(file, BLOCK_FILE, strlen(BLOCK_FILE)) != 0 ||
	    strcmp(file + strlen(BLOCK_FILE), fn->asm_name) != 0 || l->line < 1 || l->line > fn->nblocks)
		return ROI_OWN_FN;
	return (long)l->line - 1;
}

/* The instruction a jump leads to, past the nops -O0 keeps where a line changes. */
static void jump_target(const struct roi_mcode *c, const struct roi_minsn *jump, struct roi_minsn *at)
{
	uint64_t a = jump->target;

	for (int k = 0; k < 8; k++, a += at->size) {
		struct roi_thumb_state st = {.flash_wait = c->flash_wait};

		roi_mcode_decode(c, a, &st, at);
		if (!at->is_nop)
			break;
	}
}

/* Two instructions that are the same but for where they jump or find their literal (the code
 * around them moved); with follow, two jumps lead to the same instruction. */
static bool same_at(const struct roi_mcode *a, const struct roi_minsn *x, const struct roi_mcode *b,
		    const struct roi_minsn *y, bool follow)
{
	size_t na, nb;
	const uint8_t *pa = roi_mcode_bytes(a, x->addr, &na), *pb = roi_mcode_bytes(b, y->addr, &nb);

	if (x->cls == ROI_MI_BRANCH && y->cls == ROI_MI_BRANCH)
		return true;            /* (maybe of the opposite condition, over a jump) */
	if (x->size != y->size || strcmp(x->name, y->name) != 0 || x->cls != y->cls)
		return false;
	if (x->has_target && y->has_target && x->cls == ROI_MI_JUMP && follow) {
		struct roi_minsn tx, ty;

		jump_target(a, x, &tx);
		jump_target(b, y, &ty);
		return same_at(a, &tx, b, &ty, false);
	}
	if (x->has_target && y->has_target)
		return true;
	if (x->pc_relative && y->pc_relative)
		return x->rd == y->rd;
	return pa && pb && memcmp(pa, pb, x->size) == 0;
}

static bool same_insn(const struct roi_mcode *a, const struct roi_minsn *x, const struct roi_mcode *b,
		      const struct roi_minsn *y)
{
	return same_at(a, x, b, y, true);
}

/* How many of plain[i..] the block-lines instructions from j on that are not taken have, in order
 * (past the nops -O0 keeps where a line changes), while plain's are not matched; their indices
 * into match (optional). */
static size_t common_run(const struct roi_mcode *plain, const struct roi_minsn *a, size_t na, size_t i,
			 const struct roi_mcode *blocks, const struct roi_minsn *b, size_t nb, size_t j,
			 const long *a_match, const bool *b_taken, long *match)
{
	size_t n = 0;

	for (; i < na && a_match[i] < 0; i++, j++, n++) {
		while (j < nb && b[j].is_nop && !b_taken[j] && !a[i].is_nop)
			j++;
		if (j == nb || b_taken[j] || !same_insn(plain, &a[i], blocks, &b[j]))
			break;
		if (match)
			match[n] = (long)j;
	}
	return n;
}

/* match[i]: the block-lines instruction plain[i] is, else -1: pinned ones as they are, the others
 * by the longest common subsequence (like diff) of the instructions neither pinned nor
 * excluded that are the same (same_insn). lcs: (na + 1) * (nb + 1) cells. */
static void common_subsequence(const struct roi_mcode *plain, const struct roi_minsn *a, size_t na,
			       const struct roi_mcode *blocks, const struct roi_minsn *b, size_t nb,
			       const long *pinned, const bool *excluded, uint16_t *lcs, long *match)
{
	size_t w = nb + 1;

	/* lcs[i * w + j]: the most instructions plain[i..] and blocks[j..] have in common, in order */
	for (size_t j = 0; j <= nb; j++)
		lcs[na * w + j] = 0;
	for (size_t i = na; i-- > 0;) {
		lcs[i * w + nb] = 0;
		for (size_t j = nb; j-- > 0;) {
			uint16_t down = lcs[(i + 1) * w + j], right = lcs[i * w + j + 1];

			if (pinned[i] < 0 && !excluded[j] && same_insn(plain, &a[i], blocks, &b[j]))
				lcs[i * w + j] = (uint16_t)(lcs[(i + 1) * w + j + 1] + 1);
			else
				lcs[i * w + j] = down > right ? down : right;
		}
	}
	for (size_t i = 0, j = 0; i < na;) {
		if (pinned[i] >= 0) {
			match[i] = pinned[i];
			i++;
		} else if (j < nb && lcs[i * w + j] == lcs[(i + 1) * w + j + 1] + 1 && !excluded[j] &&
			   !(a[i].is_nop && lcs[(i + 1) * w + j] == lcs[i * w + j]) &&
			   same_insn(plain, &a[i], blocks, &b[j])) {
			/* (of nops in a row, the last: the one that falls into what follows) */
			match[i++] = (long)j++;
		} else if (j < nb && lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]) {
			j++;            /* a nop, a jump the plain build lacks */
		} else {
			match[i++] = -1;
		}
	}
}

/* Owners of the plain instructions from the block-lines build's. At -O0 GCC keeps a nop where a
 * block's line changes, and a branch over a jump where the two builds' layouts then differ, and
 * may lay a block out elsewhere. The two instruction streams are aligned as their longest common
 * subsequence (like diff); the longest piece of a run of plain instructions left over that the
 * block-lines build has among what it left over is a block laid out elsewhere: it is pinned
 * there, with the instructions around it that are the same there, and the rest aligned again. An
 * instruction of the plain build the other lacks takes the owner of the one before it, where
 * control falls into it; after a jump, the owner of the next one the two share. Error: a run of
 * more than 8 plain instructions the other lacks, or a function too large to align. */
#define ALIGN_CELLS (64u << 20)
static int align_owners(struct roi_mfunc *f, const struct roi_mcode *plain, const struct roi_mcode *blocks,
			const struct roi_msym *bsym, struct roi_err *err)
{
	size_t nb, na = f->nins;
	struct roi_minsn *bins = decode_range(blocks, bsym->addr, bsym->size, &nb);
	size_t run = 0, pending = SIZE_MAX;
	long last = ROI_OWN_FN, *match, *moved, *pinned;
	bool *taken, *excluded;
	uint16_t *lcs;
	int rc = 0;

	if ((na + 1) * (nb + 1) > ALIGN_CELLS || na > UINT16_MAX || nb > UINT16_MAX) {
		free(bins);
		return roi_err_set(err, "%s: %s is too large to align with %s's (%zu and %zu instructions)", blocks->path,
				   f->fn->asm_name, plain->path, nb, na);
	}
	lcs = roi_xzalloc((na + 1) * (nb + 1), sizeof *lcs);
	match = roi_xzalloc(na + 1, sizeof *match);
	moved = roi_xzalloc(na + 1, sizeof *moved);
	pinned = roi_xzalloc(na + 1, sizeof *pinned);
	taken = roi_xzalloc(nb + 1, sizeof *taken);
	excluded = roi_xzalloc(nb + 1, sizeof *excluded);
	for (size_t i = 0; i < na; i++)
		pinned[i] = -1;
	for (int pass = 0;; pass++) {
		bool again = false;

		common_subsequence(plain, f->ins, na, blocks, bins, nb, pinned, excluded, lcs, match);
		if (pass == 8)
			break;
		/* the longest piece of a run left over that the block-lines build has among what it
		 * has left over */
		for (size_t j = 0; j < nb; j++)
			taken[j] = excluded[j];
		for (size_t i = 0; i < na; i++)
			if (match[i] >= 0)
				taken[match[i]] = true;
		for (size_t i = 0; i < na; i++) {
			size_t len = 0, best = 0, from = 0, at = 0;

			if (match[i] >= 0)
				continue;
			while (i + len < na && match[i + len] < 0)
				len++;
			for (size_t k = i; k < i + len && len >= 3; k++)
				for (size_t j = 0; j < nb; j++) {
					size_t n = taken[j] ? 0 : common_run(plain, f->ins, na, k, blocks, bins, nb, j, match,
									      taken, NULL);
					if (n > best) {
						best = n;
						from = k;
						at = j;
					}
				}
			if (best >= 3) {
				common_run(plain, f->ins, na, from, blocks, bins, nb, at, match, taken, moved);
				for (size_t k = 0; k < best; k++) {
					pinned[from + k] = moved[k];
					excluded[moved[k]] = taken[moved[k]] = true;
				}
				size_t i0 = from, len0 = best;
				/* and the instructions around it that are the same there (the common
				 * subsequence may have taken them elsewhere) */
				for (int dir = -1; dir <= 1; dir += 2) {
					long k = dir < 0 ? (long)i0 - 1 : (long)(i0 + len0);
					long j = dir < 0 ? moved[0] - 1 : moved[len0 - 1] + 1;

					for (; k >= 0 && k < (long)na && pinned[k] < 0; k += dir, j += dir) {
						while (j >= 0 && j < (long)nb && bins[j].is_nop && !f->ins[k].is_nop && !excluded[j])
							j += dir;
						if (j < 0 || j >= (long)nb || excluded[j] ||
						    !same_insn(plain, &f->ins[k], blocks, &bins[j]))
							break;
						pinned[k] = j;
						excluded[j] = taken[j] = true;
					}
				}
				again = true;
			}
			i += len;
		}
		if (!again)
			break;
	}
	free(lcs);
	for (size_t i = 0; i < na && rc == 0; i++) {
		const struct roi_minsn *prev = i > 0 ? &f->ins[i - 1] : NULL;

		if (match[i] >= 0) {
			last = f->owner[i] = block_of(blocks, f->fn, bins[match[i]].addr);
			for (; pending < i; pending++)
				f->owner[pending] = last;
			pending = SIZE_MAX;
			run = 0;
		} else {
			/* after a jump (a nop only jumps reach, a jump over a nop: -O0's code between a
			 * block and the one its flow goes on to), the owner of the next one the two share */
			f->owner[i] = last;
			if (pending == SIZE_MAX && prev && (prev->cls == ROI_MI_JUMP || prev->cls == ROI_MI_IJUMP ||
							   prev->cls == ROI_MI_RET || prev->cls == ROI_MI_STOP))
				pending = i;
			if (++run > 8)
				rc = roi_err_set(err, "%s: the code of %s does not match %s's at 0x%llx (not a "
						 "block-lines build of the same sources?)", blocks->path,
						 f->fn->asm_name, plain->path, (unsigned long long)f->ins[i].addr);
		}
	}
	free(match);
	free(moved);
	free(pinned);
	free(taken);
	free(excluded);
	free(bins);
	f->aligned = true;
	return rc;
}

int roi_mfunc_build(struct roi_mfunc *f, const struct roi_mcode *plain, const struct roi_mcode *blocks,
		    const struct roi_function *fn, struct roi_err *err)
{
	const struct roi_msym *sym = roi_mcode_symbol(plain, fn->asm_name);
	const struct roi_msym *bsym = roi_mcode_symbol(blocks, fn->asm_name);

	memset(f, 0, sizeof *f);
	f->fn = fn;
	if (!sym)
		return roi_err_set(err, "%s: no symbol %s for function %s", plain->path, fn->asm_name, fn->name);
	if (!bsym)
		return roi_err_set(err, "%s: no symbol %s for function %s", blocks->path, fn->asm_name, fn->name);
	if (!sym->size || !bsym->size)
		return roi_err_set(err, "%s: the symbol %s has no size", sym->size ? blocks->path : plain->path,
				   fn->asm_name);
	f->addr = sym->addr;
	f->size = sym->size;
	f->ins = decode_range(plain, sym->addr, sym->size, &f->nins);
	/* a jump to a routine that dispatches through a table: avr-gcc's jump tables */
	for (size_t i = 0; i < f->nins; i++) {
		const struct roi_msym *s = f->ins[i].cls == ROI_MI_JUMP ? roi_mcode_routine_at(plain, f->ins[i].target) : NULL;

		f->ins[i].table = s && strncmp(s->name, "__tablejump", 11) == 0;
	}
	f->owner = roi_xzalloc(f->nins, sizeof *f->owner);
	f->count = roi_xzalloc(f->nins, sizeof *f->count);
	f->taken = roi_xzalloc(f->nins, sizeof *f->taken);
	if (plain->image_crc == blocks->image_crc && sym->addr == bsym->addr && sym->size == bsym->size) {
		for (size_t i = 0; i < f->nins; i++)
			f->owner[i] = block_of(blocks, fn, f->ins[i].addr);
		return 0;
	}
	return align_owners(f, plain, blocks, bsym, err);
}

void roi_mfunc_free(struct roi_mfunc *f)
{
	free(f->ins);
	free(f->owner);
	free(f->count);
	free(f->taken);
	free(f->copies);
	memset(f, 0, sizeof *f);
}

/* ---- the machine code's flow graph ------------------------------------------------------------ */

#define OUTSIDE (-1L)   /* an edge's end outside the function: its entry or its exit */

struct piece {                  /* a straight-line piece of one owner */
	size_t first, last;     /* instructions */
	long owner;
	size_t *in, *out;       /* edges */
	size_t nin, nout, cin, cout;
	bool entry;             /* entered from another owner's code or the function's entry */
};

enum edge_kind { E_FALL, E_TAKEN, E_SKIP, E_TABLE, E_ENTRY, E_EXIT };

struct edge {
	long from, to;          /* pieces, or OUTSIDE */
	enum edge_kind kind;
	double x;
	bool known;
};

struct term {
	size_t edge;
	double coef;
};

struct eq {
	struct term *t;
	size_t n, cap;
	double rhs;
	size_t unknown;         /* terms not known yet */
};

struct graph {
	struct roi_mfunc *f;
	const struct roi_mcode *code;
	const struct roi_counts *counts;
	struct piece *p;
	size_t np;
	struct edge *e;
	size_t ne, ecap;
	struct eq *q;
	size_t nq, qcap;
	size_t **eqs_of;        /* per edge: the equations it is in */
	size_t *neqs_of, *ceqs_of;
	long *piece_of;         /* per instruction */
	bool *has_code;         /* per counted block: some instruction is its */
	long *region;           /* per counted block: its region (make_regions) */
	long (*redge)[2];       /* pairs of regions a machine edge joins, sorted */
	size_t nredge;
	bool *region_code;      /* per region: some instruction is one of its blocks' */
	size_t merged;          /* blocks in another block's region */
};

static size_t add_edge(struct graph *g, long from, long to, enum edge_kind kind)
{
	g->e = roi_xgrow(g->e, g->ne, &g->ecap, sizeof *g->e);
	g->e[g->ne] = (struct edge){from, to, kind, 0, false};
	if (from >= 0) {
		struct piece *p = &g->p[from];
		p->out = roi_xgrow(p->out, p->nout, &p->cout, sizeof *p->out);
		p->out[p->nout++] = g->ne;
	}
	if (to >= 0) {
		struct piece *p = &g->p[to];
		p->in = roi_xgrow(p->in, p->nin, &p->cin, sizeof *p->in);
		p->in[p->nin++] = g->ne;
	}
	return g->ne++;
}

static struct eq *new_eq(struct graph *g, double rhs)
{
	g->q = roi_xgrow(g->q, g->nq, &g->qcap, sizeof *g->q);
	g->q[g->nq] = (struct eq){NULL, 0, 0, rhs, 0};
	return &g->q[g->nq++];
}

static void add_term(struct eq *q, size_t edge, double coef)
{
	for (size_t i = 0; i < q->n; i++)
		if (q->t[i].edge == edge) {
			q->t[i].coef += coef;
			return;
		}
	q->t = roi_xgrow(q->t, q->n, &q->cap, sizeof *q->t);
	q->t[q->n++] = (struct term){edge, coef};
}

/* Which counted blocks have code of their own, from the instructions' owners. */
static void find_code(struct graph *g)
{
	memset(g->has_code, 0, g->f->fn->nblocks * sizeof *g->has_code);
	for (size_t i = 0; i < g->f->nins; i++)
		if (g->f->owner[i] >= 0)
			g->has_code[g->f->owner[i]] = true;
}

/* The instruction at addr, or -1 when none of f's starts there. */
static long insn_at(const struct roi_mfunc *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nins;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->ins[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nins && f->ins[lo].addr == addr ? (long)lo : -1;
}

static bool ends_piece(const struct roi_minsn *in)
{
	return in->cls != ROI_MI_OP && in->cls != ROI_MI_CALL && in->cls != ROI_MI_ICALL;
}

static void cut_pieces(struct graph *g)
{
	struct roi_mfunc *f = g->f;
	bool *lead = roi_xzalloc(f->nins + 1, sizeof *lead);
	size_t cap = 0;

	lead[0] = true;
	for (size_t i = 0; i < f->nins; i++) {
		const struct roi_minsn *in = &f->ins[i];
		long t;

		if (i > 0 && (ends_piece(&f->ins[i - 1]) || f->owner[i] != f->owner[i - 1]))
			lead[i] = true;
		if (in->has_target && in->cls != ROI_MI_CALL && (t = insn_at(f, in->target)) >= 0)
			lead[t] = true;
		if (in->table_entry) {
			uint64_t at[256];
			size_t n = roi_mcode_jump_table(g->code, in, at, 256);

			for (size_t k = 0; k < n; k++)
				if ((t = insn_at(f, at[k])) >= 0)
					lead[t] = true;
		}
	}
	g->piece_of = roi_xzalloc(f->nins, sizeof *g->piece_of);
	for (size_t i = 0; i < f->nins; i++) {
		if (lead[i]) {
			g->p = roi_xgrow(g->p, g->np, &cap, sizeof *g->p);
			g->p[g->np++] = (struct piece){.first = i, .owner = f->owner[i]};
		}
		g->p[g->np - 1].last = i;
		g->piece_of[i] = (long)g->np - 1;
	}
	free(lead);
	g->has_code = roi_xzalloc(f->fn->nblocks, sizeof *g->has_code);
	find_code(g);
}

/* The first piece (by address) of counted block b, following blocks without code along their
 * single successor; -1 when none. */
static long first_piece(const struct graph *g, long b)
{
	for (size_t hops = 0; b >= 0 && hops <= g->f->fn->nblocks; hops++) {
		if (g->has_code[b]) {
			for (size_t i = 0; i < g->np; i++)
				if (g->p[i].owner == b)
					return (long)i;
			return -1;
		}
		if (g->f->fn->blocks[b].nsucc != 1)
			return -1;
		b = g->f->fn->blocks[b].succ[0];
	}
	return -1;
}

/* AVR: the targets of piece k's jump into __tablejump2__, read from the table in the flash: the
 * code before the jump makes Z the index less K (subi r30, lo; sbci r31, hi), the table's word
 * address plus the index, and the range check before it bounds the index (cpi rX, N, or ldi rY, N;
 * cp rX, rY; cpc; a branch around the piece): N words, each a target's word address. How many;
 * 0 when the code is not so. */
static size_t avr_table(const struct graph *g, size_t k, uint64_t *targets, size_t max)
{
	const struct roi_mfunc *f = g->f;
	const struct piece *p = &g->p[k];
	size_t last = p->last, n = 0;
	long i;

	if (g->code->arch != ROI_MARCH_AVR || last < 2 || last - 2 < p->first)
		return 0;
	const struct roi_minsn *sbci = &f->ins[last - 1], *subi = &f->ins[last - 2];
	if (strcmp(sbci->name, "sbci") != 0 || sbci->rd != 31 || strcmp(subi->name, "subi") != 0 || subi->rd != 30)
		return 0;
	unsigned lo = subi->reg_op == ROI_MR_DEC ? (unsigned)subi->imm : (256u - (unsigned)subi->imm) & 0xff;
	unsigned base = (0x10000u - (lo | (unsigned)sbci->imm << 8)) & 0xffff;
	/* the range check: back from the piece past a jump (to the default), a branch, a cpc */
	i = (long)p->first - 1;
	if (i >= 0 && f->ins[i].cls == ROI_MI_JUMP)
		i--;
	if (i < 0 || f->ins[i].cls != ROI_MI_BRANCH || (strcmp(f->ins[i].name, "brcs") != 0 && strcmp(f->ins[i].name, "brcc") != 0))
		return 0;
	i--;
	if (i >= 0 && strcmp(f->ins[i].name, "cpc") == 0)
		i--;
	if (i < 0)
		return 0;
	if (strcmp(f->ins[i].name, "cpi") == 0)
		n = (size_t)f->ins[i].imm;
	else if (strcmp(f->ins[i].name, "cp") == 0 && i > 0 && f->ins[i - 1].reg_op == ROI_MR_LDI &&
		 f->ins[i - 1].rd == f->ins[i].rr)
		n = (size_t)f->ins[i - 1].imm;
	if (n == 0 || n > max)
		return 0;
	for (size_t e = 0; e < n; e++) {
		size_t avail;
		const uint8_t *w = roi_mcode_bytes(g->code, 2 * ((uint64_t)base + e), &avail);

		if (!w || avail < 2)
			return 0;
		targets[e] = 2 * (uint64_t)(w[0] | w[1] << 8);
		long t = insn_at(f, targets[e]);
		if (t < 0 || g->p[g->piece_of[t]].first != (size_t)t)     /* (a piece of its own) */
			return 0;
	}
	return n;
}

/* Where a table jump enters counted block b: the first piece of its (as first_piece) that only
 * table jumps enter, else its first piece; -1 when none. */
static long table_target(const struct graph *g, long b)
{
	long first = first_piece(g, b);

	if (first < 0)
		return -1;
	for (size_t i = (size_t)first; i < g->np; i++) {
		bool other = false;

		if (g->p[i].owner != g->p[first].owner || i == 0)
			continue;
		for (size_t e = 0; e < g->p[i].nin && !other; e++)
			other = g->e[g->p[i].in[e]].kind != E_TABLE;
		if (!other)
			return (long)i;
	}
	return first;
}

/* Whether piece p calls. */
static bool has_call(const struct roi_mfunc *f, const struct piece *p)
{
	for (size_t i = p->first; i <= p->last; i++)
		if (f->ins[i].cls == ROI_MI_CALL || f->ins[i].cls == ROI_MI_ICALL)
			return true;
	return false;
}

static void link_pieces(struct graph *g)
{
	struct roi_mfunc *f = g->f;
	size_t *tables = NULL, ntables = 0, ctables = 0;

	for (size_t k = 0; k < g->np; k++) {
		struct piece *p = &g->p[k];
		const struct roi_minsn *in = &f->ins[p->last];
		long next = k + 1 < g->np ? (long)k + 1 : OUTSIDE;
		long t = in->has_target ? insn_at(f, in->target) : -1;
		long to = t >= 0 ? g->piece_of[t] : OUTSIDE;

		switch (in->cls) {
		case ROI_MI_OP: case ROI_MI_CALL: case ROI_MI_ICALL:
			add_edge(g, (long)k, next, next == OUTSIDE ? E_EXIT : E_FALL);
			break;
		case ROI_MI_BRANCH: case ROI_MI_CRET:
			add_edge(g, (long)k, in->cls == ROI_MI_CRET ? OUTSIDE : to, E_TAKEN);
			add_edge(g, (long)k, next, next == OUTSIDE ? E_EXIT : E_FALL);
			break;
		case ROI_MI_SKIP:
			add_edge(g, (long)k, next, E_FALL);
			add_edge(g, (long)k, to, E_SKIP);
			break;
		case ROI_MI_JUMP:
			if (to == OUTSIDE && in->table)
				goto table;
			add_edge(g, (long)k, to, to == OUTSIDE ? E_EXIT : E_TAKEN);
			break;
		case ROI_MI_IJUMP:
		table:
			/* the table's targets: once every other edge is known (below) */
			tables = roi_xgrow(tables, ntables, &ctables, sizeof *tables);
			tables[ntables++] = k;
			break;
		case ROI_MI_RET: case ROI_MI_STOP:
			add_edge(g, (long)k, OUTSIDE, E_EXIT);
			break;
		}
	}
	/* a table's targets are the entries of the block's successors: of a successor's pieces, the
	 * first that no other edge enters (where the table alone leads: a case whose code ends in a
	 * tail it shares with another case has that tail first by address), else its first */
	for (size_t t = 0; t < ntables; t++) {
		size_t k = tables[t];
		const struct piece *p = &g->p[k];

		uint64_t targets[256];
		size_t ntargets = f->ins[p->last].table ? avr_table(g, k, targets, 256) :
				  roi_mcode_jump_table(g->code, &f->ins[p->last], targets, 256);
		size_t before = g->ne;
		/* the table itself says where it leads (Thumb: the table after TBB, TBH, LDR PC) */
		for (size_t t2 = 0; t2 < ntargets; t2++) {
			long ti = insn_at(f, targets[t2]), to, dup = 0;

			if (ti < 0)
				continue;
			to = g->piece_of[ti];
			for (size_t e = before; e < g->ne; e++)
				dup |= g->e[e].to == to;
			if (!dup)
				add_edge(g, (long)k, to, E_TABLE);
		}
		if (g->ne > before)
			continue;
		if (p->owner >= 0) {
			const struct roi_block *b = &f->fn->blocks[p->owner];
			size_t before = g->ne;

			for (size_t s = 0; s < b->nsucc; s++) {
				long fp = table_target(g, b->succ[s]), dup = 0;

				for (size_t e = before; e < g->ne; e++)
					dup |= g->e[e].to == fp;
				if (fp >= 0 && !dup)
					add_edge(g, (long)k, fp, E_TABLE);
			}
			if (g->ne > before)
				continue;
		}
		add_edge(g, (long)k, OUTSIDE, E_EXIT);
	}
	free(tables);
	/* the function's entry */
	add_edge(g, OUTSIDE, 0, E_ENTRY);
	/* an island: a piece of one block amid another block's straight-line code, entered and left
	 * by falling through, is code the compiler moved there (a loop latch's copy, an invariant): it
	 * runs as often as the code around it (amid the prologue and the epilogue, which are no
	 * block's, one that calls is no invariant the compiler moved there but the function's one
	 * block at -O0, and keeps it: its calls are priced by that block's value counters) */
	for (size_t k = 1; k + 1 < g->np; k++) {
		struct piece *p = &g->p[k];

		if (p->nin == 1 && p->nout == 1 && g->e[p->in[0]].kind == E_FALL && g->e[p->out[0]].kind == E_FALL &&
		    g->e[p->in[0]].from >= 0 && g->e[p->out[0]].to >= 0 &&
		    g->p[g->e[p->in[0]].from].owner == g->p[g->e[p->out[0]].to].owner &&
		    g->p[g->e[p->in[0]].from].owner != p->owner &&
		    (g->p[g->e[p->in[0]].from].owner >= 0 || !has_call(f, p))) {
			p->owner = g->p[g->e[p->in[0]].from].owner;
			for (size_t i = p->first; i <= p->last; i++)
				f->owner[i] = p->owner;
		}
	}
	/* a prologue the compiler moved past a block's test (shrink-wrapping: cbz r1, L; push {r4, lr};
	 * or cmp r1, r2; blt L; bx lr; L: push {r4, lr}), entered from that block's code and going on
	 * into a block's: it is on that block's way on, not the way out of the function */
	for (size_t k = 1; k < g->np; k++) {
		struct piece *p = &g->p[k];

		if (p->owner == ROI_OWN_FN && p->nin == 1 && p->nout == 1 &&
		    (g->e[p->in[0]].kind == E_FALL || g->e[p->in[0]].kind == E_TAKEN) &&
		    g->e[p->in[0]].from >= 0 && g->p[g->e[p->in[0]].from].owner >= 0 && g->e[p->out[0]].to >= 0 &&
		    g->p[g->e[p->out[0]].to].owner >= 0) {
			p->owner = g->p[g->e[p->in[0]].from].owner;
			for (size_t i = p->first; i <= p->last; i++)
				f->owner[i] = p->owner;
		}
	}
	find_code(g);
	for (size_t k = 0; k < g->np; k++)
		for (size_t i = 0; i < g->p[k].nin; i++) {
			const struct edge *e = &g->e[g->p[k].in[i]];

			if (e->from == OUTSIDE || g->p[e->from].owner != g->p[k].owner)
				g->p[k].entry = true;
		}
}

/* Regions: a counted block whose decision left no branch in its code (the compiler made its arms
 * branchless: an abs, a conditional move, a skip over one instruction, Thumb's IT block) is one
 * region with its arms, whose code then runs as often as the block; every other block is a
 * region of its own. */
static long find(long *up, long b)
{
	while (up[b] != b)
		b = up[b] = up[up[b]];
	return b;
}

static long transition(const struct graph *g, size_t m, size_t k, bool past_code, long *bypassed);
static void region_edges(struct graph *g);

static void flatten_regions(struct graph *g)
{
	const struct roi_function *fn = g->f->fn;

	memset(g->region_code, 0, fn->nblocks * sizeof *g->region_code);
	for (size_t b = 0; b < fn->nblocks; b++) {
		g->region[b] = find(g->region, (long)b);
		g->region_code[g->region[b]] |= g->has_code[b];
	}
	region_edges(g);
}

/* Piece p's instructions are block b's code: the regions' code and edges follow. */
static void give_piece(struct graph *g, struct piece *p, long b)
{
	p->owner = b;
	for (size_t i = p->first; i <= p->last; i++)
		g->f->owner[i] = b;
	find_code(g);
	flatten_regions(g);
}

/* Whether piece k is straight-line code another region's code alone falls or branches into, and
 * that falls or jumps on: maybe code the compiler moved there (make_regions). */
static bool on_the_way(const struct graph *g, size_t k)
{
	const struct piece *p = &g->p[k];
	long from = p->nin == 1 ? g->e[p->in[0]].from : -1;

	return p->nout == 1 && p->owner >= 0 && from >= 0 && g->p[from].owner >= 0 &&
	       (g->e[p->in[0]].kind == E_FALL || g->e[p->in[0]].kind == E_TAKEN) &&
	       (g->e[p->out[0]].kind == E_FALL || g->f->ins[p->last].cls == ROI_MI_JUMP) &&
	       g->region[g->p[from].owner] != g->region[p->owner];
}

static void make_regions(struct graph *g)
{
	const struct roi_function *fn = g->f->fn;
	const struct roi_mfunc *f = g->f;

	g->region = roi_xzalloc(fn->nblocks, sizeof *g->region);
	g->region_code = roi_xzalloc(fn->nblocks, sizeof *g->region_code);
	for (size_t b = 0; b < fn->nblocks; b++)
		g->region[b] = (long)b;
	for (size_t a = 0; a < fn->nblocks; a++) {
		bool decides = false;

		if (fn->blocks[a].nsucc < 2 || fn->blocks[a].value)
			continue;
		for (size_t k = 0; k < g->np && !decides; k++) {
			const struct roi_minsn *in = &f->ins[g->p[k].last];

			decides = g->p[k].owner == (long)a &&
				  (in->cls == ROI_MI_BRANCH || in->cls == ROI_MI_SKIP || in->cls == ROI_MI_CRET ||
				   in->cls == ROI_MI_IJUMP || in->table);
		}
		/* (no code of its own, but its arms' are conditional, in an IT block: its test is
		 * there too, wherever the line table put it) */
		bool arms_it = false;
		for (size_t i = 0; i < f->nins && !g->has_code[a] && !arms_it; i++)
			for (size_t s = 0; s < fn->blocks[a].nsucc && !arms_it; s++)
				arms_it = f->ins[i].in_it && f->owner[i] == fn->blocks[a].succ[s];
		if (decides || (!g->has_code[a] && !arms_it))
			continue;
		for (size_t s = 0; s < fn->blocks[a].nsucc; s++)
			if (fn->blocks[a].succ[s] >= 0)
				g->region[find(g->region, fn->blocks[a].succ[s])] = find(g->region, (long)a);
	}
	flatten_regions(g);
	/* hoisted code: a piece of one block that the piece before it falls into, and that falls or
	 * jumps on, where no counted edge leads from the block before into its block (the compiler
	 * moved a loop invariant out to an outer loop, keeping its location), runs as often as the
	 * code before it. So does one that falls from a region's code back into the same region's
	 * whatever the counted edges: a loop's if-converted arms (Thumb's IT blocks) with a piece of
	 * its latch scheduled amid them (the counter's decrement), where the edges into and out of
	 * the latch would each be counted once more per trip than they run */
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t k = 1; k < g->np; k++) {
			struct piece *p = &g->p[k];
			long a, b;
			bool expected = false;

			if (!on_the_way(g, k))
				continue;
			a = g->region[g->p[g->e[p->in[0]].from].owner];
			b = g->region[p->owner];
			long next = g->e[p->out[0]].to;
			bool between = next >= 0 && g->p[next].owner >= 0 && g->region[g->p[next].owner] == a &&
				       g->e[p->out[0]].kind == E_FALL;
			/* (or one a branch of a region's code alone enters, falling back into that
			 * region's code, where no counted edge leads from that region to its block: a
			 * piece of a loop's latch placed before the loop's first piece, which the loop's
			 * entry jumps over) */
			bool taken = g->e[p->in[0]].kind == E_TAKEN;
			if (taken && !between)
				continue;
			for (size_t m = 0; m < fn->nblocks && !expected && (!between || taken); m++)
				for (size_t s = 0; g->region[m] == a && !fn->blocks[m].value && s < fn->blocks[m].nsucc; s++)
					expected |= transition(g, m, s, false, NULL) == b;
			/* (a piece the code before it only falls into runs as often as that code: it is on
			 * that code's way on, a loop's set-up the compiler put between it and a jump to the
			 * loop, when its block keeps code of its own elsewhere, or is reached from other code
			 * too, which jumps past this: a join's jump after one of its arms) */
			bool keeps = false;
			for (size_t q = 0; q < g->np && !keeps; q++)
				keeps = q != k && g->p[q].owner == p->owner && !on_the_way(g, q);
			for (size_t m = 0; m < fn->nblocks && !keeps; m++)
				for (size_t s = 0; g->region[m] != a && !fn->blocks[m].value && s < fn->blocks[m].nsucc; s++)
					keeps |= fn->blocks[m].succ[s] == p->owner;
			if (expected && !(keeps && g->p[g->e[p->in[0]].from].nout == 1))
				continue;
			give_piece(g, p, g->p[g->e[p->in[0]].from].owner);
			changed = true;
		}
	}
	/* a join's code under an arm's line (if (x) y++; then z's first instructions given y's line):
	 * a piece that a test branches to and that the test's other way, an arm in the piece's own
	 * region, falls into, and that goes on into a region both the test's and the arm's lead to,
	 * is that region's code */
	for (size_t k = 1; k < g->np; k++) {
		struct piece *p = &g->p[k];
		long x = -1, d = -1, next, a, b, c;
		bool ab = false, ac = false, bc = false;

		if (p->nin != 2 || p->nout != 1 || p->owner < 0 || (next = g->e[p->out[0]].to) < 0 ||
		    g->p[next].owner < 0)
			continue;
		for (size_t i = 0; i < 2; i++) {
			long from = g->e[p->in[i]].from;

			if (from < 0 || g->p[from].owner < 0)
				break;
			if (g->e[p->in[i]].kind == E_FALL && g->p[from].nout == 1)
				x = from;
			else if (g->p[from].nout == 2)
				d = from;
		}
		if (x < 0 || d < 0 || g->region[g->p[x].owner] != g->region[p->owner] ||
		    (g->e[g->p[d].out[0]].to != x && g->e[g->p[d].out[1]].to != x))
			continue;
		a = g->region[g->p[d].owner];
		b = g->region[p->owner];
		c = g->region[g->p[next].owner];
		if (a == b || b == c || a == c)
			continue;
		for (size_t m = 0; m < fn->nblocks; m++)
			for (size_t s = 0; !fn->blocks[m].value && s < fn->blocks[m].nsucc; s++) {
				long t = transition(g, m, s, false, NULL);

				ab |= g->region[m] == a && t == b;
				ac |= g->region[m] == a && t == c;
				bc |= g->region[m] == b && t == c;
			}
		if (!ab || !ac || !bc)
			continue;
		give_piece(g, p, g->p[next].owner);
	}
	g->merged = 0;
	for (size_t b = 0; b < fn->nblocks; b++)
		g->merged += g->region[b] != (long)b;
}

/* A piece's region; ROI_OWN_FN for the prologue and epilogue. */
static long region_of(const struct graph *g, long piece)
{
	return g->p[piece].owner >= 0 ? g->region[g->p[piece].owner] : ROI_OWN_FN;
}

#define TO_EXIT (-2L)   /* a transition's target: out of the function */
#define TO_SELF (-3L)   /* back to its region's first block */

/* Where counted block m's k-th edge leads in regions: another region (through blocks with no
 * code of their own), TO_EXIT, TO_SELF, or -1 when it stays inside m's region. */
/* Whether a -> h is a loop's back edge: h is the header of a loop that holds a (without the
 * loop nest, which older metadata lacks: a block numbered after h). */
static bool back_edge(const struct roi_function *fn, long a, long h)
{
	if (!fn->has_loops)
		return a >= h;
	for (size_t l = 0; l < fn->nloops; l++)
		if ((long)fn->loops[l].header == h)
			for (size_t i = 0; i < fn->loops[l].nblocks; i++)
				if ((long)fn->loops[l].blocks[i] == a)
					return true;
	return false;
}

/* Whether some machine edge leads from region a's code into region b's. */
static bool region_edge(const struct graph *g, long a, long b)
{
	size_t lo = 0, hi = g->nredge;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->redge[mid][0] < a || (g->redge[mid][0] == a && g->redge[mid][1] < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nredge && g->redge[lo][0] == a && g->redge[lo][1] == b;
}

static int by_pair(const void *x, const void *y)
{
	const long *a = x, *b = y;

	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] != b[1] ? (a[1] < b[1] ? -1 : 1) : 0;
}

static void region_edges(struct graph *g)
{
	size_t cap = 0;

	g->nredge = 0;
	for (size_t e = 0; e < g->ne; e++) {
		const struct edge *x = &g->e[e];

		if (x->from < 0 || x->to < 0 || g->p[x->from].owner < 0 || g->p[x->to].owner < 0 ||
		    g->region[g->p[x->from].owner] == g->region[g->p[x->to].owner])
			continue;
		g->redge = roi_xgrow(g->redge, g->nredge, &cap, sizeof *g->redge);
		g->redge[g->nredge][0] = g->region[g->p[x->from].owner];
		g->redge[g->nredge++][1] = g->region[g->p[x->to].owner];
	}
	roi_sort(g->redge, g->nredge, sizeof *g->redge, by_pair);
}

/* Whether every way on from block t through blocks without code leads to one region's code, or
 * every one out of the function: *to gets the first block reached (-1: the exit), *last a block
 * that leads there. */
static bool sole_way_on(const struct graph *g, long t, long *to, long *last)
{
	const struct roi_function *fn = g->f->fn;
	long *stack = roi_xzalloc(fn->nblocks + 1, sizeof *stack), reached = -2;
	bool *seen = roi_xzalloc(fn->nblocks + 1, sizeof *seen), one = true;
	size_t n = 0;

	stack[n++] = t;
	seen[t] = true;
	while (n && one) {
		long b = stack[--n];

		for (size_t s = 0; s < fn->blocks[b].nsucc && one; s++) {
			long x = fn->blocks[b].succ[s];

			if (x >= 0 && !g->region_code[g->region[x]]) {
				if (!seen[x]) {
					seen[x] = true;
					stack[n++] = x;
				}
				continue;
			}
			if (reached == -2) {
				reached = x;
				*to = x;
				*last = b;
			} else {
				one = (x < 0 && reached < 0) || (x >= 0 && reached >= 0 && g->region[x] == g->region[reached]);
			}
		}
	}
	free(stack);
	free(seen);
	return one && reached != -2;
}

/* Where counted block m's k-th edge leads in regions: another region (through blocks with no code
 * of their own, and blocks whose code no machine edge from m's region reaches, which the compiler
 * jumped past, with past_code: their single successor's region when m's region reaches that),
 * TO_EXIT, TO_SELF, or -1 when it stays inside m's region. bypassed (optional): the blocks jumped
 * past, -1 after. */
static long transition(const struct graph *g, size_t m, size_t k, bool past_code, long *bypassed)
{
	const struct roi_function *fn = g->f->fn;
	long from = g->region[m], t = fn->blocks[m].succ[k], prev = (long)m;
	size_t nb = 0;

	for (size_t hops = 0; t >= 0 && hops <= fn->nblocks; hops++) {
		long r = g->region[t];

		if (r == from)
			break;
		if (g->region_code[r]) {
			if (!past_code || region_edge(g, from, r) || fn->blocks[t].nsucc != 1)
				break;
			/* jumped past: only when the code after it is reached */
			long next = fn->blocks[t].succ[0];
			if (next < 0 || g->region[next] == from || !region_edge(g, from, g->region[next]))
				break;
			if (bypassed)
				bypassed[nb++] = t;
			prev = t;
			t = next;
			continue;
		}
		if (fn->blocks[t].nsucc != 1) {
			/* a block without code that decides: where its flow goes, no code says, unless
			 * every way on through blocks without code (arms made branchless, their code
			 * amid another region's) leads into one region's code */
			long out = -1, last = -1;
			if (!sole_way_on(g, t, &out, &last)) {
				if (bypassed)
					bypassed[0] = -1;
				return -1;
			}
			prev = last;
			t = out;
			continue;
		}
		prev = t;
		t = fn->blocks[t].succ[0];
	}
	if (bypassed)
		bypassed[nb] = -1;
	if (t < 0)
		return TO_EXIT;
	if (g->region[t] != from)
		return g->region_code[g->region[t]] ? g->region[t] : -1;
	return t == from && back_edge(fn, prev, t) ? TO_SELF : -1;
}

/* What a loop inside block b runs its body for, one per statement that makes such a loop, in
 * the order of the statements: the steps of a shift by a run-time amount (a value counter), the
 * bytes of a copy (a copy's bytes, or the value counter of a memory routine expanded inline: not
 * one the block's code calls). per_entry: the body runs once more per entry (strlen's loop reads
 * the terminating byte, which its count leaves out). */
struct loop_value {
	double v;
	bool per_entry;
};

static bool calls_routine(const struct graph *g, long b, const char *name, const struct roi_mcode *c)
{
	const struct roi_mfunc *f = g->f;

	for (size_t i = 0; c && i < f->nins; i++)
		if (f->owner[i] == b && f->ins[i].cls == ROI_MI_CALL) {
			const struct roi_msym *s = roi_mcode_routine_at(c, f->ins[i].target);
			if (s && strcmp(s->name, name) == 0)
				return true;
		}
	return false;
}

static size_t loop_values(const struct graph *g, long b, bool shifts, struct loop_value *out, size_t max)
{
	const struct roi_function *fn = g->f->fn;
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++)     /* the block's own rows, then its value counters */
		for (size_t k = 0; k < fn->nblocks; k++) {
			const struct roi_block *blk = &fn->blocks[k];
			uint64_t c = roi_block_count(g->counts, fn, k);

			if (pass == 0 ? (long)k != b || blk->value : !blk->value || blk->site != b)
				continue;
			for (size_t r = 0; r < blk->nops && n < max; r++) {
				const struct roi_op *op = &fn->unit->ops[blk->ops[r].op];
				double v = (double)c * (double)blk->ops[r].n;

				if (shifts && blk->value && roi_kind_is(op->kind, ROI_KIND(STEPS), NULL, NULL) && op->type &&
				    op->type[0] != 'f' && atoi(op->type + 1) <= 32)
					out[n++] = (struct loop_value){v, false};
				else if (!shifts && roi_kind_is(op->kind, ROI_KIND(BYTES), NULL, NULL) &&
					 (!op->callee || !calls_routine(g, b, op->callee, g->code)))
					out[n++] = (struct loop_value){v, op->callee && strcmp(op->callee, "strlen") == 0};
			}
		}
	return n;
}

/* The constant a Thumb register holds at instruction i (searching back through the straight-line
 * code of block b before it): from MOVS/MOV.W/MOVW rX, #k; else false. */
static bool thumb_constant(const struct roi_mfunc *f, size_t i, long b, unsigned reg, long long *v)
{
	for (size_t k = 0; i-- > 0 && k < 16 && f->owner[i] == b && f->ins[i].cls == ROI_MI_OP; k++) {
		const struct roi_minsn *in = &f->ins[i];

		if (in->writes & (1u << reg)) {
			if (in->reg_op != ROI_MR_LDI || in->rd != reg || in->conditional)
				return false;
			*v = (unsigned)in->imm;
			return true;
		}
	}
	return false;
}

/* Thumb's loop of a constant count whose body h..u is straight-line code: a counter stepped by a
 * constant once a trip, to a constant or to an end register set to the counter plus a constant
 * before the loop (a struct copy: add.w r7, r3, #40; L: ... adds r3, #8; cmp r3, r7; bne L), or
 * stepped down to 0 (subs r3, #1; bne L). Its trips per entry; 0 when not such a loop. */
static double thumb_trips(const struct graph *g, const struct piece *h, const struct piece *u)
{
	const struct roi_mfunc *f = g->f;
	const struct roi_minsn *br = &f->ins[u->last], *test;
	long step = 0, stepper = -1;
	long long start, end;
	unsigned x, y = 16;

	if (br->cls != ROI_MI_BRANCH || br->cond != 1 || br->conditional || u->last == h->first)
		return 0;
	for (size_t i = h->first; i < u->last; i++)
		if (f->ins[i].cls != ROI_MI_OP || f->owner[i] != h->owner)
			return 0;
	/* the test: the last instruction before the branch that sets the flags */
	size_t t = u->last;
	while (t-- > h->first && !f->ins[t].flags)
		;
	if (t == (size_t)-1 || t < h->first)
		return 0;
	test = &f->ins[t];
	if (test->reg_op == ROI_MR_CMP) {
		x = test->rd;
		if (!test->cmp_imm)
			y = test->rs;
	} else if (test->reg_op == ROI_MR_DEC && !test->conditional) {
		x = test->rd;
	} else {
		return 0;
	}
	/* the counter stepped once, nothing else written to it or to the end */
	for (size_t i = h->first; i < u->last; i++) {
		const struct roi_minsn *in = &f->ins[i];

		if (y < 16 && (in->writes & (1u << y)))
			return 0;
		if (!(in->writes & (1u << x)))
			continue;
		if (stepper >= 0 || in->rd != x || in->conditional || (in->reg_op != ROI_MR_INC && in->reg_op != ROI_MR_DEC))
			return 0;
		stepper = (long)i;
		step = in->reg_op == ROI_MR_INC ? in->imm : -in->imm;
	}
	if (stepper < 0 || step == 0)
		return 0;
	if (test->reg_op == ROI_MR_DEC)                 /* subs x, #s; bne: down to 0 */
		return thumb_constant(f, h->first, h->owner, x, &start) && start > 0 && start % -step == 0 && step < 0
		       ? (double)(start / -step) : 0;
	if (y == 16) {                                  /* cmp x, #n */
		if (!thumb_constant(f, h->first, h->owner, x, &start))
			return 0;
		end = (unsigned)test->imm;
	} else {
		/* y = x + k before the loop, x not written between: k over the step */
		size_t i = h->first, k = 0;

		for (; i-- > 0 && k < 16 && f->owner[i] == h->owner && f->ins[i].cls == ROI_MI_OP; k++) {
			const struct roi_minsn *in = &f->ins[i];

			if (in->writes & (1u << x))
				return 0;
			if (in->writes & (1u << y))
				break;
		}
		if (i == (size_t)-1 || k == 16 || f->owner[i] != h->owner || f->ins[i].reg_op != ROI_MR_ADD ||
		    f->ins[i].rd != y || f->ins[i].rs != x || f->ins[i].conditional)
			return 0;
		start = 0;
		end = f->ins[i].imm;
	}
	if ((end - start) % step != 0 || (end - start) / step <= 0)
		return 0;
	return (double)((end - start) / step);
}

/* The number of times a dec/brne loop whose latch is piece u and header h runs its body per entry,
 * from the constant its counter register was loaded with before h; 0 when not such a loop. */
static double constant_trips(const struct graph *g, const struct piece *h, const struct piece *u)
{
	const struct roi_mfunc *f = g->f;
	const struct roi_minsn *br = &f->ins[u->last], *dec;

	if (g->code->arch == ROI_MARCH_ARM)
		return thumb_trips(g, h, u);

	if (u->last == u->first || br->cls != ROI_MI_BRANCH || strcmp(br->name, "brne") != 0)
		return 0;
	dec = &f->ins[u->last - 1];
	/* avr-gcc's count by a walking bit: set; bld rN, n before the loop, lsr rN at its end: n + 1 */
	if (strcmp(dec->name, "lsr") == 0) {
		for (size_t i = h->first, k = 0; i-- > 0 && k < 12 && f->owner[i] == h->owner; k++) {
			const struct roi_minsn *in = &f->ins[i];

			if (in->cls != ROI_MI_OP)
				break;
			if (strcmp(in->name, "bld") == 0 && in->rd == dec->rd)
				return i > 0 && strcmp(f->ins[i - 1].name, "bset") == 0 ? in->imm + 1 : 0;
			if (in->rd == dec->rd && in->reg_op != ROI_MR_NONE)
				return 0;
		}
		return 0;
	}
	if (dec->reg_op != ROI_MR_DEC || dec->imm <= 0)
		return 0;
	long lo = -1, hi = -1;
	for (size_t i = h->first, k = 0; i-- > 0 && k < 12 && f->owner[i] == h->owner; k++) {
		const struct roi_minsn *in = &f->ins[i];

		if (in->cls != ROI_MI_OP)
			break;
		if (in->reg_op == ROI_MR_LDI && in->rd == dec->rd && lo < 0)
			lo = in->imm;
		else if (in->reg_op == ROI_MR_LDI && dec->wide && in->rd == dec->rd + 1 && hi < 0)
			hi = in->imm;
		else if (in->rd == dec->rd && in->reg_op != ROI_MR_NONE && lo < 0)
			return 0;
	}
	if (lo < 0 || (dec->wide && hi < 0))
		return 0;
	double k = dec->wide ? (double)(lo | hi << 8) : (double)lo;
	if (k == 0)
		k = dec->wide ? 65536 : 256;
	return k / dec->imm == floor(k / dec->imm) ? k / dec->imm : 0;
}

/* Whether no machine edge leads from region a's code into region r's, which decides, while some
 * lead from a's code to where r's decision leads: the compiler copied r's decision into a's code
 * (jump threading), and a's code goes two or more of the ways r's decision goes. ahead: those
 * regions (NAHEAD at most); how many, 0 when not so. */
#define NAHEAD 8
#define NSRC 8          /* regions whose flow misplaced code passes on, at most */
static size_t threaded(const struct graph *g, long a, long r, long *ahead)
{
	const struct roi_function *fn = g->f->fn;
	size_t n = 0, nsucc = 0;

	if (region_edge(g, a, r))
		return 0;
	/* nor through straight-line code of other blocks placed before r's (a loop's latch jumping
	 * back to its body's code the compiler put before the loop's test) */
	for (size_t e = 0; e < g->ne; e++) {
		long p = g->e[e].to;

		if (g->e[e].from < 0 || p < 0 || region_of(g, g->e[e].from) != a || region_of(g, p) == a)
			continue;
		for (size_t steps = 0; p >= 0 && steps < 64; steps++) {
			if (region_of(g, p) == r)
				return 0;
			if (g->p[p].nout != 1 || region_of(g, p) == a)
				break;
			p = g->e[g->p[p].out[0]].to;
		}
	}
	for (size_t m = 0; m < fn->nblocks; m++) {
		if (g->region[m] != r || fn->blocks[m].value)
			continue;
		for (size_t s = 0; s < fn->blocks[m].nsucc; s++) {
			long t = transition(g, m, s, true, NULL);
			size_t d;

			if (t < 0 || t == r)
				continue;
			nsucc++;
			for (d = 0; d < n && ahead[d] != t; d++)
				;
			if (d == n && n < NAHEAD && region_edge(g, a, t))
				ahead[n++] = t;
		}
	}
	return nsucc >= 2 && n >= 2 ? n : 0;      /* a decision: a's code goes two of its ways */
}

/* The rest of a tail shared from region r's code up to region z: the regions with code that r's
 * blocks lead to, one after the other, each along its one counted edge and a machine edge, until
 * z (a case's "push; test; push; test" shared by another case up to the join). Their number (at
 * most NTAIL) into chain; 0 when no one such way leads there. */
#define NTAIL 8
static size_t shared_tail(const struct graph *g, long r, long z, long *chain)
{
	const struct roi_function *fn = g->f->fn;

	for (size_t m = 0; m < fn->nblocks; m++)
		for (size_t k = 0; g->region[m] == r && !fn->blocks[m].value && k < fn->blocks[m].nsucc; k++) {
			long t = fn->blocks[m].succ[k], at = r;
			size_t n = 0;

			for (; t >= 0 && n < NTAIL && g->region[t] != z; n++) {
				if (g->region[t] == at || !g->region_code[g->region[t]] || !region_edge(g, at, g->region[t]) ||
				    fn->blocks[t].nsucc != 1 || fn->blocks[t].value)
					break;
				chain[n] = at = g->region[t];
				t = transition(g, (size_t)t, 0, true, NULL);    /* (a region: its first block) */
			}
			if (n > 0 && n < NTAIL && t >= 0 && g->region[t] == z)
				return n;
		}
	return 0;
}

/* A counted edge between regions: from's code goes on into to's. */
struct pair {
	long from, to;
};

/* Whether machine edge e enters another region where a counted edge leads (not a jump into code
 * another block shares): from its region's code, or through misplaced code (clear, src) from the
 * regions that lead into that. */
static bool entry_expected(const struct graph *g, size_t e, const bool *clear, long (*src)[NSRC],
			   const struct pair *pairs, size_t npairs)
{
	const struct edge *x = &g->e[e];
	long a = x->from >= 0 ? region_of(g, x->from) : ROI_OWN_FN;
	long to = region_of(g, x->to);
	bool through = x->from >= 0 && clear[x->from];
	bool expected = a < 0 ? to == g->region[0] : false;

	for (size_t j = 0; j < NSRC && !expected; j++) {
		long from = through ? src[x->from][j] : j == 0 ? a : TO_EXIT;

		if (from == TO_EXIT)
			break;
		expected = from == ROI_OWN_FN && to == g->region[0];
		for (size_t i = 0; i < npairs && !expected; i++)
			expected = pairs[i].from == from && pairs[i].to == to;
	}
	return expected;
}

static void build_equations(struct graph *g)
{
	struct roi_mfunc *f = g->f;
	const struct roi_function *fn = f->fn;

	/* conservation: what enters a piece leaves it */
	for (size_t k = 0; k < g->np; k++) {
		struct eq *q = new_eq(g, 0);

		for (size_t i = 0; i < g->p[k].nin; i++)
			add_term(q, g->p[k].in[i], 1);
		for (size_t i = 0; i < g->p[k].nout; i++)
			add_term(q, g->p[k].out[i], -1);
	}
	/* the entry: the function's calls */
	for (size_t e = 0; e < g->ne; e++)
		if (g->e[e].kind == E_ENTRY)
			add_term(new_eq(g, (double)roi_block_count(g->counts, fn, 0)), e, 1);

	/* the counted edges: the machine edges from a region's code into another region's entry carry
	 * what the counted edges between them carried; a region's code to the epilogue or out of the
	 * function what its edges to the exit carried; its loop back to itself likewise */
	make_regions(g);
	for (size_t k = 0; k < g->np; k++) {
		g->p[k].entry = false;
		for (size_t i = 0; i < g->p[k].nin; i++) {
			const struct edge *x = &g->e[g->p[k].in[i]];

			if (x->from == OUTSIDE || region_of(g, x->from) != region_of(g, (long)k))
				g->p[k].entry = true;
		}
	}
	/* a region that loops back to itself: its back edge is the machine one to its earliest piece
	 * (code the compiler hoisted out of the loop may come before it) */
	long *self = roi_xzalloc(fn->nblocks + 1, sizeof *self);
	bool *loops_back = roi_xzalloc(fn->nblocks + 1, sizeof *loops_back);
	for (size_t b = 0; b < fn->nblocks; b++) {
		self[b] = -1;
		for (size_t k = 0; k < fn->blocks[b].nsucc; k++)
			if (!fn->blocks[b].value && transition(g, b, k, true, NULL) == TO_SELF)
				loops_back[g->region[b]] = true;
	}
	for (size_t e = 0; e < g->ne; e++) {
		const struct edge *x = &g->e[e];
		long r = x->from >= 0 ? region_of(g, x->from) : ROI_OWN_FN;

		if (r < 0 || !loops_back[r] || x->to < 0 || x->to > x->from || region_of(g, x->to) != r)
			continue;
		if (self[r] < 0 || x->to < g->e[self[r]].to || (x->to == g->e[self[r]].to && x->from > g->e[self[r]].from))
			self[r] = (long)e;
	}
	/* unless the loop was rotated: where the region has one piece other code enters (its
	 * header) and one edge of its own leads back there, that is its back edge, forward or not
	 * (a loop entered at its test in the middle of its code, the test's branch back to itself
	 * over the jump out) */
	long *header = roi_xzalloc(fn->nblocks + 1, sizeof *header), *hback = roi_xzalloc(fn->nblocks + 1, sizeof *hback);
	for (size_t b = 0; b < fn->nblocks; b++)
		header[b] = hback[b] = -1;
	for (size_t k = 0; k < g->np; k++) {
		long r = region_of(g, (long)k);

		if (r >= 0 && loops_back[r] && g->p[k].entry)
			header[r] = header[r] == -1 ? (long)k : -2;
	}
	for (size_t e = 0; e < g->ne; e++) {
		const struct edge *x = &g->e[e];
		long r = x->from >= 0 ? region_of(g, x->from) : ROI_OWN_FN;

		if (r >= 0 && header[r] >= 0 && x->to == header[r] && x->kind != E_FALL)
			hback[r] = hback[r] == -1 ? (long)e : -2;
	}
	for (size_t b = 0; b < fn->nblocks; b++)
		if (hback[b] >= 0 && self[b] >= 0 && g->e[self[b]].to != header[b])
			self[b] = hback[b];
	free(header);
	free(hback);
	/* what enters each region: the counted edges into it from other regions (through blocks
	 * without code, and past code the compiler jumped over); what leaves the function */
	double *in = roi_xzalloc(fn->nblocks + 1, sizeof *in), *back = roi_xzalloc(fn->nblocks + 1, sizeof *back);
	double out = 0;
	double *past = roi_xzalloc(fn->nblocks + 1, sizeof *past);
	long *chain = roi_xzalloc(fn->nblocks + 2, sizeof *chain);
	for (size_t b = 0; b < fn->nblocks; b++)
		for (size_t k = 0; k < fn->blocks[b].nsucc && !fn->blocks[b].value; k++) {
			transition(g, b, k, true, chain);
			for (size_t i = 0; chain[i] >= 0; i++)
				past[chain[i]] += (double)roi_machine_edge_count(g->counts, fn, b, k);
		}
	struct pair *pairs = NULL;
	size_t npairs = 0, cpairs = 0;
	/* per region: the counted flow out of it that no machine edge of its code is known to carry:
	 * an edge into a block without code whose decision no code shows, or into a region its code
	 * has no machine edge to (the way into code shared between blocks, below) */
	double *unreached = roi_xzalloc(fn->nblocks + 1, sizeof *unreached);
	bool *has_unreached = roi_xzalloc(fn->nblocks + 1, sizeof *has_unreached);
	/* those flows: from region from into region to (-1: nowhere a count says), n times; counted
	 * in in[to] already or not (the ways on from a block without code that decides, whose
	 * decision no code shows: its own code is another block's, shared) */
	struct uflow {
		long from, to, decider;
		size_t group;           /* the counted edge it came from */
		double n;
		bool in;
	} *uflows = NULL;
	size_t nuflows = 0, cuflows = 0;
	for (size_t b = 0; b < fn->nblocks; b++)
		for (size_t k = 0; k < fn->blocks[b].nsucc && !fn->blocks[b].value; k++) {
			long to = transition(g, b, k, true, NULL), from = g->region[b];
			double n = (double)roi_machine_edge_count(g->counts, fn, b, k) - past[b];

			if (!g->region_code[from])
				continue;
			if (to == -1) {
				long t = fn->blocks[b].succ[k];

				if (t >= 0 && g->region[t] != from) {
					unreached[from] += n;
					has_unreached[from] = true;
					/* (through blocks without code to the one that decides) */
					for (size_t hops = 0; !g->region_code[g->region[t]] && fn->blocks[t].nsucc == 1 &&
					     fn->blocks[t].succ[0] >= 0 && hops <= fn->nblocks; hops++)
						t = fn->blocks[t].succ[0];
					bool decides = !g->region_code[g->region[t]] && fn->blocks[t].nsucc > 1;
					for (size_t s = 0; s < (decides ? fn->blocks[t].nsucc : 1); s++) {
						long r = decides ? fn->blocks[t].succ[s] : -1;

						for (size_t hops = 0; r >= 0 && !g->region_code[g->region[r]] &&
						     fn->blocks[r].nsucc == 1 && hops <= fn->nblocks; hops++)
							r = fn->blocks[r].succ[0];
						uflows = roi_xgrow(uflows, nuflows, &cuflows, sizeof *uflows);
						uflows[nuflows++] = (struct uflow){
							from, r >= 0 && g->region_code[g->region[r]] ? g->region[r] : -1,
							decides ? t : -1, b * (fn->nblocks + 1) + k,
							decides ? (double)roi_machine_edge_count(g->counts, fn, (size_t)t, s) : n,
							false};
					}
				}
				continue;
			}
			long ahead[NAHEAD];
			size_t nahead = to >= 0 ? threaded(g, from, to, ahead) : 0;
			if (!nahead && to >= 0 && !region_edge(g, from, to)) {
				unreached[from] += n;
				has_unreached[from] = true;
				uflows = roi_xgrow(uflows, nuflows, &cuflows, sizeof *uflows);
				uflows[nuflows++] = (struct uflow){from, to, -1, b * (fn->nblocks + 1) + k, n, true};
			}
			if (nahead) {
				/* the decision of region to's code was copied into from's (jump threading):
				 * this flow never enters to's code but goes on from from's code to where
				 * to's decision leads, counted on to's own edges */
				for (size_t i = 0; i < nahead; i++) {
					pairs = roi_xgrow(pairs, npairs, &cpairs, sizeof *pairs);
					pairs[npairs++] = (struct pair){from, ahead[i]};
				}
				continue;
			}
			if (to == TO_EXIT)
				out += n;
			else if (to == TO_SELF)
				back[from] += n;
			else
				in[to] += n;
			if (to >= 0) {
				pairs = roi_xgrow(pairs, npairs, &cpairs, sizeof *pairs);
				pairs[npairs++] = (struct pair){from, to};
			}
		}
	in[g->region[0]] += (double)roi_block_count(g->counts, fn, 0);
	free(past);
	free(chain);
	long *entry_eq = roi_xzalloc(fn->nblocks + 1, sizeof *entry_eq);
	for (size_t b = 0; b < fn->nblocks; b++)
		entry_eq[b] = -1;
	long exit_eq = -1;
	/* code misplaced in a block: a piece that only edges no counted edge explains lead into (a
	 * block without code of its own had its instructions located in a neighbour's) passes on the
	 * flow of the regions that lead into it: an edge out of it is theirs */
	long (*src)[NSRC] = roi_xzalloc(g->np + 1, sizeof *src);
	bool *clear = roi_xzalloc(g->np + 1, sizeof *clear);
	for (size_t k = 0; k < g->np; k++) {
		for (size_t i = 0; i < NSRC; i++)
			src[k][i] = TO_EXIT;
		src[k][0] = region_of(g, (long)k);
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t k = 0; k < g->np; k++) {
			long r = region_of(g, (long)k);
			bool all = g->p[k].nin > 0 && r >= 0;

			for (size_t i = 0; i < g->p[k].nin && all; i++) {
				long from = g->e[g->p[k].in[i]].from;

				if (from < 0 || (region_of(g, from) == r && !clear[from])) {
					all = false;
					break;
				}
				for (size_t j = 0; j < NSRC && src[from][j] != TO_EXIT && all; j++) {
					all = !(src[from][j] == ROI_OWN_FN && r == g->region[0]);
					for (size_t q = 0; q < npairs && all; q++)
						all = !(pairs[q].from == src[from][j] && pairs[q].to == r);
				}
			}
			if (!all)
				continue;
			long merged[NSRC];
			size_t n = 0;
			for (size_t i = 0; i < g->p[k].nin; i++) {
				long from = g->e[g->p[k].in[i]].from;

				for (size_t j = 0; j < NSRC && src[from][j] != TO_EXIT; j++) {
					size_t d;
					for (d = 0; d < n && merged[d] != src[from][j]; d++)
						;
					if (d == n && n < NSRC)
						merged[n++] = src[from][j];
				}
			}
			if (!clear[k] || memcmp(merged, src[k], n * sizeof *merged) != 0 ||
			    (n < NSRC && src[k][n] != TO_EXIT)) {
				for (size_t i = 0; i < NSRC; i++)
					src[k][i] = i < n ? merged[i] : TO_EXIT;
				clear[k] = true;
				changed = true;
			}
		}
	}
	/* shared code: GCC's cross-jumping and tail merging made one machine-code sequence serve
	 * several blocks (two loops' identical tests, the tails of a switch's cases), and the line
	 * table names one of them. A region whose code has exactly one machine edge into another
	 * region's code that no counted edge explains, and counted flow that no machine edge of its
	 * code is known to carry, goes on into the shared code along that edge: the edge carries what
	 * its counted edges into the blocks whose code is shared carried, the count of the block that
	 * entered it, not the owner's (kernel-state-machine -O2: the scan loop's test i < len is the
	 * main loop's, -6.7 % before) */
	long *shared_edge = roi_xzalloc(fn->nblocks + 1, sizeof *shared_edge);
	for (size_t b = 0; b < fn->nblocks; b++)
		shared_edge[b] = -1;
	for (size_t e = 0; e < g->ne; e++) {
		const struct edge *x = &g->e[e];
		long a = x->from >= 0 ? region_of(g, x->from) : ROI_OWN_FN;
		long to = x->to >= 0 ? region_of(g, x->to) : ROI_OWN_FN;

		if (a < 0 || to < 0 || a == to || !has_unreached[a] || clear[x->from] || clear[x->to] ||
		    entry_expected(g, e, clear, src, pairs, npairs))
			continue;
		/* (shared: its owner's code goes on into it too, or, forward, a counted edge of its
		 * owner's enters it too; a loop's way back into its first piece is none) */
		bool own = false;
		for (size_t i = 0; i < g->p[x->to].nin && !own; i++) {
			size_t y = g->p[x->to].in[i];
			long from = g->e[y].from;

			own = from >= 0 && (region_of(g, from) == to ||
					    (x->to > x->from && y != e && entry_expected(g, y, clear, src, pairs, npairs)));
		}
		if (!own)
			continue;
		shared_edge[a] = shared_edge[a] == -1 ? (long)e : -2;
	}
	/* where the shared code leads the flows that entered it: into the region the flow's
	 * counted way goes to, which the shared code's region has a machine edge to or is, or on
	 * through the code of the blocks its own blocks lead to, which the compiler shared too, up
	 * to there (a case's tail shared up to the join): those regions are entered that much more
	 * often than their own counted edges say. A region with a flow that cannot be followed so
	 * enters no shared code (a loop's way back through blocks without code to its test) */
	bool *bad = roi_xzalloc(fn->nblocks + 1, sizeof *bad);
	size_t *found = roi_xzalloc(fn->nblocks + 1, sizeof *found);      /* per decider: its group + 1 */
	for (int pass = 0; pass < 2; pass++) {
		memset(found, 0, (fn->nblocks + 1) * sizeof *found);
		for (size_t i = 0; i < nuflows; i++) {
			const struct uflow *u = &uflows[i];
			long r = shared_edge[u->from] >= 0 ? region_of(g, g->e[shared_edge[u->from]].to) : -1, chain[NTAIL];
			size_t n = 0;

			/* (a decider's flow once, however many blocks lead there) */
			if (r < 0 || (u->decider >= 0 && found[u->decider] && found[u->decider] != u->group + 1))
				continue;
			if (u->decider >= 0)
				found[u->decider] = u->group + 1;
			bool ok = u->to >= 0 && (u->to == r || region_edge(g, r, u->to) ||
						 (n = shared_tail(g, r, u->to, chain)) > 0);
			if (pass == 0) {
				bad[u->from] |= !ok && u->n > 0;
				continue;
			}
			for (size_t j = 0; ok && j < n; j++)
				in[chain[j]] += u->n;
			if (ok && !u->in)
				in[u->to] += u->n;
		}
		for (size_t a = 0; pass == 0 && a < fn->nblocks; a++)
			if (bad[a])
				shared_edge[a] = -1;
	}
	free(uflows);
	free(found);
	free(bad);
	for (size_t a = 0; a < fn->nblocks; a++) {
		if (shared_edge[a] < 0)
			continue;
		add_term(new_eq(g, unreached[a]), (size_t)shared_edge[a], 1);
		g->f->shared++;
	}
	for (size_t e = 0; e < g->ne; e++) {
		const struct edge *x = &g->e[e];
		long a = x->from >= 0 ? region_of(g, x->from) : ROI_OWN_FN;
		long to = x->to >= 0 ? region_of(g, x->to) : ROI_OWN_FN;
		bool through = x->from >= 0 && clear[x->from];

		if (x->to == OUTSIDE || to == ROI_OWN_FN) {
			/* out of the function: a return, or into the epilogue */
			bool ret = x->to == OUTSIDE && x->from >= 0 &&
				   (f->ins[g->p[x->from].last].cls == ROI_MI_RET || f->ins[g->p[x->from].last].cls == ROI_MI_CRET);
			if (a < 0 || (x->to == OUTSIDE && !ret))
				continue;
			if (exit_eq < 0) {
				exit_eq = (long)g->nq;
				new_eq(g, out);
			}
			add_term(&g->q[exit_eq], e, 1);
			continue;
		}
		if (a == to && !through) {
			if (a >= 0 && self[a] == (long)e) {
				struct eq *q = new_eq(g, back[a]);
				add_term(q, e, 1);
			}
			continue;
		}
		/* into a region from another: an entry when a counted edge leads there */
		if (!entry_expected(g, e, clear, src, pairs, npairs))
			continue;
		if (entry_eq[to] < 0) {
			entry_eq[to] = (long)g->nq;
			new_eq(g, in[to]);
		}
		add_term(&g->q[entry_eq[to]], e, 1);
	}
	free(entry_eq);
	free(shared_edge);
	free(unreached);
	free(has_unreached);
	free(pairs);
	free(src);
	free(clear);
	free(in);
	free(back);
	free(loops_back);

	/* loops inside one block: a back edge to a piece of the same block, not its own loop's */
	struct iloop {
		size_t h, back;
		long b;
		bool shifts;
		bool done;
	} *loops = NULL;
	size_t nloops = 0, cloops = 0;
	for (size_t k = 0; k < g->np; k++) {
		struct piece *h = &g->p[k];
		long b = h->owner;
		size_t back = 0, nback = 0;

		if (b < 0)
			continue;
		for (size_t i = 0; i < h->nin; i++) {
			const struct edge *x = &g->e[h->in[i]];

			if (x->from >= (long)k && g->p[x->from].owner == b && self[g->region[b]] != (long)h->in[i]) {
				back = h->in[i];
				nback++;
			}
		}
		if (nback != 1)
			continue;
		const struct piece *u = &g->p[g->e[back].from];
		double trips = constant_trips(g, h, u);
		bool shifts = false, memory = false;

		for (size_t i = h->first; i <= u->last; i++) {
			shifts |= f->ins[i].shifts;
			memory |= f->ins[i].memory;
		}
		if (trips > 0) {
			/* back edges: (trips - 1) per entry into the loop */
			struct eq *q = new_eq(g, 0);
			add_term(q, back, 1);
			for (size_t i = 0; i < h->nin; i++)
				if (h->in[i] != back)
					add_term(q, h->in[i], -(trips - 1));
			f->loops_counted++;
			if (memory) {
				f->copies = roi_xrealloc(f->copies, f->ncopies + 1, sizeof *f->copies);
				f->copies[f->ncopies++] = (struct roi_mconst_loop){b, trips};
			}
		} else if (shifts != memory) {
			loops = roi_xgrow(loops, nloops, &cloops, sizeof *loops);
			loops[nloops++] = (struct iloop){k, back, b, shifts, false};
		}
	}
	/* the values of each block's statements to its loops of that kind, in order: one each, or all
	 * to its one loop */
	for (size_t i = 0; i < nloops; i++) {
		struct loop_value v[64];
		size_t same[64], n = 0, nv;

		if (loops[i].done)
			continue;
		for (size_t j = i; j < nloops && n < 64; j++)
			if (loops[j].b == loops[i].b && loops[j].shifts == loops[i].shifts) {
				same[n++] = j;
				loops[j].done = true;
			}
		nv = loop_values(g, loops[i].b, loops[i].shifts, v, 64);
		if (!nv || (n > 1 && nv != n))
			continue;
		if (n == 1)
			for (size_t k = 1; k < nv; k++) {
				v[0].v += v[k].v;
				v[0].per_entry |= v[k].per_entry;
			}
		for (size_t k = 0; k < n; k++) {
			const struct piece *h = &g->p[loops[same[k]].h];
			size_t back = loops[same[k]].back;
			/* the body runs the value's times (strlen's once more per entry) */
			struct eq *q = new_eq(g, v[k].v);

			for (size_t e = 0; e < h->nin; e++)
				if (!v[k].per_entry || h->in[e] == back)
					add_term(q, h->in[e], 1);
			f->loops_counted++;
		}
	}
	free(loops);

	free(self);

	/* which equations each edge is in (terms that cancelled out, a piece's edge to itself, say
	 * nothing) */
	for (size_t i = 0; i < g->nq; i++) {
		size_t kept = 0;

		for (size_t t = 0; t < g->q[i].n; t++)
			if (g->q[i].t[t].coef != 0)
				g->q[i].t[kept++] = g->q[i].t[t];
		g->q[i].n = kept;
	}
	g->eqs_of = roi_xzalloc(g->ne, sizeof *g->eqs_of);
	g->neqs_of = roi_xzalloc(g->ne, sizeof *g->neqs_of);
	g->ceqs_of = roi_xzalloc(g->ne, sizeof *g->ceqs_of);
	for (size_t i = 0; i < g->nq; i++) {
		g->q[i].unknown = g->q[i].n;
		for (size_t t = 0; t < g->q[i].n; t++) {
			size_t e = g->q[i].t[t].edge;
			g->eqs_of[e] = roi_xgrow(g->eqs_of[e], g->neqs_of[e], &g->ceqs_of[e], sizeof **g->eqs_of);
			g->eqs_of[e][g->neqs_of[e]++] = i;
		}
	}
}

/* ---- solving ---------------------------------------------------------------------------------- */

static void set_edge(struct graph *g, size_t e, double x, size_t **work, size_t *nwork, size_t *cwork)
{
	if (x < 0) {
		if (x < -0.5)
			g->f->off++;
		x = 0;
	}
	g->e[e].x = x;
	g->e[e].known = true;
	for (size_t i = 0; i < g->neqs_of[e]; i++) {
		size_t q = g->eqs_of[e][i];

		g->q[q].unknown--;
		*work = roi_xgrow(*work, *nwork, cwork, sizeof **work);
		(*work)[(*nwork)++] = q;
	}
}

/* Solves every equation left with one unknown, and what that gives, until none is left. */
static void propagate(struct graph *g, size_t *work, size_t nwork, size_t cwork)
{
	while (nwork) {
		struct eq *q = &g->q[work[--nwork]];
		double sum = 0;
		size_t u = 0;
		bool have = false;

		if (q->unknown > 1)
			continue;
		for (size_t t = 0; t < q->n; t++) {
			if (g->e[q->t[t].edge].known)
				sum += q->t[t].coef * g->e[q->t[t].edge].x;
			else if (q->t[t].coef != 0) {
				u = t;
				have = true;
			}
		}
		if (q->unknown == 1 && have)
			set_edge(g, q->t[u].edge, (q->rhs - sum) / q->t[u].coef, &work, &nwork, &cwork);
	}
	free(work);
}

static void solve_all(struct graph *g, size_t *work, size_t nwork, size_t cwork)
{
	for (size_t i = 0; i < g->nq; i++) {
		work = roi_xgrow(work, nwork, &cwork, sizeof *work);
		work[nwork++] = i;
	}
	propagate(g, work, nwork, cwork);
}

/* What enters piece k, when every edge into it is known. */
static bool piece_count(const struct graph *g, size_t k, double *n)
{
	*n = 0;
	for (size_t i = 0; i < g->p[k].nin; i++) {
		if (!g->e[g->p[k].in[i]].known)
			return false;
		*n += g->e[g->p[k].in[i]].x;
	}
	return true;
}

/* x, or less where an equation of edge e leaves it less room: one whose other unknowns have e's
 * sign, none of which can be negative (two exits of a loop whose test the compiler copied into
 * both arms before it, which share the loop's counted exits between them). */
static double at_most(const struct graph *g, size_t e, double x)
{
	for (size_t i = 0; i < g->neqs_of[e]; i++) {
		const struct eq *q = &g->q[g->eqs_of[e][i]];
		double sum = 0, coef = 0;
		bool mixed = false;

		for (size_t t = 0; t < q->n; t++) {
			const struct edge *y = &g->e[q->t[t].edge];

			if (q->t[t].edge == e)
				coef = q->t[t].coef;
			else if (y->known)
				sum += q->t[t].coef * y->x;
		}
		for (size_t t = 0; t < q->n && coef != 0; t++)
			if (!g->e[q->t[t].edge].known && (q->t[t].coef > 0) != (coef > 0))
				mixed = true;
		if (coef == 0 || mixed)
			continue;
		double room = (q->rhs - sum) / coef;
		if (room < x)
			x = room > 0 ? room : 0;
	}
	return x;
}

/* ---- branches inside one counted block, by the value counters of their statements -------------- */

/* Piece k, or where it leads when it is a lone jump (sbrs r25, 7; rjmp past the fix-up). */
static long past_jumps(const struct graph *g, long k)
{
	for (size_t hops = 0; k >= 0 && hops < 4; hops++) {
		const struct piece *p = &g->p[k];

		if (p->first != p->last || g->f->ins[p->first].cls != ROI_MI_JUMP || p->nout != 1)
			break;
		k = g->e[p->out[0]].to;
	}
	return k;
}

/* The edge from piece k's branch or skip into its arm: a piece of k's block that only k enters
 * (directly, or by a lone jump only k enters) and that runs on to where the other way leads (a
 * branch over a move, a skip of a jump over a fix-up); SIZE_MAX when k does not end so. */
static size_t arm_edge(const struct graph *g, size_t k)
{
	const struct piece *p = &g->p[k];
	enum roi_mclass c = g->f->ins[p->last].cls;

	if ((c != ROI_MI_BRANCH && c != ROI_MI_SKIP) || p->nout != 2)
		return SIZE_MAX;
	for (int s = 0; s < 2; s++) {
		const struct edge *in = &g->e[p->out[s]], *other = &g->e[p->out[1 - s]];

		if (in->to < 0 || other->to < 0 || in->to == other->to)
			continue;
		/* (the arm may be out of line, reached by a lone jump: sbrc r19, 7; rjmp fix-up) */
		long arm = past_jumps(g, in->to);
		if (arm < 0 || g->p[in->to].nin != 1)
			continue;
		const struct piece *a = &g->p[arm];
		if (a->owner != p->owner || a->nout != 1 || a->nin != 1)
			continue;
		long join = past_jumps(g, g->e[a->out[0]].to);
		if (join >= 0 && join != arm && join != in->to && join == past_jumps(g, other->to))
			return p->out[s];
	}
	return SIZE_MAX;
}

/* Whether piece k ends in a test of a sign (a signed division's fix-up) rather than a comparison of
 * two values (a minimum's or maximum's): a skip by a bit (sbrs, sbrc on the sign bit), brmi or
 * brpl, or a branch after a comparison with zero (AVR: tst, cp/cpc with __zero_reg__, r1, cpi rX,
 * 0; Thumb: cmp rX, #0). The arm's own code does not tell them apart: a minimum kept in the frame stores. */
static bool sign_test(const struct graph *g, size_t k)
{
	const struct piece *p = &g->p[k];
	const struct roi_minsn *br = &g->f->ins[p->last], *cmp = p->last > p->first ? br - 1 : NULL;

	if (br->cls == ROI_MI_SKIP)
		return strcmp(br->name, "sbrs") == 0 || strcmp(br->name, "sbrc") == 0;
	if (strcmp(br->name, "brmi") == 0 || strcmp(br->name, "brpl") == 0)
		return true;
	if (!cmp)
		return false;
	if (strcmp(cmp->name, "cp") == 0 || strcmp(cmp->name, "cpc") == 0)
		return cmp->rr == 1;
	if (strcmp(cmp->name, "and") == 0 || strcmp(cmp->name, "cpi") == 0)
		return strcmp(cmp->name, "and") == 0 ? cmp->rd == cmp->rr : cmp->imm == 0;
	return cmp->reg_op == ROI_MR_CMP && cmp->cmp_imm && cmp->imm == 0;
}

/* Whether arm edge e skips one com or dec: avr-gcc's sign extension of a byte (clr rH; sbrc rL,
 * 7; com rH), a conversion's, not a statement counted by "taken"; either way costs the same. */
static bool sign_extension(const struct graph *g, size_t e)
{
	const struct piece *a = &g->p[g->e[e].to];
	const char *name = g->f->ins[a->first].name;

	return g->f->ins[g->p[g->e[e].from].last].cls == ROI_MI_SKIP && a->first == a->last &&
	       (strcmp(name, "com") == 0 || strcmp(name, "dec") == 0);
}

/* Whether piece k of block b has an arm of a comparison (moves) or of a sign test (!moves), and
 * which edge leads to it. */
static bool arm_of_kind(const struct graph *g, size_t k, long b, bool moves, size_t *e)
{
	return g->p[k].owner == b && (*e = arm_edge(g, k)) != SIZE_MAX && sign_test(g, k) != moves &&
	       !sign_extension(g, *e);
}

/* The branches GCC makes inside one statement's code (a minimum's jump over a move, a signed
 * division's over its fix-up), which no block count decides: each arm runs as often as the
 * statement's "taken" value counter says (gcc-plugin/roi-value-sites.cc). The counters of a block
 * are its statements' in order, its arms the machine code's in address order, minimums' and
 * maximums' (after a comparison) apart from divisions' (after a sign test); where the numbers of a
 * kind differ (a remainder at -Os is a library call, not a branch), which counter is which arm is
 * not known and those arms are left to the even split. */
static void branch_values(struct graph *g)
{
	const struct roi_function *fn = g->f->fn;

	for (size_t b = 0; b < fn->nblocks; b++)
		for (int moves = 0; moves < 2; moves++) {
			size_t ncounters = 0, narms = 0, e;

			for (size_t k = 0; k < fn->nblocks; k++)
				ncounters += fn->blocks[k].branch && fn->blocks[k].site == (long long)b &&
					     fn->blocks[k].branch_move == moves;
			if (!ncounters)
				continue;
			for (size_t k = 0; k < g->np; k++)
				narms += arm_of_kind(g, k, (long)b, moves, &e);
			if (narms != ncounters)
				continue;
			size_t c = 0, *work = NULL, nwork = 0, cwork = 0;
			for (size_t k = 0; k < g->np; k++) {
				if (!arm_of_kind(g, k, (long)b, moves, &e))
					continue;
				while (!(fn->blocks[c].branch && fn->blocks[c].site == (long long)b &&
					 fn->blocks[c].branch_move == moves))
					c++;
				double n = (double)roi_block_count(g->counts, fn, c++);
				if (!g->e[e].known) {
					set_edge(g, e, n, &work, &nwork, &cwork);
					g->f->branches_counted++;
				}
			}
			propagate(g, work, nwork, cwork);
		}
}

/* One guess where no count decides: a branch or a table whose piece's count is known, split
 * evenly, but within what the counts its edges share with other machine edges leave them; else a
 * loop's back edge, taken never; else any edge. False when every edge is known. */
static bool guess(struct graph *g)
{
	/* first what follows from no count being negative: unknowns of one sign that must add up to
	 * nothing are each nothing (the edges into code whose count of 0 says it never ran) */
	for (size_t i = 0; i < g->nq; i++) {
		const struct eq *q = &g->q[i];
		double sum = 0;
		bool pos = false, neg = false;

		if (q->unknown < 2)
			continue;
		for (size_t t = 0; t < q->n; t++) {
			const struct edge *x = &g->e[q->t[t].edge];

			if (x->known)
				sum += q->t[t].coef * x->x;
			else if (q->t[t].coef > 0)
				pos = true;
			else
				neg = true;
		}
		if (fabs(q->rhs - sum) > 1e-9 || (pos && neg))
			continue;
		size_t *work = NULL, nwork = 0, cwork = 0;
		for (size_t t = 0; t < q->n; t++)
			if (!g->e[q->t[t].edge].known)
				set_edge(g, q->t[t].edge, 0, &work, &nwork, &cwork);
		propagate(g, work, nwork, cwork);
		return true;
	}
	for (size_t k = 0; k < g->np; k++) {
		double n, known = 0;
		size_t unknown = 0;

		if (!piece_count(g, k, &n))
			continue;
		for (size_t i = 0; i < g->p[k].nout; i++)
			if (g->e[g->p[k].out[i]].known)
				known += g->e[g->p[k].out[i]].x;
			else
				unknown++;
		if (unknown < 2)
			continue;
		double share = (n - known > 0 ? n - known : 0) / (double)unknown;
		size_t *work = NULL, nwork = 0, cwork = 0;
		for (size_t i = 0; i < g->p[k].nout; i++)
			if (!g->e[g->p[k].out[i]].known) {
				set_edge(g, g->p[k].out[i], at_most(g, g->p[k].out[i], share), &work, &nwork, &cwork);
				break;  /* one at a time: the rest may follow */
			}
		g->f->guessed++;
		propagate(g, work, nwork, cwork);
		return true;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t e = 0; e < g->ne; e++) {
			if (g->e[e].known || (pass == 0 && !(g->e[e].from >= 0 && g->e[e].to >= 0 &&
							     g->e[e].to <= g->e[e].from)))
				continue;
			size_t *work = NULL, nwork = 0, cwork = 0;
			set_edge(g, e, 0, &work, &nwork, &cwork);
			g->f->loops_guessed += pass == 0;
			g->f->guessed += pass == 1;
			propagate(g, work, nwork, cwork);
			return true;
		}
	return false;
}

void roi_mfunc_solve(struct roi_mfunc *f, const struct roi_mcode *plain, const struct roi_counts *counts)
{
	struct graph g = {.f = f, .code = plain, .counts = counts};

	f->guessed = f->loops_counted = f->loops_guessed = f->off = f->ncopies = f->branches_counted = f->shared = 0;
	memset(f->count, 0, f->nins * sizeof *f->count);
	memset(f->taken, 0, f->nins * sizeof *f->taken);
	if (!f->nins)
		return;
	cut_pieces(&g);
	link_pieces(&g);
	build_equations(&g);
	solve_all(&g, NULL, 0, 0);
	branch_values(&g);
	while (guess(&g))
		;
	/* equations the solution misses: code a count does not describe (moved, merged) */
	for (size_t i = 0; i < g.nq; i++) {
		double sum = 0;

		for (size_t t = 0; t < g.q[i].n; t++)
			sum += g.q[i].t[t].coef * g.e[g.q[i].t[t].edge].x;
		if (fabs(sum - g.q[i].rhs) > 0.5)
			f->off++;
	}
	for (size_t k = 0; k < g.np; k++) {
		double n = 0;

		for (size_t i = 0; i < g.p[k].nin; i++)
			n += g.e[g.p[k].in[i]].x;
		for (size_t i = g.p[k].first; i <= g.p[k].last; i++)
			f->count[i] = n;
		for (size_t i = 0; i < g.p[k].nout; i++) {
			const struct edge *x = &g.e[g.p[k].out[i]];

			if (x->kind == E_TAKEN || x->kind == E_SKIP)
				f->taken[g.p[k].last] += x->x;
		}
	}
	for (size_t k = 0; k < g.np; k++) {
		free(g.p[k].in);
		free(g.p[k].out);
	}
	for (size_t i = 0; i < g.nq; i++)
		free(g.q[i].t);
	for (size_t e = 0; e < g.ne; e++)
		free(g.eqs_of[e]);
	free(g.p);
	free(g.e);
	free(g.q);
	free(g.eqs_of);
	free(g.neqs_of);
	free(g.ceqs_of);
	free(g.piece_of);
	free(g.has_code);
	free(g.region);
	free(g.region_code);
	free(g.redge);
}
