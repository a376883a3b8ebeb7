/* stack/code.c — calls and pushes read from AVR and Thumb machine code, see code.h.
 *
 * The instructions are decoded by machine/ (isa.h), the one decoder of each instruction set that
 * machine pricing uses too; this file reads what they do to the stack and where they leave the
 * function. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "machine/isa.h"
#include "stack/code.h"

static void add_call(struct roi_code_facts *f, uint64_t at, uint64_t target, bool tail)
{
	if (f->ncalls == f->cap)
		f->calls = roi_xrealloc(f->calls, f->cap = 2 * f->cap + 8, sizeof *f->calls);
	f->calls[f->ncalls++] = (struct roi_code_call){.at = at, .target = target, .tail = tail};
}

void roi_code_facts_free(struct roi_code_facts *f)
{
	free(f->calls);
	f->calls = NULL;
	f->ncalls = f->cap = 0;
}

static enum roi_avr_core avr_core(unsigned pc_bytes)
{
	return pc_bytes == 3 ? ROI_AVR_PC22 : ROI_AVR_PC16;
}

/* ---- AVR ---- */

#define AVR_SPL 0x3d
#define AVR_SPH 0x3e

/* subi's constant as written (the decoder keeps what it does to the register). */
static long subi_k(const struct roi_minsn *in)
{
	return (in->reg_op == ROI_MR_DEC ? in->imm : -in->imm) & 0xff;
}

/* Whether in is "subi r28, lo" (then *v: lo, with "sbci r29, hi" after it: hi:lo, 16 bits), the
 * frame's size as GCC's prologue writes it. */
static bool avr_subi_y(const struct roi_minsn *in, const struct roi_minsn *next, long *v, bool *pair)
{
	if (strcmp(in->name, "subi") != 0 || in->rd != 28)
		return false;
	*v = subi_k(in);
	*pair = next && strcmp(next->name, "sbci") == 0 && next->rd == 29;
	if (*pair)
		*v |= (long)next->imm << 8;
	return true;
}

/* Whether the instruction writes r28 or r29 with what is no constant offset from SP. */
static bool avr_sets_y(const struct roi_minsn *in)
{
	static const char *const set[] = {"ldi", "mov", "movw", "sub", "sbc"};

	if (in->rd != 28 && in->rd != 29)
		return false;
	for (size_t i = 0; i < sizeof set / sizeof *set; i++)
		if (strcmp(in->name, set[i]) == 0)
			return true;
	return false;
}

/* What the instructions at i do to r28 (Y's low byte) right after Y was loaded from SP: the
 * bytes Y moved down (a frame: sbiw r28,K or subi r28,lo; sbci r29,hi), 0 when it moved up or
 * was left, -1 when it moved by a register amount (sub r28,Rr). */
static long avr_frame_after_in(enum roi_avr_core core, const unsigned char *code, uint64_t start, uint64_t size,
			       uint64_t i)
{
	struct roi_minsn in, next;

	for (int n = 0; n < 3 && i + 2 <= size; n++, i += in.size) {
		roi_avr_decode(code + i, size - i, start + i, core, &in);
		roi_avr_decode(code + i + in.size, i + in.size < size ? size - i - in.size : 0, start + i + in.size,
			       core, &next);
		long v;
		bool pair;

		if (strcmp(in.name, "in") == 0)                 /* the other half of SP */
			continue;
		if (strcmp(in.name, "sbiw") == 0 && in.rd == 28)
			return in.imm;
		if (avr_subi_y(&in, next.cls == ROI_MI_STOP ? NULL : &next, &v, &pair))
			return v && v < 0x8000 ? v : 0;
		if (strcmp(in.name, "sub") == 0 && (in.rd == 28 || in.rd == 29))
			return -1;
		return 0;
	}
	return 0;
}

/* Whether target lies outside the function, or is its own entry (a recursive call). */
static bool leaves(uint64_t target, uint64_t fn_start, uint64_t fn_end)
{
	return target < fn_start || target >= fn_end;
}

static void read_avr(unsigned pc_bytes, const unsigned char *code, uint64_t start, uint64_t size,
		     uint64_t fn_start, uint64_t fn_end, struct roi_code_facts *f)
{
	enum roi_avr_core core = avr_core(pc_bytes);
	struct roi_minsn in;

	for (uint64_t i = 0; i + 2 <= size; i += in.size) {
		uint64_t at = start + i;

		roi_avr_decode(code + i, size - i, at, core, &in);
		if (in.size == 4 && i + 4 > size)
			break;
		if (in.sp_push > 0)                                     /* push, "rcall ." */
			f->pushed += (uint64_t)in.sp_push;
		if (in.cls == ROI_MI_CALL && (in.target == fn_start || leaves(in.target, fn_start, fn_end)))
			add_call(f, at, in.target, false);
		else if (in.cls == ROI_MI_JUMP && leaves(in.target, fn_start, fn_end))
			add_call(f, at, in.target, true);
		else if (in.cls == ROI_MI_ICALL)
			f->indirect++;
		if (in.enables_irq)
			f->enables_interrupts = true;
		if (strcmp(in.name, "in") == 0 && in.rd == 28 && in.io == AVR_SPL) {   /* Y = SP */
			long frame = avr_frame_after_in(core, code, start, size, i + 2);

			if (frame < 0 && !f->unknown)
				f->unknown = "moves SP by an amount in a register";
			else if (frame > 0)
				f->pushed += (uint64_t)frame;
		}
	}
}

