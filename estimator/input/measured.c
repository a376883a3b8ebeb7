/* input/measured.c — measured profiles read and written (measured.h; docs/formats.md §4). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/readfile.h"
#include "input/jv.h"
#include "base/atomic.h"
#include "input/measured.h"

/* Exactly representable in a JSON number as cJSON reads it (a double). */
#define MAX_COUNT 9007199254740992.0

static const char *const pseudo_lines[] = {"start-up", "after main", "interrupt", NULL};
static const char *const stops[] = {"exit", "sleep", "symbol", "limit", NULL};
static const char *const hows[] = {"call", "jump", "interrupt", NULL};

/* ---- writing ---- */

static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	cJSON_AddNumberToObject(o, key, (double)v);
}

/* "file" and "line", or a pseudo-line's "file": null and "what". */
static void add_line(cJSON *o, const char *file, const char *what, unsigned line)
{
	if (file) {
		cJSON_AddStringToObject(o, "file", file);
		cJSON_AddNumberToObject(o, "line", line);
	} else {
		cJSON_AddNullToObject(o, "file");
		cJSON_AddStringToObject(o, "what", what);
	}
}

/* null for a value counter (none when value is NULL). */
static cJSON *u64_array(const uint64_t *v, const bool *value, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, value && value[i] ? cJSON_CreateNull() : cJSON_CreateNumber((double)v[i]));
	return a;
}

