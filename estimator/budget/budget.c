/* budget/budget.c — the budget file parser, see budget.h and docs/budgets.md.
 *
 * Words are separated by blanks; '#' at the start of a word begins a comment; keywords are
 * case-insensitive, names, units and paths are not (mJ is not MJ). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/fmt.h"
#include "base/readfile.h"
#include "budget/budget.h"
#include "input/types.h"

void roi_diag(struct roi_diags *d, const char *path, unsigned line, unsigned col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (d->n == d->cap)
		d->msg = roi_xrealloc(d->msg, d->cap = d->cap ? 2 * d->cap : 8, sizeof *d->msg);
	/* A diagnostic quotes what it rejects: a terminal escape or a carriage return in the file must not
	 * reach the terminal (as roi_err_set; found by fuzz/budget.c). */
	for (unsigned char *p = (unsigned char *)msg; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
	d->msg[d->n++] = roi_arena_printf(&d->arena, "%s:%u:%u: %s", path, line, col, msg);
}

void roi_diags_free(struct roi_diags *d)
{
	free(d->msg);
	roi_arena_free(&d->arena);
	memset(d, 0, sizeof *d);
}

/* ---- units ---- */

static const struct unit {
	const char *name;
	enum roi_budget_quantity q;
	double scale;           /* to the base unit */
} units[] = {
	{"ns", ROI_BUDGET_TIME, 1e-9}, {"us", ROI_BUDGET_TIME, 1e-6}, {"\xc2\xb5s", ROI_BUDGET_TIME, 1e-6},
	{"ms", ROI_BUDGET_TIME, 1e-3}, {"s", ROI_BUDGET_TIME, 1},
	{"nJ", ROI_BUDGET_ENERGY, 1e-9}, {"uJ", ROI_BUDGET_ENERGY, 1e-6}, {"\xc2\xb5J", ROI_BUDGET_ENERGY, 1e-6},
	{"mJ", ROI_BUDGET_ENERGY, 1e-3}, {"J", ROI_BUDGET_ENERGY, 1},
	{"cycles", ROI_BUDGET_CYCLES, 1},
	{"ops", ROI_BUDGET_OPS, 1},
	{"bytes", ROI_BUDGET_STACK, 1}, {"B", ROI_BUDGET_STACK, 1}, {"KiB", ROI_BUDGET_STACK, 1024},
};

static const char *const quantity_names[] = {"cycles", "time", "energy", "ops", "stack", "ram-margin"};

/* What a limit of each quantity may be written in. */
static const char *const units_of[] = {
	[ROI_BUDGET_CYCLES] = "cycles",
	[ROI_BUDGET_TIME] = "ns, us, ms or s",
	[ROI_BUDGET_ENERGY] = "nJ, uJ, mJ or J",
	[ROI_BUDGET_OPS] = "ops",
	[ROI_BUDGET_STACK] = "bytes, B or KiB",
	[ROI_BUDGET_RAM_MARGIN] = "bytes, B or KiB",
};

#define ALL_UNITS "ns, us, ms, s, nJ, uJ, mJ, J, cycles, ops, bytes, B or KiB"

const char *roi_budget_unit(enum roi_budget_quantity q)
{
	static const char *const base[] = {"cycles", "s", "J", "ops", "bytes", "bytes"};

	return base[q];
}

bool roi_budget_is_static(const struct roi_budget *b)
{
	return b->quantity == ROI_BUDGET_STACK || b->quantity == ROI_BUDGET_RAM_MARGIN;
}

bool roi_budget_file_static(const struct roi_budget_file *bf)
{
	for (size_t i = 0; i < bf->nbudgets; i++)
		if (!roi_budget_is_static(&bf->budgets[i]))
			return false;
	return true;
}

const char *roi_budget_describe(const struct roi_budget *b, char *buf, size_t size)
{
	char s[512], q[128];

	snprintf(buf, size, "%s %s%s%s", roi_budget_subject_name(b, s, sizeof s), roi_budget_quantity_name(b, q, sizeof q),
		 roi_budget_is_static(b) ? "" : " ", roi_budget_is_static(b) ? "" : roi_budget_per_name(b));
	return buf;
}

const char *roi_budget_quantity_name(const struct roi_budget *b, char *buf, size_t size)
{
	if (b->quantity == ROI_BUDGET_OPS && b->kind)
		snprintf(buf, size, "ops:%s%s%s", b->kind, b->type ? ":" : "", b->type ? b->type : "");
	else
		snprintf(buf, size, "%s", quantity_names[b->quantity]);
	return buf;
}

