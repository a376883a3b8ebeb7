/* builtin/compare.c — "roi compare": two profiles of the same source side by side.
 *
 * What the cross compiler or the optimisation level changed: per function and per operation,
 * executed counts of A and B and their difference. Each profile names the program it was taken
 * from (its "program" line), whose metadata says what was counted. Operations are matched by
 * what they do in C — kind, C type, access or callee — not by their width, which differs between
 * a host and a target build of the same source by design. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/cli.h"
#include "base/json.h"
#include "builtin.h"
#include "input/counts.h"
#include "price/estimate.h"
#include "base/fmt.h"
#include "base/path.h"
#include "input/session.h"
#include "base/table.h"

static const char usage[] =
	"usage: roi compare [--program-a ELF] [--program-b ELF] [--json] PROFILE_A PROFILE_B\n"
	"\n"
	"Shows, per function and per operation, how often each ran in A and in B and the difference,\n"
	"e.g. a host run against a simavr run of the same source, or -O0 against -Os. Each profile's\n"
	"program is the one its \"program\" line names, unless --program-a/-b say otherwise.\n"
	"Operations are matched by kind, C type and detail (access, callee, source type), so a host\n"
	"'add i32 int' meets an AVR 'add i16 int'; functions by name and source file name.\n"
	"\n"
	"      --program-a ELF   the program of PROFILE_A\n"
	"      --program-b ELF   the program of PROFILE_B\n"
	"      --json            one JSON document on stdout\n"
	"  -h, --help            this help\n";

/* One side: a profile, its program, and what ran. */
struct side {
	struct roi_session in;
	struct roi_estimate est;
	bool computed;
};

static int load_side(struct side *s, const char *profile, const char *program, struct roi_err *err)
{
	if (roi_session_load(&s->in, &(struct roi_session_args){program, profile, NULL, false}, err) != 0)
		return -1;
	s->computed = true;
	return roi_estimate_compute(&s->est, &s->in.prog, &s->in.counts, NULL, err);
}

static void free_side(struct side *s)
{
	if (s->computed)
		roi_estimate_free(&s->est);
	roi_session_free(&s->in);
}

/* The matching key of an operation: what it does in C, without its width. */
static void op_key(const struct roi_opdesc *d, char *buf, size_t size)
{
	snprintf(buf, size, "%s|%s|%s|%s|%s|%d", d->kind, d->ctype ? d->ctype : "",
		 d->access ? d->access : "", d->callee ? d->callee : "", d->from_ctype ? d->from_ctype : "",
		 d->is_volatile);
}


static void fn_key(const struct roi_function *fn, char *buf, size_t size)
{
	snprintf(buf, size, "%s|%s", fn->name, roi_base_name(fn->unit->files[fn->file]));
}

/* A row of the comparison: an operation or a function seen in A, B or both. */
struct row {
	char key[512];
	const char *label, *type_a, *type_b;
	uint64_t a, b;
	char detail_buf[256];
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static struct row *row_for(struct rows *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].key, key) == 0)
			return &r->v[i];
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->v = realloc(r->v, r->cap * sizeof *r->v);
		if (!r->v) {
			fputs("roi: out of memory\n", stderr);
			exit(ROI_EXIT_DATA);
		}
	}
	struct row *row = &r->v[r->n++];
	memset(row, 0, sizeof *row);
	snprintf(row->key, sizeof row->key, "%s", key);
	return row;
}

static void collect_ops(struct rows *r, const struct roi_estimate *e, bool is_b)
{
	char key[512];

	for (size_t i = 0; i < e->nops; i++) {
		const struct roi_op_total *t = &e->ops[i];
		op_key(&t->d, key, sizeof key);
		struct row *row = row_for(r, key);
		if (!row->label) {
			char detail[200];
			row->label = t->d.kind;
			snprintf(row->detail_buf, sizeof row->detail_buf, "%s%s%s", t->d.ctype ? t->d.ctype : "",
				 t->d.ctype ? " " : "", roi_fmt_detail(&t->d, detail, sizeof detail));
		}
		if (is_b) {
			row->b += t->count;
			row->type_b = t->d.type;
		} else {
			row->a += t->count;
			row->type_a = t->d.type;
		}
	}
}

