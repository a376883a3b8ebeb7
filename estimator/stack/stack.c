/* stack/stack.c — the static stack and RAM of a program, see stack.h. */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/part.h"
#include "base/array.h"
#include "input/elffile.h"
#include "stack/code.h"
#include "input/counts.h"
#include "stack/stack.h"

/* The GNU tools place AVR data addresses at this offset (run/avr.h has it for the runner). */
#define AVR_DATA 0x800000u

/* A Cortex-M exception pushes r0-r3, r12, lr, pc and xPSR (32 bytes), and 4 more to align the
 * stack to 8 bytes when it was not (CCR.STKALIGN, the reset value on the Cortex-M3 r2p0 on, M4,
 * M7, M0). The floating-point context a handler may add is not counted (docs/stack.md). */
#define CORTEX_M_EXCEPTION_FRAME 36

/* A code symbol: a function's (or an assembler routine's) entry, the code up to its end. */
struct code_sym {
	uint64_t addr, end;
	const struct roi_elf_sym *sym;
	long node;                      /* the function node, -1 until one is made */
};

struct build {
	struct roi_stack *s;
	const struct roi_program *prog;
	struct roi_elf *elf;
	struct roi_elf_info info;
	struct roi_elf_section *secs;
	size_t nsecs;
	struct roi_elf_sym *syms;
	size_t nsyms;
	const char **file_of;           /* per symbol: the STT_FILE symbol before it (local ones' unit) */
	enum roi_code_arch arch;
	struct code_sym *code;
	size_t ncode;
	uint64_t *data_marks;           /* ARM "$d" addresses, sorted */
	size_t ndata;
	uint64_t *code_marks;           /* ARM "$t" and "$a" addresses, sorted */
	size_t ncodemarks;
	size_t capfns;
	size_t *edge_cap;
};

/* ---- nodes and edges ---- */

static size_t add_fn(struct build *b, const char *name)
{
	struct roi_stack *s = b->s;

	s->fns = roi_xgrow(s->fns, s->nfns, &b->capfns, sizeof *s->fns);
	b->edge_cap = roi_xrealloc(b->edge_cap, b->capfns, sizeof *b->edge_cap);
	b->edge_cap[s->nfns] = 0;
	s->fns[s->nfns] = (struct roi_stack_fn){.name = roi_arena_strdup(&s->arena, name), .frame = -1,
						.source = ROI_FRAME_NONE, .next = -1};
	return s->nfns++;
}

static void add_edge(struct build *b, size_t from, size_t to, bool tail, long long offset)
{
	struct roi_stack_fn *f = &b->s->fns[from];

	for (size_t i = 0; i < f->nedges; i++)
		if (f->edges[i].to == to && f->edges[i].tail == tail) {
			if (offset > f->edges[i].offset)
				f->edges[i].offset = offset;
			return;
		}
	f->edges = roi_xgrow(f->edges, f->nedges, &b->edge_cap[from], sizeof *f->edges);
	f->edges[f->nedges++] = (struct roi_stack_edge){.to = to, .tail = tail, .offset = offset};
}

/* ---- the ELF: code symbols, mapping symbols ---- */

static const struct roi_elf_section *section_of(const struct build *b, unsigned shndx)
{
	return shndx >= 1 && shndx <= b->nsecs ? &b->secs[shndx - 1] : NULL;
}

static bool is_code_symbol(const struct build *b, const struct roi_elf_sym *y)
{
	const struct roi_elf_section *sec = section_of(b, y->shndx);

	return sec && sec->exec && sec->alloc && (y->type == STT_FUNC || y->type == STT_NOTYPE) &&
	       y->name[0] != '.' && y->name[0] != '$';
}

static uint64_t code_addr(const struct build *b, uint64_t v)
{
	return b->arch == ROI_CODE_THUMB ? v & ~(uint64_t)1 : v;
}

/* Which of two symbols at one address names the code: a function with a size, a global one
 * before a weak one (AVR's unused vectors are weak aliases of __bad_interrupt). */
static bool better_name(const struct roi_elf_sym *a, const struct roi_elf_sym *c)
{
	if ((a->type == STT_FUNC) != (c->type == STT_FUNC))
		return a->type == STT_FUNC;
	if ((a->size > 0) != (c->size > 0))
		return a->size > 0;
	if (a->weak != c->weak)
		return !a->weak;
	return false;
}

static int by_addr(const void *x, const void *y)
{
	const struct code_sym *a = x, *c = y;

	return a->addr < c->addr ? -1 : a->addr > c->addr;
}

static int by_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;

	return a < c ? -1 : a > c;
}