/* null when main never ran */
static cJSON *stack_json(const struct roi_measured *m)
{
	const struct roi_mstack *st = &m->stack;
	cJSON *o, *a;

	if (!m->has_stack)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "top", st->top);
	cJSON_AddNumberToObject(o, "lowest", st->lowest);
	add_u64(o, "peak", st->peak);
	if (st->has_ram) {
		cJSON_AddNumberToObject(o, "data_end", st->data_end);
		cJSON_AddNumberToObject(o, "margin", (double)st->margin);
	} else {
		cJSON_AddNullToObject(o, "data_end");
		cJSON_AddNullToObject(o, "margin");
	}
	cJSON_AddBoolToObject(o, "heap", st->heap);
	cJSON_AddItemToObject(o, "functions", a = cJSON_CreateArray());
	for (size_t i = 0; i < st->nfns; i++) {
		const struct roi_mstack_fn *f = &st->fns[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "name", f->name);
		add_u64(x, "calls", f->calls);
		add_u64(x, "depth", f->depth);
		add_u64(x, "with_interrupts", f->with_interrupts);
		add_u64(x, "frame", f->frame);
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

static cJSON *to_json(const struct roi_measured *m)
{
	cJSON *doc = cJSON_CreateObject(), *a;
	char crc[16];

	cJSON_AddNumberToObject(doc, "roi_measured", ROI_MEASURED_VERSION);
	cJSON_AddStringToObject(doc, "program", m->program);
	snprintf(crc, sizeof crc, "0x%08x", (unsigned)m->image_crc);
	cJSON_AddStringToObject(doc, "image_crc", crc);
	cJSON_AddStringToObject(doc, "mcu", m->mcu);
	cJSON_AddNumberToObject(doc, "freq_hz", m->freq_hz);
	add_u64(doc, "cycles", m->cycles);
	if (m->has_main)
		add_u64(doc, "main_cycle", m->main_cycle);
	else
		cJSON_AddNullToObject(doc, "main_cycle");
	cJSON_AddStringToObject(doc, "stop", m->stop);
	if (m->stop_symbol)
		cJSON_AddStringToObject(doc, "stop_symbol", m->stop_symbol);
	if (m->has_exit_status)
		cJSON_AddNumberToObject(doc, "exit_status", m->exit_status);
	else
		cJSON_AddNullToObject(doc, "exit_status");
	cJSON_AddBoolToObject(doc, "complete", m->complete);

	cJSON_AddItemToObject(doc, "lines", a = cJSON_CreateArray());
	for (size_t i = 0; i < m->nlines; i++) {
		const struct roi_mline *l = &m->lines[i];
		cJSON *o = cJSON_CreateObject();

		add_line(o, l->file, l->what, l->line);
		add_u64(o, "cycles", l->cycles);
		add_u64(o, "library", l->library);
		add_u64(o, "inclusive", l->inclusive);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddItemToObject(doc, "functions", a = cJSON_CreateArray());
	for (size_t i = 0; i < m->nfns; i++) {
		const struct roi_mfunction *f = &m->fns[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", f->name);
		cJSON_AddNumberToObject(o, "address", f->address);
		cJSON_AddBoolToObject(o, "lines", f->lines);
		add_u64(o, "calls", f->calls);
		add_u64(o, "self", f->self);
		add_u64(o, "library", f->library);
		add_u64(o, "inclusive", f->inclusive);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddItemToObject(doc, "call_sites", a = cJSON_CreateArray());
	for (size_t i = 0; i < m->nsites; i++) {
		const struct roi_msite *s = &m->sites[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "address", s->address);
		cJSON_AddStringToObject(o, "how", hows[s->how]);
		if (s->caller)
			cJSON_AddStringToObject(o, "caller", s->caller);
		else
			cJSON_AddNullToObject(o, "caller");
		add_line(o, s->file, s->what, s->line);
		cJSON_AddStringToObject(o, "callee", s->callee);
		add_u64(o, "calls", s->calls);
		add_u64(o, "inclusive", s->inclusive);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddItemToObject(doc, "library", a = cJSON_CreateArray());
	for (size_t i = 0; i < m->nlibrary; i++) {
		const struct roi_mlibrary *l = &m->library[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "routine", l->routine);
		add_line(o, l->file, l->what, l->line);
		add_u64(o, "cycles", l->cycles);
		cJSON_AddItemToArray(a, o);
	}
	if (!m->has_blocks) {
		cJSON_AddNullToObject(doc, "blocks");
	} else {
		cJSON *b = cJSON_CreateObject();

		cJSON_AddItemToObject(doc, "blocks", b);
		cJSON_AddStringToObject(b, "program", m->blocks_program);
		cJSON_AddStringToObject(b, "metadata", m->metadata);
		add_u64(b, "run_cycles", m->blocks_run_cycles);
		add_u64(b, "ambiguous", m->ambiguous);
		cJSON_AddItemToObject(b, "functions", a = cJSON_CreateArray());
		for (size_t i = 0; i < m->nblocks; i++) {
			const struct roi_mblocks *f = &m->blocks[i];
			cJSON *o = cJSON_CreateObject();
			char sum[16];

			cJSON_AddStringToObject(o, "unit", f->unit);
			cJSON_AddNumberToObject(o, "index", (double)f->index);
			cJSON_AddStringToObject(o, "asm", f->asm_name);
			snprintf(sum, sizeof sum, "0x%08x", (unsigned)f->checksum);
			cJSON_AddStringToObject(o, "checksum", sum);
			cJSON_AddItemToObject(o, "counts", u64_array(f->counts, f->value, f->nblocks));
			cJSON_AddItemToObject(o, "cycles", u64_array(f->cycles, NULL, f->nblocks));
			if (f->ambiguous)
				cJSON_AddItemToObject(o, "ambiguous", u64_array(f->ambiguous, NULL, f->nblocks));
			cJSON_AddItemToArray(a, o);
		}
		cJSON_AddItemToObject(b, "loops", a = cJSON_CreateArray());
		for (size_t i = 0; i < m->nloops; i++) {
			const struct roi_mloop *l = &m->loops[i];
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "unit", l->unit);
			cJSON_AddNumberToObject(o, "function", (double)l->function);
			cJSON_AddNumberToObject(o, "loop", (double)l->loop);
			cJSON_AddStringToObject(o, "name", l->name);
			add_u64(o, "entries", l->entries);
			add_u64(o, "cycles", l->cycles);
			cJSON_AddItemToArray(a, o);
		}
	}
	cJSON_AddItemToObject(doc, "regions", a = cJSON_CreateArray());
	for (size_t i = 0; i < m->nregions; i++) {
		const struct roi_mregion *r = &m->regions[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "unit", r->unit);
		cJSON_AddNumberToObject(o, "index", (double)r->index);
		cJSON_AddStringToObject(o, "name", r->name);
		cJSON_AddStringToObject(o, "kind", r->kind);
		if (r->measured) {
			add_u64(o, "calls", r->calls);
			add_u64(o, "cycles", r->cycles);
		} else {
			cJSON_AddNullToObject(o, "calls");
			cJSON_AddNullToObject(o, "cycles");
		}
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddItemToObject(doc, "stack", stack_json(m));
	return doc;
}

uint64_t roi_measured_line_sum(const struct roi_measured *m)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < m->nlines; i++)
		sum += m->lines[i].cycles;
	return sum;
}

char *roi_measured_json_text(const struct roi_measured *m)
{
	cJSON *doc = to_json(m);
	char *text = cJSON_Print(doc);

	cJSON_Delete(doc);
	return text;
}

int roi_measured_write(const char *path, const struct roi_measured *m, struct roi_err *err)
{
	struct roi_atomic out;
	char *text;

	if (roi_measured_line_sum(m) != m->cycles)
		return roi_err_set(err, "%s: the lines add up to %llu cycles, not the run's %llu", path,
				   (unsigned long long)roi_measured_line_sum(m), (unsigned long long)m->cycles);
	if (roi_atomic_open(&out, path, err) != 0)
		return -1;
	text = roi_measured_json_text(m);
	if (!text) {
		roi_atomic_abort(&out);
		return roi_err_set(err, "out of memory");
	}
	fputs(text, out.f);
	fputc('\n', out.f);
	free(text);
	return roi_atomic_commit(&out, "the measured profile", err);
}

/* ---- reading ---- */

static int get_u64(const struct jv *v, const cJSON *o, const char *w, const char *key, uint64_t *out)
{
	double d;

	if (jv_number(v, o, w, key, true, 0, MAX_COUNT, &d) != 0)
		return -1;
	if (d != (double)(uint64_t)d)
		return jv_fail(v, w, "%s: must be an integer", key);
	*out = (uint64_t)d;
	return 0;
}

static int get_index(const struct jv *v, const cJSON *o, const char *w, const char *key, size_t *out)
{
	long long x;

	if (jv_integer(v, o, w, key, true, 0, 1LL << 32, &x) != 0)
		return -1;
	*out = (size_t)x;
	return 0;
}

/* "file" and "line", or "file": null and "what" (one of pseudo_lines). */
static int get_line(const struct jv *v, const cJSON *o, const char *w, const char **file, const char **what,
		    unsigned *line)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "file");
	long long n;

	if (!f)
		return jv_fail(v, w, "missing 'file'");
	if (cJSON_IsNull(f)) {
		if (jv_string(v, o, w, "what", true, what) || jv_one_of(v, w, "what", *what, pseudo_lines))
			return -1;
		*file = NULL;
		*line = 0;
		return 0;
	}
	if (jv_string(v, o, w, "file", true, file) || jv_integer(v, o, w, "line", true, 1, 1LL << 31, &n))
		return -1;
	*what = NULL;
	*line = (unsigned)n;
	return 0;
}

static int get_hex32(const struct jv *v, const cJSON *o, const char *w, const char *key, uint32_t *out)
{
	const char *s;
	char *end;

	if (jv_string(v, o, w, key, true, &s))
		return -1;
	errno = 0;
	unsigned long x = strtoul(s, &end, 16);
	if (strncmp(s, "0x", 2) != 0 || *end || errno || x > 0xffffffffUL)
		return jv_fail(v, w, "%s: must be 0x and 8 hex digits", key);
	*out = (uint32_t)x;
	return 0;
}

/* The array at key, its element count in *n and a zeroed arena array of n elements of size. */
static void *get_array(const struct jv *v, const cJSON *o, const char *w, const char *key, size_t size,
		       const cJSON **arr, size_t *n)
{
	if (jv_array(v, o, w, key, true, arr) != 0)
		return NULL;
	*n = (size_t)cJSON_GetArraySize(*arr);
	return roi_arena_array(v->arena, *n ? *n : 1, size);
}

static int parse_lines(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"file", "what", "line", "cycles", "library", "inclusive", NULL};
	const cJSON *arr, *x;
	char w[64];
	size_t i = 0;

	if (!(m->lines = get_array(v, root, "", "lines", sizeof *m->lines, &arr, &m->nlines)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mline *l = &m->lines[i];

		snprintf(w, sizeof w, "lines[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, keys) || get_line(v, x, w, &l->file, &l->what, &l->line) ||
		    get_u64(v, x, w, "cycles", &l->cycles) || get_u64(v, x, w, "library", &l->library) ||
		    get_u64(v, x, w, "inclusive", &l->inclusive))
			return -1;
		if (l->library > l->cycles)
			return jv_fail(v, w, "library: more than its cycles");
	}
	return 0;
}

static int parse_functions(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"name", "address", "lines", "calls", "self", "library", "inclusive", NULL};
	const cJSON *arr, *x;
	char w[64];
	size_t i = 0, addr;

	if (!(m->fns = get_array(v, root, "", "functions", sizeof *m->fns, &arr, &m->nfns)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mfunction *f = &m->fns[i];

		snprintf(w, sizeof w, "functions[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, keys) || jv_string(v, x, w, "name", true, &f->name) ||
		    get_index(v, x, w, "address", &addr) || jv_bool(v, x, w, "lines", true, &f->lines) ||
		    get_u64(v, x, w, "calls", &f->calls) || get_u64(v, x, w, "self", &f->self) ||
		    get_u64(v, x, w, "library", &f->library) || get_u64(v, x, w, "inclusive", &f->inclusive))
			return -1;
		f->address = (uint32_t)addr;
	}
	return 0;
}

static int parse_sites(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"address", "how", "caller", "file", "what", "line", "callee", "calls",
					   "inclusive", NULL};
	const cJSON *arr, *x;
	char w[64];
	size_t i = 0, addr;

	if (!(m->sites = get_array(v, root, "", "call_sites", sizeof *m->sites, &arr, &m->nsites)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_msite *s = &m->sites[i];
		const char *how;
		const cJSON *caller = cJSON_GetObjectItemCaseSensitive(x, "caller");

		snprintf(w, sizeof w, "call_sites[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, keys) || get_index(v, x, w, "address", &addr) ||
		    jv_string(v, x, w, "how", true, &how) || jv_one_of(v, w, "how", how, hows) ||
		    get_line(v, x, w, &s->file, &s->what, &s->line) || jv_string(v, x, w, "callee", true, &s->callee) ||
		    get_u64(v, x, w, "calls", &s->calls) || get_u64(v, x, w, "inclusive", &s->inclusive))
			return -1;
		if (!caller)
			return jv_fail(v, w, "missing 'caller'");
		if (!cJSON_IsNull(caller) && jv_string(v, x, w, "caller", true, &s->caller))
			return -1;
		s->address = (uint32_t)addr;
		s->how = strcmp(how, "call") == 0 ? ROI_MCALL_CALL : strcmp(how, "jump") == 0 ? ROI_MCALL_JUMP
			 : ROI_MCALL_INTERRUPT;
	}
	return 0;
}

static int parse_library(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"routine", "file", "what", "line", "cycles", NULL};
	const cJSON *arr, *x;
	char w[64];
	size_t i = 0;

	if (!(m->library = get_array(v, root, "", "library", sizeof *m->library, &arr, &m->nlibrary)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mlibrary *l = &m->library[i];

		snprintf(w, sizeof w, "library[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, keys) || jv_string(v, x, w, "routine", true, &l->routine) ||
		    get_line(v, x, w, &l->file, &l->what, &l->line) || get_u64(v, x, w, "cycles", &l->cycles))
			return -1;
	}
	return 0;
}

/* value: where null stands for a value counter (NULL: no null allowed). */
static int u64_items(const struct jv *v, const cJSON *o, const char *w, const char *key, size_t n, uint64_t **out,
		     bool **value)
{
	const cJSON *arr, *x;
	char ww[96];
	size_t i = 0;

	if (jv_array(v, o, w, key, true, &arr) != 0)
		return -1;
	if ((size_t)cJSON_GetArraySize(arr) != n)
		return jv_fail(v, w, "%s: %d numbers, not the %zu of 'counts'", key, cJSON_GetArraySize(arr), n);
	*out = roi_arena_array(v->arena, n ? n : 1, sizeof **out);
	if (value)
		*value = roi_arena_array(v->arena, n ? n : 1, sizeof **value);
	cJSON_ArrayForEach(x, arr) {
		snprintf(ww, sizeof ww, "%s.%s[%zu]", w, key, i);
		if (value && cJSON_IsNull(x)) {
			(*value)[i++] = true;
			continue;
		}
		if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > MAX_COUNT ||
		    x->valuedouble != (double)(uint64_t)x->valuedouble)
			return jv_fail(v, ww, "must be a count");
		(*out)[i++] = (uint64_t)x->valuedouble;
	}
	return 0;
}

