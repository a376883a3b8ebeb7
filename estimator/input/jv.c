/* input/jv.c — validated cJSON access, see jv.h. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/jv.h"

int jv_fail(const struct jv *v, const char *where, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (where && *where)
		return roi_err_set(v->err, "%s: %s: %s", v->prefix, where, what);
	return roi_err_set(v->err, "%s: %s", v->prefix, what);
}

/* "where.key", or "key" at the root. */
static const char *path(char *buf, size_t n, const char *where, const char *key)
{
	snprintf(buf, n, "%s%s%s", where, *where ? "." : "", key);
	return buf;
}

int jv_object(const struct jv *v, const cJSON *item, const char *where)
{
	if (!cJSON_IsObject(item))
		return jv_fail(v, where, "must be a JSON object");
	return 0;
}

/* The member, or NULL; a missing required member is an error (*rc = -1). */
static const cJSON *member(const struct jv *v, const cJSON *obj, const char *where, const char *key,
			   bool required, int *rc)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);

	*rc = 0;
	if (!m && required)
		*rc = jv_fail(v, where, "missing '%s'", key);
	return m;
}

int jv_string(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	      const char **out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsString(m) || !m->valuestring)
		return jv_fail(v, path(p, sizeof p, where, key), "must be a string");
	*out = roi_arena_strdup(v->arena, m->valuestring);
	return 0;
}

int jv_number(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	      double min, double max, double *out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsNumber(m) || !isfinite(m->valuedouble))
		return jv_fail(v, path(p, sizeof p, where, key), "must be a number");
	if (m->valuedouble < min || m->valuedouble > max)
		return jv_fail(v, path(p, sizeof p, where, key), "%g is out of range (%g to %g)", m->valuedouble,
			       min, max);
	*out = m->valuedouble;
	return 0;
}

bool jv_integer_ok(const cJSON *item, long long min, long long max, long long *out)
{
	double d;

	if (!cJSON_IsNumber(item))
		return false;
	d = item->valuedouble;
	if (!isfinite(d) || floor(d) != d || d < (double)min || d > (double)max)
		return false;
	*out = (long long)d;
	return true;
}

const char *jv_index(char *buf, size_t size, const char *where, const char *member, size_t i)
{
	char digits[24];
	size_t n = 0, k = sizeof digits;
	const char *parts[4] = {where, *where && member ? "." : "", member ? member : "", "["};

	for (size_t p = 0; p < 4; p++)
		for (const char *c = parts[p]; *c && n + 1 < size; c++)
			buf[n++] = *c;
	do
		digits[--k] = (char)('0' + i % 10);
	while ((i /= 10) != 0);
	while (k < sizeof digits && n + 1 < size)
		buf[n++] = digits[k++];
	if (n + 1 < size)
		buf[n++] = ']';
	buf[n] = '\0';
	return buf;
}

int jv_integer_item(const struct jv *v, const cJSON *item, const char *where, long long min, long long max,
		    long long *out)
{
	double d;

	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || floor(item->valuedouble) != item->valuedouble)
		return jv_fail(v, where, "must be an integer");
	d = item->valuedouble;
	if (d < (double)min || d > (double)max)
		return jv_fail(v, where, "%.0f is out of range (%lld to %lld)", d, min, max);
	*out = (long long)d;
	return 0;
}

int jv_integer(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	       long long min, long long max, long long *out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	return jv_integer_item(v, m, path(p, sizeof p, where, key), min, max, out);
}

int jv_bool(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required, bool *out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsBool(m))
		return jv_fail(v, path(p, sizeof p, where, key), "must be true or false");
	*out = cJSON_IsTrue(m);
	return 0;
}

int jv_array(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	     const cJSON **out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsArray(m))
		return jv_fail(v, path(p, sizeof p, where, key), "must be an array");
	*out = m;
	return 0;
}

int jv_one_of(const struct jv *v, const char *where, const char *key, const char *value,
	      const char *const *allowed)
{
	char p[256], list[200] = "";

	for (size_t i = 0; allowed[i]; i++) {
		if (strcmp(value, allowed[i]) == 0)
			return 0;
		if (strlen(list) + strlen(allowed[i]) + 8 < sizeof list)
			strcat(strcat(list, i ? ", " : ""), allowed[i]);
		else if (!strstr(list, "..."))
			strcat(list, ", ...");
	}
	if (strlen(value) > 40)
		return jv_fail(v, path(p, sizeof p, where, key), "unknown value (expected one of: %s)", list);
	return jv_fail(v, path(p, sizeof p, where, key), "unknown value '%s' (expected one of: %s)", value, list);
}

/* ---- parsing: one document, nothing hidden ---- */