/* ---- Thumb (ARMv6-M, ARMv7-M) ---- */

static void read_thumb(const unsigned char *code, uint64_t start, uint64_t size, uint64_t fn_start,
		       uint64_t fn_end, struct roi_code_facts *f)
{
	struct roi_thumb_state st = {0};
	struct roi_minsn in;

	for (uint64_t i = 0; i + 2 <= size; i += in.size) {
		uint64_t at = start + i;

		roi_thumb_decode(code + i, size - i, at, &st, &in);
		if (in.size == 4 && i + 4 > size)
			break;
		if (in.sp_push > 0)
			f->pushed += (uint64_t)in.sp_push;
		if (in.sp_by_register && !f->unknown)
			f->unknown = "moves SP by an amount in a register";
		if (in.enables_irq)
			f->enables_interrupts = true;
		if (in.cls == ROI_MI_CALL && (in.target == fn_start || leaves(in.target, fn_start, fn_end)))
			add_call(f, at, in.target, false);      /* (bl inside: a long branch) */
		else if ((in.cls == ROI_MI_JUMP || in.cls == ROI_MI_BRANCH) && in.has_target &&
			 leaves(in.target, fn_start, fn_end))
			add_call(f, at, in.target, true);
		else if (in.cls == ROI_MI_ICALL)
			f->indirect++;
	}
}

void roi_code_read(enum roi_code_arch arch, unsigned pc_bytes, const unsigned char *code, uint64_t start,
		   uint64_t size, uint64_t fn_start, uint64_t fn_end, struct roi_code_facts *f)
{
	if (arch == ROI_CODE_AVR)
		read_avr(pc_bytes, code, start, size, fn_start, fn_end, f);
	else if (arch == ROI_CODE_THUMB)
		read_thumb(code, start, size, fn_start, fn_end, f);
}

/* ---- AVR, path by path ---- */

struct walk_state {
	uint64_t addr;
	long k;                 /* bytes pushed since the entry (beyond the return address) */
	bool yk;                /* Y holds SP less y: read from SP, then moved by constants */
	long y;
};

struct seen_slot {
	uint64_t addr;
	long k;
	unsigned visits;
	bool used;
};

struct walk {
	const struct roi_code_image *img;
	unsigned pc;
	uint64_t entry;
	struct roi_code_facts *f;
	struct walk_state *todo;
	size_t ntodo, captodo;
	struct seen_slot *seen;
	size_t capseen, nseen;
	long maxk;
};

static struct seen_slot *seen_slot(struct walk *w, uint64_t addr)
{
	if (2 * (w->nseen + 1) > w->capseen) {
		struct seen_slot *old = w->seen;
		size_t oldcap = w->capseen;

		w->capseen = oldcap ? 2 * oldcap : 256;
		w->seen = roi_xrealloc(NULL, w->capseen, sizeof *w->seen);
		memset(w->seen, 0, w->capseen * sizeof *w->seen);
		w->nseen = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].used) {
				struct seen_slot *s = seen_slot(w, old[i].addr);
				*s = old[i];
			}
		free(old);
	}
	size_t i = (size_t)(addr * 0x9e3779b97f4a7c15ull >> 20) & (w->capseen - 1);
	while (w->seen[i].used && w->seen[i].addr != addr)
		i = (i + 1) & (w->capseen - 1);
	if (!w->seen[i].used) {
		w->seen[i] = (struct seen_slot){.addr = addr, .k = -1, .used = true};
		w->nseen++;
	}
	return &w->seen[i];
}

static void later(struct walk *w, struct walk_state st)
{
	if (w->ntodo == w->captodo)
		w->todo = roi_xrealloc(w->todo, w->captodo = 2 * w->captodo + 16, sizeof *w->todo);
	w->todo[w->ntodo++] = st;
}

static void unknown(struct walk *w, const char *why)
{
	if (!w->f->unknown)
		w->f->unknown = why;
}

/* A jump or branch to target: a tail call when it is a counted function's entry, else more code
 * at the same depth. */
static void jump(struct walk *w, struct walk_state st, uint64_t target, uint64_t at)
{
	bool counted = false;

	if (target != w->entry && w->img->is_entry(w->img->ctx, target, &counted) && counted) {
		add_call(w->f, at, target, true);
		w->f->calls[w->f->ncalls - 1].offset = (uint64_t)st.k;
		return;
	}
	st.addr = target;
	later(w, st);
}

/* A call to target: of another routine, recorded; of a subroutine inside this one (no symbol
 * starts there), followed with the return address on the stack. */
