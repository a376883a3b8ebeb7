/* input/meta.c — loading and validating .roi.meta records into a struct roi_program. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "input/checksum.h"
#include "input/elffile.h"
#include "input/flow.h"
#include "input/jv.h"
#include "input/meta.h"

/* Parses "0x" followed by 1 to 8 hex digits. */
static bool parse_checksum(const char *s, uint32_t *out)
{
	size_t n;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	n = strspn(s + 2, "0123456789abcdefABCDEF");
	if (n == 0 || n > 8 || s[2 + n] != '\0')
		return false;
	*out = (uint32_t)strtoul(s + 2, NULL, 16);
	return true;
}

/* The keys of each object of a record (docs/formats.md, section 1): a misspelt one would be an
 * optional one left out ("jumpz": no jumps). */
static const char *const unit_keys[] = {
	"roi", "unit", "source", "source_abs", "compiler", "target", "opt", "counter_bits", "atomic", "runtime",
	"debug", "abi", "files", "ops", "functions", "regions", "filter", "excluded", NULL,
};
static const char *const op_keys[] = {
	"kind", "type", "ctype", "from", "from_ctype", "access", "volatile", "operand", "subscripts", "promoted",
	"callee", "direct", "builtin", "internal", "code", "cases", "bytes", NULL,
};
static const char *const function_keys[] = {
	"name", "asm", "file", "line", "static", "counters", "checksum", "inlined", "saved", "frame", "stack",
	"stack_dynamic", "spills", "far", "adjust", "jumps", "tables", "loops", "locs", "fake", "edges", "blocks", NULL,
};
static const char *const block_keys[] = {"succ", "lines", "ops", "labels", "value", "block", NULL};
static const char *const loop_keys[] = {"header", "parent", "file", "line", "blocks", NULL};
static const char *const region_keys[] = {"kind", "name", "function", "file", "line", "header", "symbol", NULL};
static const char *const filter_keys[] = {"path", "rules", NULL};
static const char *const rule_keys[] = {"line", "text", "matched", NULL};
static const char *const excluded_keys[] = {"name", "asm", "file", "line", "rule", NULL};

static int parse_op(const struct jv *v, const cJSON *o, const char *w, struct roi_op *op)
{
	bool is_call;

	op->bytes = op->cases = -1;
	op->subscripts = op->promoted = 0;
	if (jv_object(v, o, w) || jv_keys(v, o, w, op_keys) || jv_string(v, o, w, "kind", true, &op->kind) ||
	    jv_one_of(v, w, "kind", op->kind, roi_kinds))
		return -1;
	is_call = strcmp(op->kind, "call") == 0;
	if (jv_string(v, o, w, "type", false, &op->type) || jv_string(v, o, w, "ctype", false, &op->ctype) ||
	    jv_string(v, o, w, "access", false, &op->access) ||
	    jv_string(v, o, w, "callee", is_call, &op->callee) ||
	    jv_string(v, o, w, "from", strcmp(op->kind, "conv") == 0, &op->from) ||
	    jv_string(v, o, w, "from_ctype", false, &op->from_ctype) ||
	    jv_string(v, o, w, "code", false, &op->code) ||
	    jv_string(v, o, w, "operand", false, &op->operand) ||
	    jv_bool(v, o, w, "volatile", false, &op->is_volatile) || jv_bool(v, o, w, "direct", false, &op->direct) ||
	    jv_bool(v, o, w, "builtin", false, &op->builtin) ||
	    jv_bool(v, o, w, "internal", false, &op->internal) ||
	    jv_integer(v, o, w, "bytes", false, 0, LLONG_MAX, &op->bytes) ||
	    jv_integer(v, o, w, "cases", false, 0, LLONG_MAX, &op->cases) ||
	    jv_integer(v, o, w, "subscripts", false, 2, 64, &op->subscripts) ||
	    jv_integer(v, o, w, "promoted", false, 1, 128, &op->promoted))
		return -1;
	if ((op->type && !roi_type_valid(op->type) && jv_one_of(v, w, "type", op->type, roi_type_names)) ||
	    (op->from && !roi_type_valid(op->from) && jv_one_of(v, w, "from", op->from, roi_type_names)) ||
	    (op->access && jv_one_of(v, w, "access", op->access, roi_accesses)) ||
	    (op->operand && !roi_operand_valid(op->operand) &&
	     jv_fail(v, w, "operand '%s' is not " ROI_OPERAND_VALUES, op->operand)))
		return -1;
	return 0;
}

/* A fixed-length integer tuple, element `index` of the array `member` of the object at where: lines
 * [file, line], ops [op, file, line, n] and the like. Records have millions of them: their paths
 * are made only for a message. */
static int parse_tuple(const struct jv *v, const cJSON *t, const char *where, const char *member, size_t index,
		       int len, const long long *max, long long *out)
{
	char w[320], ew[340];
	int i = 0;
	const cJSON *x;

	if (cJSON_IsArray(t)) {
		for (x = t->child; x && i < len && jv_integer_ok(x, 0, max[i], &out[i]); x = x->next)
			i++;
		if (!x && i == len)
			return 0;
	}
	jv_index(w, sizeof w, where, member, index);
	if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) != len)
		return jv_fail(v, w, "must be an array of %d integers", len);
	i = 0;
	cJSON_ArrayForEach(x, t) {
		snprintf(ew, sizeof ew, "%s[%d]", w, i);
		if (jv_integer_item(v, x, ew, 0, max[i], &out[i]) != 0)
			return -1;
		i++;
	}
	return 0;
}