static void collect_code(struct build *b)
{
	const char *file = NULL;

	b->file_of = roi_xzalloc(b->nsyms, sizeof *b->file_of);
	b->code = roi_xzalloc(b->nsyms, sizeof *b->code);
	for (size_t i = 0; i < b->nsyms; i++) {
		const struct roi_elf_sym *y = &b->syms[i];

		if (y->type == STT_FILE)
			file = y->name;
		b->file_of[i] = file;
		if (b->arch == ROI_CODE_THUMB && y->name[0] == '$' && section_of(b, y->shndx)) {
			if (y->name[1] == 'd') {
				b->data_marks = roi_xrealloc(b->data_marks, b->ndata + 1, sizeof *b->data_marks);
				b->data_marks[b->ndata++] = y->value;
			} else if (y->name[1] == 't' || y->name[1] == 'a') {
				b->code_marks = roi_xrealloc(b->code_marks, b->ncodemarks + 1, sizeof *b->code_marks);
				b->code_marks[b->ncodemarks++] = y->value;
			}
		}
		if (is_code_symbol(b, y))
			b->code[b->ncode++] = (struct code_sym){.addr = code_addr(b, y->value), .sym = y, .node = -1};
	}
	roi_sort(b->code, b->ncode, sizeof *b->code, by_addr);
	roi_sort(b->data_marks, b->ndata, sizeof *b->data_marks, by_u64);
	roi_sort(b->code_marks, b->ncodemarks, sizeof *b->code_marks, by_u64);
	/* one entry per address, the best name */
	size_t n = 0;
	for (size_t i = 0; i < b->ncode; i++) {
		if (n && b->code[n - 1].addr == b->code[i].addr) {
			if (better_name(b->code[i].sym, b->code[n - 1].sym))
				b->code[n - 1].sym = b->code[i].sym;
			continue;
		}
		b->code[n++] = b->code[i];
	}
	b->ncode = n;
	/* a symbol without a size (an assembler routine's entry) runs to the next one or its
	 * section's end */
	for (size_t i = 0; i < b->ncode; i++) {
		const struct roi_elf_section *sec = section_of(b, b->code[i].sym->shndx);
		uint64_t end = sec->addr + sec->size;

		if (b->code[i].sym->size > 0)
			end = b->code[i].addr + b->code[i].sym->size;
		else if (i + 1 < b->ncode && b->code[i + 1].addr < end)
			end = b->code[i + 1].addr;
		b->code[i].end = end;
	}
}

/* The code symbol that starts at addr, else the one whose code holds it; NULL when none. */
static struct code_sym *code_at(struct build *b, uint64_t addr)
{
	size_t lo = 0, hi = b->ncode;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->code[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < b->code[lo - 1].end ? &b->code[lo - 1] : NULL;
}

/* Whether addr is in data (ARM: after a "$d" with no "$t" since). */
static bool in_data(const struct build *b, uint64_t addr)
{
	uint64_t d = 0, c = 0;
	bool have_d = false;

	for (size_t i = 0; i < b->ndata && b->data_marks[i] <= addr; i++) {
		d = b->data_marks[i];
		have_d = true;
	}
	if (!have_d)
		return false;
	for (size_t i = 0; i < b->ncodemarks && b->code_marks[i] <= addr; i++)
		c = b->code_marks[i];
	return d > c;
}

static const unsigned char *code_bytes(const struct build *b, const struct code_sym *c)
{
	const struct roi_elf_section *sec = section_of(b, c->sym->shndx);

	if (!sec || !sec->data || c->addr < sec->addr || c->end > sec->addr + sec->size)
		return NULL;
	return sec->data + (c->addr - sec->addr);
}

/* Reads the code of c, the pieces between ARM's literal pools one by one. */
static bool read_code(const struct build *b, const struct code_sym *c, struct roi_code_facts *f)
{
	const unsigned char *bytes = code_bytes(b, c);

	if (!bytes || c->end <= c->addr)
		return false;
	for (uint64_t at = c->addr; at < c->end;) {
		uint64_t stop = at;

		while (stop < c->end && !in_data(b, stop))
			stop += 2;
		if (stop > c->end)
			stop = c->end;  /* (an odd size) */
		if (stop > at)
			roi_code_read(b->arch, b->s->pc_bytes, bytes + (at - c->addr), at, stop - at, c->addr, c->end, f);
		while (stop < c->end && in_data(b, stop))
			stop += 2;
		at = stop;
	}
	return true;
}

/* ---- functions: counted ones from the metadata, code without it as calls reach it ---- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The symbol of a counted function: by its assembler name, a static one in its own unit (the
 * STT_FILE before the local symbols names the source). */
static struct code_sym *code_of_function(struct build *b, const struct roi_function *fn)
{
	const struct roi_elf_sym *found = NULL;
	int n = 0;

	for (size_t i = 0; i < b->nsyms; i++) {
		const struct roi_elf_sym *y = &b->syms[i];

		if (!is_code_symbol(b, y) || strcmp(y->name, fn->asm_name) != 0)
			continue;
		if (y->local && fn->is_static && b->file_of[i] &&
		    strcmp(b->file_of[i], base_name(fn->unit->source)) == 0)
			return code_at(b, code_addr(b, y->value));
		if (!y->local && !fn->is_static)
			return code_at(b, code_addr(b, y->value));
		found = y;
		n++;
	}
	return n == 1 ? code_at(b, code_addr(b, found->value)) : NULL;
}

static void counted_functions(struct build *b)
{
	const struct roi_program *p = b->prog;

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nfunctions; i++) {
			const struct roi_function *fn = &p->units[u].functions[i];
			size_t k = add_fn(b, fn->name);
			struct roi_stack_fn *f = &b->s->fns[k];

			f->meta = fn;
			if (fn->stack >= 0) {
				f->frame = fn->stack;
				f->source = ROI_FRAME_GCC;
				f->frame_bound = fn->stack_dynamic == ROI_STACK_BOUNDED;
				if (fn->stack_dynamic == ROI_STACK_UNBOUNDED) {
					f->flags |= ROI_STACK_DYNAMIC;
					f->why = "allocates stack of a run-time size (alloca, a variable-length array)";
				}
			} else {
				f->flags |= ROI_STACK_UNKNOWN;
				f->why = "no stack figure in its metadata (a naked function, or compiled by an older roi)";
			}
			struct code_sym *c = b->arch != ROI_CODE_NONE ? code_of_function(b, fn) : NULL;
			if (c && c->node < 0) {
				c->node = (long)k;
				f->symbol = roi_arena_strdup(&b->s->arena, c->sym->name);
				f->addr = c->addr;
				f->size = c->end - c->addr;
			}
		}
	b->s->ncounted = b->s->nfns;
}

