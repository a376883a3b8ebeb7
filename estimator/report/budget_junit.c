/* report/budget_junit.c — JUnit XML for roi budget check, see budget_junit.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic.h"
#include "report/budget_junit.h"

/* The length of the UTF-8 sequence at s that XML 1.0 allows, or 0 (invalid or a forbidden
 * character: C0 controls other than tab, newline and carriage return). */
static size_t xml_char(const unsigned char *s)
{
	unsigned cp;
	size_t n;

	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' || s[0] == '\r';
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond Unicode, U+FFFE/U+FFFF */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* Text or an attribute value, escaped; what XML cannot carry becomes '?'. */
static void esc(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = xml_char(p);

		if (n == 0) {
			fputc('?', out);
			p++;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\n': fputs("&#10;", out); break;
		case '\r': fputs("&#13;", out); break;
		case '\t': fputs("&#9;", out); break;
		default: fwrite(p, 1, n, out);
		}
		p += n;
	}
}

static void property(FILE *out, const char *name, const char *value)
{
	fputs("      <property name=\"", out);
	esc(out, name);
	fputs("\" value=\"", out);
	esc(out, value);
	fputs("\"/>\n", out);
}

/* "143427.20 cycles against a limit of 140000 cycles (margin -2.5%), estimated" */
static void summary(char *buf, size_t size, const struct roi_budget_result *r)
{
	const struct roi_budget *b = r->b;
	char v[64], l[64], m[64];

	if (isnan(r->margin_pct))
		snprintf(m, sizeof m, "-");
	else
		snprintf(m, sizeof m, "%.1f%%", r->margin_pct);
	snprintf(buf, size, "%s %s, limit %s, margin %s", r->used_measured ? "measured" : "estimate",
		 roi_budget_fmt(b->quantity, r->value, v, sizeof v), roi_budget_fmt(b->quantity, b->limit, l, sizeof l), m);
}

/* A stable name for CI histories: the budget itself, not its line (lines move when one is added). */
static void case_name(char *buf, size_t size, const struct roi_budget *b)
{
	char d[700];

	snprintf(buf, size, "%s%s%s", roi_budget_describe(b, d, sizeof d), b->model ? " model " : "", b->model ? b->model : "");
}

void roi_budget_junit(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *ev, bool strict)
{
	size_t failures = ev->nfail + (strict ? ev->nwarn : 0);
	const char *base = strrchr(bf->path, '/');
	char cls[512], name[1024], sum[512], text[2048];

	base = base ? base + 1 : bf->path;
	/* classname: dots would be read as Java packages */
	snprintf(cls, sizeof cls, "roi.budget.%s", base);
	for (char *p = cls + strlen("roi.budget."); *p; p++)
		if (*p == '.')
			*p = '_';
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"roi budget check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", ev->nresults,
		failures);
	fputs("  <testsuite name=\"", out);
	esc(out, bf->path);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", ev->nresults, failures);
	fputs("    <properties>\n", out);
	property(out, "program", ev->in->prog.path);
	if (ev->in->profile_path)
		property(out, "profile", ev->in->profile_path);
	if (ev->in->counts.transferred)
		property(out, "transferred_from", ev->in->counts.transferred);
	for (size_t i = 0; i < ev->nmodels; i++)
		if (ev->models[i]->path)
			property(out, "model", ev->models[i]->path);
	fputs("    </properties>\n", out);
	for (size_t i = 0; i < ev->nresults; i++) {
		const struct roi_budget_result *r = &ev->results[i];
		const struct roi_budget *b = r->b;
		bool failed = r->status == ROI_BUDGET_FAIL || (strict && r->status == ROI_BUDGET_WARN);

		case_name(name, sizeof name, b);
		summary(sum, sizeof sum, r);
		snprintf(text, sizeof text, "%s:%u: %s\n%s: %s\n", bf->path, b->line, b->text,
			 roi_budget_status_name(r->status), sum);
		if (r->has_measured && !r->used_measured) {
			char v[64];
			size_t n = strlen(text);
			snprintf(text + n, sizeof text - n, "measured %s\n", roi_budget_fmt(b->quantity, r->measured, v, sizeof v));
		} else if (r->used_measured) {
			char v[64];
			size_t n = strlen(text);
			snprintf(text + n, sizeof text - n, "estimate %s\n", roi_budget_fmt(b->quantity, r->estimate, v, sizeof v));
		}
		fputs("    <testcase name=\"", out);
		esc(out, name);
		fputs("\" classname=\"", out);
		esc(out, cls);
		fputs("\">\n", out);
		if (failed) {
			fprintf(out, "      <failure type=\"%s\" message=\"", roi_budget_status_name(r->status));
			esc(out, sum);
			fputs("\">", out);
			esc(out, text);
			fputs("</failure>\n", out);
		}
		fputs("      <system-out>", out);
		esc(out, text);
		fputs("</system-out>\n", out);
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
}

int roi_budget_junit_write(const char *path, const struct roi_budget_file *bf, const struct roi_budget_eval *ev,
			   bool strict, struct roi_err *err)
{
	struct roi_atomic out;

	if (roi_atomic_open(&out, path, err) != 0)
		return -1;
	roi_budget_junit(out.f, bf, ev, strict);
	return roi_atomic_commit(&out, "the JUnit report", err);
}