/* Element i of the array `member` of the object at where, an integer in [min, max]. */
static int index_item(const struct jv *v, const cJSON *x, const char *where, const char *member, size_t i,
		      long long min, long long max, long long *out)
{
	char ew[400];

	if (jv_integer_ok(x, min, max, out))
		return 0;
	return jv_integer_item(v, x, jv_index(ew, sizeof ew, where, member, i), min, max, out);
}

static int parse_block(const struct jv *v, const cJSON *b, const char *w, const struct roi_unit *u,
		       size_t nblocks, struct roi_block *blk)
{
	const cJSON *succ, *lines, *ops, *x;
	const long long line_max[2] = {(long long)u->nfiles - 1, INT_MAX};
	const long long row_max[4] = {(long long)u->nops - 1, (long long)u->nfiles - 1, INT_MAX, 1LL << 53};
	size_t i;

	if (jv_object(v, b, w) || jv_keys(v, b, w, block_keys) || jv_array(v, b, w, "succ", true, &succ) ||
	    jv_array(v, b, w, "lines", true, &lines) ||
	    jv_array(v, b, w, "ops", true, &ops))
		return -1;

	int *s = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(succ), sizeof *s);
	i = 0;
	cJSON_ArrayForEach(x, succ) {
		long long k;
		if (index_item(v, x, w, "succ", i, -1, (long long)nblocks - 1, &k) != 0)
			return -1;
		s[i++] = (int)k;
	}
	blk->succ = s;
	blk->nsucc = i;

	struct roi_line *l = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(lines), sizeof *l);
	i = 0;
	cJSON_ArrayForEach(x, lines) {
		long long t[2];
		if (parse_tuple(v, x, w, "lines", i, 2, line_max, t) != 0)
			return -1;
		l[i++] = (struct roi_line){(unsigned)t[0], (unsigned)t[1]};
	}
	blk->lines = l;
	blk->nlines = i;

	struct roi_op_row *r = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(ops), sizeof *r);
	i = 0;
	cJSON_ArrayForEach(x, ops) {
		long long t[4];
		if (parse_tuple(v, x, w, "ops", i, 4, row_max, t) != 0)
			return -1;
		r[i++] = (struct roi_op_row){(unsigned)t[0], (unsigned)t[1], (unsigned)t[2], (uint64_t)t[3]};
	}
	blk->ops = r;
	blk->nops = i;
	blk->labels = blk->value = false;
	if (jv_bool(v, b, w, "labels", false, &blk->labels) || jv_bool(v, b, w, "value", false, &blk->value))
		return -1;
	if (blk->value && (blk->nsucc || blk->nlines))
		return jv_fail(v, w, "a value counter has no successors and no lines");
	blk->site = -1;
	if (blk->value && jv_integer(v, b, w, "block", false, 0, (long long)nblocks - 1, &blk->site))
		return -1;
	return 0;
}

/* An array of integers in [min, max] into the arena. */
static int parse_index_list(const struct jv *v, const cJSON *a, const char *w, long long max, size_t **out,
			    size_t *n)
{
	const cJSON *x;

	*out = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(a), sizeof **out);
	*n = 0;
	cJSON_ArrayForEach(x, a) {
		long long k;
		if (index_item(v, x, w, NULL, *n, 0, max, &k) != 0)
			return -1;
		(*out)[(*n)++] = (size_t)k;
	}
	return 0;
}

/* "loops": the function's loop nest; parents are indices into the same array, without cycles. */
static int parse_loops(const struct jv *v, const cJSON *loops, const char *w, const struct roi_unit *u,
		       struct roi_function *fn)
{
	const cJSON *x, *blocks;
	size_t n = (size_t)cJSON_GetArraySize(loops), i = 0;
	struct roi_loop *l = roi_arena_array(v->arena, n, sizeof *l);
	char lw[128], bw[160];

	cJSON_ArrayForEach(x, loops) {
		long long header, parent, file, line;
		size_t *b;
		bool has_header = false;

		snprintf(lw, sizeof lw, "%s.loops[%zu]", w, i);
		snprintf(bw, sizeof bw, "%s.blocks", lw);
		if (jv_object(v, x, lw) || jv_keys(v, x, lw, loop_keys) ||
		    jv_integer(v, x, lw, "header", true, 0, (long long)fn->nblocks - 1, &header) ||
		    jv_integer(v, x, lw, "parent", true, -1, (long long)n - 1, &parent) ||
		    jv_integer(v, x, lw, "file", true, 0, (long long)u->nfiles - 1, &file) ||
		    jv_integer(v, x, lw, "line", true, 0, INT_MAX, &line) ||
		    jv_array(v, x, lw, "blocks", true, &blocks) ||
		    parse_index_list(v, blocks, bw, (long long)fn->nblocks - 1, &b, &l[i].nblocks))
			return -1;
		if (parent == (long long)i)
			return jv_fail(v, lw, "parent: a loop cannot be its own parent");
		for (size_t k = 0; k < l[i].nblocks; k++)
			has_header |= b[k] == (size_t)header;
		if (!has_header)
			return jv_fail(v, lw, "blocks: the header block %lld is not among them", header);
		l[i] = (struct roi_loop){(size_t)header, (int)parent, (unsigned)file, (unsigned)line, b, l[i].nblocks};
		i++;
	}
	for (i = 0; i < n; i++) {
		size_t steps = 0;

		for (int p = l[i].parent; p >= 0; p = l[p].parent)
			if (++steps > n) {
				snprintf(lw, sizeof lw, "%s.loops[%zu]", w, i);
				return jv_fail(v, lw, "parent: the parents form a cycle");
			}
	}
	fn->loops = l;
	fn->nloops = n;
	fn->has_loops = true;
	return 0;
}

/* The kinds of operation the loader adds from what the plugin's RTL pass saw (add_frame_ops,
 * add_rtl_rows; roi_added_kinds, from the vocabulary's table): the plugin's op table has none of
 * them. */