static void call(struct walk *w, struct walk_state st, uint64_t at, uint64_t target)
{
	bool counted;

	if (target == w->entry || w->img->is_entry(w->img->ctx, target, &counted)) {
		add_call(w->f, at, target, false);
		w->f->calls[w->f->ncalls - 1].offset = (uint64_t)st.k + w->pc;
		return;
	}
	st.addr = target;
	st.k += (long)w->pc;
	later(w, st);
}

/* The instruction at addr, or false when there is no code there. */
static bool avr_at(const struct walk *w, uint64_t addr, struct roi_minsn *in)
{
	uint64_t avail;
	const unsigned char *p = w->img->bytes_at(w->img->ctx, addr, &avail);

	if (!p || avail < 2)
		return false;
	roi_avr_decode(p, (size_t)avail, addr, avr_core(w->pc), in);
	return in->size <= avail;
}

/* One path from st on, until it returns, ends, or reaches code it has seen with as much pushed. */
static void walk_path(struct walk *w, struct walk_state st, size_t *steps)
{
	for (;;) {
		uint64_t at = st.addr;
		struct seen_slot *seen;
		struct roi_minsn in, next;

		if (++*steps > 200000) {
			unknown(w, "too much code to follow");
			return;
		}
		seen = seen_slot(w, at);
		if (seen->k >= st.k)
			return;
		if (seen->k >= 0 && ++seen->visits > 16) {
			unknown(w, "pushes more each time round a loop");
			return;
		}
		seen->k = st.k;
		if (!avr_at(w, at, &in)) {
			unknown(w, "runs off its code");
			return;
		}
		bool has_next = avr_at(w, at + in.size, &next);
		long v;
		bool pair;

		st.addr = at + in.size;
		switch (in.cls) {
		case ROI_MI_CALL:
			call(w, st, at, in.target);
			break;
		case ROI_MI_JUMP:
			jump(w, st, in.target, at);
			return;
		case ROI_MI_BRANCH:
			jump(w, st, in.target, at);
			break;
		case ROI_MI_SKIP: {                     /* the next instruction may be skipped */
			struct walk_state skip = st;

			skip.addr = st.addr + (has_next ? next.size : 2);
			later(w, skip);
			break;
		}
		case ROI_MI_RET:                        /* ret, reti */
		case ROI_MI_IJUMP:                      /* ijmp, eijmp */
			return;
		case ROI_MI_ICALL:
			w->f->indirect++;
			break;
		case ROI_MI_STOP:                       /* a jump to itself ends; sleep, break go on */
			if (in.has_target)
				return;
			break;
		default:
			break;
		}
		if (in.sp_push > 0) {                   /* push, "rcall .": a frame */
			st.k += in.sp_push;
		} else if (in.sp_push < 0) {            /* pop */
			if (st.k > 0)
				st.k--;
			if (in.rd == 28 || in.rd == 29)
				st.yk = false;
		} else if (in.enables_irq) {
			w->f->enables_interrupts = true;
		} else if (strcmp(in.name, "in") == 0 && in.rd == 28 && in.io == AVR_SPL) {
			st.yk = true;
			st.y = st.k;
		} else if ((strcmp(in.name, "sbiw") == 0 || strcmp(in.name, "adiw") == 0) && in.rd == 28) {
			st.y += in.reg_op == ROI_MR_DEC ? in.imm : -in.imm;
		} else if (avr_subi_y(&in, has_next ? &next : NULL, &v, &pair)) {      /* subi r28, lo (sbci r29, hi) */
			if (pair) {
				if (v >= 0x8000)
					v -= 0x10000;
				st.addr = at + 4;
			} else if (v >= 0x80) {
				v -= 0x100;
			}
			st.y += v;
		} else if (avr_sets_y(&in)) {
			st.yk = false;
		} else if (strcmp(in.name, "out") == 0 && (in.io == AVR_SPL || in.io == AVR_SPH)) {
			if ((in.rd == 28 || in.rd == 29) && st.yk)
				st.k = st.y > st.k ? st.y : st.k;       /* down to Y; up: the frame stays counted */
			else if (in.rd != 28 && in.rd != 29)
				unknown(w, "sets SP from a register");
			else
				unknown(w, "sets SP from Y, which holds no constant offset from SP");
		}
		if (st.k > w->maxk)
			w->maxk = st.k;
	}
}

void roi_code_walk_avr(const struct roi_code_image *img, unsigned pc_bytes, uint64_t entry, struct roi_code_facts *f)
{
	struct walk w = {.img = img, .pc = pc_bytes, .entry = entry, .f = f};
	size_t steps = 0;

	later(&w, (struct walk_state){.addr = entry});
	while (w.ntodo && !f->unknown) {
		struct walk_state st = w.todo[--w.ntodo];
		walk_path(&w, st, &steps);
	}
	f->pushed = (uint64_t)w.maxk;
	free(w.todo);
	free(w.seen);
}