/* The node of the code at c, made (with its frame read from its code) when it is new. */
static size_t code_node(struct build *b, struct code_sym *c)
{
	if (c->node >= 0)
		return (size_t)c->node;
	size_t k = add_fn(b, c->sym->name);
	struct roi_stack_fn *f = &b->s->fns[k];

	c->node = (long)k;
	f->symbol = f->name;
	f->addr = c->addr;
	f->size = c->end - c->addr;
	return k;
}

static size_t unknown_node(struct build *b, const char *name, const char *why)
{
	for (size_t i = b->s->ncounted; i < b->s->nfns; i++)
		if (!b->s->fns[i].size && strcmp(b->s->fns[i].name, name) == 0)
			return i;
	size_t k = add_fn(b, name);
	b->s->fns[k].flags |= ROI_STACK_UNKNOWN;
	b->s->fns[k].why = why;
	return k;
}

static const unsigned char *image_bytes(void *ctx, uint64_t addr, uint64_t *avail)
{
	const struct build *b = ctx;

	for (size_t i = 0; i < b->nsecs; i++) {
		const struct roi_elf_section *x = &b->secs[i];
		if (x->exec && x->alloc && x->data && addr >= x->addr && addr < x->addr + x->size) {
			*avail = x->addr + x->size - addr;
			return x->data + (addr - x->addr);
		}
	}
	*avail = 0;
	return NULL;
}

static bool image_entry(void *ctx, uint64_t addr, bool *counted)
{
	struct build *b = ctx;
	struct code_sym *c = code_at(b, addr);

	*counted = c && c->addr == addr && c->node >= 0 && (size_t)c->node < b->s->ncounted;
	return c && c->addr == addr;
}

/* The calls of node k read from its code; a function without metadata gets its frame from it:
 * on AVR walked path by path, on ARM its pushes added up. */
static void calls_from_code(struct build *b, size_t k)
{
	struct roi_stack *s = b->s;
	struct code_sym *c = code_at(b, s->fns[k].addr);
	struct roi_code_facts f = {0};
	bool walked = b->arch == ROI_CODE_AVR && !s->fns[k].meta;

	if (walked && c && c->node == (long)k) {
		struct roi_code_image img = {image_bytes, image_entry, b};
		roi_code_walk_avr(&img, s->pc_bytes, c->addr, &f);
	} else if (!c || c->node != (long)k || !read_code(b, c, &f)) {
		if (!s->fns[k].meta) {
			s->fns[k].flags |= ROI_STACK_UNKNOWN;
			s->fns[k].why = "its code cannot be read";
		}
		roi_code_facts_free(&f);
		return;
	}
	if (!s->fns[k].meta) {
		s->fns[k].frame = (long long)f.pushed + (b->arch == ROI_CODE_AVR ? s->pc_bytes : 0);
		s->fns[k].source = ROI_FRAME_CODE;
		s->fns[k].frame_bound = !walked;
		if (f.unknown) {
			s->fns[k].flags |= ROI_STACK_UNKNOWN;
			s->fns[k].why = f.unknown;
		}
	}
	if (f.indirect)
		s->fns[k].flags |= ROI_STACK_INDIRECT;
	s->fns[k].enables_interrupts = f.enables_interrupts;
	for (size_t i = 0; i < f.ncalls; i++) {
		struct code_sym *t = code_at(b, f.calls[i].target);
		size_t to;

		if (t) {
			to = code_node(b, t);
		} else {
			char name[32];
			snprintf(name, sizeof name, "0x%" PRIx64, f.calls[i].target);
			to = unknown_node(b, name, "no symbol at this address");
		}
		long long own = s->fns[k].frame > 0 ? s->fns[k].frame : 0;
		add_edge(b, k, to, f.calls[i].tail, walked ? (long long)f.calls[i].offset : f.calls[i].tail ? 0 : own);
	}
	roi_code_facts_free(&f);
}

/* The counted function a direct call names, as roi report joins them: the caller's unit's own
 * first, else a global one of another unit. */
static long counted_callee(const struct build *b, const struct roi_function *caller, const char *name)
{
	long global = -1;

	for (size_t i = 0; i < b->s->ncounted; i++) {
		const struct roi_function *g = b->s->fns[i].meta;

		if (strcmp(g->name, name) != 0)
			continue;
		if (g->unit == caller->unit)
			return (long)i;
		if (!g->is_static && global < 0)
			global = (long)i;
	}
	return global;
}

