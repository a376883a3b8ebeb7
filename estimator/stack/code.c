/* stack/code.c — calls and pushes read from AVR and Thumb machine code, see code.h.
 *
 * The encodings are the instruction set manuals' (Atmel's "AVR Instruction Set Manual", ARM's
 * "ARMv7-M Architecture Reference Manual", A5/A7). Only what moves the stack pointer down or
 * leaves the function is decoded; every other instruction only needs its length. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
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

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* ---- AVR ---- */

#define AVR_SPL 0x3d
#define AVR_SPH 0x3e

static bool avr_two_words(unsigned op)
{
	return (op & 0xfe0f) == 0x9000 || (op & 0xfe0f) == 0x9200 ||   /* lds, sts */
	       (op & 0xfe0c) == 0x940c;                                 /* jmp, call */
}

/* What the instruction at i does to r28 (Y's low byte) right after Y was loaded from SP: the
 * bytes Y moved down (a frame: sbiw r28,K or subi r28,lo; sbci r29,hi), 0 when it moved up or
 * was left, -1 when it moved by a register amount (sub r28,Rr). */
static long avr_frame_after_in(const unsigned char *code, uint64_t size, uint64_t i)
{
	for (int n = 0; n < 3 && i + 2 <= size; n++, i += 2) {
		unsigned op = le16(code + i);

		if ((op & 0xf800) == 0xb000)                    /* in: the other half of SP */
			continue;
		if ((op & 0xff30) == 0x9720)                    /* sbiw r28, K */
			return (long)((op & 0xf) | (op >> 2 & 0x30));
		if ((op & 0xf0f0) == 0x50c0) {                  /* subi r28, lo */
			unsigned lo = (op & 0xf) | (op >> 4 & 0xf0), hi = 0;
			if (i + 4 <= size && (le16(code + i + 2) & 0xf0f0) == 0x40d0) {  /* sbci r29, hi */
				unsigned op2 = le16(code + i + 2);
				hi = (op2 & 0xf) | (op2 >> 4 & 0xf0);
			}
			unsigned v = hi << 8 | lo;
			return v && v < 0x8000 ? (long)v : 0;
		}
		if ((op & 0xfdf0) == 0x19c0)                    /* sub r28, Rr */
			return -1;
		return 0;
	}
	return 0;
}

static void read_avr(unsigned pc_bytes, const unsigned char *code, uint64_t start, uint64_t size,
		     uint64_t fn_start, uint64_t fn_end, struct roi_code_facts *f)
{
	for (uint64_t i = 0; i + 2 <= size;) {
		unsigned op = le16(code + i);
		uint64_t at = start + i, len = avr_two_words(op) ? 4 : 2;

		if (len == 4 && i + 4 > size)
			break;
		if ((op & 0xfe0f) == 0x920f) {                          /* push */
			f->pushed += 1;
		} else if ((op & 0xf000) == 0xd000 || (op & 0xf000) == 0xc000) {       /* rcall, rjmp */
			long k = (long)(op & 0xfff);
			uint64_t target;

			if (k & 0x800)
				k -= 0x1000;
			target = at + 2 + (uint64_t)(2 * k);
			if ((op & 0xf000) == 0xd000 && k == 0)
				f->pushed += pc_bytes;                  /* "rcall .": two or three bytes of frame */
			else if ((op & 0xf000) == 0xd000 && (target == fn_start || target < fn_start || target >= fn_end))
				add_call(f, at, target, false);
			else if (target < fn_start || target >= fn_end)
				add_call(f, at, target, true);
		} else if ((op & 0xfe0c) == 0x940c) {                   /* jmp, call */
			uint64_t target = ((uint64_t)((op >> 4 & 0x1f) << 1 | (op & 1)) << 16 | le16(code + i + 2)) * 2;

			if ((op & 2) && (target == fn_start || target < fn_start || target >= fn_end))
				add_call(f, at, target, false);
			else if (target < fn_start || target >= fn_end)
				add_call(f, at, target, true);
		} else if (op == 0x9509 || op == 0x9519) {              /* icall, eicall */
			f->indirect++;
		} else if (op == 0x9478) {                              /* sei */
			f->enables_interrupts = true;
		} else if (op == 0xb7cd) {                              /* in r28, SPL: Y = SP */
			long frame = avr_frame_after_in(code, size, i + 2);

			if (frame < 0 && !f->unknown)
				f->unknown = "moves SP by an amount in a register";
			else if (frame > 0)
				f->pushed += (uint64_t)frame;
		}
		i += len;
	}
}

/* ---- Thumb (ARMv6-M, ARMv7-M) ---- */