const char *roi_budget_per_name(const struct roi_budget *b)
{
	return b->per == ROI_BUDGET_PER_CALL ? "per call" : "per run";
}

const char *roi_budget_subject_name(const struct roi_budget *b, char *buf, size_t size)
{
	if (b->subject == ROI_BUDGET_TOTAL)
		snprintf(buf, size, "total");
	else
		snprintf(buf, size, "%s %s", b->subject == ROI_BUDGET_FUNCTION ? "function" : "region", b->name);
	return buf;
}

const char *roi_budget_fmt(enum roi_budget_quantity q, double v, char *buf, size_t size)
{
	char num[64];

	switch (q) {
	case ROI_BUDGET_TIME:
		return roi_fmt_si(v, "s", buf, size);
	case ROI_BUDGET_ENERGY:
		return roi_fmt_si(v, "J", buf, size);
	default:
		snprintf(buf, size, "%s %s", roi_fmt_num(v, num, sizeof num), roi_budget_unit(q));
		return buf;
	}
}

/* ---- words ---- */

struct word {
	const char *s;          /* NUL-terminated copy */
	unsigned col;           /* 1-based byte column */
};

struct line_ctx {
	const char *path;
	unsigned line;
	struct word *w;
	size_t n, i;            /* words, and the next one to read */
	unsigned end_col;       /* the column after the last word: where a missing word was expected */
	struct roi_diags *d;
	struct roi_arena *a;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Splits one line into words up to a comment. Returns false for a line with no word. */
static bool split(struct line_ctx *c, const char *line, size_t len, struct word **buf, size_t *cap)
{
	size_t pos = 0;

	c->n = c->i = 0;
	c->end_col = 1;
	for (;;) {
		while (pos < len && is_blank(line[pos]))
			pos++;
		if (pos >= len || line[pos] == '#')
			break;
		size_t start = pos;
		while (pos < len && !is_blank(line[pos]))
			pos++;
		if (c->n == *cap)
			*buf = roi_xrealloc(*buf, *cap = *cap ? 2 * *cap : 16, sizeof **buf);
		char *s = roi_arena_alloc(c->a, pos - start + 1);
		memcpy(s, line + start, pos - start);
		(*buf)[c->n++] = (struct word){s, (unsigned)start + 1};
		c->end_col = (unsigned)pos + 1;
	}
	c->w = *buf;
	return c->n > 0;
}

static const struct word *peek(const struct line_ctx *c)
{
	return c->i < c->n ? &c->w[c->i] : NULL;
}

static const struct word *next(struct line_ctx *c)
{
	return c->i < c->n ? &c->w[c->i++] : NULL;
}

static bool kw(const struct word *w, const char *k)
{
	return w && strcasecmp(w->s, k) == 0;
}

static unsigned col_of(const struct line_ctx *c, const struct word *w)
{
	return w ? w->col : c->end_col;
}

/* "expected X" at the word (", got 'W'") or at the end of the line. Returns false. */
static bool expected(struct line_ctx *c, const struct word *w, const char *what)
{
	if (w)
		roi_diag(c->d, c->path, c->line, w->col, "expected %s, got '%s'", what, w->s);
	else
		roi_diag(c->d, c->path, c->line, c->end_col, "expected %s", what);
	return false;
}

/* The length of a decimal number at s: digits, optionally a point and digits. 0: none. */
static size_t number_len(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (n && s[n] == '.' && s[n + 1] >= '0' && s[n + 1] <= '9')
		n += 1 + strspn(s + n + 1, "0123456789");
	return n;
}

static const struct unit *find_unit(const char *s)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(units[i].name, s) == 0)
			return &units[i];
	return NULL;
}

/* NUMBER UNIT, written together (40uJ) or as two words (40 uJ), of quantity q: *out in the base
 * unit. `what` names the amount in messages ("limit", "warning level"). */