/* The calls of counted function k from its metadata: where its code is not read, every direct
 * call; indirect calls always. */
static void calls_from_meta(struct build *b, size_t k, bool code_read)
{
	const struct roi_function *fn = b->s->fns[k].meta;

	for (size_t blk = 0; blk < fn->nblocks; blk++)
		for (size_t r = 0; r < fn->blocks[blk].nops; r++) {
			const struct roi_op *op = &fn->unit->ops[fn->blocks[blk].ops[r].op];

			if (strcmp(op->kind, "call") != 0 || op->internal)
				continue;
			if (!op->direct || !op->callee || strcmp(op->callee, "*indirect") == 0) {
				b->s->fns[k].flags |= ROI_STACK_INDIRECT;
				continue;
			}
			if (code_read)
				continue;
			long g = counted_callee(b, fn, op->callee);
			add_edge(b, k, g >= 0 ? (size_t)g
				 : unknown_node(b, op->callee, "no roi metadata, and its code is not read"), false,
				 b->s->fns[k].frame > 0 ? b->s->fns[k].frame : 0);
		}
}

/* ---- depth: strongly connected components, callees first ---- */

struct tarjan {
	struct roi_stack *s;
	int *index, *low, counter;
	bool *on;
	size_t *stack, depth;
	size_t *members;
};

static void relax(struct roi_stack *s, size_t v, const struct roi_stack_edge *e)
{
	struct roi_stack_fn *f = &s->fns[v];
	size_t w = e->to;
	long long d = e->offset + s->fns[w].depth;

	if (d > f->depth) {
		f->depth = d;
		f->next = (long)w;
	}
}

static void component(struct tarjan *t, size_t first)
{
	struct roi_stack *s = t->s;
	size_t n = t->depth - first, *m = t->stack + first;
	unsigned below = 0;
	bool cyclic = n > 1;

	for (size_t i = 0; i < n; i++) {
		struct roi_stack_fn *f = &s->fns[m[i]];

		f->depth = f->frame > 0 ? f->frame : 0;
		below |= f->flags;
		for (size_t e = 0; e < f->nedges; e++) {
			size_t w = f->edges[e].to;
			if (w == m[i])
				cyclic = true;
			if (t->on[w])
				continue;       /* inside the component: below */
			below |= s->fns[w].below;
			relax(s, m[i], &f->edges[e]);
		}
	}
	if (cyclic) {
		/* one pass through the recursion at least: paths of up to n calls inside it */
		below |= ROI_STACK_RECURSIVE;
		for (size_t round = 0; round < n; round++)
			for (size_t i = 0; i < n; i++)
				for (size_t e = 0; e < s->fns[m[i]].nedges; e++)
					if (t->on[s->fns[m[i]].edges[e].to] && s->fns[m[i]].edges[e].to != m[i])
						relax(s, m[i], &s->fns[m[i]].edges[e]);
	}
	for (size_t i = 0; i < n; i++) {
		s->fns[m[i]].below = below;
		s->fns[m[i]].recursive = cyclic;
		t->on[m[i]] = false;
	}
	t->depth = first;
}

static void strong(struct tarjan *t, size_t v)
{
	struct roi_stack_fn *f = &t->s->fns[v];

	t->index[v] = t->low[v] = t->counter++;
	t->stack[t->depth++] = v;
	t->on[v] = true;
	for (size_t e = 0; e < f->nedges; e++) {
		size_t w = f->edges[e].to;
		if (t->index[w] < 0) {
			strong(t, w);
			if (t->low[w] < t->low[v])
				t->low[v] = t->low[w];
		} else if (t->on[w] && t->index[w] < t->low[v]) {
			t->low[v] = t->index[w];
		}
	}
	if (t->low[v] == t->index[v]) {
		size_t first = t->depth;
		do
			first--;
		while (t->stack[first] != v);
		component(t, first);
	}
}

static void depths(struct roi_stack *s)
{
	struct tarjan t = {.s = s};

	t.index = roi_xzalloc(s->nfns, sizeof *t.index);
	t.low = roi_xzalloc(s->nfns, sizeof *t.low);
	t.on = roi_xzalloc(s->nfns, sizeof *t.on);
	t.stack = roi_xzalloc(s->nfns, sizeof *t.stack);
	for (size_t i = 0; i < s->nfns; i++)
		t.index[i] = -1;
	for (size_t i = 0; i < s->nfns; i++)
		if (t.index[i] < 0)
			strong(&t, i);
	free(t.index);
	free(t.low);
	free(t.on);
	free(t.stack);
}

static void reach(struct roi_stack *s, size_t v)
{
	if (s->fns[v].reached)
		return;
	s->fns[v].reached = true;
	for (size_t e = 0; e < s->fns[v].nedges; e++)
		reach(s, s->fns[v].edges[e].to);
}

/* Whether fn or anything it reaches enables interrupts. */
static bool enables(const struct roi_stack *s, size_t v, bool *seen)
{
	if (seen[v])
		return false;
	seen[v] = true;
	if (s->fns[v].enables_interrupts)
		return true;
	for (size_t e = 0; e < s->fns[v].nedges; e++)
		if (enables(s, s->fns[v].edges[e].to, seen))
			return true;
	return false;
}