static int parse_blocks(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"program", "metadata", "run_cycles", "ambiguous", "functions", "loops", NULL};
	static const char *const fkeys[] = {"unit", "index", "asm", "checksum", "counts", "cycles", "ambiguous", NULL};
	static const char *const lkeys[] = {"unit", "function", "loop", "name", "entries", "cycles", NULL};
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "blocks"), *arr, *x;
	char w[64];
	size_t i = 0;

	if (!b)
		return jv_fail(v, "", "missing 'blocks'");
	if (cJSON_IsNull(b))
		return 0;
	m->has_blocks = true;
	if (jv_object(v, b, "blocks") || jv_keys(v, b, "blocks", keys) ||
	    jv_string(v, b, "blocks", "program", true, &m->blocks_program) ||
	    jv_string(v, b, "blocks", "metadata", true, &m->metadata) ||
	    get_u64(v, b, "blocks", "run_cycles", &m->blocks_run_cycles) ||
	    get_u64(v, b, "blocks", "ambiguous", &m->ambiguous) ||
	    !(m->blocks = get_array(v, b, "blocks", "functions", sizeof *m->blocks, &arr, &m->nblocks)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mblocks *f = &m->blocks[i];
		const cJSON *counts;

		snprintf(w, sizeof w, "blocks.functions[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, fkeys) || jv_string(v, x, w, "unit", true, &f->unit) ||
		    get_index(v, x, w, "index", &f->index) || jv_string(v, x, w, "asm", true, &f->asm_name) ||
		    get_hex32(v, x, w, "checksum", &f->checksum) || jv_array(v, x, w, "counts", true, &counts))
			return -1;
		f->nblocks = (size_t)cJSON_GetArraySize(counts);
		if (u64_items(v, x, w, "counts", f->nblocks, &f->counts, &f->value) ||
		    u64_items(v, x, w, "cycles", f->nblocks, &f->cycles, NULL) ||
		    (cJSON_HasObjectItem(x, "ambiguous") &&
		     u64_items(v, x, w, "ambiguous", f->nblocks, &f->ambiguous, NULL)))
			return -1;
	}
	i = 0;
	if (!(m->loops = get_array(v, b, "blocks", "loops", sizeof *m->loops, &arr, &m->nloops)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mloop *l = &m->loops[i];

		snprintf(w, sizeof w, "blocks.loops[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, lkeys) || jv_string(v, x, w, "unit", true, &l->unit) ||
		    get_index(v, x, w, "function", &l->function) || get_index(v, x, w, "loop", &l->loop) ||
		    jv_string(v, x, w, "name", true, &l->name) || get_u64(v, x, w, "entries", &l->entries) ||
		    get_u64(v, x, w, "cycles", &l->cycles))
			return -1;
	}
	return 0;
}

static int parse_regions(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"unit", "index", "name", "kind", "calls", "cycles", NULL};
	static const char *const kinds[] = {"function", "loop", NULL};
	const cJSON *arr, *x;
	char w[64];
	size_t i = 0;

	if (!(m->regions = get_array(v, root, "", "regions", sizeof *m->regions, &arr, &m->nregions)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mregion *r = &m->regions[i];
		const cJSON *calls = cJSON_GetObjectItemCaseSensitive(x, "calls");

		snprintf(w, sizeof w, "regions[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, keys) || jv_string(v, x, w, "unit", true, &r->unit) ||
		    get_index(v, x, w, "index", &r->index) || jv_string(v, x, w, "name", true, &r->name) ||
		    jv_string(v, x, w, "kind", true, &r->kind) || jv_one_of(v, w, "kind", r->kind, kinds))
			return -1;
		r->measured = calls && !cJSON_IsNull(calls);
		if (r->measured && (get_u64(v, x, w, "calls", &r->calls) || get_u64(v, x, w, "cycles", &r->cycles)))
			return -1;
	}
	return 0;
}

/* "stack": null, or the run's stack, its figures checked against each other. */
static int parse_stack(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	static const char *const keys[] = {"top", "lowest", "peak", "data_end", "margin", "heap", "functions", NULL};
	static const char *const fkeys[] = {"name", "calls", "depth", "with_interrupts", "frame", NULL};
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "stack"), *arr, *x, *end;
	struct roi_mstack *s = &m->stack;
	long long top, lowest, data_end, margin;
	char w[64];
	size_t i = 0;

	if (!st)
		return jv_fail(v, "", "missing 'stack'");
	if (cJSON_IsNull(st))
		return 0;
	m->has_stack = true;
	if (jv_object(v, st, "stack") || jv_keys(v, st, "stack", keys) ||
	    jv_integer(v, st, "stack", "top", true, 0, 0xffff, &top) ||
	    jv_integer(v, st, "stack", "lowest", true, 0, 0xffff, &lowest) || get_u64(v, st, "stack", "peak", &s->peak) ||
	    jv_bool(v, st, "stack", "heap", true, &s->heap))
		return -1;
	s->top = (uint32_t)top;
	s->lowest = (uint32_t)lowest;
	if (lowest > top || s->peak != (uint64_t)(top - lowest))
		return jv_fail(v, "stack", "peak: %llu, not top - lowest (%lld - %lld)", (unsigned long long)s->peak, top,
			       lowest);
	if (!(end = cJSON_GetObjectItemCaseSensitive(st, "data_end")))
		return jv_fail(v, "stack", "missing 'data_end'");
	if (!cJSON_IsNull(end)) {
		s->has_ram = true;
		if (jv_integer(v, st, "stack", "data_end", true, 0, 0x10000, &data_end) ||
		    jv_integer(v, st, "stack", "margin", true, -0x10000, 0x10000, &margin))
			return -1;
		s->data_end = (uint32_t)data_end;
		s->margin = margin;
		if (margin != lowest + 1 - data_end)
			return jv_fail(v, "stack", "margin: %lld, not lowest + 1 - data_end (%lld + 1 - %lld)", margin,
				       lowest, data_end);
	} else if (!cJSON_GetObjectItemCaseSensitive(st, "margin")) {
		return jv_fail(v, "stack", "missing 'margin'");
	} else if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(st, "margin"))) {
		return jv_fail(v, "stack", "margin: must be null without data_end");
	}
	if (!(s->fns = get_array(v, st, "stack", "functions", sizeof *s->fns, &arr, &s->nfns)))
		return -1;
	cJSON_ArrayForEach(x, arr) {
		struct roi_mstack_fn *f = &s->fns[i];

		snprintf(w, sizeof w, "stack.functions[%zu]", i++);
		if (jv_object(v, x, w) || jv_keys(v, x, w, fkeys) || jv_string(v, x, w, "name", true, &f->name) ||
		    get_u64(v, x, w, "calls", &f->calls) || get_u64(v, x, w, "depth", &f->depth) ||
		    get_u64(v, x, w, "with_interrupts", &f->with_interrupts) || get_u64(v, x, w, "frame", &f->frame))
			return -1;
		if (f->frame > f->depth || f->depth > f->with_interrupts)
			return jv_fail(v, w, "not frame <= depth <= with_interrupts (%llu, %llu, %llu)",
				       (unsigned long long)f->frame, (unsigned long long)f->depth,
				       (unsigned long long)f->with_interrupts);
	}
	return 0;
}