bool roi_op_is_added(const struct roi_op *op)
{
	for (size_t i = 0; roi_added_kinds[i]; i++)
		if (strcmp(op->kind, roi_added_kinds[i]) == 0)
			return true;
	return false;
}

static size_t nadded(void)
{
	size_t n = 0;

	while (roi_added_kinds[n])
		n++;
	return n;
}

/* The unit's operation KIND (with OPERAND, or none) that the loader adds, added by the first
 * function that needs it (the plugin writes no operation of these kinds; ops has room for them
 * after the unit's table, where the search from the end finds them at once). */
static unsigned synthetic_op(struct roi_unit *u, struct roi_op *ops, const char *kind, const char *operand)
{
	for (size_t i = u->nops; i-- > 0;)
		if (strcmp(ops[i].kind, kind) == 0 &&
		    (ops[i].operand == operand || (ops[i].operand && operand && strcmp(ops[i].operand, operand) == 0)))
			return (unsigned)i;
	ops[u->nops] = (struct roi_op){.kind = kind, .operand = operand, .bytes = -1, .cases = -1};
	return (unsigned)u->nops++;
}

/* Block b with n rows more, before its own (first) or after them. */
static void add_rows(struct roi_arena *arena, struct roi_block *b, bool first, const struct roi_op_row *add, size_t n)
{
	struct roi_op_row *rows = roi_arena_array(arena, b->nops + n, sizeof *rows);

	if (b->nops)
		memcpy(rows + (first ? n : 0), b->ops, b->nops * sizeof *rows);
	memcpy(rows + (first ? 0 : b->nops), add, n * sizeof *rows);
	b->ops = rows;
	b->nops += n;
}

/* A frame smaller than this many bytes has its size as the operand of its "frame" operation: an
 * AVR prologue makes such a frame with a push or rcall per byte or two and its epilogue frees it
 * with a pop per byte, so its cost grows with the size; a larger one moves the stack pointer, at a
 * cost that does not depend on the size (as every frame on ARM). */
#define SMALL_FRAME 8
static const char *const small_frame[SMALL_FRAME] = {"0", "1", "2", "3", "4", "5", "6", "7"};

/* "saved" and "frame": the callee-saved registers the function's prologue saves and its epilogue
 * restores, and the bytes of its stack frame (the plugin's RTL pass reads both off the register
 * allocation). They become operations of the entry block on the function's own line, the line
 * its prologue and epilogue belong to: "save" once per register per call, "frame" once per call
 * of a function with a frame, with the size as operand when the frame is small. */
static void add_frame_ops(struct roi_unit *u, struct roi_op *ops, struct roi_function *fn, struct roi_block *entry,
			  long long saved, long long frame, struct roi_arena *arena)
{
	struct roi_op_row rows[2];
	size_t n = 0;

	if (saved > 0)
		rows[n++] = (struct roi_op_row){synthetic_op(u, ops, ROI_KIND(SAVE), NULL), fn->file, fn->line, (uint64_t)saved};
	if (frame > 0)
		rows[n++] = (struct roi_op_row){
			synthetic_op(u, ops, ROI_KIND(FRAME), frame < SMALL_FRAME ? small_frame[frame] : NULL), fn->file,
			fn->line, 1};
	/* first, like the prologue: the rows are in the order of the statements (gcov-check cuts a
	 * block after its calls) */
	add_rows(arena, entry, true, rows, n);
}

/* The members of [block, file, line, n] rows of what the plugin's RTL pass saw in a block
 * (roi-spills.cc, roi-jumps.cc), and the operation each row becomes, n per execution of its block:
 * the bytes of spill-slot traffic, the frame accesses out of reach of the displacement, the moves of
 * a base register without displacement and the unconditional jumps. Every kind is one of
 * roi_added_kinds, which also sizes the room the unit's op table keeps for them. */
static const struct {
	const char *member;
	enum roi_kind_id kind;
} rtl_rows[] = {{"spills", ROI_K_SPILL}, {"far", ROI_K_FAR}, {"adjust", ROI_K_ADJUST}, {"jumps", ROI_K_JUMP}};

/* One member's rows (rtl_rows), each the operation KIND after its block's rows. */
static int add_rtl_rows(const struct jv *v, const cJSON *rows, const char *w, const char *member,
			const char *kind, struct roi_unit *u, struct roi_op *ops, struct roi_function *fn,
			struct roi_block *blk)
{
	const long long max[4] = {(long long)fn->nblocks - 1, (long long)u->nfiles - 1, INT_MAX, 1LL << 40};
	const cJSON *x;
	char ew[320];
	size_t i = 0;

	cJSON_ArrayForEach(x, rows) {
		long long t[4];

		if (parse_tuple(v, x, w, member, i, 4, max, t) != 0)
			return -1;
		struct roi_block *b = &blk[t[0]];
		if (b->value)
			return jv_fail(v, jv_index(ew, sizeof ew, w, member, i), "block %lld is a value counter", t[0]);
		i++;
		struct roi_op_row row = {synthetic_op(u, ops, kind, NULL), (unsigned)t[1], (unsigned)t[2], (uint64_t)t[3]};
		add_rows(v->arena, b, false, &row, 1);
	}
	return 0;
}

/* The unit's operation like ops[i] but with OPERAND, added after the unit's table if it has none. */
static unsigned variant_op(struct roi_unit *u, struct roi_op *ops, unsigned i, const char *operand)
{
	struct roi_op want = ops[i];

	want.operand = operand;
	for (size_t j = u->nops; j-- > 0;)
		if (strcmp(ops[j].kind, want.kind) == 0 && ops[j].operand && strcmp(ops[j].operand, operand) == 0 &&
		    (ops[j].type == want.type || (ops[j].type && want.type && strcmp(ops[j].type, want.type) == 0)) &&
		    ops[j].cases == want.cases)
			return (unsigned)j;
	ops[u->nops] = want;
	return (unsigned)u->nops++;
}