/* ---- roots ---- */

static void add_root(struct build *b, enum roi_root_kind kind, size_t fn, const char *label, long long entry)
{
	struct roi_stack *s = b->s;

	for (size_t i = 0; i < s->nroots; i++)
		if (s->roots[i].fn == fn)
			return;
	s->roots = roi_xrealloc(s->roots, s->nroots + 1, sizeof *s->roots);
	s->roots[s->nroots++] = (struct roi_stack_root){.kind = kind, .fn = fn,
							.label = roi_arena_strdup(&s->arena, label), .entry = entry};
}

static long node_named(struct build *b, const char *name)
{
	for (size_t i = 0; i < b->s->nfns; i++)
		if ((b->s->fns[i].symbol && strcmp(b->s->fns[i].symbol, name) == 0) ||
		    (b->s->fns[i].meta && strcmp(b->s->fns[i].name, name) == 0))
			return (long)i;
	return -1;
}

static bool avr_vector_name(const char *n)
{
	if (strcmp(n, "__vector_default") == 0)
		return true;
	if (strncmp(n, "__vector_", 9) != 0 || !n[9])
		return false;
	for (n += 9; *n; n++)
		if (*n < '0' || *n > '9')
			return false;
	return true;
}

static int by_label(const void *x, const void *y)
{
	const struct roi_stack_root *a = x, *c = y;
	size_t la = strlen(a->label), lc = strlen(c->label);

	if (a->kind != c->kind)
		return a->kind == ROI_ROOT_MAIN ? -1 : 1;
	return la != lc ? (la < lc ? -1 : 1) : strcmp(a->label, c->label);   /* __vector_2 before _10 */
}

/* The vector table of a Cortex-M: the words at the start of .vectors or .isr_vector, else of the
 * section the reset vector is in: the stack pointer at reset, then handlers (odd: Thumb). */
static const uint32_t *vector_table(const struct build *b, size_t *n, const struct roi_elf_section **where)
{
	const struct roi_elf_section *found = NULL;

	for (size_t i = 0; i < b->nsecs && !found; i++)
		if (b->secs[i].alloc && b->secs[i].data && b->secs[i].size >= 8 &&
		    (strcmp(b->secs[i].name, ".vectors") == 0 || strcmp(b->secs[i].name, ".isr_vector") == 0))
			found = &b->secs[i];
	for (size_t i = 0; i < b->nsecs && !found; i++) {
		const struct roi_elf_section *x = &b->secs[i];
		uint32_t w1;
		if (!x->alloc || !x->data || x->size < 8)
			continue;
		memcpy(&w1, x->data + 4, 4);
		if (w1 == (uint32_t)(b->info.entry | 1))
			found = x;
	}
	if (!found)
		return NULL;
	*where = found;
	*n = found->size / 4 < 512 ? found->size / 4 : 512;
	return (const uint32_t *)(const void *)found->data;
}

static void find_roots(struct build *b)
{
	struct roi_stack *s = b->s;
	long main_fn = node_named(b, "main");

	s->main_root = -1;
	if (b->arch == ROI_CODE_THUMB) {
		const struct roi_elf_section *sec = NULL;
		size_t n = 0;
		const uint32_t *v = vector_table(b, &n, &sec);

		if (v) {
			uint32_t w;
			memcpy(&w, v, 4);
			s->ram.stack_top = w;
			for (size_t i = 1; i < n; i++) {
				memcpy(&w, v + i, 4);
				if (w == 0)
					continue;
				struct code_sym *c = (w & 1) ? code_at(b, w & ~1u) : NULL;
				if (!c || c->addr != (w & ~1u))
					break;  /* past the table: code */
				size_t k = code_node(b, c);
				char label[160];
				if (i == 1)
					snprintf(label, sizeof label, "%s", s->fns[k].name);
				else
					snprintf(label, sizeof label, "%s (exception %zu)", s->fns[k].name, i);
				add_root(b, i == 1 ? ROI_ROOT_MAIN : ROI_ROOT_INTERRUPT, k, label,
					 i == 1 ? 0 : CORTEX_M_EXCEPTION_FRAME);
			}
		}
	}
	if (b->arch == ROI_CODE_AVR)
		for (size_t i = 0; i < b->ncode; i++)
			if (avr_vector_name(b->code[i].sym->name) && !b->code[i].sym->weak)
				add_root(b, ROI_ROOT_INTERRUPT, code_node(b, &b->code[i]), b->code[i].sym->name, 0);
	if (main_fn >= 0 && !(s->nroots && s->roots[0].kind == ROI_ROOT_MAIN))
		add_root(b, ROI_ROOT_MAIN, (size_t)main_fn, "main", 0);
	roi_sort(s->roots, s->nroots, sizeof *s->roots, by_label);
	if (s->nroots && s->roots[0].kind == ROI_ROOT_MAIN)
		s->main_root = 0;
}

/* ---- RAM ---- */

static const struct roi_elf_sym *symbol_named(const struct build *b, const char *name)
{
	for (size_t i = 0; i < b->nsyms; i++)
		if (strcmp(b->syms[i].name, name) == 0)
			return &b->syms[i];
	return NULL;
}

