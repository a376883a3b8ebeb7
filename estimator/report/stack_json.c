/* report/stack_json.c — roi stack as JSON and as a graphviz dot graph, see stack.h. */
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "report/stack.h"

#define LOWER (ROI_STACK_RECURSIVE | ROI_STACK_INDIRECT | ROI_STACK_UNKNOWN | ROI_STACK_DYNAMIC)

static cJSON *flags_json(unsigned flags)
{
	static const struct { unsigned flag; const char *name; } names[] = {
		{ROI_STACK_RECURSIVE, "recursive"}, {ROI_STACK_INDIRECT, "indirect"},
		{ROI_STACK_UNKNOWN, "unknown"}, {ROI_STACK_DYNAMIC, "dynamic"}, {ROI_STACK_NESTING, "nesting"},
	};
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (flags & names[i].flag)
			cJSON_AddItemToArray(a, cJSON_CreateString(names[i].name));
	return a;
}

static cJSON *path_json(const struct roi_stack *s, size_t fn)
{
	size_t path[256], n = roi_stack_path(s, fn, path, 256);
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(s->fns[path[i]].name));
	return a;
}

static const char *source_name(enum roi_frame_source src)
{
	return src == ROI_FRAME_GCC ? "gcc" : src == ROI_FRAME_CODE ? "code" : "none";
}

/* A function's measured figures; null when it did not run. */
static cJSON *measured_fn_json(const struct roi_stack_fn *f)
{
	cJSON *o;

	if (!f->measured)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "calls", (double)f->measured->calls);
	cJSON_AddNumberToObject(o, "depth", (double)f->measured->depth);
	cJSON_AddNumberToObject(o, "with_interrupts", (double)f->measured->with_interrupts);
	cJSON_AddNumberToObject(o, "frame", (double)f->measured->frame);
	cJSON_AddBoolToObject(o, "above", f->above);
	return o;
}

static cJSON *measured_json(const struct roi_stack *s)
{
	const struct roi_measured *m = s->meas;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "file", m->path);
	cJSON_AddStringToObject(o, "program", m->program);
	cJSON_AddBoolToObject(o, "same_build", s->same_build);
	roi_json_number_or_null(o, "peak", m->has_stack, (double)m->stack.peak);
	roi_json_number_or_null(o, "margin", m->has_stack && m->stack.has_ram, (double)m->stack.margin);
	cJSON_AddNumberToObject(o, "above", (double)s->nabove);
	return o;
}

cJSON *roi_stack_json(const struct roi_stack *s)
{
	cJSON *doc = cJSON_CreateObject(), *fns = cJSON_CreateArray(), *roots = cJSON_CreateArray();

	cJSON_AddNumberToObject(doc, "roi_stack", 1);
	cJSON_AddStringToObject(doc, "program", s->path);
	cJSON_AddStringToObject(doc, "arch", s->arch);
	roi_json_number_or_null(doc, "return_address", s->pc_bytes > 0, s->pc_bytes);
	cJSON_AddStringToObject(doc, "calls", s->code_read ? "code" : "metadata");
	for (size_t i = 0; i < s->nfns; i++) {
		const struct roi_stack_fn *f = &s->fns[i];
		cJSON *o = cJSON_CreateObject(), *callees = cJSON_CreateArray();

		cJSON_AddStringToObject(o, "name", f->name);
		roi_json_string_or_null(o, "symbol", f->symbol);
		cJSON_AddBoolToObject(o, "counted", f->meta != NULL);
		roi_json_number_or_null(o, "frame", f->frame >= 0, (double)f->frame);
		cJSON_AddStringToObject(o, "frame_from", source_name(f->source));
		cJSON_AddBoolToObject(o, "frame_bound", f->frame_bound);
		roi_json_string_or_null(o, "why", f->why);
		cJSON_AddNumberToObject(o, "depth", (double)f->depth);
		cJSON_AddBoolToObject(o, "complete", !(f->below & LOWER));
		cJSON_AddItemToObject(o, "flags", flags_json((f->flags | (f->recursive ? ROI_STACK_RECURSIVE : 0)) & LOWER));
		cJSON_AddItemToObject(o, "below", flags_json(f->below & LOWER));
		cJSON_AddBoolToObject(o, "recursive", f->recursive);
		cJSON_AddBoolToObject(o, "reached", f->reached);
		cJSON_AddItemToObject(o, "path", path_json(s, i));
		for (size_t e = 0; e < f->nedges; e++) {
			const struct roi_stack_edge *x = &f->edges[e];
			cJSON *c = cJSON_CreateObject();

			cJSON_AddStringToObject(c, "name", s->fns[x->to].name);
			cJSON_AddBoolToObject(c, "tail", x->tail);
			roi_json_number_or_null(c, "calls", x->has_calls, (double)x->calls);
			roi_json_number_or_null(c, "cycles", x->has_cycles, x->cycles);
			cJSON_AddItemToArray(callees, c);
		}
		cJSON_AddItemToObject(o, "callees", callees);
		if (s->meas)
			cJSON_AddItemToObject(o, "measured", measured_fn_json(f));
		cJSON_AddItemToArray(fns, o);
	}
	cJSON_AddItemToObject(doc, "functions", fns);
	for (size_t i = 0; i < s->nroots; i++) {
		const struct roi_stack_root *r = &s->roots[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "root", r->label);
		cJSON_AddStringToObject(o, "kind", r->kind == ROI_ROOT_MAIN ? "main" : "interrupt");
		cJSON_AddStringToObject(o, "function", s->fns[r->fn].name);
		cJSON_AddNumberToObject(o, "entry", (double)r->entry);
		cJSON_AddNumberToObject(o, "depth", (double)r->depth);
		cJSON_AddBoolToObject(o, "complete", !(r->below & LOWER));
		cJSON_AddItemToObject(o, "flags", flags_json(r->below & LOWER));
		cJSON_AddItemToObject(o, "path", path_json(s, r->fn));
		if (s->meas) {
			roi_json_number_or_null(o, "measured", r->measured >= 0, (double)r->measured);
			cJSON_AddBoolToObject(o, "above", r->above);
		}
		cJSON_AddItemToArray(roots, o);
	}
	cJSON_AddItemToObject(doc, "roots", roots);
	cJSON *w = cJSON_CreateObject();
	roi_json_string_or_null(w, "main", s->main_root >= 0 ? s->roots[s->main_root].label : NULL);
	roi_json_string_or_null(w, "interrupt", s->worst_interrupt >= 0 ? s->roots[s->worst_interrupt].label : NULL);
	cJSON_AddNumberToObject(w, "depth", (double)s->worst_depth);
	cJSON_AddBoolToObject(w, "complete", !s->worst_below);
	cJSON_AddItemToObject(w, "flags", flags_json(s->worst_below));
	if (s->meas) {
		roi_json_number_or_null(w, "measured", s->meas->has_stack, (double)s->meas->stack.peak);
		cJSON_AddBoolToObject(w, "above", s->worst_above);
	}
	cJSON_AddItemToObject(doc, "worst", w);
	const struct roi_stack_ram *r = &s->ram;
	if (r->known) {
		cJSON *o = cJSON_CreateObject();
		roi_json_string_or_null(o, "part", r->part);
		cJSON_AddStringToObject(o, "source", r->source);
		cJSON_AddNumberToObject(o, "start", (double)r->start);
		cJSON_AddNumberToObject(o, "size", (double)r->size);
		cJSON_AddNumberToObject(o, "data", (double)r->data);
		cJSON_AddNumberToObject(o, "bss", (double)r->bss);
		cJSON_AddNumberToObject(o, "noinit", (double)r->noinit);
		cJSON_AddNumberToObject(o, "counters", (double)r->counters);
		cJSON_AddNumberToObject(o, "data_end", (double)r->data_end);
		cJSON_AddNumberToObject(o, "stack_top", (double)r->stack_top);
		cJSON_AddNumberToObject(o, "free", (double)r->free);
		cJSON_AddNumberToObject(o, "margin", (double)r->margin);
		cJSON_AddBoolToObject(o, "heap", r->heap);
		cJSON_AddItemToObject(doc, "ram", o);
	} else {
		cJSON_AddNullToObject(doc, "ram");
	}
	if (s->meas)
		cJSON_AddItemToObject(doc, "measured", measured_json(s));
	return doc;
}