/* "tables": the blocks whose switch the compiler expanded as a jump table (the plugin's RTL pass,
 * roi-jumps.cc): their switch takes the operand "table", since a table's dispatch costs the same
 * whichever case runs and a decision tree's grows with the cases. */
static int add_tables(const struct jv *v, const cJSON *tables, const char *w, struct roi_unit *u,
		      struct roi_op *ops, struct roi_function *fn, struct roi_block *blk)
{
	const cJSON *x;
	size_t i = 0;

	cJSON_ArrayForEach(x, tables) {
		long long b;

		if (index_item(v, x, w, "tables", i++, 0, (long long)fn->nblocks - 1, &b) != 0)
			return -1;
		/* (the loader's own rows, in its arena: const only to their readers) */
		struct roi_op_row *rows = (struct roi_op_row *)blk[b].ops;
		for (size_t r = 0; r < blk[b].nops; r++)
			if (strcmp(ops[rows[r].op].kind, "switch") == 0 && !ops[rows[r].op].operand)
				rows[r].op = variant_op(u, ops, rows[r].op, "table");
	}
	return 0;
}

/* "locs": [block, file, line, column, instance] rows, in block order, and three more, [mfile, mline,
 * mcolumn], for a statement a macro spelled. */
static int parse_locs(const struct jv *v, const cJSON *locs, const char *w, const struct roi_unit *u,
		      struct roi_function *fn)
{
	const long long max[8] = {(long long)fn->nblocks - 1, (long long)u->nfiles - 1, INT_MAX, INT_MAX, INT_MAX,
				  (long long)u->nfiles - 1, INT_MAX, INT_MAX};
	struct roi_loc *l = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(locs), sizeof *l);
	const cJSON *x;
	size_t i = 0;

	cJSON_ArrayForEach(x, locs) {
		long long t[8] = {0};

		if (parse_tuple(v, x, w, "locs", i, cJSON_GetArraySize(x) == 8 ? 8 : 5, max, t) != 0)
			return -1;
		l[i++] = (struct roi_loc){(size_t)t[0], (unsigned)t[1], (unsigned)t[2], (unsigned)t[3], (unsigned)t[4],
					  (unsigned)t[5], (unsigned)t[6], (unsigned)t[7]};
	}
	fn->locs = l;
	fn->nlocs = i;
	fn->has_locs = true;
	return 0;
}

/* The function's checksum as the plugin computed it (gcc-plugin/roi-checksum.h), from its blocks and
 * the operations they name as read here, before the loader adds rows of its own. Each operation's
 * part of a row is prepared the first time a row names it (prep, one per slot of ops). */
static uint32_t blocks_checksum(const struct roi_function *fn, const struct roi_block *blk, const struct roi_op *ops,
				struct roi_checksum_prepared *prep)
{
	struct roi_checksum c;

	roi_checksum_begin(&c, fn->asm_name);
	for (size_t i = 0; i < fn->nblocks; i++) {
		const struct roi_block *b = &blk[i];

		roi_checksum_block(&c, b->labels, b->value, b->site);
		for (size_t k = 0; k < b->nsucc; k++)
			roi_checksum_succ(&c, b->succ[k]);
		for (size_t k = 0; k < b->nlines; k++)
			roi_checksum_line(&c, b->lines[k].file, b->lines[k].line);
		for (size_t k = 0; k < b->nops; k++) {
			struct roi_checksum_prepared *p = &prep[b->ops[k].op];

			if (!p->ready) {
				const struct roi_op *o = &ops[b->ops[k].op];
				const struct roi_checksum_op op = {
					.kind = o->kind, .type = o->type, .ctype = o->ctype, .from = o->from,
					.from_ctype = o->from_ctype, .access = o->access, .operand = o->operand,
					.callee = o->callee, .code = o->code, .is_volatile = o->is_volatile,
					.direct = o->direct, .builtin = o->builtin, .internal = o->internal,
					.subscripts = o->subscripts, .promoted = o->promoted, .cases = o->cases,
					.bytes = o->bytes,
				};
				roi_checksum_prepare(p, &op);
			}
			roi_checksum_row_prepared(&c, b->ops[k].file, b->ops[k].line, b->ops[k].n, p);
		}
	}
	return c.crc;
}

static int parse_function(const struct jv *v, const cJSON *f, const char *w, struct roi_unit *u,
			  struct roi_op *ops, struct roi_checksum_prepared *prep, struct roi_function *fn)
{
	const cJSON *blocks, *b, *inlined = NULL;
	const char *checksum;
	long long file, line;
	char bw[256];
	size_t i = 0;

	fn->unit = u;
	if (jv_object(v, f, w) || jv_keys(v, f, w, function_keys) || jv_string(v, f, w, "name", true, &fn->name) ||
	    jv_string(v, f, w, "asm", true, &fn->asm_name) ||
	    jv_integer(v, f, w, "file", true, 0, (long long)u->nfiles - 1, &file) ||
	    jv_integer(v, f, w, "line", true, 0, INT_MAX, &line) ||
	    jv_bool(v, f, w, "static", false, &fn->is_static) ||
	    jv_string(v, f, w, "counters", true, &fn->counters) ||
	    jv_string(v, f, w, "checksum", true, &checksum) || jv_array(v, f, w, "blocks", true, &blocks))
		return -1;
	fn->file = (unsigned)file;
	fn->line = (unsigned)line;
	if (jv_array(v, f, w, "inlined", false, &inlined) != 0)
		return -1;
	if (inlined) {
		const char **names = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(inlined), sizeof *names);