/* The RAM and the part, from avr-libc's device note (input/part.h). */
static void avr_deviceinfo(struct build *b)
{
	struct roi_stack_ram *r = &b->s->ram;
	struct roi_avr_device d;

	for (size_t i = 0; i < b->nsecs; i++) {
		const struct roi_elf_section *x = &b->secs[i];
		if (strcmp(x->name, ".note.gnu.avr.deviceinfo") != 0 || !roi_avr_device_parse(x->data, x->size, &d))
			continue;
		r->start = d.ram_start;
		r->size = d.ram_size;
		r->known = r->size > 0;
		r->source = ".note.gnu.avr.deviceinfo";
		if (d.name[0])
			r->part = roi_arena_strdup(&b->s->arena, d.name);
		return;
	}
}

static bool is_counter(const struct roi_program *p, const char *name)
{
	for (size_t u = 0; p && u < p->nunits; u++)
		for (size_t i = 0; i < p->units[u].nfunctions; i++)
			if (strcmp(p->units[u].functions[i].counters, name) == 0)
				return true;
	return false;
}

static void ram(struct build *b)
{
	struct roi_stack *s = b->s;
	struct roi_stack_ram *r = &s->ram;
	uint64_t base = b->arch == ROI_CODE_AVR ? AVR_DATA : 0, lowest = UINT64_MAX;

	if (b->arch == ROI_CODE_NONE)
		return;
	for (size_t i = 0; i < b->nsecs; i++) {
		const struct roi_elf_section *x = &b->secs[i];
		if (!x->alloc || !x->write || x->exec || x->addr < base || !x->size)
			continue;
		if (b->arch == ROI_CODE_AVR && x->addr >= AVR_DATA + 0x10000)
			continue;       /* EEPROM, fuses, lock bits, signature */
		/* a section a linker script reserves for the stack or the heap is not data */
		if (strstr(x->name, "stack") || strstr(x->name, "heap"))
			continue;
		if (strcmp(x->name, ".bss") == 0 || strncmp(x->name, ".bss.", 5) == 0)
			r->bss += x->size;
		else if (strcmp(x->name, ".noinit") == 0)
			r->noinit += x->size;
		else
			r->data += x->size;
		if (x->addr - base + x->size > r->data_end)
			r->data_end = x->addr - base + x->size;
		if (x->addr - base < lowest)
			lowest = x->addr - base;
	}
	for (size_t i = 0; i < b->nsyms; i++)
		if (b->syms[i].local && (b->syms[i].type == STT_OBJECT || b->syms[i].type == STT_NOTYPE) &&
		    is_counter(b->prog, b->syms[i].name))
			r->counters += b->syms[i].size;
	r->heap = symbol_named(b, "malloc") != NULL;
	if (b->arch == ROI_CODE_AVR) {
		avr_deviceinfo(b);
		const struct roi_elf_sym *top = symbol_named(b, "__stack");
		/* avr-libc's start-up sets SP to __stack, RAMEND unless the link moved it: the first
		 * push writes there */
		if (top)
			r->stack_top = (top->value >= AVR_DATA ? top->value - AVR_DATA : top->value) + 1;
		else if (r->known)
			r->stack_top = r->start + r->size;
		if (!r->data_end && r->known)
			r->data_end = r->start;
	} else if (r->stack_top) {
		/* Cortex-M: the RAM the link used, from its lowest data to the stack pointer at reset */
		r->start = lowest != UINT64_MAX && lowest < r->stack_top ? lowest : r->stack_top;
		r->size = r->stack_top - r->start;
		r->known = true;
		r->source = "the vector table's initial stack pointer";
		if (!r->data_end)
			r->data_end = r->start;
	}
	if (r->stack_top && r->stack_top >= r->data_end)
		r->free = (long long)(r->stack_top - r->data_end);
	else
		r->known = false;
}

/* ---- the whole ---- */

static void worst(struct roi_stack *s)
{
	long long deepest = -1;

	s->worst_interrupt = -1;
	for (size_t i = 0; i < s->nroots; i++) {
		struct roi_stack_root *r = &s->roots[i];
		r->depth = r->entry + s->fns[r->fn].depth;
		r->below = s->fns[r->fn].below;
		if (r->kind == ROI_ROOT_INTERRUPT) {
			bool *seen = roi_xzalloc(s->nfns, sizeof *seen);
			if (enables(s, r->fn, seen))
				s->interrupts_nest = true;
			free(seen);
			if (r->depth > deepest) {
				deepest = r->depth;
				s->worst_interrupt = (long)i;
			}
		}
	}
	s->worst_depth = s->main_root >= 0 ? s->roots[s->main_root].depth : 0;
	s->worst_below = s->main_root >= 0 ? s->roots[s->main_root].below : 0;
	if (s->worst_interrupt >= 0) {
		s->worst_depth += deepest;
		s->worst_below |= s->roots[s->worst_interrupt].below;
	}
	if (s->interrupts_nest)
		s->worst_below |= ROI_STACK_NESTING;
}