/* "PREFIX:LINE:COL: what" or "PREFIX: what at byte N", for a position in text. */
static cJSON *fail_at(const struct jv *v, const char *text, const char *at, bool by_line, const char *what)
{
	unsigned line = 1, col = 1;

	if (!by_line) {
		roi_err_set(v->err, "%s: %s at byte %zu", v->prefix, what, (size_t)(at - text));
		return NULL;
	}
	for (const char *p = text; p < at; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	roi_err_set(v->err, "%s:%u:%u: %s", v->prefix, line, col, what);
	return NULL;
}

/* The depth of arrays and objects open at `at` (strings skipped): cJSON stops at its nesting
 * limit without saying that this is why. */
static size_t depth_at(const char *text, const char *at)
{
	size_t depth = 0;
	bool in_string = false;

	for (const char *p = text; p < at; p++) {
		if (in_string) {
			if (*p == '\\' && p + 1 < at)
				p++;
			else if (*p == '"')
				in_string = false;
		} else if (*p == '"') {
			in_string = true;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ']' || *p == '}') && depth) {
			depth--;
		}
	}
	return depth;
}

/* The escape \u0000, which cJSON decodes into a NUL byte that ends the string there: "a\u0000b"
 * would be read as "a". Outside a string a backslash is malformed JSON anyway. */
static const char *escaped_nul(const char *text, size_t len)
{
	for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), "\\u0000", 6)); p += 6) {
		size_t at = (size_t)(p - text), before = 0;

		while (before < at && text[at - 1 - before] == '\\')
			before++;
		if (before % 2 == 0)    /* (else the backslash before escapes this one) */
			return p;
	}
	return NULL;
}

/* Where a duplicate was found: the chain of items from the root, to name its path. */
struct trail {
	const struct trail *up;
	const cJSON *item;
	size_t index;           /* in up->item */
	const char *base;       /* at the root: its path in the document ("" for the document's root) */
};