		cJSON_ArrayForEach(b, inlined) {
			if (!cJSON_IsString(b) || !b->valuestring) {
				snprintf(bw, sizeof bw, "%s.inlined[%zu]", w, fn->ninlined);
				return jv_fail(v, bw, "must be a string");
			}
			names[fn->ninlined++] = roi_arena_strdup(v->arena, b->valuestring);
		}
		fn->inlined = names;
	}
	if (!parse_checksum(checksum, &fn->checksum))
		return jv_fail(v, w, "checksum: '%s' is not 0x followed by up to 8 hex digits", checksum);
	fn->nblocks = (size_t)cJSON_GetArraySize(blocks);
	if (fn->nblocks == 0)
		return jv_fail(v, w, "blocks: empty (block 0 is the entry block)");
	struct roi_block *blk = roi_arena_array(v->arena, fn->nblocks, sizeof *blk);
	cJSON_ArrayForEach(b, blocks) {
		if (parse_block(v, b, jv_index(bw, sizeof bw, w, "blocks", i), u, fn->nblocks, &blk[i]) != 0)
			return -1;
		i++;
	}
	if (blk[0].value)
		return jv_fail(v, w, "blocks[0]: the entry block is not a value counter");
	for (i = 0; i < fn->nblocks; i++) {
		if (blk[i].site >= 0 && blk[blk[i].site].value)
			return jv_fail(v, jv_index(bw, sizeof bw, w, "blocks", i), "block: %lld is a value counter, not a block",
				       blk[i].site);
		for (size_t s = 0; s < blk[i].nsucc; s++)
			if (blk[i].succ[s] >= 0 && blk[blk[i].succ[s]].value)
				return jv_fail(v, jv_index(bw, sizeof bw, w, "blocks", i),
					       "succ: %d is a value counter, not a block", blk[i].succ[s]);
	}
	if (roi_flow_parse(v, f, w, fn, blk) != 0)
		return -1;
	fn->blocks = blk;
	/* The profile is joined by this checksum: it must be the record's own, not a number that came
	 * with edited blocks or operations (docs/formats.md: the RTL pass's members are not in it).
	 * The fuzzers cannot forge a CRC: in their build a mismatch is let through, so that what reads
	 * the blocks after this still sees every mutation of them (the Makefile's FUZZ_CFLAGS). */
	fn->block_checksum = blocks_checksum(fn, blk, ops, prep);
	uint32_t computed = roi_flow_checksum(fn, fn->block_checksum);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	computed = fn->checksum;
#endif
	if (computed != fn->checksum) {
		snprintf(bw, sizeof bw, "%s (%s)", w, fn->name);
		return jv_fail(v, bw, "checksum 0x%08x does not match its blocks (0x%08x); the metadata was changed "
			       "after compiling", fn->checksum, computed);
	}
	long long saved = 0, frame = 0;
	if (jv_integer(v, f, w, "saved", false, 0, 4096, &saved) != 0 ||
	    jv_integer(v, f, w, "frame", false, 0, LLONG_MAX, &frame) != 0)
		return -1;
	if (saved > 0 || frame > 0)
		add_frame_ops(u, ops, fn, &blk[0], saved, frame, v->arena);
	/* A branch's taken count is no operation: no model prices it, and the per-operation estimate,
	 * reports and budgets would call it unmodelled. Its row goes once the checksum, which covers
	 * it, is checked; the counter stays for --price machine (machine/flow.c). */
	for (i = 0; i < fn->nblocks; i++) {
		blk[i].branch = blk[i].value && blk[i].nops == 1 &&
				roi_kind_is(ops[blk[i].ops[0].op].kind, ROI_KIND(TAKEN), NULL, NULL);
		if (!blk[i].branch)
			continue;
		const char *code = ops[blk[i].ops[0].op].code;
		blk[i].branch_move = code && (strcmp(code, "min_expr") == 0 || strcmp(code, "max_expr") == 0);
		blk[i].nops = 0;
	}
	static const char *const dynamic[] = {"bounded", "unbounded", NULL};
	const char *stack_dynamic = NULL;
	fn->stack = -1;
	if (jv_integer(v, f, w, "stack", false, 0, INT32_MAX, &fn->stack) != 0 ||
	    jv_string(v, f, w, "stack_dynamic", false, &stack_dynamic) != 0 ||
	    (stack_dynamic && jv_one_of(v, w, "stack_dynamic", stack_dynamic, dynamic) != 0))
		return -1;
	if (stack_dynamic && fn->stack < 0)
		return jv_fail(v, w, "stack_dynamic without stack");
	fn->stack_dynamic = !stack_dynamic ? ROI_STACK_STATIC
			    : strcmp(stack_dynamic, "bounded") == 0 ? ROI_STACK_BOUNDED : ROI_STACK_UNBOUNDED;
	for (size_t m = 0; m < sizeof rtl_rows / sizeof *rtl_rows; m++) {
		const cJSON *rows = NULL;
		if (jv_array(v, f, w, rtl_rows[m].member, false, &rows) != 0 ||
		    (rows && add_rtl_rows(v, rows, w, rtl_rows[m].member, roi_kinds[rtl_rows[m].kind], u, ops, fn, blk) != 0))
			return -1;
	}
	const cJSON *tables = NULL;
	if (jv_array(v, f, w, "tables", false, &tables) != 0 ||
	    (tables && add_tables(v, tables, w, u, ops, fn, blk) != 0))
		return -1;
	const cJSON *loops = NULL, *locs = NULL;
	if (jv_array(v, f, w, "loops", false, &loops) != 0 || (loops && parse_loops(v, loops, w, u, fn) != 0) ||
	    jv_array(v, f, w, "locs", false, &locs) != 0 || (locs && parse_locs(v, locs, w, u, fn) != 0))
		return -1;
	return 0;
}

