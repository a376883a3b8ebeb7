/* input/checks.c — warnings about a run's inputs, see checks.h. */
#include <stddef.h>
#include <string.h>

#include "base/cli.h"
#include "input/checks.h"
#include "input/filter.h"

/* The first dotted number of a compiler description, its length in *n: "avr-gcc 5.4.0" -> "5.4.0",
 * "12.2.1 20221205" (arm-none-eabi-gcc's version_string, with its date) -> "12.2.1". */
static const char *version_of(const char *s, size_t *n)
{
	for (const char *w = s; *w; w += strcspn(w, " "), w += strspn(w, " ")) {
		size_t len = strcspn(w, " "), digits = strspn(w, "0123456789.");

		if (digits == len && len > 2 && w[0] != '.' && memchr(w, '.', len)) {
			*n = len;
			return w;
		}
	}
	*n = strlen(s);
	return s;
}

static bool same_version(const char *a, const char *b)
{
	size_t na, nb;

	a = version_of(a, &na);
	b = version_of(b, &nb);
	return na == nb && strncmp(a, b, na) == 0;
}

/* Costs measured for another compiler or optimisation level may not apply: say so, once. */
static void check_model_fit(const struct roi_model *m, const struct roi_program *p)
{
	const char *compiler = roi_program_common(p, offsetof(struct roi_unit, compiler));
	const char *opt = roi_program_common(p, offsetof(struct roi_unit, opt));
	bool other_opt = m->opt && strcmp(m->opt, "any") != 0 && strcmp(m->opt, opt) != 0;
	bool other_compiler = m->compiler && !same_version(m->compiler, compiler);

	if (other_opt || other_compiler)
		roi_warn("model %s has costs for %s%s%s, %s was compiled by GCC %s at -%s; the estimate may be off",
			 m->path, m->compiler ? m->compiler : "any compiler", m->opt ? " -" : "", m->opt ? m->opt : "",
			 p->path, compiler, opt);
}

static void check_missing(const struct roi_counts *c, const struct roi_program *p, const char *profile)
{
	const struct roi_function *first = NULL;

	if (!c->nmissing)
		return;
	for (size_t u = 0; u < p->nunits && !first; u++)
		for (size_t f = 0; f < p->units[u].nfunctions && !first; f++)
			if (!c->present[p->units[u].functions[f].gindex])
				first = &p->units[u].functions[f];
	roi_warn("%s: no counts for %zu of %zu functions of %s (first: %s in %s); they count as never run", profile,
		 c->nmissing, p->nfunctions, p->path, first->name, first->unit->source);
}

/* A 16-bit counter sticks at 65535 instead of wrapping (-fplugin-arg-roi-counter-bits=16): a
 * count that reached it is a lower bound, and the estimate must say so. A count solved from the
 * counters of edges (input/flow.h) that depends on a stuck one is no bound at all: it shows 65535,
 * and the warning says it is unknown. */
static void check_saturation(const struct roi_counts *c, const struct roi_program *p)
{
	for (size_t u = 0; u < p->nunits; u++) {
		if (p->units[u].counter_bits != 16)
			continue;
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];
			bool solved = fn->on_edges && c->raw[fn->gindex];
			size_t full = 0;

			for (size_t b = 0; b < fn->nblocks; b++)
				full += solved ? c->saturated[fn->gblock0 + b] : roi_block_count(c, fn, b) >= 65535;
			if (full && solved)
				roi_warn("%zu counts of %s (%s) depend on 16-bit counters that saturated at 65535: "
					 "they are unknown, and show 65535", full, fn->name, p->units[u].source);
			else if (full)
				roi_warn("%zu of the 16-bit counters of %s (%s) reached 65535 and saturated: "
					 "its counts are lower bounds", full, fn->name, p->units[u].source);
		}
	}
}

/* Counters of edges that do not add up: a block left more often than it was entered. */
static void check_negative(const struct roi_counts *c, const char *profile)
{
	if (c->nnegative)
		roi_warn("%s: %zu counts (first in %s) came out below zero and count 0: the counters do not add up "
			 "(a thread was inside the function when the profile was written?)", profile, c->nnegative,
			 c->first_negative->name);
}

void roi_check_inputs(const struct roi_program *p, const struct roi_counts *c, const char *profile,
		      const struct roi_model *m)
{
	roi_filter_warn_unmatched(p);
	check_missing(c, p, profile);
	check_saturation(c, p);
	check_negative(c, profile);
	if (m)
		check_model_fit(m, p);
}