static const char *arch_name(unsigned machine)
{
	switch (machine) {
	case EM_AVR: return "avr";
	case EM_ARM: return "arm";
	case EM_X86_64: return "x86-64";
	case EM_386: return "x86";
	case EM_AARCH64: return "aarch64";
	case EM_RISCV: return "riscv";
	default: return "unknown";
	}
}

/* The ELF at path opened, its sections and symbols read, its machine code's architecture told. */
static int open_build(struct build *b, const char *path, struct roi_err *err)
{
	struct roi_stack *s = b->s;

	if (roi_elf_open(path, &b->elf, err) != 0)
		return -1;
	roi_elf_info(b->elf, &b->info);
	s->machine = b->info.machine;
	s->arch = arch_name(b->info.machine);
	if (roi_elf_sections(b->elf, &b->secs, &b->nsecs, err) != 0 || roi_elf_symbols(b->elf, &b->syms, &b->nsyms, err) != 0)
		return -1;
	if (!b->info.relocatable && b->info.machine == EM_AVR) {
		unsigned mach = b->info.flags & 0x7f;   /* EF_AVR_MACH: avr6, avrxmega6 and 7 have a 22-bit PC */
		b->arch = ROI_CODE_AVR;
		s->pc_bytes = mach == 6 || mach == 106 || mach == 107 ? 3 : 2;
	} else if (!b->info.relocatable && b->info.machine == EM_ARM) {
		const struct roi_elf_sym *m = NULL;
		for (size_t i = 0; i < b->nsyms && !m; i++)
			if (strcmp(b->syms[i].name, "main") == 0 && b->syms[i].type == STT_FUNC)
				m = &b->syms[i];
		if (m && (m->value & 1)) {      /* Thumb: a Cortex-M's */
			b->arch = ROI_CODE_THUMB;
			s->arch = "cortex-m";
		}
	}
	return 0;
}

static void close_build(struct build *b)
{
	free(b->secs);
	free(b->syms);
	free(b->file_of);
	free(b->code);
	free(b->data_marks);
	free(b->code_marks);
	free(b->edge_cap);
	roi_elf_close(b->elf);
}

int roi_stack_ram_read(const char *path, const struct roi_program *prog, struct roi_stack_ram *r,
		       struct roi_arena *arena, struct roi_err *err)
{
	struct roi_stack s = {.path = path};
	struct build b = {.s = &s, .prog = prog};
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (open_build(&b, path, err) != 0)
		goto out;
	if (b.arch == ROI_CODE_THUMB) {
		const struct roi_elf_section *sec = NULL;
		size_t n = 0;
		const uint32_t *v = vector_table(&b, &n, &sec);

		if (v)
			memcpy(&s.ram.stack_top, v, 4);
	}
	ram(&b);
	*r = s.ram;
	r->part = s.ram.part ? roi_arena_strdup(arena, s.ram.part) : NULL;
	rc = 0;
out:
	close_build(&b);
	roi_arena_free(&s.arena);
	return rc;
}



int roi_stack_build(struct roi_stack *s, const struct roi_program *prog, struct roi_err *err)
{
	struct build b = {.s = s, .prog = prog};
	int rc = -1;

	memset(s, 0, sizeof *s);
	s->path = prog->path;
	s->main_root = s->worst_interrupt = -1;
	if (open_build(&b, prog->path, err) != 0)
		goto out;
	s->code_read = b.arch != ROI_CODE_NONE;
	collect_code(&b);
	counted_functions(&b);
	for (size_t k = 0; k < s->ncounted; k++)
		calls_from_meta(&b, k, s->code_read && s->fns[k].size > 0);
	if (s->code_read) {
		find_roots(&b);
		/* every function with code, the ones the calls reach as they are found */
		for (size_t k = 0; k < s->nfns; k++)
			if (s->fns[k].size > 0)
				calls_from_code(&b, k);
	} else {
		find_roots(&b);
	}
	depths(s);
	for (size_t i = 0; i < s->nroots; i++)
		reach(s, s->roots[i].fn);
	worst(s);
	ram(&b);
	if (s->ram.known)
		s->ram.margin = s->ram.free - s->worst_depth;
	rc = 0;
out:
	close_build(&b);
	return rc;
}

void roi_stack_free(struct roi_stack *s)
{
	for (size_t i = 0; i < s->nfns; i++)
		free(s->fns[i].edges);
	free(s->fns);
	free(s->roots);
	roi_arena_free(&s->arena);
	memset(s, 0, sizeof *s);
}

const struct roi_stack_fn *roi_stack_find(const struct roi_stack *s, const char *name, bool *ambiguous)
{
	const struct roi_stack_fn *found = NULL;

	*ambiguous = false;
	for (size_t i = 0; i < s->nfns; i++)
		if (strcmp(s->fns[i].name, name) == 0 || (s->fns[i].symbol && strcmp(s->fns[i].symbol, name) == 0)) {
			if (found && found != &s->fns[i])
				*ambiguous = true;
			if (!found)
				found = &s->fns[i];
		}
	return found;
}

long long roi_stack_depth_of(const struct roi_stack *s, const char *name, bool *complete)
{
	bool ambiguous;
	const struct roi_stack_fn *f = roi_stack_find(s, name, &ambiguous);

	if (!f || ambiguous)
		return -1;
	*complete = !(f->below & (ROI_STACK_RECURSIVE | ROI_STACK_INDIRECT | ROI_STACK_UNKNOWN | ROI_STACK_DYNAMIC));
	return f->depth;
}