static size_t trail_path(const struct trail *t, char *buf, size_t size)
{
	size_t n;

	if (!t->up)
		return (size_t)snprintf(buf, size, "%s", t->base);

	n = trail_path(t->up, buf, size);
	if (n >= size)
		return n;
	if (cJSON_IsArray(t->up->item))
		return n + (size_t)snprintf(buf + n, size - n, "[%zu]", t->index);
	return n + (size_t)snprintf(buf + n, size - n, "%s%s", n ? "." : "", t->item->string);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* The first key of obj that an earlier member has, or NULL. Objects are small (the widest, a
 * model's root, has 16 keys): pairs are compared, but in a larger one the names are sorted. */
static const char *duplicate_key(const cJSON *obj)
{
	const cJSON *a, *b;
	const char *dup = NULL;
	size_t n = 0;

	for (a = obj->child; a; a = a->next)
		n++;
	if (n <= 32) {
		for (a = obj->child; a; a = a->next)
			for (b = obj->child; b != a; b = b->next)
				if (strcmp(a->string, b->string) == 0)
					return a->string;
		return NULL;
	}
	const cJSON **s = roi_xrealloc(NULL, n, sizeof *s);
	n = 0;
	for (a = obj->child; a; a = a->next)
		s[n++] = a;
	qsort(s, n, sizeof *s, by_name);
	for (size_t i = 1; i < n && !dup; i++)
		if (strcmp(s[i - 1]->string, s[i]->string) == 0)
			dup = s[i]->string;
	free(s);
	return dup;
}

static int no_duplicates(const struct jv *v, const struct trail *t)
{
	const char *dup = cJSON_IsObject(t->item) ? duplicate_key(t->item) : NULL;
	size_t i = 0;

	if (dup) {
		char where[512];

		trail_path(t, where, sizeof where);
		return jv_fail(v, where, "duplicate key '%s'", dup);
	}
	for (const cJSON *c = t->item->child; c; c = c->next, i++) {
		struct trail ct = {t, c, i, NULL};

		if (c->child && no_duplicates(v, &ct) != 0)
			return -1;
	}
	return 0;
}

cJSON *jv_parse(const struct jv *v, const char *text, size_t len, bool by_line)
{
	const char *end = NULL, *at;
	cJSON *root;

	if ((at = memchr(text, '\0', len)))
		return fail_at(v, text, at, by_line, "NUL byte");
	if ((at = escaped_nul(text, len)))
		return fail_at(v, text, at, by_line, "\\u0000 in a string (a NUL byte would cut it short)");
	/* text[len] is NUL; counting it lets cJSON check that nothing follows the document */
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (!root) {
		at = end ? end : text;
		char what[64] = "malformed JSON";

		if (depth_at(text, at) >= CJSON_NESTING_LIMIT)
			snprintf(what, sizeof what, "JSON nested deeper than %d levels", CJSON_NESTING_LIMIT);
		return fail_at(v, text, at, by_line, what);
	}
	struct trail t = {NULL, root, 0, ""};
	if (no_duplicates(v, &t) != 0) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/* ---- a large document a piece at a time ---- */

/* cJSON's allocations for the pieces parsed with scratch: bumped in chunks kept from piece to
 * piece, none of them freed one by one (cJSON_Delete of a record's tree cost as much as parsing
 * it). cJSON's hooks are global and take no context: they point at the scratch only while a
 * piece is parsed. */
struct jv_chunk {
	struct jv_chunk *next;
	size_t size, used;
	max_align_t data[];
};

struct jv_scratch {
	struct jv_chunk *head, *cur;
};

static struct jv_scratch *hooked;

static void *scratch_alloc(size_t size)
{
	struct jv_scratch *s = hooked;
	const size_t align = sizeof(max_align_t);
	struct jv_chunk *c = s->cur;

	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + align - 1) / align * align;
	while (c && c->size - c->used < size)
		c = c->next;
	if (!c) {
		size_t want = size > 256 * 1024 ? size : 256 * 1024;

		c = roi_xrealloc(NULL, 1, sizeof *c + want);
		c->size = want;
		c->used = 0;
		c->next = s->head;
		s->head = c;
	}
	s->cur = c;
	void *p = (char *)c->data + c->used;
	c->used += size;
	return p;
}

static void scratch_free(void *p)
{
	(void)p;
}

void jv_pieces_reset(struct jv_pieces *d)
{
	for (struct jv_chunk *c = d->scratch ? d->scratch->head : NULL; c; c = c->next)
		c->used = 0;
	if (d->scratch)
		d->scratch->cur = d->scratch->head;
}

void jv_pieces_end(struct jv_pieces *d)
{
	struct jv_chunk *c = d->scratch ? d->scratch->head : NULL, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	free(d->scratch);
	cJSON_Delete(d->key);
	for (size_t i = 0; i < d->nkeys; i++)
		free(d->keys[i]);
	free(d->keys);
	memset(d, 0, sizeof *d);
}

/* What cJSON skips between tokens: every byte up to the space, as its buffer_skip_whitespace. */
static void skip_space(struct jv_pieces *d)
{
	while (d->p < d->end && (unsigned char)*d->p <= ' ')
		d->p++;
}

static int malformed(struct jv_pieces *d, const char *at)
{
	fail_at(d->v, d->text, at, false, "malformed JSON");
	return -1;
}

/* The first '[' or '{' in [p, end) that opens a container past cJSON's nesting limit, with depth
 * of them open at p (the document's own count, as cJSON parsing it whole would have), or NULL. */
static const char *too_deep(const char *p, const char *end, unsigned depth)
{
	bool in_string = false;

	for (; p < end; p++) {
		if (in_string) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_string = false;
		} else if (*p == '"') {
			in_string = true;
		} else if (*p == '[' || *p == '{') {
			if (depth >= CJSON_NESTING_LIMIT)
				return p;
			depth++;
		} else if ((*p == ']' || *p == '}') && depth) {
			depth--;
		}
	}
	return NULL;
}

static unsigned tree_depth(const cJSON *item)
{
	unsigned deepest = 0;

	if (!cJSON_IsArray(item) && !cJSON_IsObject(item))
		return 0;
	for (const cJSON *c = item->child; c; c = c->next) {
		unsigned d = tree_depth(c);
		if (d > deepest)
			deepest = d;
	}
	return deepest + 1;
}

static int too_deep_at(struct jv_pieces *d, const char *at)
{
	char what[64];

	snprintf(what, sizeof what, "JSON nested deeper than %d levels", CJSON_NESTING_LIMIT);
	fail_at(d->v, d->text, at, false, what);
	return -1;
}

int jv_pieces_begin(struct jv_pieces *d, const struct jv *v, const char *text, size_t len, cJSON **whole)
{
	const char *at;

	memset(d, 0, sizeof *d);
	d->v = v;
	d->text = d->p = text;
	d->end = text + len;
	*whole = NULL;
	if ((at = memchr(text, '\0', len)))
		return fail_at(v, text, at, false, "NUL byte"), -1;
	if ((at = escaped_nul(text, len)))
		return fail_at(v, text, at, false, "\\u0000 in a string (a NUL byte would cut it short)"), -1;
	skip_space(d);
	if (d->p == d->end || *d->p != '{') {
		/* not an object (or one after a byte-order mark): read whole, for jv_parse's message */
		*whole = jv_parse(v, text, len, false);
		return *whole ? 1 : -1;
	}
	d->p++;
	d->depth = 1;
	d->scratch = roi_xrealloc(NULL, 1, sizeof *d->scratch);
	memset(d->scratch, 0, sizeof *d->scratch);
	return 0;
}

int jv_pieces_member(struct jv_pieces *d, const char **key)
{
	const char *end = NULL;

	cJSON_Delete(d->key);
	d->key = NULL;
	skip_space(d);
	if (d->p < d->end && *d->p == '}') {
		d->p++;
		d->depth = 0;
		skip_space(d);
		return d->p == d->end ? 0 : malformed(d, d->p);     /* what follows the document */
	}
	if (d->nmembers > 0) {
		if (d->p == d->end || *d->p != ',')
			return malformed(d, d->p);
		d->p++;
		skip_space(d);
	}
	if (d->p == d->end || *d->p != '"')
		return malformed(d, d->p);
	d->key = cJSON_ParseWithLengthOpts(d->p, (size_t)(d->end - d->p) + 1, &end, 0);
	if (!d->key)
		return malformed(d, end ? end : d->p);
	d->p = end;
	skip_space(d);
	if (d->p == d->end || *d->p != ':')
		return malformed(d, d->p);
	d->p++;
	skip_space(d);
	for (size_t i = 0; i < d->nkeys; i++)
		if (strcmp(d->keys[i], d->key->valuestring) == 0)
			return jv_fail(d->v, "", "duplicate key '%s'", d->key->valuestring);
	d->keys = roi_xrealloc(d->keys, d->nkeys + 1, sizeof *d->keys);
	d->keys[d->nkeys] = roi_xrealloc(NULL, strlen(d->key->valuestring) + 1, 1);
	strcpy(d->keys[d->nkeys++], d->key->valuestring);
	d->nmembers++;
	*key = d->key->valuestring;
	return 1;
}

bool jv_pieces_array(struct jv_pieces *d)
{
	if (d->p == d->end || *d->p != '[')
		return false;
	d->p++;
	d->depth = 2;
	d->index = 0;
	d->nelements = 0;
	return true;
}

int jv_pieces_next(struct jv_pieces *d)
{
	skip_space(d);
	if (d->p < d->end && *d->p == ']') {
		d->p++;
		d->depth = 1;
		return 0;
	}
	if (d->nelements > 0) {
		if (d->p == d->end || *d->p != ',')
			return malformed(d, d->p);
		d->p++;
		skip_space(d);
	}
	d->index = d->nelements++;
	return 1;
}

cJSON *jv_pieces_value(struct jv_pieces *d, const char *where, bool scratch)
{
	const char *start = d->p, *end = NULL, *deep;
	cJSON *item;

	/* cJSON skips a byte-order mark at the start of what it parses: here it would be inside */
	if (d->p < d->end && (unsigned char)*d->p == 0xef)
		return malformed(d, d->p), NULL;
	if (scratch) {
		cJSON_Hooks hooks = {scratch_alloc, scratch_free};

		hooked = d->scratch;
		cJSON_InitHooks(&hooks);
	}
	item = cJSON_ParseWithLengthOpts(start, (size_t)(d->end - start) + 1, &end, 0);
	if (scratch) {
		cJSON_InitHooks(NULL);
		hooked = NULL;
	}
	if (!item) {
		const char *at = end ? end : start;

		deep = too_deep(start, at, d->depth);
		return deep ? (too_deep_at(d, deep), NULL) : (malformed(d, at), NULL);
	}
	/* cJSON counts its nesting from the piece; the document's count is deeper by d->depth (a level
	 * takes two bytes at least: a short piece cannot be too deep) */
	if ((size_t)(end - start) >= 2 * (CJSON_NESTING_LIMIT - d->depth) &&
	    d->depth + tree_depth(item) > CJSON_NESTING_LIMIT && (deep = too_deep(start, end, d->depth))) {
		too_deep_at(d, deep);
		goto fail;
	}
	struct trail t = {NULL, item, 0, where};
	if (no_duplicates(d->v, &t) != 0)
		goto fail;
	d->p = end;
	return item;
fail:
	if (!scratch)
		cJSON_Delete(item);
	return NULL;
}

int jv_keys(const struct jv *v, const cJSON *obj, const char *where, const char *const *allowed)
{
	for (const cJSON *m = cJSON_IsObject(obj) ? obj->child : NULL; m; m = m->next) {
		size_t i = 0;

		while (allowed[i] && strcmp(allowed[i], m->string) != 0)
			i++;
		if (!allowed[i])
			return jv_fail(v, where, "unknown key '%s'", m->string);
	}
	return 0;
}