static int parse_regions(const struct jv *v, const cJSON *regions, struct roi_unit *u)
{
	static const char *const kinds[] = {"function", "loop", NULL};
	struct roi_region *r = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(regions), sizeof *r);
	const cJSON *x;
	char w[64];
	size_t i = 0;

	cJSON_ArrayForEach(x, regions) {
		const char *kind;
		long long function, file, line, header = -1;

		snprintf(w, sizeof w, "regions[%zu]", i);
		r[i].unit = u;
		r[i].index = i;
		if (jv_object(v, x, w) || jv_keys(v, x, w, region_keys) || jv_string(v, x, w, "kind", true, &kind) ||
		    jv_one_of(v, w, "kind", kind, kinds) ||
		    jv_string(v, x, w, "name", true, &r[i].name) ||
		    jv_integer(v, x, w, "function", true, -1, (long long)u->nfunctions - 1, &function) ||
		    jv_integer(v, x, w, "file", true, 0, (long long)u->nfiles - 1, &file) ||
		    jv_integer(v, x, w, "line", true, 0, INT_MAX, &line) ||
		    jv_string(v, x, w, "symbol", true, &r[i].symbol))
			return -1;
		r[i].kind = strcmp(kind, "loop") == 0 ? ROI_REGION_LOOP : ROI_REGION_FUNCTION;
		if (r[i].kind == ROI_REGION_LOOP) {
			/* The header is a block of the function, when the function is counted. */
			long long max = function >= 0 ? (long long)u->functions[function].nblocks - 1 : INT_MAX;
			if (jv_integer(v, x, w, "header", function >= 0, function >= 0 ? 0 : -1, max, &header) != 0)
				return -1;
		}
		r[i].function = (long)function;
		r[i].file = (unsigned)file;
		r[i].line = (unsigned)line;
		r[i].header = (long)header;
		i++;
	}
	u->regions = r;
	u->nregions = i;
	return 0;
}

static int parse_filter(const struct jv *v, const cJSON *root, struct roi_unit *u)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "filter"), *rules, *x;
	struct roi_filter *flt;
	struct roi_filter_rule *r;
	char w[64];
	size_t i = 0;

	if (!f)
		return 0;
	flt = roi_arena_alloc(v->arena, sizeof *flt);
	if (jv_object(v, f, "filter") || jv_keys(v, f, "filter", filter_keys) ||
	    jv_string(v, f, "filter", "path", true, &flt->path) ||
	    jv_array(v, f, "filter", "rules", true, &rules))
		return -1;
	r = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(rules), sizeof *r);
	cJSON_ArrayForEach(x, rules) {
		long long line;

		snprintf(w, sizeof w, "filter.rules[%zu]", i);
		if (jv_object(v, x, w) || jv_keys(v, x, w, rule_keys) || jv_integer(v, x, w, "line", true, 1, INT_MAX, &line) ||
		    jv_string(v, x, w, "text", true, &r[i].text) || jv_bool(v, x, w, "matched", true, &r[i].matched))
			return -1;
		r[i].line = (unsigned)line;
		i++;
	}
	flt->rules = r;
	flt->nrules = i;
	u->filter = flt;
	return 0;
}

static int parse_excluded(const struct jv *v, const cJSON *excluded, struct roi_unit *u)
{
	struct roi_excluded *e = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(excluded), sizeof *e);
	const cJSON *x;
	char w[64];
	size_t i = 0;

	cJSON_ArrayForEach(x, excluded) {
		long long file, line, rule;
		bool known = false;

		snprintf(w, sizeof w, "excluded[%zu]", i);
		if (jv_object(v, x, w) || jv_keys(v, x, w, excluded_keys) || jv_string(v, x, w, "name", true, &e[i].name) ||
		    jv_string(v, x, w, "asm", true, &e[i].asm_name) ||
		    jv_integer(v, x, w, "file", true, 0, (long long)u->nfiles - 1, &file) ||
		    jv_integer(v, x, w, "line", true, 0, INT_MAX, &line) ||
		    jv_integer(v, x, w, "rule", true, 1, INT_MAX, &rule))
			return -1;
		for (size_t k = 0; u->filter && k < u->filter->nrules; k++)
			known |= u->filter->rules[k].line == (unsigned)rule;
		if (!known)
			return jv_fail(v, w, "rule: line %lld is not a rule of the unit's filter", rule);
		e[i].file = (unsigned)file;
		e[i].line = (unsigned)line;
		e[i].rule = (unsigned)rule;
		i++;
	}
	u->excluded = e;
	u->nexcluded = i;
	return 0;
}

/* What reading a unit's functions needs from the members before them: the op table (with room for
 * the ops the loader adds) and each operation's checksum part, prepared on first use. */
struct unit_ops {
	struct roi_op *ops;
	size_t capacity;
	struct roi_checksum_prepared *prep;
};

/* The unit's members but "functions", in root. functions_array: "functions" is an array the
 * caller reads (else root holds it, or it is missing, and that is an error here). */
static int parse_unit_head(const struct jv *v, const cJSON *root, bool functions_array, struct roi_unit *u,
			   struct unit_ops *uo)
{
	static const char *const runtimes[] = {"host", "none", NULL};
	const cJSON *files, *ops, *fns, *x;
	const char *id;
	long long version, bits;
	char w[64];
	size_t i;