static const char *const top_keys[] = {
	"roi_measured", "program", "image_crc", "mcu", "freq_hz", "cycles", "main_cycle", "stop", "stop_symbol",
	"exit_status", "complete", "lines", "functions", "call_sites", "library", "blocks", "regions", "stack", NULL,
};

static int parse(const struct jv *v, const cJSON *root, struct roi_measured *m)
{
	long long version, freq, status;
	const cJSON *main_cycle, *exit_status;

	if (jv_object(v, root, ""))
		return -1;
	if (!cJSON_GetObjectItemCaseSensitive(root, "roi_measured"))
		return jv_fail(v, "", "not a measured profile (no \"roi_measured\")");
	if (jv_integer(v, root, "", "roi_measured", true, 0, 1000000, &version))
		return -1;
	if (version != 1 && version != ROI_MEASURED_VERSION)
		return jv_fail(v, "", "unsupported measured profile version %lld (this roi reads versions 1 to %d)",
			       version, ROI_MEASURED_VERSION);
	if (version == 1 && cJSON_GetObjectItemCaseSensitive(root, "stack"))
		return jv_fail(v, "", "'stack' in a version 1 measured profile");
	if (jv_keys(v, root, "", top_keys) || jv_string(v, root, "", "program", true, &m->program) ||
	    get_hex32(v, root, "", "image_crc", &m->image_crc) || jv_string(v, root, "", "mcu", true, &m->mcu) ||
	    jv_integer(v, root, "", "freq_hz", true, 1, 0xffffffffLL, &freq) ||
	    get_u64(v, root, "", "cycles", &m->cycles) || jv_string(v, root, "", "stop", true, &m->stop) ||
	    jv_one_of(v, "", "stop", m->stop, stops) || jv_string(v, root, "", "stop_symbol", false, &m->stop_symbol) ||
	    jv_bool(v, root, "", "complete", true, &m->complete))
		return -1;
	m->freq_hz = (uint32_t)freq;
	if (!(main_cycle = cJSON_GetObjectItemCaseSensitive(root, "main_cycle")))
		return jv_fail(v, "", "missing 'main_cycle'");
	if (!cJSON_IsNull(main_cycle)) {
		m->has_main = true;
		if (get_u64(v, root, "", "main_cycle", &m->main_cycle) != 0)
			return -1;
	}
	if (!(exit_status = cJSON_GetObjectItemCaseSensitive(root, "exit_status")))
		return jv_fail(v, "", "missing 'exit_status'");
	if (!cJSON_IsNull(exit_status)) {
		m->has_exit_status = true;
		if (jv_integer(v, root, "", "exit_status", true, -32768, 32767, &status) != 0)
			return -1;
		m->exit_status = (int)status;
	}
	if (parse_lines(v, root, m) || parse_functions(v, root, m) || parse_sites(v, root, m) ||
	    parse_library(v, root, m) || parse_blocks(v, root, m) || parse_regions(v, root, m) ||
	    (version > 1 && parse_stack(v, root, m)))
		return -1;
	if (roi_measured_line_sum(m) != m->cycles)
		return jv_fail(v, "", "its lines add up to %llu cycles, not its total %llu",
			       (unsigned long long)roi_measured_line_sum(m), (unsigned long long)m->cycles);
	return 0;
}

