/* growth/sizes.c — roi fit's SIZES arguments, "n=8:isort-8.roi" and --at n=1000, see fit.h. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growth/fit.h"

/* "n=8,m=4" up to the end or a ':' (whose position goes to *rest). Names are C identifiers, values
 * positive numbers. Returns the number of parameters, or -1 with msg set. */
static int parse_sizes(const char *s, bool until_colon, const char **names, double *x, const char **rest,
		       struct roi_arena *a, char *msg, size_t size)
{
	int n = 0;
	const char *p = s;

	for (;;) {
		const char *name = p, *eq;
		char *end;

		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p == name || isdigit((unsigned char)*name) || *p != '=') {
			snprintf(msg, size, "'%s' is not %s", s, until_colon ? "SIZES:PROFILE (n=8:prof.roi, n=8,m=4:prof.roi)"
									      : "SIZES (n=1000, n=1000,m=64)");
			return -1;
		}
		eq = p;
		double v = strtod(eq + 1, &end);
		if (*end == ':' && !until_colon) {
			snprintf(msg, size, "'%s' is not SIZES (n=1000, n=1000,m=64)", s);
			return -1;
		}
		if (end == eq + 1 || !isfinite(v) || v <= 0 || (*end && *end != ',' && *end != ':')) {
			snprintf(msg, size, "in '%s', %.*s must be a positive number, got '%.*s'", s, (int)(eq - name), name,
				 (int)strcspn(eq + 1, ",:"), eq + 1);
			return -1;
		}
		if (n == ROI_FIT_MAXPARAMS) {
			snprintf(msg, size, "'%s' has more than %d size parameters", s, ROI_FIT_MAXPARAMS);
			return -1;
		}
		names[n] = roi_arena_printf(a, "%.*s", (int)(eq - name), name);
		for (int i = 0; i < n; i++)
			if (strcmp(names[i], names[n]) == 0) {
				snprintf(msg, size, "'%s' gives %s twice", s, names[n]);
				return -1;
			}
		x[n++] = v;
		p = end;
		if (*p == ',') {
			p++;
			continue;
		}
		if (until_colon && *p != ':') {
			snprintf(msg, size, "'%s' is not SIZES:PROFILE: no ':' before the profile", s);
			return -1;
		}
		if (until_colon && !p[1]) {
			snprintf(msg, size, "'%s' names no profile after the ':'", s);
			return -1;
		}
		*rest = p;
		return n;
	}
}

static const char *names_list(struct roi_arena *a, const char *const *names, size_t n)
{
	const char *s = "";

	for (size_t i = 0; i < n; i++)
		s = roi_arena_printf(a, "%s%s%s", s, i ? ", " : "", names[i]);
	return s;
}

/* Puts the values of names[] in the order of f->params; -1 when the sets differ. */
static int order_sizes(const struct roi_fit *f, const char *const *names, const double *v, size_t n, double *x)
{
	if (n != f->nparams)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		while (k < f->nparams && strcmp(f->params[k], names[i]) != 0)
			k++;
		if (k == f->nparams)
			return -1;
		x[k] = v[i];
	}
	return 0;
}

const char *roi_fit_sizes_text(const struct roi_fit *f, const double *x, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < f->nparams && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%.15g", i ? "," : "", f->params[i], x[i]);
	return buf;
}

/* A usage message into msg; returns -1. */
__attribute__((format(printf, 3, 4))) static int usage(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return -1;
}

int roi_fit_points(struct roi_fit *f, const char *const *pos, int npos, char *msg, size_t size)
{
	char why[512];

	f->npts = (size_t)npos;
	f->pts = roi_arena_array(&f->arena, f->npts, sizeof *f->pts);
	for (size_t i = 0; i < f->npts; i++) {
		struct roi_fit_point *pt = &f->pts[i];
		const char *names[ROI_FIT_MAXPARAMS], *rest;
		double v[ROI_FIT_MAXPARAMS];
		int n = parse_sizes(pos[i], true, names, v, &rest, &f->arena, why, sizeof why);

		if (n < 0)
			return usage(msg, size, "%s", why);
		pt->spec = pos[i];
		pt->path = rest + 1;
		if (i == 0) {
			f->nparams = (size_t)n;
			memcpy(f->params, names, (size_t)n * sizeof *names);
		}
		if (order_sizes(f, names, v, (size_t)n, pt->x) != 0)
			return usage(msg, size, "every profile is at the same size parameters: '%s' gives %s, '%s' %s",
				     pos[0], names_list(&f->arena, f->params, f->nparams), pos[i],
				     names_list(&f->arena, names, (size_t)n));
		for (size_t j = 0; j < i; j++)
			if (memcmp(f->pts[j].x, pt->x, f->nparams * sizeof *pt->x) == 0)
				return usage(msg, size, "'%s' and '%s' are at the same sizes: one profile per size (a "
					     "profile adds up the runs written into it)", f->pts[j].spec, pt->spec);
	}
	if (f->npts < 2)
		return usage(msg, size, "a fit needs profiles at 2 sizes or more (3 for anything but a constant)");
	f->x = roi_arena_array(&f->arena, f->npts * f->nparams, sizeof *f->x);
	for (size_t i = 0; i < f->npts; i++)
		memcpy(f->x + i * f->nparams, f->pts[i].x, f->nparams * sizeof *f->x);
	if (f->at_spec) {
		const char *names[ROI_FIT_MAXPARAMS], *rest;
		double v[ROI_FIT_MAXPARAMS];
		int n = parse_sizes(f->at_spec, false, names, v, &rest, &f->arena, why, sizeof why);

		if (n < 0)
			return usage(msg, size, "--at: %s", why);
		if (order_sizes(f, names, v, (size_t)n, f->at) != 0)
			return usage(msg, size, "--at gives %s; the profiles are at sizes of %s",
				     names_list(&f->arena, names, (size_t)n),
				     names_list(&f->arena, f->params, f->nparams));
		f->has_at = true;
	}
	return 0;
}

bool roi_fit_is_point(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n > 0 && !isdigit((unsigned char)s[0]) && s[n] == '=';
}
