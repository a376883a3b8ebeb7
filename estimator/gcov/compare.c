/* gcov/compare.c — roi's and gcov's counts side by side: each function's entries, and at -O0 each
 * line's count as gcov computes it from roi's block counts (lines.h); see check.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/array.h"
#include "gcov/check.h"
#include "gcov/lines.h"

static int by_place(const void *a, const void *b)
{
	const struct roi_gcov_group *x = a, *y = b;
	int d = strcmp(x->file, y->file);

	if (d)
		return d;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->key, y->key);
}

void roi_gcov_compare_functions(struct roi_gcov_check *c, FILE *out)
{
	const struct roi_gcov_group *sorted;
	struct roi_gcov_group *s = roi_arena_array(&c->arena, c->ngrp ? c->ngrp : 1, sizeof *s);

	memcpy(s, c->grp, c->ngrp * sizeof *s);
	roi_sort(s, c->ngrp, sizeof *s, by_place);
	sorted = s;
	for (size_t i = 0; i < c->ngrp; i++) {
		const struct roi_gcov_group *g = &sorted[i];
		unsigned long long r = g->roi_calls, v = g->gcov_calls;

		if (g->nroi && !g->ngcov) {
			fprintf(out, "note: function %s (%s:%u): not in gcov's output (its unit built without --coverage?); "
				"roi calls %llu\n", g->name, g->shown_file, g->line, r);
		} else if (!g->nroi) {
			if (g->inlined_in)
				fprintf(out, "note: function %s (%s:%u): not counted by roi, GCC inlined it into %s; gcov %llu\n",
					g->name, g->shown_file, g->line, g->inlined_in, v);
			else if (v == 0)
				fprintf(out, "note: function %s (%s:%u): not counted by roi, gcov 0\n", g->name, g->shown_file,
					g->line);
			else {
				fprintf(out, "function %s (%s:%u): not counted by roi, gcov %llu\n", g->name, g->shown_file, g->line,
					v);
				c->ndisagree++;
			}
		} else if (g->inlined_in) {
			fprintf(out, "note: function %s (%s:%u): GCC inlined it into %s, so roi does not see every call; "
				"roi calls %llu, gcov %llu, not compared\n", g->name, g->shown_file, g->line, g->inlined_in,
				r, v);
		} else if (g->part) {
			fprintf(out, "note: function %s (%s:%u): GCC split it (%s), so roi does not see every call; "
				"roi calls %llu, gcov %llu, not compared\n", g->name, g->shown_file, g->line, g->part, r, v);
		} else {
			unsigned long long a = g->arrivals;
			char more[96] = "";

			if (a)
				snprintf(more, sizeof more, " + %llu arrival%s through abnormal edges", a, a == 1 ? "" : "s");
			c->nfunctions++;
			if (r + a != v) {
				fprintf(out, "function %s (%s:%u): roi calls %llu%s, gcov %llu\n", g->name, g->shown_file, g->line, r,
					more, v);
				c->ndisagree++;
			} else if (c->verbose) {
				fprintf(out, "ok: function %s (%s:%u): %llu call%s%s\n", g->name, g->shown_file, g->line, r,
					r == 1 ? "" : "s", more);
			}
		}
	}
}

static void add_line(struct roi_gcov_check *c, const char *file, const char *shown, unsigned line, uint64_t count,
		     bool roi)
{
	c->lc = roi_xgrow(c->lc, c->nlc, &c->caplc, sizeof *c->lc);
	c->lc[c->nlc++] = (struct roi_gcov_lcount){file, shown, line, roi ? count : 0, roi ? 0 : count, roi, !roi};
}

/* A line of unit `unit` as gcov_lines counts it. */
struct unit_lines {
	struct roi_gcov_check *c;
	size_t unit;
};

static void add_roi_line(void *ctx, unsigned file, unsigned line, uint64_t count)
{
	struct unit_lines *ul = ctx;

	add_line(ul->c, ul->c->ufile[ul->unit][file], ul->c->prog->units[ul->unit].files[file], line, count, true);
}