	if (!cJSON_GetObjectItemCaseSensitive(root, "roi"))
		return jv_fail(v, "", "missing 'roi' (not a roi metadata record)");
	if (jv_integer(v, root, "", "roi", true, 0, INT_MAX, &version))
		return -1;
	if (version != 1)
		return jv_fail(v, "", "unsupported metadata version %lld (this roi reads version 1)", version);
	if (jv_keys(v, root, "", unit_keys))
		return -1;
	if (jv_string(v, root, "", "unit", true, &id))
		return -1;
	if (strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16)
		return jv_fail(v, "unit", "'%s' is not 16 lower-case hex digits", id);
	u->id = strtoull(id, NULL, 16);
	memcpy(u->id_hex, id, 17);
	u->debug = true;        /* records before the field: unknown, no warning */
	if (jv_string(v, root, "", "source", true, &u->source) ||
	    jv_string(v, root, "", "source_abs", false, &u->source_abs) ||
	    jv_string(v, root, "", "compiler", true, &u->compiler) ||
	    jv_string(v, root, "", "target", true, &u->target) || jv_string(v, root, "", "opt", true, &u->opt) ||
	    jv_integer(v, root, "", "counter_bits", true, 0, 64, &bits) ||
	    jv_bool(v, root, "", "atomic", false, &u->atomic) ||
	    jv_bool(v, root, "", "debug", false, &u->debug) ||
	    jv_string(v, root, "", "runtime", true, &u->runtime) || jv_one_of(v, "", "runtime", u->runtime, runtimes) ||
	    roi_abi_parse(v, root, "", "abi", &u->abi) || jv_array(v, root, "", "files", true, &files) ||
	    jv_array(v, root, "", "ops", true, &ops) ||
	    (!functions_array && jv_array(v, root, "", "functions", true, &fns)))
		return -1;
	if (bits != 16 && bits != 32 && bits != 64)
		return jv_fail(v, "counter_bits", "%lld is not 16, 32 or 64", bits);
	u->counter_bits = (int)bits;

	const char **f = roi_arena_array(v->arena, (size_t)cJSON_GetArraySize(files), sizeof *f);
	i = 0;
	cJSON_ArrayForEach(x, files) {
		if (!cJSON_IsString(x) || !x->valuestring)
			return jv_fail(v, "", "files[%zu]: must be a string", i);
		f[i++] = roi_arena_strdup(v->arena, x->valuestring);
	}
	u->files = f;
	u->nfiles = i;

	/* (room for the ops the loader adds: one of each added kind, a "frame" per small size, a
	 * "table" switch per switch of add_tables) */
	size_t switches = 0;
	cJSON_ArrayForEach(x, ops) {
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(x, "kind");
		switches += cJSON_IsString(kind) && kind->valuestring && strcmp(kind->valuestring, "switch") == 0;
	}
	uo->capacity = (size_t)cJSON_GetArraySize(ops) + nadded() + SMALL_FRAME + switches;
	uo->ops = roi_arena_array(v->arena, uo->capacity, sizeof *uo->ops);
	i = 0;
	cJSON_ArrayForEach(x, ops) {
		if (parse_op(v, x, jv_index(w, sizeof w, "", "ops", i), &uo->ops[i]) != 0)
			return -1;
		i++;
	}
	u->ops = uo->ops;
	u->nops = i;
	uo->prep = roi_xrealloc(NULL, uo->capacity, sizeof *uo->prep);
	memset(uo->prep, 0, uo->capacity * sizeof *uo->prep);
	return 0;
}

/* The elements of the array "functions", d in it: each parsed alone (jv_pieces), in the scratch
 * that the next one reuses. */
static int parse_functions(const struct jv *v, struct jv_pieces *d, struct roi_unit *u, struct unit_ops *uo)
{
	struct roi_function *fn = NULL;
	size_t n = 0, cap = 0;
	char w[64];
	int rc;

	while ((rc = jv_pieces_next(d)) > 0) {
		const cJSON *x = jv_pieces_value(d, jv_index(w, sizeof w, "", "functions", d->index), true);

		if (!x)
			break;
		if (n == cap)
			fn = roi_xrealloc(fn, cap = cap ? 2 * cap : 64, sizeof *fn);
		memset(&fn[n], 0, sizeof *fn);
		fn[n].index = n;
		if (parse_function(v, x, w, u, uo->ops, uo->prep, &fn[n]) != 0)
			break;
		n++;
		jv_pieces_reset(d);
	}
	if (rc == 0) {
		struct roi_function *kept = roi_arena_array(v->arena, n, sizeof *kept);

		if (n)
			memcpy(kept, fn, n * sizeof *fn);
		u->functions = kept;
		u->nfunctions = n;
	}
	free(fn);
	return rc == 0 ? 0 : -1;
}

/* The members after the functions: regions (which name functions), the filter, what it left out. */
static int parse_unit_tail(const struct jv *v, const cJSON *root, struct roi_unit *u)
{
	const cJSON *regions = NULL, *excluded = NULL;

	if (jv_array(v, root, "", "regions", false, &regions) || (regions && parse_regions(v, regions, u)) ||
	    parse_filter(v, root, u) || jv_array(v, root, "", "excluded", false, &excluded) ||
	    (excluded && parse_excluded(v, excluded, u)))
		return -1;
	return 0;
}

/* Whether root has every member parse_unit_head requires, so that it can read the unit's head
 * before the functions that follow. */
static bool head_keys_read(const cJSON *root)
{
	static const char *const required[] = {
		"roi", "unit", "source", "compiler", "target", "opt", "counter_bits", "runtime", "abi", "files", "ops", NULL,
	};

	for (size_t i = 0; required[i]; i++)
		if (!cJSON_GetObjectItemCaseSensitive(root, required[i]))
			return false;
	return true;
}

/* After the functions were read with the head before them: the members that came after them, which
 * may be unknown keys or the head's optional ones. */