static bool amount(struct line_ctx *c, enum roi_budget_quantity q, const char *what, double *out)
{
	const struct word *w = next(c);
	const char *unit_s;
	unsigned unit_col;
	size_t n;

	if (!w || !(n = number_len(w->s))) {
		char e[64];
		snprintf(e, sizeof e, "a number (the %s)", what);
		return expected(c, w, e);
	}
	double v = strtod(w->s, NULL);
	if (w->s[n]) {
		unit_s = w->s + n;
		unit_col = w->col + (unsigned)n;
	} else {
		const struct word *u = next(c);
		if (!u) {
			roi_diag(c->d, c->path, c->line, c->end_col, "expected a unit after '%s' (%s)", w->s,
				 units_of[q]);
			return false;
		}
		unit_s = u->s;
		unit_col = u->col;
	}
	const struct unit *u = find_unit(unit_s);
	if (!u) {
		roi_diag(c->d, c->path, c->line, unit_col, "unknown unit '%s' (units: " ALL_UNITS ")", unit_s);
		return false;
	}
	if (u->q != (q == ROI_BUDGET_RAM_MARGIN ? ROI_BUDGET_STACK : q)) {
		roi_diag(c->d, c->path, c->line, unit_col, "%s %s %s is in %s, got '%s' (%s)",
			 q == ROI_BUDGET_ENERGY || q == ROI_BUDGET_OPS ? "an" : "a", quantity_names[q], what, units_of[q],
			 unit_s, u->q == ROI_BUDGET_CYCLES || u->q == ROI_BUDGET_OPS ? "a count"
				 : u->q == ROI_BUDGET_STACK ? "bytes" : quantity_names[u->q]);
		return false;
	}
	if (!isfinite(v)) {
		/* (digits alone: only their number can make it too large for a double) */
		roi_diag(c->d, c->path, c->line, w->col, "the %s has more digits than a number can hold", what);
		return false;
	}
	*out = v * u->scale;
	return true;
}

static bool subject(struct line_ctx *c, struct roi_budget *b)
{
	const struct word *w = next(c);

	if (kw(w, "total")) {
		b->subject = ROI_BUDGET_TOTAL;
		b->subject_col = w->col;
		return true;
	}
	if (kw(w, "function")) {
		const struct word *name = next(c);

		if (!name)
			return expected(c, name, "a function name after 'function'");
		b->subject = ROI_BUDGET_FUNCTION;
		b->name = name->s;
		b->subject_col = name->col;
		return true;
	}
	if (kw(w, "region")) {
		const struct word *id = next(c);
		const char *colon = id ? strrchr(id->s, ':') : NULL;
		char *end = NULL;
		unsigned long line = colon ? strtoul(colon + 1, &end, 10) : 0;

		if (!id || !colon || colon == id->s || !colon[1] || *end || line == 0 || colon[1] < '0' || colon[1] > '9')
			return expected(c, id, "FUNCTION:LINE or FILE:LINE after 'region' (a loop; a function is "
					"'function NAME')");
		b->subject = ROI_BUDGET_REGION;
		b->name = id->s;
		b->subject_col = id->col;
		return true;
	}
	return expected(c, w, "'total', 'function' or 'region'");
}

