/* report/machine.c — roi estimate --price machine as text and JSON (docs/estimate-json.md,
 * "Machine-code pricing"). */
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json.h"
#include "base/table.h"
#include "report/machine.h"

#define CELL 64

static const char *num(double v, char *buf, size_t size)
{
	return roi_fmt_num(v, buf, size);
}

/* "strtol x200, isprint x54" of the routines no price was found for; NULL when none. */
static const char *unpriced_list(const struct roi_machine_estimate *e, char *buf, size_t size)
{
	size_t n = 0;
	char c[CELL];

	buf[0] = '\0';
	for (size_t i = 0; i < e->nroutines; i++) {
		const struct roi_mroutine *r = &e->routines[i];

		if (r->how != ROI_MHOW_UNPRICED)
			continue;
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s x%s", n ? ", " : "", r->name,
				      num(r->calls, c, sizeof c));
	}
	return n ? buf : NULL;
}

static void flow_note(FILE *out, const struct roi_machine_estimate *e)
{
	fprintf(out, "counts    from the blocks' counts: %zu loop%s inside a block counted by value counters or "
		"constants, %zu branch%s inside a block counted by value counters, %zu split half and half, %zu loop%s "
		"taken once (nothing counted them)%s\n", e->loops_counted, e->loops_counted == 1 ? "" : "s",
		e->branches_counted, e->branches_counted == 1 ? "" : "es", e->guessed,
		e->loops_guessed, e->loops_guessed == 1 ? "" : "s",
		e->off ? "; some machine code moved between blocks does not add up" : "");
}

void roi_machine_text(FILE *out, const struct roi_machine_estimate *e, const struct roi_source *src, size_t top)
{
	const struct roi_model *m = e->model;
	struct roi_table t;
	char a[CELL], b[CELL], c[CELL], d[CELL], s[CELL], list[1024];

	roi_program_text(out, e->prog, src);
	if (m)
		fprintf(out, "model     %s (%s) at %s: clock, energy per cycle and library routines [%s]\n", m->part,
			m->arch, roi_fmt_si(m->clock_hz, "Hz", a, sizeof a), m->path);
	else
		fprintf(out, "model     none: cycles only, library routines without branches priced from their code "
			"(--model FILE adds time, energy and the routines' prices)\n");
	fprintf(out, "pricing   machine code of %s%s%s, %s; blocks from %s%s\n", e->plain_path,
		e->device ? " for " : "", e->device ? e->device : "", e->core, e->blocks_path,
		e->aligned ? " (aligned: its code has nops the plain build lacks)" : "");
	if (e->arch == ROI_MARCH_ARM)
		fprintf(out, "note      no cycle-exact Cortex-M simulator checks these cycles; the instruction count is "
			"checked against QEMU's (docs/machine.md)\n");
	flow_note(out, e);

	fprintf(out, "\nfunctions\n");
	roi_table_init(&t, "llrrrrr");
	roi_table_row(&t, "function", "file:line", "calls", "instructions", "cycles", "routines", "share");
	size_t shown = 0;
	for (size_t i = 0; i < e->nfns && (!top || shown < top); i++) {
		const struct roi_mfn_total *f = &e->fns[i];
		const struct roi_function *fn = f->fn;
		char where[512];

		if (!f->calls && !f->cycles)
			continue;
		snprintf(where, sizeof where, "%s:%u", fn->unit->files[fn->file], fn->line);
		roi_table_row(&t, fn->name, where, num(f->calls, a, sizeof a), num(f->instructions, b, sizeof b),
			      num(f->cycles, c, sizeof c), num(f->routine_cycles, d, sizeof d),
			      roi_fmt_share(f->cycles + f->routine_cycles, e->cycles, s, sizeof s));
		shown++;
	}
	roi_table_print(&t, out, "  ");

	fprintf(out, "\nroutines (code without metadata called from counted code)\n");
	if (!e->nroutines) {
		fprintf(out, "  (none)\n");
	} else {
		roi_table_init(&t, "lrrrl");
		roi_table_row(&t, "routine", "calls", "cycles", "share", "priced by");
		for (size_t i = 0; i < e->nroutines; i++) {
			const struct roi_mroutine *r = &e->routines[i];
			char how[160];

			if (r->how == ROI_MHOW_VALUE)
				snprintf(how, sizeof how, "%s (%s %s)", roi_mhow_name(r->how), r->value_kind,
					 num(r->value, d, sizeof d));
			else
				snprintf(how, sizeof how, "%s", roi_mhow_name(r->how));
			roi_table_row(&t, r->name, num(r->calls, a, sizeof a),
				      r->how == ROI_MHOW_UNPRICED ? "-" : num(r->cycles, b, sizeof b),
				      r->how == ROI_MHOW_UNPRICED ? "-" : roi_fmt_share(r->cycles, e->cycles, s, sizeof s),
				      how);
		}
		roi_table_print(&t, out, "  ");
	}
	if (e->exit_cycles > 0)
		fprintf(out, "  (and main's return into exit: %s cycles)\n", num(e->exit_cycles, a, sizeof a));

	fprintf(out, "\nlines\n");
	roi_table_init(&t, "lrr");
	roi_table_row(&t, "file:line", "instructions", "cycles");
	for (size_t i = 0; i < e->nlines; i++) {
		char where[512];

		if (top && i >= top)
			break;
		snprintf(where, sizeof where, "%s:%u", e->lines[i].file, e->lines[i].line);
		roi_table_row(&t, where, num(e->lines[i].instructions, a, sizeof a),
			      num(e->lines[i].cycles, b, sizeof b));
	}
	roi_table_print(&t, out, "  ");
	if (top && e->nlines > top)
		fprintf(out, "  ... %zu more lines (--top %zu)\n", e->nlines - top, top);

	fprintf(out, "\ntotal     %s cycles", num(e->cycles, a, sizeof a));
	if (m)
		fprintf(out, ", %s, %s", roi_fmt_si(e->seconds, "s", b, sizeof b), roi_fmt_si(e->energy_j, "J", c, sizeof c));
	fprintf(out, "; %s instructions", num(e->instructions, d, sizeof d));
	if (unpriced_list(e, list, sizeof list))
		fprintf(out, "; unpriced: %s", list);
	fprintf(out, "\n");
}