/* ---- dot ---- */

/* name as a dot ID: a double-quoted string, with " and \ escaped */
static void dot_id(FILE *out, const char *name)
{
	fputc('"', out);
	for (const char *c = name; *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', out);
		fputc(*c, out);
	}
	fputc('"', out);
}

static bool on_worst_path(const struct roi_stack *s, size_t v, size_t w)
{
	for (size_t i = 0; i < s->nroots; i++) {
		size_t path[256], n = roi_stack_path(s, s->roots[i].fn, path, 256);
		for (size_t k = 1; k < n; k++)
			if (path[k - 1] == v && path[k] == w)
				return true;
	}
	return false;
}

void roi_stack_dot(FILE *out, const struct roi_stack *s)
{
	char depth[40], flags[160];

	fprintf(out, "digraph ");
	dot_id(out, s->path);
	fprintf(out, " {\n\tnode [shape=box, fontname=\"monospace\"];\n\tedge [fontname=\"monospace\"];\n");
	for (size_t i = 0; i < s->nfns; i++) {
		const struct roi_stack_fn *f = &s->fns[i];
		bool root = false;

		if (!f->reached && !f->meta)
			continue;
		for (size_t r = 0; r < s->nroots; r++)
			root |= s->roots[r].fn == i;
		roi_stack_flags_text(f->flags & LOWER, flags, sizeof flags);
		fprintf(out, "\tn%zu [label=", i);
		dot_id(out, f->name);
		fprintf(out, " + \"\\nframe %s%lld B, depth %s B%s%s\"", f->frame < 0 ? "? " : "",
			f->frame < 0 ? 0 : f->frame, roi_stack_depth_text(f->depth, f->below & LOWER, depth, sizeof depth),
			*flags ? "\\n" : "", flags);
		if (root)
			fprintf(out, ", peripheries=2");
		if (!f->meta)
			fprintf(out, ", style=dashed");
		if (f->flags & LOWER)
			fprintf(out, ", color=orange");
		fprintf(out, "];\n");
	}
	for (size_t i = 0; i < s->nfns; i++) {
		const struct roi_stack_fn *f = &s->fns[i];

		if (!f->reached && !f->meta)
			continue;
		for (size_t e = 0; e < f->nedges; e++) {
			const struct roi_stack_edge *x = &f->edges[e];
			char label[160] = "";
			size_t n = 0;

			if (x->has_calls)
				n += (size_t)snprintf(label + n, sizeof label - n, "%llu call%s", (unsigned long long)x->calls,
						      x->calls == 1 ? "" : "s");
			if (x->has_cycles)
				n += (size_t)snprintf(label + n, sizeof label - n, "%s%.0f cycles", n ? "\\n" : "", x->cycles);
			if (x->tail)
				snprintf(label + n, sizeof label - n, "%stail call", n ? "\\n" : "");
			fprintf(out, "\tn%zu -> n%zu [label=", i, x->to);
			fprintf(out, "\"%s\"%s%s];\n", label, x->tail ? ", style=dashed" : "",
				on_worst_path(s, i, x->to) ? ", color=red, penwidth=2" : "");
		}
	}
	fprintf(out, "}\n");
}