static void collect_fns(struct rows *calls, struct rows *ops, const struct roi_estimate *e, bool is_b)
{
	char key[512];

	for (size_t i = 0; i < e->nfns; i++) {
		const struct roi_fn_total *t = &e->fns[i];
		fn_key(t->fn, key, sizeof key);
		struct row *c = row_for(calls, key), *o = row_for(ops, key);
		c->label = o->label = t->fn->name;
		*(is_b ? &c->b : &c->a) += t->calls;
		*(is_b ? &o->b : &o->a) += t->ops;
	}
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

static void print_text(const struct side *a, const struct side *b, struct rows *ops, struct rows *calls,
		       struct rows *fops)
{
	char n1[32], n2[32], n3[48], n4[32], n5[32];

	for (int i = 0; i < 2; i++) {
		const struct side *s = i ? b : a;
		printf("%s  %s (program %s; %s, GCC %s, -%s)\n", i ? "B" : "A", s->in.prof.path, s->in.prog.path,
		       roi_program_common(&s->in.prog, offsetof(struct roi_unit, target)),
		       roi_program_common(&s->in.prog, offsetof(struct roi_unit, compiler)),
		       roi_program_common(&s->in.prog, offsetof(struct roi_unit, opt)));
	}

	struct roi_table t;
	printf("\nfunctions\n");
	roi_table_init(&t, "lrrrrr");
	roi_table_row(&t, "function", "calls A", "calls B", "ops A", "ops B", "ops B-A");
	for (size_t i = 0; i < fops->n; i++) {
		const struct row *c = &calls->v[i], *o = &fops->v[i];
		snprintf(n1, sizeof n1, "%llu", (unsigned long long)c->a);
		snprintf(n2, sizeof n2, "%llu", (unsigned long long)c->b);
		snprintf(n4, sizeof n4, "%llu", (unsigned long long)o->a);
		snprintf(n5, sizeof n5, "%llu", (unsigned long long)o->b);
		roi_table_row(&t, o->label, n1, n2, n4, n5, diff_text(o->a, o->b, n3, sizeof n3));
	}
	roi_table_print(&t, stdout, "  ");

	printf("\noperations\n");
	roi_table_init(&t, "lllrrr");
	roi_table_row(&t, "kind", "type A -> B", "detail", "A", "B", "B-A");
	uint64_t ta = 0, tb = 0;
	for (size_t i = 0; i < ops->n; i++) {
		const struct row *r = &ops->v[i];
		char types[64];
		snprintf(types, sizeof types, "%s -> %s", r->type_a ? r->type_a : "-", r->type_b ? r->type_b : "-");
		if (!r->type_a && !r->type_b)
			types[0] = 0;
		snprintf(n1, sizeof n1, "%llu", (unsigned long long)r->a);
		snprintf(n2, sizeof n2, "%llu", (unsigned long long)r->b);
		roi_table_row(&t, r->label, types, r->detail_buf, n1, n2, diff_text(r->a, r->b, n3, sizeof n3));
		ta += r->a;
		tb += r->b;
	}
	roi_table_print(&t, stdout, "  ");
	printf("\ntotal     %llu ops in A, %llu in B, %s\n", (unsigned long long)ta, (unsigned long long)tb,
	       diff_text(ta, tb, n3, sizeof n3));
}

static void print_json(const struct side *a, const struct side *b, struct rows *ops, struct rows *calls,
		       struct rows *fops)
{
	cJSON *doc = cJSON_CreateObject(), *arr;

	cJSON_AddNumberToObject(doc, "roi_compare", 1);
	for (int i = 0; i < 2; i++) {
		const struct side *s = i ? b : a;
		cJSON *o = cJSON_AddObjectToObject(doc, i ? "b" : "a");
		cJSON_AddStringToObject(o, "profile", s->in.prof.path);
		cJSON_AddStringToObject(o, "program", s->in.prog.path);
		cJSON_AddStringToObject(o, "target", roi_program_common(&s->in.prog, offsetof(struct roi_unit, target)));
		cJSON_AddStringToObject(o, "opt", roi_program_common(&s->in.prog, offsetof(struct roi_unit, opt)));
		cJSON_AddNumberToObject(o, "total_ops", (double)s->est.total_ops);
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
		const struct row *r = &ops->v[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "kind", r->label);
		if (r->type_a)
			cJSON_AddStringToObject(o, "type_a", r->type_a);
		if (r->type_b)
			cJSON_AddStringToObject(o, "type_b", r->type_b);
		cJSON_AddStringToObject(o, "detail", r->detail_buf);
		cJSON_AddNumberToObject(o, "a", (double)r->a);
		cJSON_AddNumberToObject(o, "b", (double)r->b);
		cJSON_AddItemToArray(arr, o);
	}
	roi_json_print(doc);
}

int cmd_compare(int argc, char **argv)
{
	const char *prog_a = NULL, *prog_b = NULL, *pos[2];
	bool json = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "program-a", .value = &prog_a},
		{.name = "program-b", .value = &prog_b},
		{.name = "json", .flag = &json},
	};
	struct roi_err err;
	struct side a = {0}, b = {0};
	struct rows ops = {0}, calls = {0}, fops = {0};

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 2)
		return roi_usage_error(argv[0], "need two profiles");

	if (load_side(&a, pos[0], prog_a, &err) != 0 || load_side(&b, pos[1], prog_b, &err) != 0) {
		roi_data_error(&err);
		goto out;
	}
	collect_ops(&ops, &a.est, false);
	collect_ops(&ops, &b.est, true);
	collect_fns(&calls, &fops, &a.est, false);
	collect_fns(&calls, &fops, &b.est, true);
	if (json)
		print_json(&a, &b, &ops, &calls, &fops);
	else
		print_text(&a, &b, &ops, &calls, &fops);
	status = roi_output_status();
out:
	free(ops.v);
	free(calls.v);
	free(fops.v);
	free_side(&a);
	free_side(&b);
	return status;
}