int roi_measured_parse(const char *path, const char *text, size_t len, struct roi_measured *m, struct roi_err *err)
{
	struct jv v = {err, NULL, &m->arena};
	cJSON *root;
	int rc;

	memset(m, 0, sizeof *m);
	m->path = roi_arena_strdup(&m->arena, path);
	v.prefix = m->path;
	if (!(root = jv_parse(&v, text, len, true)))
		return -1;
	rc = parse(&v, root, m);
	cJSON_Delete(root);
	return rc;
}

int roi_measured_load(const char *path, struct roi_measured *m, struct roi_err *err)
{
	char *text;
	size_t len;
	int rc;

	memset(m, 0, sizeof *m);
	if (roi_read_file(path, ROI_MAX_PROFILE, &text, &len, err) != 0)
		return -1;
	rc = roi_measured_parse(path, text, len, m, err);
	free(text);
	return rc;
}

void roi_measured_free(struct roi_measured *m)
{
	roi_arena_free(&m->arena);
	memset(m, 0, sizeof *m);
}

/* ---- looking up ---- */

uint64_t roi_measured_main_cycles(const struct roi_measured *m)
{
	const struct roi_mfunction *f = roi_measured_function(m, "main");

	return f && f->calls ? f->inclusive : m->has_main ? m->cycles - m->main_cycle : m->cycles;
}

