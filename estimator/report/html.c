/* report/html.c — the report as HTML pages to open offline or share (docs/report.md, "HTML"):
 * index.html with the run's summary, a function table and the function → loop → line tree, and
 * one page per source file with each line's executions and own cost beside its text, shaded by
 * cost; with a budget file, each budget's status too. Everything is in the pages: inline CSS, one small inline script that sorts the tables
 * when a heading is clicked, no external asset. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/atomic.h"
#include "base/fmt.h"
#include "base/readfile.h"
#include "input/filter.h"
#include "report/formats.h"
#include "report/lines.h"

#define CELL 64

static const char style[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\n"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
	"table{border-collapse:collapse}th,td{padding:.15em .6em;text-align:right;white-space:nowrap}\n"
	"th{border-bottom:1px solid #888;cursor:pointer;user-select:none}td.l,th.l{text-align:left}\n"
	"tr:nth-child(even){background:#f4f4f4}\n"
	"dl{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}dt{font-weight:bold}dd{margin:0}\n"
	"ul.tree{list-style:none;padding-left:1.2em}ul.tree li{margin:.1em 0}\n"
	".src td{font-family:ui-monospace,monospace;font-size:.9em;padding:0 .5em}\n"
	".src td.code{text-align:left;white-space:pre}.src td.n{color:#888}.src tr{background:none}\n"
	".src tr:target{outline:2px solid #36c}.dim{color:#999}.note{color:#555;text-align:left}\n"
	"a{color:#1a5ab8;text-decoration:none}a:hover{text-decoration:underline}\n"
	".PASS{color:#1b7a1b;font-weight:bold}.WARN{color:#a66a00;font-weight:bold}.FAIL{color:#c01818;font-weight:bold}\n";

/* Sorts a table by the clicked column (its cells' data-v, else their text); marks the page when
 * it ran without an exception, which the test checks. */