static bool in_list(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static bool quantity(struct line_ctx *c, struct roi_budget *b)
{
	const struct word *w = next(c);

	b->quantity_col = col_of(c, w);
	for (int q = 0; w && q < 6; q++)
		if (kw(w, quantity_names[q])) {
			b->quantity = (enum roi_budget_quantity)q;
			if (q == ROI_BUDGET_STACK && b->subject == ROI_BUDGET_REGION) {
				roi_diag(c->d, c->path, c->line, b->subject_col, "a loop has no stack of its own: limit its "
					 "function's ('function NAME stack') or the total's");
				return false;
			}
			if (q == ROI_BUDGET_RAM_MARGIN && b->subject != ROI_BUDGET_TOTAL) {
				roi_diag(c->d, c->path, c->line, b->subject_col, "the RAM margin is the whole program's: "
					 "'total ram-margin >= AMOUNT'");
				return false;
			}
			return true;
		}
	if (w && strncasecmp(w->s, "ops:", 4) == 0) {
		char *kind = roi_arena_strdup(c->a, w->s + 4), *type = strchr(kind, ':');

		if (type)
			*type++ = '\0';
		if (!in_list(kind, roi_kinds)) {
			roi_diag(c->d, c->path, c->line, w->col + 4, "unknown operation kind '%s' (the kinds are in "
				 "docs/formats.md: add, mul, load, call, ...)", kind);
			return false;
		}
		if (type && !roi_type_known(type)) {
			roi_diag(c->d, c->path, c->line, w->col + 5 + (unsigned)strlen(kind), "unknown type '%s' (i8, u16, "
				 "f32, ptr, ... as in docs/formats.md)", type);
			return false;
		}
		b->quantity = ROI_BUDGET_OPS;
		b->kind = kind;
		b->type = type;
		return true;
	}
	return expected(c, w, "a quantity: cycles, time, energy, ops, ops:KIND, stack or ram-margin");
}

static bool per(struct line_ctx *c, struct roi_budget *b)
{
	const struct word *w;

	b->per = ROI_BUDGET_PER_RUN;
	if (!kw(peek(c), "per"))
		return true;
	if (roi_budget_is_static(b)) {
		roi_diag(c->d, c->path, c->line, peek(c)->col, "a %s budget has no 'per': it is the deepest the stack "
			 "gets, not a sum", quantity_names[b->quantity]);
		return false;
	}
	next(c);
	w = next(c);
	if (kw(w, "run"))
		return true;
	if (!kw(w, "call"))
		return expected(c, w, "'call' or 'run' after 'per'");
	if (b->subject == ROI_BUDGET_TOTAL) {
		roi_diag(c->d, c->path, c->line, w->col, "the total run has no calls: 'per run' only");
		return false;
	}
	b->per = ROI_BUDGET_PER_CALL;
	return true;
}

static bool warning(struct line_ctx *c, struct roi_budget *b, const struct word *kwd)
{
	const struct word *w = peek(c);
	size_t n = w ? number_len(w->s) : 0;

	if (b->has_warn) {
		roi_diag(c->d, c->path, c->line, kwd->col, "a second 'warn' (one warning margin per budget)");
		return false;
	}
	b->has_warn = true;
	/* A percentage: 10% or 10 % */
	if (n && (strcmp(w->s + n, "%") == 0 || (!w->s[n] && c->i + 1 < c->n && strcmp(c->w[c->i + 1].s, "%") == 0))) {
		double pct = strtod(w->s, NULL);

		c->i += w->s[n] ? 1 : 2;
		if (pct <= 0 || pct >= 100) {
			roi_diag(c->d, c->path, c->line, w->col, "a warning margin is more than 0%% and less than 100%% "
				 "of the limit, got %.*s%%", (int)n, w->s);
			return false;
		}
		b->warn_pct = pct;
		b->warn_at = b->limit * (b->floor ? 1 + pct / 100 : 1 - pct / 100);
		return true;
	}
	if (!w || !n)
		return expected(c, w, b->floor ? "a margin after 'warn': a percentage of the limit (10%) or an amount "
				"above it" : "a margin after 'warn': a percentage of the limit (10%) or an amount below it");
	unsigned col = w->col;
	if (!amount(c, b->quantity, "warning level", &b->warn_at))
		return false;
	if (b->floor ? b->warn_at <= b->limit : b->warn_at >= b->limit) {
		char at[64], lim[64];
		roi_diag(c->d, c->path, c->line, col, "the warning level %s is not %s the limit %s",
			 roi_budget_fmt(b->quantity, b->warn_at, at, sizeof at), b->floor ? "above" : "below",
			 roi_budget_fmt(b->quantity, b->limit, lim, sizeof lim));
		return false;
	}
	return true;
}

/* A relative model path is taken from the budget file's directory, as an include is. */
static const char *model_path(struct roi_arena *a, const char *budgets, const char *file)
{
	const char *slash = strrchr(budgets, '/');

	if (file[0] == '/' || !slash)
		return roi_arena_strdup(a, file);
	return roi_arena_printf(a, "%.*s/%s", (int)(slash - budgets), budgets, file);
}

static bool tail(struct line_ctx *c, struct roi_budget *b)
{
	const struct word *w;

	while ((w = next(c))) {
		if (kw(w, "warn")) {
			if (!warning(c, b, w))
				return false;
		} else if (kw(w, "model")) {
			const struct word *f = next(c);

			if (b->model) {
				roi_diag(c->d, c->path, c->line, w->col, "a second 'model' (one model per budget)");
				return false;
			}
			if (!f)
				return expected(c, f, "a model file after 'model'");
			if (roi_budget_is_static(b)) {
				roi_diag(c->d, c->path, c->line, w->col, "a %s budget takes no model: it is read from "
					 "the program", quantity_names[b->quantity]);
				return false;
			}
			b->model = model_path(c->a, c->path, f->s);
			b->model_col = f->col;
		} else {
			roi_diag(c->d, c->path, c->line, w->col, "unexpected '%s' after the limit (a budget may end in "
				 "'warn MARGIN' and 'model FILE'; one budget per line)", w->s);
			return false;
		}
	}
	return true;
}

static bool parse_budget(struct line_ctx *c, struct roi_budget *b)
{
	const struct word *w;

	if (!subject(c, b) || !quantity(c, b) || !per(c, b))
		return false;
	w = next(c);
	if (b->quantity == ROI_BUDGET_RAM_MARGIN) {
		if (!w || strcmp(w->s, ">=") != 0)
			return expected(c, w, "'>=' and the bytes that must be left (the RAM margin is a floor)");
		b->floor = true;
	} else if (w && strcmp(w->s, ">=") == 0) {
		roi_diag(c->d, c->path, c->line, w->col, "a %s budget is a ceiling: '<=' and the limit ('>=' is for "
			 "ram-margin)", quantity_names[b->quantity]);
		return false;
	} else if (!w || strcmp(w->s, "<=") != 0) {
		return expected(c, w, "'<=' and the limit");
	}
	return amount(c, b->quantity, "limit", &b->limit) && tail(c, b);
}

/* What makes two budgets the same: subject as written, quantity, per, model. */
static const char *key_of(struct roi_arena *a, const struct roi_budget *b)
{
	char s[512], q[128];

	return roi_arena_printf(a, "%s\x1f%s\x1f%d\x1f%s", roi_budget_subject_name(b, s, sizeof s),
				roi_budget_quantity_name(b, q, sizeof q), b->per, b->model ? b->model : "");
}

void roi_budget_parse(const char *path, const char *text, size_t size, struct roi_budget_file *bf,
		      struct roi_diags *diags)
{
	struct word *words = NULL;
	size_t wcap = 0, cap = 0;
	const char **keys = NULL;
	size_t before = diags->n;
	unsigned lineno = 0;

	bf->path = roi_arena_strdup(&bf->arena, path);
	for (const char *p = text, *end = text + size; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *nul = memchr(p, '\0', len);
		struct line_ctx c = {.path = path, .line = ++lineno, .d = diags, .a = &bf->arena};
		struct roi_budget b = {0};

		/* the line's words are C strings: a NUL would end the line there, and the file too */
		if (nul) {
			roi_diag(diags, path, lineno, (unsigned)(nul - p) + 1, "NUL byte");
		} else if (split(&c, p, len, &words, &wcap)) {
			b.line = lineno;
			if (parse_budget(&c, &b)) {
				const char *key = key_of(&bf->arena, &b);
				size_t dup = bf->nbudgets;

				for (size_t i = 0; i < bf->nbudgets && dup == bf->nbudgets; i++)
					if (strcmp(keys[i], key) == 0)
						dup = i;
				if (dup < bf->nbudgets) {
					char s[512], q[128];
					roi_diag(diags, path, lineno, words[0].col, "duplicate budget: line %u already limits "
						 "%s %s %s%s%s", bf->budgets[dup].line, roi_budget_subject_name(&b, s, sizeof s),
						 roi_budget_quantity_name(&b, q, sizeof q),
						 roi_budget_per_name(&b), b.model ? " with model " : "",
						 b.model ? b.model : "");
				} else {
					const struct word *last = &words[c.n - 1];
					b.text = roi_arena_printf(&bf->arena, "%.*s", (int)(last->col - 1 + strlen(last->s) -
											 (words[0].col - 1)),
								  p + words[0].col - 1);
					if (bf->nbudgets == cap) {
						cap = cap ? 2 * cap : 16;
						bf->budgets = roi_xrealloc(bf->budgets, cap, sizeof *bf->budgets);
						keys = roi_xrealloc(keys, cap, sizeof *keys);
					}
					keys[bf->nbudgets] = key;
					bf->budgets[bf->nbudgets++] = b;
				}
			}
		}
		p += len + (nl != NULL);
	}
	if (!bf->nbudgets && diags->n == before)
		roi_diag(diags, path, lineno ? lineno : 1, 1, "no budgets (every line is blank or a comment): a check "
			 "that checks nothing must not pass");
	free(words);
	free(keys);
}

int roi_budget_load(const char *path, struct roi_budget_file *bf, struct roi_diags *diags, struct roi_err *err)
{
	char *text;
	size_t len;

	memset(bf, 0, sizeof *bf);
	if (roi_read_file(path, ROI_MAX_TEXT, &text, &len, err) != 0)
		return -1;
	roi_budget_parse(path, text, len, bf, diags);
	free(text);
	return 0;
}

void roi_budget_free(struct roi_budget_file *bf)
{
	free(bf->budgets);
	roi_arena_free(&bf->arena);
	memset(bf, 0, sizeof *bf);
}