bool roi_measured_same_file(const char *measured, const char *file)
{
	size_t a = strlen(measured), b = strlen(file);

	while (b > 2 && strncmp(file, "./", 2) == 0) {
		file += 2;
		b -= 2;
	}
	if (a == b)
		return strcmp(measured, file) == 0;
	return a > b && file[0] != '/' && measured[a - b - 1] == '/' && strcmp(measured + a - b, file) == 0;
}

const struct roi_mfunction *roi_measured_function(const struct roi_measured *m, const char *asm_name)
{
	const struct roi_mfunction *found = NULL;

	for (size_t i = 0; i < m->nfns; i++)
		if (strcmp(m->fns[i].name, asm_name) == 0) {
			if (found)
				return NULL;    /* two static functions of that name: which is which? */
			found = &m->fns[i];
		}
	return found;
}

const struct roi_mline *roi_measured_line(const struct roi_measured *m, const char *file, unsigned line)
{
	for (size_t i = 0; i < m->nlines; i++)
		if (m->lines[i].file && m->lines[i].line == line && roi_measured_same_file(m->lines[i].file, file))
			return &m->lines[i];
	return NULL;
}

const struct roi_mblocks *roi_measured_blocks(const struct roi_measured *m, const struct roi_function *fn)
{
	for (size_t i = 0; i < m->nblocks; i++) {
		const struct roi_mblocks *b = &m->blocks[i];

		if (b->index == fn->index && b->checksum == fn->checksum && b->nblocks == fn->nblocks &&
		    strcmp(b->unit, fn->unit->id_hex) == 0)
			return b;
	}
	return NULL;
}

const struct roi_mstack_fn *roi_measured_stack_fn(const struct roi_measured *m, const char *symbol)
{
	const struct roi_mstack_fn *found = NULL;

	for (size_t i = 0; i < m->stack.nfns; i++)
		if (strcmp(m->stack.fns[i].name, symbol) == 0) {
			if (found)
				return NULL;
			found = &m->stack.fns[i];
		}
	return found;
}

const struct roi_mloop *roi_measured_loop(const struct roi_measured *m, const struct roi_function *fn, size_t loop)
{
	if (!roi_measured_blocks(m, fn))
		return NULL;
	for (size_t i = 0; i < m->nloops; i++) {
		const struct roi_mloop *l = &m->loops[i];

		if (l->function == fn->index && l->loop == loop && strcmp(l->unit, fn->unit->id_hex) == 0)
			return l;
	}
	return NULL;
}