static int late_head_keys(const struct jv *v, const cJSON *root, struct roi_unit *u)
{
	return jv_keys(v, root, "", unit_keys) || jv_string(v, root, "", "source_abs", false, &u->source_abs) ||
	       jv_bool(v, root, "", "atomic", false, &u->atomic) || jv_bool(v, root, "", "debug", false, &u->debug)
		       ? -1 : 0;
}

/* A record, text[0, len), read a member at a time (jv_pieces): the members but "functions" into a
 * small tree, the functions one by one as soon as the head before them is read (the plugin writes
 * every member the head requires first; a record in another order has its functions read twice,
 * once for their syntax and once after the rest). */
static int parse_unit(const struct jv *v, const char *text, size_t len, struct roi_unit *u)
{
	struct jv_pieces d;
	struct unit_ops uo = {0};
	cJSON *whole, *root = NULL;
	const char *key, *deferred = NULL;
	bool functions_array = false, head = false;
	int rc = jv_pieces_begin(&d, v, text, len, &whole);

	if (rc != 0) {
		if (rc > 0)
			jv_object(v, whole, "");
		cJSON_Delete(whole);
		return -1;
	}
	rc = -1;
	root = cJSON_CreateObject();
	if (!root) {
		jv_fail(v, "", "out of memory");
		goto out;
	}
	int more;
	while ((more = jv_pieces_member(&d, &key)) > 0) {
		if (strcmp(key, "functions") == 0 && jv_pieces_array(&d)) {
			functions_array = true;
			if (head_keys_read(root)) {
				if (parse_unit_head(v, root, true, u, &uo) != 0 || parse_functions(v, &d, u, &uo) != 0)
					goto out;
				head = true;
				continue;
			}
			deferred = d.p;
			while ((more = jv_pieces_next(&d)) > 0) {
				char w[64];
				if (!jv_pieces_value(&d, jv_index(w, sizeof w, "", "functions", d.index), true))
					goto out;
				jv_pieces_reset(&d);
			}
			if (more < 0)
				goto out;
			continue;
		}
		cJSON *value = jv_pieces_value(&d, key, false);
		if (!value)
			goto out;
		cJSON_AddItemToObject(root, key, value);
	}
	if (more < 0)
		goto out;
	if (head ? late_head_keys(v, root, u) != 0 : parse_unit_head(v, root, functions_array, u, &uo) != 0)
		goto out;
	if (deferred) {
		d.p = deferred;
		d.depth = 2;
		d.nelements = 0;
		if (parse_functions(v, &d, u, &uo) != 0)
			goto out;
	}
	rc = parse_unit_tail(v, root, u);
out:
	free(uo.prep);
	cJSON_Delete(root);
	jv_pieces_end(&d);
	return rc;
}

int roi_program_from_records(const char *path, const char *const *text, size_t n, struct roi_program *prog,
			     struct roi_err *err)
{
	struct roi_unit *units;

	memset(prog, 0, sizeof *prog);
	prog->path = roi_arena_strdup(&prog->arena, path);
	units = roi_arena_array(&prog->arena, n, sizeof *units);
	for (size_t r = 0; r < n; r++) {
		char prefix[1024];
		struct jv v = {err, prefix, &prog->arena};

		snprintf(prefix, sizeof prefix, "%s: .roi.meta record %zu", path, r + 1);
		units[r].record = r + 1;
		if (parse_unit(&v, text[r], strlen(text[r]), &units[r]) != 0)
			return -1;
		for (size_t k = 0; k < r; k++)
			if (units[k].id == units[r].id)
				return jv_fail(&v, "", "duplicate unit %s (also record %zu)", units[r].id_hex, k + 1);
	}
	prog->units = units;
	prog->nunits = n;
	for (size_t r = 0; r < n; r++) {
		struct roi_function *fn = (struct roi_function *)units[r].functions;

		struct roi_region *reg = (struct roi_region *)units[r].regions;

		for (size_t i = 0; i < units[r].nfunctions; i++) {
			fn[i].gindex = prog->nfunctions++;
			fn[i].gblock0 = prog->nblocks;
			prog->nblocks += fn[i].nblocks;
			fn[i].gedge0 = prog->nedges;
			prog->nedges += fn[i].nedges;
			fn[i].gcounter0 = prog->ncounters;
			prog->ncounters += fn[i].ncounters;
		}
		for (size_t i = 0; i < units[r].nregions; i++)
			reg[i].gindex = prog->nregions++;
	}
	return 0;
}

int roi_program_load(const char *path, struct roi_program *prog, struct roi_err *err)
{
	struct roi_elf *elf;
	struct roi_records rec;
	int rc;

	memset(prog, 0, sizeof *prog);
	if (roi_elf_open(path, &elf, err) != 0)
		return -1;
	rc = roi_elf_meta_records(elf, &rec, err);
	roi_elf_close(elf);
	if (rc != 0)
		return -1;
	rc = roi_program_from_records(path, rec.text, rec.n, prog, err);
	roi_records_free(&rec);
	return rc;
}

void roi_program_free(struct roi_program *prog)
{
	roi_arena_free(&prog->arena);
	memset(prog, 0, sizeof *prog);
}

const struct roi_unit *roi_program_unit(const struct roi_program *prog, uint64_t id)
{
	for (size_t i = 0; i < prog->nunits; i++)
		if (prog->units[i].id == id)
			return &prog->units[i];
	return NULL;
}

const char *roi_program_common(const struct roi_program *prog, size_t field_offset)
{
	const char *first = NULL;

	for (size_t i = 0; i < prog->nunits; i++) {
		const char *s = *(const char *const *)((const char *)&prog->units[i] + field_offset);

		if (!s)
			s = "";
		if (!first)
			first = s;
		else if (strcmp(first, s) != 0)
			return "mixed";
	}
	return first ? first : "";
}
