/* input/filter.c — unmatched filter rules and excluded functions, see filter.h. */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/cli.h"
#include "input/filter.h"
#include "../../gcc-plugin/roi-spell.h"

static int by_path_line(const void *a, const void *b)
{
	const struct roi_unmatched_rule *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

size_t roi_filter_unmatched(const struct roi_program *p, struct roi_unmatched_rule **out)
{
	struct roi_unmatched_rule *all = NULL;
	bool *matched = NULL;
	size_t n = 0, cap = 0, k = 0;

	/* Every (path, line) once, matched when any unit says so. */
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_filter *f = p->units[u].filter;

		for (size_t r = 0; f && r < f->nrules; r++) {
			size_t i;

			for (i = 0; i < n; i++)
				if (all[i].line == f->rules[r].line && strcmp(all[i].path, f->path) == 0)
					break;
			if (i == n) {
				if (n == cap) {
					cap = cap ? 2 * cap : 16;
					all = roi_xrealloc(all, cap, sizeof *all);
					matched = roi_xrealloc(matched, cap, sizeof *matched);
				}
				all[n] = (struct roi_unmatched_rule){f->path, f->rules[r].line, f->rules[r].text};
				matched[n++] = false;
			}
			matched[i] |= f->rules[r].matched;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!matched[i])
			all[k++] = all[i];
	free(matched);
	if (k > 1)      /* qsort wants a valid pointer even for nothing to sort */
		qsort(all, k, sizeof *all, by_path_line);
	*out = all;
	return k;
}

/* The name of the program's functions, counted or excluded, a rule on a function's name (its last
 * word, not a glob:) may have meant: one or two letters away, the closest; NULL when none is. */
static const char *meant(const struct roi_program *p, const char *text)
{
	const char *name = strrchr(text, ' '), *best = NULL;

	if (!name || !strstr(text, " function ") || strncmp(name + 1, "glob:", 5) == 0)
		return NULL;
	name++;
	unsigned limit = roi_spell_limit(name), best_d = limit + 1;
	for (size_t u = 0; u < p->nunits; u++) {
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			unsigned d = roi_edit_distance(name, p->units[u].functions[f].name, limit);

			if (d < best_d) {
				best_d = d;
				best = p->units[u].functions[f].name;
			}
		}
		for (size_t e = 0; e < p->units[u].nexcluded; e++) {
			unsigned d = roi_edit_distance(name, p->units[u].excluded[e].name, limit);

			if (d < best_d) {
				best_d = d;
				best = p->units[u].excluded[e].name;
			}
		}
	}
	return best;
}

void roi_filter_warn_unmatched(const struct roi_program *p)
{
	struct roi_unmatched_rule *r;
	size_t n = roi_filter_unmatched(p, &r);

	for (size_t i = 0; i < n; i++) {
		const char *m = meant(p, r[i].text);

		roi_warn("%s:%u: rule '%s' matched nothing in %s%s%s%s", r[i].path, r[i].line, r[i].text, p->path,
			 m ? "; did you mean '" : "", m ? m : "", m ? "'?" : "");
	}
	free(r);
}

size_t roi_filter_excluded(const struct roi_program *p, const struct roi_excluded **names, size_t max)
{
	size_t n = 0;

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t e = 0; e < p->units[u].nexcluded; e++) {
			const struct roi_excluded *x = &p->units[u].excluded[e];
			bool seen = false;

			/* A function defined in a header is excluded in every unit that has it. */
			for (size_t v = 0; v <= u && !seen; v++)
				for (size_t f = 0; f < (v < u ? p->units[v].nexcluded : e) && !seen; f++)
					seen = strcmp(p->units[v].excluded[f].name, x->name) == 0;
			if (seen)
				continue;
			if (names && n < max)
				names[n] = x;
			n++;
		}
	return n;
}

char *roi_filter_excluded_list(const struct roi_program *p)
{
	size_t n = roi_filter_excluded(p, NULL, 0), len = 1;
	const struct roi_excluded **x;
	char *s;

	if (!n)
		return NULL;
	x = roi_xrealloc(NULL, n, sizeof *x);
	roi_filter_excluded(p, x, n);
	for (size_t i = 0; i < n; i++)
		len += strlen(x[i]->name) + 2;
	s = roi_xrealloc(NULL, len, 1);
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, x[i]->name);
	}
	free(x);
	return s;
}
