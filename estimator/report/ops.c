/* report/ops.c — roi ops: the static view of a program's metadata, see ops.h. */
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/table.h"
#include "input/elffile.h"
#include "price/estimate.h"
#include "report/ops.h"
#include "report/report.h"

/* One operation at one line of a function, summed over the function's blocks. */
struct site {
	unsigned file, line, op;
	uint64_t n;
};

static int by_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

static struct site *sites_of(const struct roi_function *fn, size_t *nsites)
{
	size_t n = 0, k = 0;

	for (size_t b = 0; b < fn->nblocks; b++)
		n += fn->blocks[b].nops;
	struct site *s = roi_xrealloc(NULL, n ? n : 1, sizeof *s);
	for (size_t b = 0; b < fn->nblocks; b++)
		for (size_t r = 0; r < fn->blocks[b].nops; r++) {
			const struct roi_op_row *row = &fn->blocks[b].ops[r];
			s[k++] = (struct site){row->file, row->line, row->op, row->n};
		}
	qsort(s, n, sizeof *s, by_site);
	*nsites = 0;
	for (size_t i = 0; i < n; i++) {
		if (*nsites && by_site(&s[*nsites - 1], &s[i]) == 0)
			s[*nsites - 1].n += s[i].n;
		else
			s[(*nsites)++] = s[i];
	}
	return s;
}

void roi_ops_text(FILE *out, const struct roi_program *p)
{
	fprintf(out, "program %s: %zu unit%s, %zu function%s; compiler %s, target %s, -%s\n", p->path, p->nunits,
		p->nunits == 1 ? "" : "s", p->nfunctions, p->nfunctions == 1 ? "" : "s",
		roi_program_common(p, offsetof(struct roi_unit, compiler)),
		roi_program_common(p, offsetof(struct roi_unit, target)),
		roi_program_common(p, offsetof(struct roi_unit, opt)));
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];
			struct roi_table t;
			size_t n;
			struct site *s = sites_of(fn, &n);

			fprintf(out, "\n%s  %s:%u  %zu block%s\n", fn->name, unit->files[fn->file], fn->line, fn->nblocks,
				fn->nblocks == 1 ? "" : "s");
			roi_table_init(&t, "llr");
			for (size_t i = 0; i < n; i++) {
				struct roi_opdesc d;
				char where[512], what[512], detail[256], times[32];

				roi_opdesc_of(&d, &unit->ops[s[i].op], NULL);
				roi_fmt_detail(&d, detail, sizeof detail);
				snprintf(where, sizeof where, "%s:%u", unit->files[s[i].file], s[i].line);
				snprintf(what, sizeof what, "%s%s%s%s%s%s%s", d.kind, d.type ? " " : "", d.type ? d.type : "",
					 d.ctype ? " " : "", d.ctype ? d.ctype : "", *detail ? " " : "", detail);
				snprintf(times, sizeof times, "x%llu", (unsigned long long)s[i].n);
				roi_table_row(&t, where, what, times);
			}
			roi_table_print(&t, out, "  ");
			free(s);
		}
	}
}

cJSON *roi_ops_json(const struct roi_program *p)
{
	cJSON *doc = cJSON_CreateObject(), *fns;

	cJSON_AddStringToObject(doc, "program", p->path);
	cJSON_AddItemToObject(doc, "units", roi_units_json(p));
	fns = cJSON_AddArrayToObject(doc, "functions");
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];
			cJSON *fo = cJSON_CreateObject(), *ops;
			size_t n;
			struct site *s = sites_of(fn, &n);

			cJSON_AddStringToObject(fo, "name", fn->name);
			cJSON_AddStringToObject(fo, "asm", fn->asm_name);
			cJSON_AddStringToObject(fo, "unit", unit->id_hex);
			cJSON_AddStringToObject(fo, "file", unit->files[fn->file]);
			cJSON_AddNumberToObject(fo, "line", fn->line);
			cJSON_AddBoolToObject(fo, "static", fn->is_static);
			cJSON_AddNumberToObject(fo, "blocks", (double)fn->nblocks);
			cJSON_AddNumberToObject(fo, "counters", (double)fn->ncounters);
			ops = cJSON_AddArrayToObject(fo, "ops");
			for (size_t i = 0; i < n; i++) {
				const struct roi_op *op = &unit->ops[s[i].op];
				cJSON *o = cJSON_CreateObject();

				cJSON_AddStringToObject(o, "file", unit->files[s[i].file]);
				cJSON_AddNumberToObject(o, "line", s[i].line);
				cJSON_AddStringToObject(o, "kind", op->kind);
#define OPT(k, v) if (v) cJSON_AddStringToObject(o, k, v)
				OPT("type", op->type);
				OPT("ctype", op->ctype);
				OPT("access", op->access);
				OPT("callee", op->callee);
				OPT("from", op->from);
				OPT("from_ctype", op->from_ctype);
				OPT("code", op->code);
#undef OPT
				if (op->is_volatile)
					cJSON_AddTrueToObject(o, "volatile");
				cJSON_AddNumberToObject(o, "n", (double)s[i].n);
				cJSON_AddItemToArray(ops, o);
			}
			free(s);
			cJSON_AddItemToArray(fns, fo);
		}
	}
	return doc;
}

/* Counting's price in a firmware: counter RAM from the symbol table, code bytes against a build
 * without the plugin (the increments cannot be told apart from other code in the ELF). */
int roi_ops_size(FILE *out, const struct roi_program *p, const char *baseline, struct roi_err *err)
{
	struct roi_elf *elf = NULL, *plain = NULL;
	uint64_t ram = 0, arrays = 0, counters = 0, code, plain_code;
	int rc = -1;

	if (roi_elf_open(p->path, &elf, err) != 0)
		goto out;
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];
			struct roi_symbol sym;

			if (roi_elf_symbol(elf, fn->counters, &sym, err) != 0)
				goto out;
			ram += sym.size;
			arrays++;
			counters += fn->ncounters;
		}
	if (roi_elf_code_size(elf, &code, err) != 0)
		goto out;
	fprintf(out, "counters  %llu arrays, %llu counters, %llu bytes of RAM (.bss)\n", (unsigned long long)arrays,
	       (unsigned long long)counters, (unsigned long long)ram);
	if (baseline) {
		if (roi_elf_open(baseline, &plain, err) != 0 || roi_elf_code_size(plain, &plain_code, err) != 0)
			goto out;
		fprintf(out, "code      %llu bytes, %llu without the plugin (%s): the increments added %lld bytes (%.1f%%)\n",
		       (unsigned long long)code, (unsigned long long)plain_code, baseline,
		       (long long)code - (long long)plain_code,
		       plain_code ? 100.0 * ((double)code - (double)plain_code) / (double)plain_code : 0.0);
	} else {
		fprintf(out, "code      %llu bytes (--baseline PLAIN tells how many the increments added)\n",
		       (unsigned long long)code);
	}
	rc = 0;
out:
	if (plain)
		roi_elf_close(plain);
	if (elf)
		roi_elf_close(elf);
	return rc;
}