static int by_line(const void *a, const void *b)
{
	const struct roi_gcov_lcount *x = a, *y = b;
	int d = strcmp(x->file, y->file);

	if (d)
		return d;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The gcov function a line of .gcda d belongs to, or NULL. */
static const struct roi_gcov_gfn *line_function(const struct roi_gcov_check *c, const struct roi_gcov_gline *l)
{
	const struct roi_gcov_gcda *g = &c->gcda[l->gcda];

	for (size_t i = g->fn0; l->fn && i < g->fn0 + g->nfn; i++)
		if (strcmp(c->gfn[i].name, l->fn) == 0)
			return &c->gfn[i];
	return NULL;
}

void roi_gcov_compare_lines(struct roi_gcov_check *c, FILE *out)
{
	const struct roi_program *p = c->prog;
	struct roi_gcov_lines fl = {0};
	size_t undetermined = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		if (strcmp(unit->opt, "O0") != 0) {
			fprintf(out, "note: %s: compiled at -%s: lines not compared (roi counts the optimised code, gcov the "
				"code before optimisation); function entry counts are\n", unit->source, unit->opt);
			continue;
		}
		if (!c->unit_lines[u])
			continue;
		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];

			if (c->grp[c->fgroup[fn->gindex]].ngcov)
				undetermined += roi_gcov_function_lines(c->counts, fn, &fl);
		}
		roi_gcov_unit_lines(&fl, add_roi_line, &(struct unit_lines){c, u});
	}
	roi_gcov_lines_free(&fl);
	if (undetermined)
		fprintf(out, "note: %zu blocks have outgoing edges their block counts do not determine (taken as 0)\n",
			undetermined);

	/* gcov's lines of the same units; not those of functions roi does not count at all (the
	 * function is reported), unless GCC inlined them: roi then counts them in their callers. */
	for (size_t i = 0; i < c->ngline; i++) {
		const struct roi_gcov_gline *l = &c->gline[i];
		const struct roi_gcov_gfn *f = line_function(c, l);

		if (!c->gcda[l->gcda].lines)
			continue;
		if (f && c->grp[f->group].nroi == 0 && !c->grp[f->group].inlined_in)
			continue;
		add_line(c, roi_gcov_unalias(c, l->file), l->shown_file, l->line, l->count, false);
	}

	roi_sort(c->lc, c->nlc, sizeof *c->lc, by_line);
	for (size_t i = 0, j; i < c->nlc; i = j) {
		struct roi_gcov_lcount m = c->lc[i];

		for (j = i + 1; j < c->nlc && by_line(&c->lc[i], &c->lc[j]) == 0; j++) {
			const struct roi_gcov_lcount *x = &c->lc[j];

			m.roi += x->roi;
			m.gcov += x->gcov;
			if (x->in_roi && !m.in_roi)
				m.shown_file = x->shown_file;
			m.in_roi |= x->in_roi;
			m.in_gcov |= x->in_gcov;
		}
		c->nlines++;
		if (m.in_roi && m.in_gcov && m.roi != m.gcov) {
			fprintf(out, "%s:%u: roi %llu, gcov %llu\n", m.shown_file, m.line, (unsigned long long)m.roi,
				(unsigned long long)m.gcov);
			c->ndisagree++;
		} else if (!m.in_gcov && m.roi) {
			fprintf(out, "%s:%u: roi %llu, not a line in gcov's output\n", m.shown_file, m.line,
				(unsigned long long)m.roi);
			c->ndisagree++;
		} else if (!m.in_roi && m.gcov) {
			fprintf(out, "%s:%u: gcov %llu, not a line in roi's metadata\n", m.shown_file, m.line,
				(unsigned long long)m.gcov);
			c->ndisagree++;
		} else if (c->verbose) {
			fprintf(out, "ok: %s:%u: %llu%s\n", m.shown_file, m.line, (unsigned long long)(m.in_roi ? m.roi : m.gcov),
				m.in_roi && m.in_gcov ? "" : m.in_roi ? " (roi only)" : " (gcov only)");
		}
	}
}