static const char script[] =
	"(function(){\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" t.querySelectorAll('th').forEach(function(th,i){\n"
	"  th.addEventListener('click',function(){\n"
	"   var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),up=th.dataset.up!=='1';\n"
	"   r.sort(function(x,y){var a=x.cells[i],c=y.cells[i],\n"
	"    p=a.dataset.v!==undefined?parseFloat(a.dataset.v):a.textContent,\n"
	"    q=c.dataset.v!==undefined?parseFloat(c.dataset.v):c.textContent;\n"
	"    return (p<q?-1:p>q?1:0)*(up?-1:1);});\n"
	"   th.dataset.up=up?'1':'0';r.forEach(function(x){b.appendChild(x);});});});});\n"
	"document.documentElement.setAttribute('data-roi-script','ok');\n"
	"})();\n";

struct page {
	FILE *out;
	const struct roi_hier *h;
	const struct roi_src_files *files;
	bool model;
};

static void esc_n(FILE *out, const char *s, size_t n)
{
	for (const char *end = s + n; s < end; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
}

static void esc(FILE *out, const char *s)
{
	esc_n(out, s, strlen(s));
}

static void head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	esc(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

static void tail(FILE *out)
{
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", script);
}

static void line_link(FILE *out, const struct page *pg, const struct roi_node *n, const char *text)
{
	if (n->fn && n->line > 0) {
		const struct roi_unit *u = n->fn->unit;

		fprintf(out, "<a href=\"src-%zu.html#L%u\">",
			pg->files->unit_file[u - pg->h->e->prog->units][roi_unit_file_index(u, n->file)], n->line);
		esc(out, text);
		fputs("</a>", out);
	} else {
		esc(out, text);
	}
}

/* Numeric cells carry their value for sorting. */
static void num_cell(FILE *out, double v, const char *text)
{
	fprintf(out, "<td data-v=\"%.17g\">", v);
	esc(out, text);
	fputs("</td>", out);
}

static void cost_cells(FILE *out, const struct page *pg, const struct roi_cost_sum *c)
{
	char buf[CELL];

	snprintf(buf, sizeof buf, "%.0f", round(c->ops));
	num_cell(out, c->ops, buf);
	if (pg->model) {
		num_cell(out, c->cycles, roi_fmt_num(c->cycles, buf, sizeof buf));
		num_cell(out, c->energy_j, roi_fmt_si(c->energy_j, "J", buf, sizeof buf));
	}
}

static void share_cell(FILE *out, const struct page *pg, const struct roi_cost_sum *c)
{
	char buf[CELL];
	double w = roi_hier_weight(pg->h, c), whole = roi_hier_weight(pg->h, &pg->h->total);

	num_cell(out, whole > 0 ? w / whole : 0, roi_fmt_share(w, whole, buf, sizeof buf));
}

static void summary(FILE *out, const struct page *pg, const struct roi_source *src)
{
	const struct roi_hier *h = pg->h;
	const struct roi_program *p = h->e->prog;
	const struct roi_model *m = h->e->model;
	char a[CELL], b[CELL], c[CELL], *excluded = roi_filter_excluded_list(p);

	fputs("<dl id=\"summary\">\n<dt>program</dt><dd>", out);
	esc(out, p->path);
	fputs("</dd>\n<dt>profile</dt><dd>", out);
	esc(out, src->profile);
	fprintf(out, ", %llu run%s", (unsigned long long)src->runs, src->runs == 1 ? "" : "s");
	if (src->transferred) {
		fputs(" of ", out);
		esc(out, src->transferred);
		fputs(", transferred (roi transfer): estimated counts", out);
	}
	fputs("</dd>\n<dt>compiler</dt><dd>", out);
	esc(out, roi_program_common(p, offsetof(struct roi_unit, compiler)));
	fputs(", target ", out);
	esc(out, roi_program_common(p, offsetof(struct roi_unit, target)));
	fputs(", -", out);
	esc(out, roi_program_common(p, offsetof(struct roi_unit, opt)));
	fprintf(out, " (%zu unit%s)</dd>\n<dt>model</dt><dd>", p->nunits, p->nunits == 1 ? "" : "s");
	if (m) {
		esc(out, m->part);
		fputs(" (", out);
		esc(out, m->arch);
		fprintf(out, ") at %s [", roi_fmt_si(m->clock_hz, "Hz", a, sizeof a));
		esc(out, m->path);
		fprintf(out, "]%s", h->e->mapped ? ", host ABI mapped" : "");
	} else {
		fputs("none: operations only (roi report --model FILE adds cycles and energy)", out);
	}
	fputs("</dd>\n", out);
	if (excluded) {
		fputs("<dt>excluded</dt><dd>", out);
		esc(out, excluded);
		fputs(": not counted (filter), their cost is not included</dd>\n", out);
	}
	free(excluded);
	fprintf(out, "<dt>total</dt><dd id=\"total\">%.0f ops", round(h->total.ops));
	if (m)
		fprintf(out, ", %s cycles, %s, %s", roi_fmt_num(h->total.cycles, a, sizeof a),
			roi_fmt_si(h->total.cycles / m->clock_hz, "s", b, sizeof b),
			roi_fmt_si(h->total.energy_j, "J", c, sizeof c));
	fputs("</dd>\n</dl>\n", out);
}

static void function_table(FILE *out, const struct page *pg)
{
	const struct roi_hier *h = pg->h;
	char buf[CELL];

	fputs("<h2>Functions</h2>\n<p>Inclusive costs: a function's own operations and its share of those of the "
	      "functions it calls (docs/report.md). Click a heading to sort.</p>\n", out);
	fputs("<table id=\"functions\" class=\"sortable\">\n<thead><tr><th class=\"l\">function</th>"
	      "<th class=\"l\">file:line</th><th>calls</th><th>ops</th>", out);
	if (pg->model)
		fputs("<th>cycles</th><th>energy</th>", out);
	fputs("<th>self ops</th>", out);
	if (pg->model)
		fputs("<th>self cycles</th>", out);
	fputs("<th>total %</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < h->nroots; i++) {
		const struct roi_node *n = h->roots[i];
		char where[512];

		if (n->kind != ROI_NODE_FUNCTION || !n->fn)
			continue;
		fprintf(out, "<tr id=\"fn-%zu\"><td class=\"l\">", n->fn->gindex);
		line_link(out, pg, n, n->id);
		snprintf(where, sizeof where, "%s:%u", n->file, n->line);
		fputs("</td><td class=\"l\">", out);
		esc(out, where);
		fputs("</td>", out);
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)n->calls);
		num_cell(out, (double)n->calls, buf);
		cost_cells(out, pg, &n->cost);
		snprintf(buf, sizeof buf, "%.0f", round(n->self.ops));
		num_cell(out, n->self.ops, buf);
		if (pg->model)
			num_cell(out, n->self.cycles, roi_fmt_num(n->self.cycles, buf, sizeof buf));
		share_cell(out, pg, &n->cost);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (h->nnever)
		fprintf(out, "<p class=\"dim\">%zu counted function%s never ran.</p>\n", h->nnever,
			h->nnever == 1 ? "" : "s");
}

static void tree_node(FILE *out, const struct page *pg, const struct roi_node *n)
{
	char a[CELL], b[CELL], c[CELL];
	const char *kind = roi_node_kind_name(n->kind);

	fprintf(out, "<li class=\"%s\">", kind);
	if (n->nchildren)
		fputs("<details><summary>", out);
	line_link(out, pg, n, n->id);
	fprintf(out, " <span class=\"dim\">%s</span> ", kind);
	if (!n->fn) {
		fputs("not counted (filter): no estimate", out);
	} else {
		fprintf(out, "%.0f ops", round(n->cost.ops));
		if (pg->model)
			fprintf(out, ", %s cycles, %s", roi_fmt_num(n->cost.cycles, a, sizeof a),
				roi_fmt_si(n->cost.energy_j, "J", b, sizeof b));
		fprintf(out, ", %s of the total",
			roi_fmt_share(roi_hier_weight(pg->h, &n->cost), roi_hier_weight(pg->h, &pg->h->total), c,
				      sizeof c));
		if (n->kind == ROI_NODE_FUNCTION)
			fprintf(out, ", %llu call%s", (unsigned long long)n->calls, n->calls == 1 ? "" : "s");
		if (n->kind == ROI_NODE_LOOP && n->loop >= 0)
			fprintf(out, ", entered %llu time%s, header ran %llu time%s", (unsigned long long)n->calls,
				n->calls == 1 ? "" : "s", (unsigned long long)n->iterations, n->iterations == 1 ? "" : "s");
		for (size_t i = 0; i < n->ncallees; i++) {
			fputs(i ? ", " : "; calls ", out);
			esc(out, n->callees[i]);
		}
	}
	if (n->measured) {
		fprintf(out, "; measured %llu %s in %llu call%s", (unsigned long long)n->measured->total,
			pg->h->e->counts->time_unit ? pg->h->e->counts->time_unit : "", (unsigned long long)n->measured->calls,
			n->measured->calls == 1 ? "" : "s");
	}
	if (n->nchildren) {
		fputs("</summary>\n<ul class=\"tree\">\n", out);
		for (size_t i = 0; i < n->nchildren; i++)
			tree_node(out, pg, n->children[i]);
		fputs("</ul></details>", out);
	}
	fputs("</li>\n", out);
}

static void file_list(FILE *out, const struct page *pg)
{
	fputs("<h2>Source files</h2>\n<table id=\"files\" class=\"sortable\">\n<thead><tr><th class=\"l\">file</th>"
	      "<th>ops</th>", out);
	if (pg->model)
		fputs("<th>cycles</th><th>energy</th>", out);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < pg->files->n; i++) {
		const struct roi_src_file *f = &pg->files->v[i];

		if (!f->nlines && !f->nfns)
			continue;
		fprintf(out, "<tr><td class=\"l\"><a href=\"src-%zu.html\">", i);
		esc(out, f->name);
		fputs("</a></td>", out);
		cost_cells(out, pg, &f->self);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* roi budget check's table: each budget's figure, limit, margin and status. */
static void budget_table(FILE *out, const struct roi_budget_file *bf, const struct roi_budget_eval *ev)
{
	char subject[512], quantity[128], buf[CELL];

	fprintf(out, "<h2>Budgets</h2>\n<p id=\"budget-result\" class=\"%s\">%s: %zu budget%s, %zu pass, %zu warn, "
		"%zu fail</p>\n", ev->nfail ? "FAIL" : ev->nwarn ? "WARN" : "PASS",
		ev->nfail ? "FAIL" : ev->nwarn ? "WARN" : "PASS", ev->nresults, ev->nresults == 1 ? "" : "s", ev->npass,
		ev->nwarn, ev->nfail);
	fputs("<table id=\"budgets\" class=\"sortable\">\n<thead><tr><th class=\"l\">where</th><th class=\"l\">budget"
	      "</th><th>figure</th><th>limit</th><th>margin</th><th class=\"l\">status</th></tr></thead>\n<tbody>\n",
	      out);
	for (size_t i = 0; i < ev->nresults; i++) {
		const struct roi_budget_result *r = &ev->results[i];
		const struct roi_budget *b = r->b;
		const char *status = roi_budget_status_name(r->status);

		fputs("<tr><td class=\"l\">", out);
		esc(out, bf->path);
		fprintf(out, ":%u</td><td class=\"l\">", b->line);
		roi_budget_subject_name(b, subject, sizeof subject);
		roi_budget_quantity_name(b, quantity, sizeof quantity);
		esc(out, subject);
		fputc(' ', out);
		esc(out, quantity);
		fputs(b->per == ROI_BUDGET_PER_CALL ? " per call" : " per run", out);
		fputs(r->used_measured ? " (measured)" : "", out);
		fputs("</td>", out);
		num_cell(out, r->value, roi_budget_fmt(b->quantity, r->value, buf, sizeof buf));
		num_cell(out, b->limit, roi_budget_fmt(b->quantity, b->limit, buf, sizeof buf));
		if (isnan(r->margin_pct))
			fputs("<td data-v=\"0\">-</td>", out);
		else
			fprintf(out, "<td data-v=\"%.17g\">%.1f%%</td>", r->margin_pct, r->margin_pct == 0 ? 0.0 : r->margin_pct);
		fprintf(out, "<td class=\"l %s\">%s</td></tr>\n", status, status);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void index_page(FILE *out, const struct page *pg, const struct roi_source *src,
		       const struct roi_budget_file *bf, const struct roi_budget_eval *budgets)
{
	const struct roi_hier *h = pg->h;
	char title[512];

	snprintf(title, sizeof title, "roi report: %s", h->e->prog->path);
	head(out, title);
	fputs("<h1>", out);
	esc(out, title);
	fputs("</h1>\n", out);
	summary(out, pg, src);
	if (budgets)
		budget_table(out, bf, budgets);
	function_table(out, pg);
	fputs("<h2>Functions, loops and lines</h2>\n<p>Each function's loop nest and lines, costs inclusive, by cost. "
	      "A loop is named FUNCTION:LINE, as roi report, filters and budgets name it.</p>\n<ul class=\"tree\" "
	      "id=\"tree\">\n", out);
	for (size_t i = 0; i < h->nroots; i++)
		tree_node(out, pg, h->roots[i]);
	fputs("</ul>\n", out);
	file_list(out, pg);
	tail(out);
}

/* The line's shade: its share of the file's costliest line. */
static void shade(FILE *out, double w, double max)
{
	if (w <= 0 || max <= 0)
		return;
	fprintf(out, " style=\"background:rgba(230,80,30,%.2f)\"", 0.08 + 0.6 * w / max);
}

static void source_page(FILE *out, const struct page *pg, size_t fi)
{
	const struct roi_src_file *f = &pg->files->v[fi];
	char *text = NULL, title[512], buf[CELL], ej[CELL];
	size_t size, k = 0;
	struct roi_err err;
	double max = 0;
	unsigned last = 0;

	for (size_t i = 0; i < f->nlines; i++) {
		double w = roi_hier_weight(pg->h, &f->lines[i].self);

		max = w > max ? w : max;
		last = f->lines[i].line > last ? f->lines[i].line : last;
	}
	snprintf(title, sizeof title, "roi report: %s", f->name);
	head(out, title);
	fputs("<p><a href=\"index.html\">&larr; index</a></p>\n<h1>", out);
	esc(out, f->name);
	fputs("</h1>\n<p class=\"dim\">", out);
	esc(out, f->path);
	fputs("</p>\n", out);
	if (roi_read_file(f->path, ROI_MAX_TEXT, &text, &size, &err) != 0) {
		fputs("<p>The source is not readable here (", out);
		esc(out, err.msg);
		fputs("): its lines are listed without their text.</p>\n", out);
		text = NULL;
	}
	fprintf(out, "<p>Per line: how often it ran (as gcov counts it), its own operations%s; calls carry their "
		"callees' cost per call, shown apart.</p>\n", pg->model ? ", cycles and energy" : "");
	fputs("<table class=\"src\" id=\"source\">\n<thead><tr><th>line</th><th>count</th><th>ops</th>", out);
	if (pg->model)
		fputs("<th>cycles</th><th>energy</th>", out);
	fputs("<th class=\"l\">calls</th><th class=\"l\">source</th></tr></thead>\n<tbody>\n", out);
	const char *s = text;
	for (unsigned line = 1; (s && *s) || line <= last; line++) {
		const struct roi_src_line *l = NULL;
		const char *end = s ? strchr(s, '\n') : NULL;

		while (k < f->nlines && f->lines[k].line < line)
			k++;
		if (k < f->nlines && f->lines[k].line == line)
			l = &f->lines[k];
		fprintf(out, "<tr id=\"L%u\"", line);
		if (l)
			shade(out, roi_hier_weight(pg->h, &l->self), max);
		fprintf(out, "><td class=\"n\">%u</td>", line);
		if (l && l->has_count)
			fprintf(out, "<td>%llu</td>", (unsigned long long)l->count);
		else
			fputs("<td></td>", out);
		if (l && (l->self.ops > 0 || l->has_count)) {
			fprintf(out, "<td>%.0f</td>", round(l->self.ops));
			if (pg->model)
				fprintf(out, "<td>%s</td><td>%s</td>", roi_fmt_num(l->self.cycles, buf, sizeof buf),
					roi_fmt_si(l->self.energy_j, "J", ej, sizeof ej));
		} else {
			fputs(pg->model ? "<td></td><td></td><td></td>" : "<td></td>", out);
		}
		fputs("<td class=\"note\">", out);
		for (size_t i = 0; l && i < l->nsites; i++) {
			const struct roi_call_site *c = &l->sites[i];

			fputs(i ? "; " : "", out);
			esc(out, c->callee->name);
			fprintf(out, " &times;%llu", (unsigned long long)c->calls);
			if (c->recursive)
				fputs(" (recursive: counted where it runs)", out);
			else if (pg->model)
				fprintf(out, ": %s cycles", roi_fmt_num(c->cost.cycles, buf, sizeof buf));
			else
				fprintf(out, ": %.0f ops", round(c->cost.ops));
		}
		fputs("</td><td class=\"code\">", out);
		if (s) {
			size_t len = end ? (size_t)(end - s) : strlen(s);

			esc_n(out, s, len);
			s = end ? end + 1 : s + len;
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(text);
	tail(out);
}

/* A page written whole or not at all (base/atomic.h), at DIR/NAME. */
static FILE *create(struct roi_atomic *at, const char *dir, const char *name, char *path, size_t size,
		    struct roi_err *err)
{
	snprintf(path, size, "%s/%s", dir, name);
	return roi_atomic_open(at, path, err) == 0 ? at->f : NULL;
}

int roi_write_html(const char *dir, const struct roi_hier *h, const struct roi_source *src,
		   const struct roi_budget_file *bf, const struct roi_budget_eval *budgets, struct roi_err *err)
{
	struct roi_src_files files;
	struct page pg = {NULL, h, &files, h->e->model != NULL};
	char path[4096], name[64];
	struct stat st;
	struct roi_atomic at;
	int rc = 0;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return roi_err_set(err, "%s: cannot create the directory: %s", dir, strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return roi_err_set(err, "%s: not a directory", dir);
	roi_src_files_build(&files, h);
	pg.out = create(&at, dir, "index.html", path, sizeof path, err);
	if (!pg.out) {
		roi_src_files_free(&files);
		return -1;
	}
	index_page(pg.out, &pg, src, bf, budgets);
	rc = roi_atomic_commit(&at, "the page", err);
	for (size_t i = 0; rc == 0 && i < files.n; i++) {
		if (!files.v[i].nlines && !files.v[i].nfns)
			continue;
		snprintf(name, sizeof name, "src-%zu.html", i);
		pg.out = create(&at, dir, name, path, sizeof path, err);
		if (!pg.out) {
			rc = -1;
			break;
		}
		source_page(pg.out, &pg, i);
		rc = roi_atomic_commit(&at, "the page", err);
	}
	roi_src_files_free(&files);
	return rc;
}