const char *roi_stack_flags_text(unsigned flags, char *buf, size_t size)
{
	static const struct { unsigned flag; const char *text; } names[] = {
		{ROI_STACK_RECURSIVE, "recursive"}, {ROI_STACK_INDIRECT, "indirect call"},
		{ROI_STACK_UNKNOWN, "unknown frame"}, {ROI_STACK_DYNAMIC, "dynamic allocation"},
		{ROI_STACK_NESTING, "nested interrupts"},
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if ((flags & names[i].flag) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", names[i].text);
	return buf;
}

size_t roi_stack_path(const struct roi_stack *s, size_t fn, size_t *out, size_t max)
{
	size_t n = 0;

	for (long v = (long)fn; v >= 0 && n < max; v = s->fns[v].next) {
		for (size_t i = 0; i < n; i++)
			if (out[i] == (size_t)v)
				return n;
		out[n++] = (size_t)v;
	}
	return n;
}

#define LOWER_BOUND (ROI_STACK_RECURSIVE | ROI_STACK_INDIRECT | ROI_STACK_UNKNOWN | ROI_STACK_DYNAMIC)

int roi_stack_add_measured(struct roi_stack *s, const struct roi_measured *m, struct roi_err *err)
{
	struct roi_elf *elf;
	uint32_t crc = 0;
	int rc;

	if (roi_elf_open(s->path, &elf, err) != 0)
		return -1;
	rc = roi_elf_image_crc(elf, &crc, err);
	roi_elf_close(elf);
	if (rc != 0)
		return -1;
	s->meas = m;
	s->same_build = crc == m->image_crc;
	for (size_t i = 0; i < s->nfns; i++) {
		struct roi_stack_fn *f = &s->fns[i];

		f->measured = m->has_stack ? roi_measured_stack_fn(m, f->symbol ? f->symbol : f->name) : NULL;
		f->above = f->measured && !(f->below & LOWER_BOUND) && (long long)f->measured->depth > f->depth;
		s->nabove += f->above;
	}
	for (size_t i = 0; i < s->nroots; i++) {
		struct roi_stack_root *r = &s->roots[i];
		const struct roi_stack_fn *f = &s->fns[r->fn];

		r->measured = f->measured ? r->entry + (long long)f->measured->depth : -1;
		r->above = r->measured > r->depth && !(r->below & LOWER_BOUND);
	}
	s->worst_above = m->has_stack && s->main_root >= 0 && !s->worst_below && (long long)m->stack.peak > s->worst_depth;
	s->nabove += s->worst_above;
	return 0;
}

static long node_of_meta(const struct roi_stack *s, const struct roi_function *fn)
{
	for (size_t i = 0; i < s->ncounted; i++)
		if (s->fns[i].meta == fn)
			return (long)i;
	return -1;
}

static struct roi_stack_edge *edge_to(struct roi_stack *s, size_t from, size_t to)
{
	for (size_t e = 0; e < s->fns[from].nedges; e++)
		if (s->fns[from].edges[e].to == to)
			return &s->fns[from].edges[e];
	return NULL;
}

static void add_sites(struct roi_stack *s, size_t from, const struct roi_node *n, bool model)
{
	for (size_t i = 0; i < n->nsites; i++) {
		long to = node_of_meta(s, n->sites[i].callee);
		struct roi_stack_edge *e = to >= 0 ? edge_to(s, from, (size_t)to) : NULL;

		if (!e)
			continue;
		e->has_calls = true;
		e->calls += n->sites[i].calls;
		if (model) {
			e->has_cycles = true;
			e->cycles += n->sites[i].cost.cycles;
		}
	}
	for (size_t i = 0; i < n->nchildren; i++)
		add_sites(s, from, n->children[i], model);
}

void roi_stack_add_run(struct roi_stack *s, const struct roi_hier *h)
{
	const struct roi_counts *c = h->e->counts;

	for (size_t r = 0; r < h->nroots; r++) {
		long from = h->roots[r]->fn ? node_of_meta(s, h->roots[r]->fn) : -1;
		if (from >= 0)
			add_sites(s, (size_t)from, h->roots[r], h->e->model != NULL);
	}
	/* calls of functions without metadata, by the name the call operation gives */
	for (size_t k = 0; k < s->ncounted; k++) {
		const struct roi_function *fn = s->fns[k].meta;
		for (size_t e = 0; e < s->fns[k].nedges; e++) {
			struct roi_stack_edge *x = &s->fns[k].edges[e];
			if (s->fns[x->to].meta)
				continue;
			for (size_t blk = 0; blk < fn->nblocks; blk++)
				for (size_t r = 0; r < fn->blocks[blk].nops; r++) {
					const struct roi_op_row *row = &fn->blocks[blk].ops[r];
					const struct roi_op *op = &fn->unit->ops[row->op];
					if (strcmp(op->kind, "call") == 0 && op->callee && op->direct &&
					    strcmp(op->callee, s->fns[x->to].name) == 0) {
						x->has_calls = true;
						x->calls += roi_block_count(c, fn, blk) * row->n;
					}
				}
		}
	}
}