static unsigned popcount(unsigned v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* ThumbExpandImm: a data-processing instruction's 12-bit immediate as its 32-bit value. */
static uint32_t thumb_expand_imm(unsigned imm12)
{
	uint32_t imm8 = imm12 & 0xff;

	if ((imm12 & 0xc00) == 0) {
		switch (imm12 >> 8 & 3) {
		case 0: return imm8;
		case 1: return imm8 << 16 | imm8;
		case 2: return imm8 << 24 | imm8 << 8;
		default: return imm8 << 24 | imm8 << 16 | imm8 << 8 | imm8;
		}
	}
	uint32_t v = 0x80 | (imm12 & 0x7f);
	unsigned rot = imm12 >> 7 & 0x1f;
	return v >> rot | v << (32 - rot);
}

/* The target of a 32-bit branch (B.W T3/T4, BL): its offset from the sign bit, J1, J2 and the
 * immediates. */
static uint64_t thumb_branch_target(uint64_t at, unsigned hw1, unsigned hw2, bool conditional)
{
	unsigned s = hw1 >> 10 & 1, j1 = hw2 >> 13 & 1, j2 = hw2 >> 11 & 1;
	int64_t off;

	if (conditional) {
		off = (int64_t)(s << 20 | j2 << 19 | j1 << 18 | (hw1 & 0x3f) << 12 | (hw2 & 0x7ff) << 1);
		if (s)
			off -= 1 << 21;
	} else {
		unsigned i1 = !(j1 ^ s), i2 = !(j2 ^ s);
		off = (int64_t)(s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 | (hw2 & 0x7ff) << 1);
		if (s)
			off -= 1 << 25;
	}
	return at + 4 + (uint64_t)off;
}

static void read_thumb(const unsigned char *code, uint64_t start, uint64_t size, uint64_t fn_start,
		       uint64_t fn_end, struct roi_code_facts *f)
{
	for (uint64_t i = 0; i + 2 <= size;) {
		unsigned hw = le16(code + i);
		uint64_t at = start + i;

		if ((hw >> 11) >= 0x1d) {                               /* 32-bit */
			if (i + 4 > size)
				break;
			unsigned hw2 = le16(code + i + 2);

			if ((hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0xd000) {             /* bl */
				uint64_t t = thumb_branch_target(at, hw, hw2, false);
				if (t == fn_start || t < fn_start || t >= fn_end)
					add_call(f, at, t, false);      /* (bl inside: a long branch) */
			} else if ((hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x9000) {      /* b.w */
				uint64_t t = thumb_branch_target(at, hw, hw2, false);
				if (t < fn_start || t >= fn_end)
					add_call(f, at, t, true);
			} else if ((hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x8000 &&
				   (hw >> 6 & 0xf) < 0xe) {                                    /* b<c>.w */
				uint64_t t = thumb_branch_target(at, hw, hw2, true);
				if (t < fn_start || t >= fn_end)
					add_call(f, at, t, true);
			} else if (hw == 0xe92d) {                                             /* push.w */
				f->pushed += 4 * popcount(hw2 & 0x5fff);
			} else if (hw == 0xf84d && (hw2 & 0x0fff) == 0x0d04) {                 /* str Rt, [sp, #-4]! */
				f->pushed += 4;
			} else if ((hw & 0xfbef) == 0xf1ad && (hw2 & 0x8f00) == 0x0d00) {      /* sub.w sp, sp, #c */
				f->pushed += thumb_expand_imm((hw >> 10 & 1) << 11 | (hw2 >> 12 & 7) << 8 | (hw2 & 0xff));
			} else if ((hw & 0xfbff) == 0xf2ad && (hw2 & 0x8f00) == 0x0d00) {      /* subw sp, sp, #c */
				f->pushed += (hw >> 10 & 1) << 11 | (hw2 >> 12 & 7) << 8 | (hw2 & 0xff);
			} else if ((hw & 0xffbf) == 0xed2d && ((hw2 & 0x0e00) == 0x0a00)) {         /* vpush */
				f->pushed += 4 * (hw2 & 0xff);
			} else if (hw == 0xebad && (hw2 & 0x0f00) == 0x0d00 && !f->unknown) {  /* sub.w sp, sp, Rm */
				f->unknown = "moves SP by an amount in a register";
			}
			i += 4;
			continue;
		}
		if ((hw & 0xfe00) == 0xb400) {                          /* push */
			f->pushed += 4 * (popcount(hw & 0xff) + (hw >> 8 & 1));
		} else if ((hw & 0xff80) == 0xb080) {                   /* sub sp, #imm7 */
			f->pushed += 4 * (hw & 0x7f);
		} else if ((hw & 0xff87) == 0x4780) {                   /* blx Rm */
			f->indirect++;
		} else if (hw == 0xb662) {                              /* cpsie i */
			f->enables_interrupts = true;
		} else if ((hw & 0xf800) == 0xe000) {                   /* b */
			long k = (long)(hw & 0x7ff);
			if (k & 0x400)
				k -= 0x800;
			uint64_t t = at + 4 + (uint64_t)(2 * k);
			if (t < fn_start || t >= fn_end)
				add_call(f, at, t, true);
		}
		i += 2;
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

static unsigned avr_len_at(const struct walk *w, uint64_t addr)
{
	uint64_t avail;
	const unsigned char *p = w->img->bytes_at(w->img->ctx, addr, &avail);

	return p && avail >= 2 && avr_two_words(le16(p)) ? 4 : 2;
}

/* One path from st on, until it returns, ends, or reaches code it has seen with as much pushed. */
static void walk_path(struct walk *w, struct walk_state st, size_t *steps)
{
	for (;;) {
		uint64_t avail, at = st.addr;
		const unsigned char *p;
		struct seen_slot *seen;

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
		p = w->img->bytes_at(w->img->ctx, at, &avail);
		if (!p || avail < 2) {
			unknown(w, "runs off its code");
			return;
		}
		unsigned op = le16(p), len = avr_two_words(op) ? 4 : 2;
		if (len == 4 && avail < 4) {
			unknown(w, "runs off its code");
			return;
		}
		st.addr = at + len;
		if ((op & 0xfe0f) == 0x920f) {                          /* push */
			st.k++;
		} else if ((op & 0xfe0f) == 0x900f) {                   /* pop */
			unsigned d = op >> 4 & 0x1f;
			if (st.k > 0)
				st.k--;
			if (d == 28 || d == 29)
				st.yk = false;
		} else if ((op & 0xf000) == 0xd000) {                   /* rcall */
			long k = (long)(op & 0xfff);
			if (k & 0x800)
				k -= 0x1000;
			if (k == 0)
				st.k += (long)w->pc;    /* "rcall .": a frame */
			else
				call(w, st, at, at + 2 + (uint64_t)(2 * k));
		} else if ((op & 0xfe0e) == 0x940e) {                   /* call */
			call(w, st, at, ((uint64_t)((op >> 4 & 0x1f) << 1 | (op & 1)) << 16 | le16(p + 2)) * 2);
		} else if ((op & 0xf000) == 0xc000) {                   /* rjmp */
			long k = (long)(op & 0xfff);
			if (k & 0x800)
				k -= 0x1000;
			jump(w, st, at + 2 + (uint64_t)(2 * k), at);
			return;
		} else if ((op & 0xfe0e) == 0x940c) {                   /* jmp */
			jump(w, st, ((uint64_t)((op >> 4 & 0x1f) << 1 | (op & 1)) << 16 | le16(p + 2)) * 2, at);
			return;
		} else if ((op & 0xf800) == 0xf000) {                   /* brbs, brbc */
			long k = (long)(op >> 3 & 0x7f);
			if (k & 0x40)
				k -= 0x80;
			jump(w, st, at + 2 + (uint64_t)(2 * k), at);
		} else if ((op & 0xfc00) == 0x1000 || (op & 0xfc08) == 0xfc00 || (op & 0xfd00) == 0x9900) {
			/* cpse, sbrc, sbrs, sbic, sbis: the next instruction may be skipped */
			struct walk_state skip = st;
			skip.addr = st.addr + avr_len_at(w, st.addr);
			later(w, skip);
		} else if (op == 0x9508 || op == 0x9518 || op == 0x9409 || op == 0x9419) {
			return;                                         /* ret, reti, ijmp, eijmp */
		} else if (op == 0x9509 || op == 0x9519) {              /* icall, eicall */
			w->f->indirect++;
		} else if (op == 0x9478) {                              /* sei */
			w->f->enables_interrupts = true;
		} else if (op == 0xb7cd) {                              /* in r28, SPL */
			st.yk = true;
			st.y = st.k;
		} else if ((op & 0xff30) == 0x9720 || (op & 0xff30) == 0x9620) {       /* sbiw, adiw r28 */
			long v = (long)((op & 0xf) | (op >> 2 & 0x30));
			st.y += (op & 0x0100) ? v : -v;
		} else if ((op & 0xf0f0) == 0x50c0) {                   /* subi r28, lo (sbci r29, hi) */
			long v = (long)((op & 0xf) | (op >> 4 & 0xf0));
			if (avail >= 4 && (le16(p + 2) & 0xf0f0) == 0x40d0) {
				unsigned op2 = le16(p + 2);
				v |= (long)((op2 & 0xf) | (op2 >> 4 & 0xf0)) << 8;
				if (v >= 0x8000)
					v -= 0x10000;
				st.addr = at + 4;
			} else if (v >= 0x80) {
				v -= 0x100;
			}
			st.y += v;
		} else if ((op & 0xf0e0) == 0xe0c0 || (op & 0xfde0) == 0x2dc0 || (op & 0xfff0) == 0x01e0 ||
			   (op & 0xfde0) == 0x19c0 || (op & 0xfde0) == 0x09c0) {
			st.yk = false;                                  /* ldi, mov, movw, sub, sbc into Y */
		} else if ((op & 0xfe0f) == 0xbe0d || (op & 0xfe0f) == 0xbe0e) {      /* out SPL, SPH */
			unsigned r = op >> 4 & 0x1f;
			if ((r == 28 || r == 29) && st.yk)
				st.k = st.y > st.k ? st.y : st.k;       /* down to Y; up: the frame stays counted */
			else if (r != 28 && r != 29)
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