cJSON *roi_machine_json(const struct roi_machine_estimate *e, const struct roi_source *src)
{
	const struct roi_model *m = e->model;
	cJSON *doc = cJSON_CreateObject(), *o, *a;

	cJSON_AddNumberToObject(doc, "roi_estimate", 1);
	cJSON_AddStringToObject(doc, "pricing", "machine");
	roi_program_json(doc, e->prog, src);
	cJSON_AddItemToObject(doc, "units", roi_units_json(e->prog));
	if (m) {
		o = cJSON_AddObjectToObject(doc, "model");
		cJSON_AddStringToObject(o, "file", m->path);
		cJSON_AddStringToObject(o, "part", m->part);
		cJSON_AddStringToObject(o, "arch", m->arch);
		cJSON_AddNumberToObject(o, "clock_hz", m->clock_hz);
		cJSON_AddNumberToObject(o, "energy_per_cycle_j", m->energy_per_cycle_j);
	} else {
		cJSON_AddNullToObject(doc, "model");
	}
	o = cJSON_AddObjectToObject(doc, "machine");
	cJSON_AddStringToObject(o, "firmware", e->plain_path);
	cJSON_AddStringToObject(o, "block_lines", e->blocks_path);
	cJSON_AddStringToObject(o, "arch", e->arch == ROI_MARCH_AVR ? "avr" : "arm");
	roi_json_string_or_null(o, "device", e->device);
	cJSON_AddStringToObject(o, "timings", e->core);
	cJSON_AddBoolToObject(o, "cycle_exact_check", e->arch == ROI_MARCH_AVR);
	cJSON_AddBoolToObject(o, "aligned", e->aligned);
	cJSON_AddNumberToObject(o, "loops_counted", (double)e->loops_counted);
	cJSON_AddNumberToObject(o, "branches_split_evenly", (double)e->guessed);
	cJSON_AddNumberToObject(o, "branches_counted", (double)e->branches_counted);
	cJSON_AddNumberToObject(o, "loops_taken_once", (double)e->loops_guessed);
	cJSON_AddNumberToObject(o, "flow_off", (double)e->off);
	cJSON_AddNumberToObject(o, "shared_entries", (double)e->shared);

	a = cJSON_AddArrayToObject(doc, "functions");
	for (size_t i = 0; i < e->nfns; i++) {
		const struct roi_mfn_total *f = &e->fns[i];
		const struct roi_function *fn = f->fn;
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "name", fn->name);
		cJSON_AddStringToObject(x, "asm", fn->asm_name);
		cJSON_AddStringToObject(x, "unit", fn->unit->id_hex);
		cJSON_AddStringToObject(x, "file", fn->unit->files[fn->file]);
		cJSON_AddNumberToObject(x, "line", fn->line);
		cJSON_AddNumberToObject(x, "calls", f->calls);
		cJSON_AddNumberToObject(x, "instructions", f->instructions);
		cJSON_AddNumberToObject(x, "cycles", f->cycles);
		cJSON_AddNumberToObject(x, "routine_instructions", f->routine_instructions);
		cJSON_AddNumberToObject(x, "routine_cycles", f->routine_cycles);
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(doc, "routines");
	for (size_t i = 0; i < e->nroutines; i++) {
		const struct roi_mroutine *r = &e->routines[i];
		cJSON *x = cJSON_CreateObject();
		static const char *const how[] = {"table", "value", "walk", "unpriced"};

		cJSON_AddStringToObject(x, "routine", r->name);
		cJSON_AddNumberToObject(x, "calls", r->calls);
		roi_json_number_or_null(x, "cycles", r->how != ROI_MHOW_UNPRICED, r->cycles);
		roi_json_number_or_null(x, "instructions", r->how != ROI_MHOW_UNPRICED, r->instructions);
		cJSON_AddStringToObject(x, "priced_by", how[r->how]);
		if (r->how == ROI_MHOW_VALUE) {
			cJSON_AddStringToObject(x, "value_kind", r->value_kind);
			cJSON_AddNumberToObject(x, "value", r->value);
		}
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(doc, "lines");
	for (size_t i = 0; i < e->nlines; i++) {
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "file", e->lines[i].file);
		cJSON_AddNumberToObject(x, "line", e->lines[i].line);
		cJSON_AddNumberToObject(x, "instructions", e->lines[i].instructions);
		cJSON_AddNumberToObject(x, "cycles", e->lines[i].cycles);
		cJSON_AddItemToArray(a, x);
	}
	o = cJSON_AddObjectToObject(doc, "total");
	cJSON_AddNumberToObject(o, "cycles", e->cycles);
	cJSON_AddNumberToObject(o, "instructions", e->instructions);
	cJSON_AddNumberToObject(o, "exit_cycles", e->exit_cycles);
	cJSON_AddNumberToObject(o, "exit_instructions", e->exit_instructions);
	roi_json_number_or_null(o, "seconds", m != NULL, e->seconds);
	roi_json_number_or_null(o, "energy_j", m != NULL, e->energy_j);
	cJSON_AddNumberToObject(o, "unpriced_calls", e->unpriced_calls);
	a = cJSON_AddArrayToObject(o, "unpriced");
	for (size_t i = 0; i < e->nroutines; i++)
		if (e->routines[i].how == ROI_MHOW_UNPRICED) {
			cJSON *x = cJSON_CreateObject();

			cJSON_AddStringToObject(x, "routine", e->routines[i].name);
			cJSON_AddNumberToObject(x, "calls", e->routines[i].calls);
			cJSON_AddItemToArray(a, x);
		}
	return doc;
}
