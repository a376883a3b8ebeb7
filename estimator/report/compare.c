/* report/compare.c — roi compare's output, see compare.h. */
#include <stddef.h>
#include <stdio.h>

#include "base/table.h"
#include "report/compare.h"
#include "report/report.h"

/* An operation's C type and the fields that tell it apart: "int access=array". */
static const char *detail_of(const struct roi_compare_row *r, char *buf, size_t size)
{
	char detail[200];

	snprintf(buf, size, "%s%s%s", r->d->ctype ? r->d->ctype : "", r->d->ctype ? " " : "",
		 roi_fmt_detail(r->d, detail, sizeof detail));
	return buf;
}

static const char *diff_text(uint64_t a, uint64_t b, char *buf, size_t size)
{
	long double d = (long double)b - (long double)a;

	if (a)
		snprintf(buf, size, "%+.0Lf (%+.1Lf%%)", d, d * 100 / a);
	else
		snprintf(buf, size, "%+.0Lf", d);
	return buf;
}

void roi_compare_text(FILE *out, const struct roi_estimate *a, const struct roi_estimate *b, const struct roi_compare *c)
{
	const struct roi_compare_rows *ops = &c->ops, *calls = &c->calls, *fops = &c->fops;
	char n1[32], n2[32], n3[48], n4[32], n5[32], detail[256];

	for (int i = 0; i < 2; i++) {
		const struct roi_estimate *e = i ? b : a;
		fprintf(out, "%s  %s (program %s; %s, GCC %s, -%s)\n", i ? "B" : "A", e->counts->profile, e->prog->path,
			roi_program_common(e->prog, offsetof(struct roi_unit, target)),
			roi_program_common(e->prog, offsetof(struct roi_unit, compiler)),
			roi_program_common(e->prog, offsetof(struct roi_unit, opt)));
	}

	struct roi_table t;
	fprintf(out, "\nfunctions\n");
	roi_table_init(&t, "lrrrrr");
	roi_table_row(&t, "function", "calls A", "calls B", "ops A", "ops B", "ops B-A");
	for (size_t i = 0; i < fops->n; i++) {
		const struct roi_compare_row *c = &calls->v[i], *o = &fops->v[i];
		snprintf(n1, sizeof n1, "%llu", (unsigned long long)c->a);
		snprintf(n2, sizeof n2, "%llu", (unsigned long long)c->b);
		snprintf(n4, sizeof n4, "%llu", (unsigned long long)o->a);
		snprintf(n5, sizeof n5, "%llu", (unsigned long long)o->b);
		roi_table_row(&t, o->label, n1, n2, n4, n5, diff_text(o->a, o->b, n3, sizeof n3));
	}
	roi_table_print(&t, out, "  ");

	fprintf(out, "\noperations\n");
	roi_table_init(&t, "lllrrr");
	roi_table_row(&t, "kind", "type A -> B", "detail", "A", "B", "B-A");
	uint64_t ta = 0, tb = 0;
	for (size_t i = 0; i < ops->n; i++) {
		const struct roi_compare_row *r = &ops->v[i];
		char types[64];
		snprintf(types, sizeof types, "%s -> %s", r->type_a ? r->type_a : "-", r->type_b ? r->type_b : "-");
		if (!r->type_a && !r->type_b)
			types[0] = 0;
		snprintf(n1, sizeof n1, "%llu", (unsigned long long)r->a);
		snprintf(n2, sizeof n2, "%llu", (unsigned long long)r->b);
		roi_table_row(&t, r->label, types, detail_of(r, detail, sizeof detail), n1, n2,
			      diff_text(r->a, r->b, n3, sizeof n3));
		ta += r->a;
		tb += r->b;
	}
	roi_table_print(&t, out, "  ");
	fprintf(out, "\ntotal     %llu ops in A, %llu in B, %s\n", (unsigned long long)ta, (unsigned long long)tb,
		diff_text(ta, tb, n3, sizeof n3));
}

cJSON *roi_compare_json(const struct roi_estimate *a, const struct roi_estimate *b, const struct roi_compare *c)
{
	const struct roi_compare_rows *ops = &c->ops, *calls = &c->calls, *fops = &c->fops;
	cJSON *doc = cJSON_CreateObject(), *arr;
	char detail[256];

	cJSON_AddNumberToObject(doc, "roi_compare", 1);
	for (int i = 0; i < 2; i++) {
		const struct roi_estimate *e = i ? b : a;
		cJSON *o = cJSON_AddObjectToObject(doc, i ? "b" : "a");
		cJSON_AddStringToObject(o, "profile", e->counts->profile);
		cJSON_AddStringToObject(o, "program", e->prog->path);
		cJSON_AddStringToObject(o, "target", roi_program_common(e->prog, offsetof(struct roi_unit, target)));
		cJSON_AddStringToObject(o, "opt", roi_program_common(e->prog, offsetof(struct roi_unit, opt)));
		cJSON_AddNumberToObject(o, "total_ops", (double)e->total_ops);
	}
	arr = cJSON_AddArrayToObject(doc, "functions");
	for (size_t i = 0; i < fops->n; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", fops->v[i].label);
		cJSON_AddNumberToObject(o, "calls_a", (double)calls->v[i].a);
		cJSON_AddNumberToObject(o, "calls_b", (double)calls->v[i].b);
		cJSON_AddNumberToObject(o, "ops_a", (double)fops->v[i].a);
		cJSON_AddNumberToObject(o, "ops_b", (double)fops->v[i].b);
		cJSON_AddItemToArray(arr, o);
	}
	arr = cJSON_AddArrayToObject(doc, "ops");
	for (size_t i = 0; i < ops->n; i++) {
		const struct roi_compare_row *r = &ops->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "kind", r->label);
		if (r->type_a)
			cJSON_AddStringToObject(o, "type_a", r->type_a);
		if (r->type_b)
			cJSON_AddStringToObject(o, "type_b", r->type_b);
		cJSON_AddStringToObject(o, "detail", detail_of(r, detail, sizeof detail));
		cJSON_AddNumberToObject(o, "a", (double)r->a);
		cJSON_AddNumberToObject(o, "b", (double)r->b);
		cJSON_AddItemToArray(arr, o);
	}
	return doc;
}
