/* gcov/check.c — roi's functions matched with gcov's, see check.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/array.h"
#include "base/path.h"
#include "gcov/check.h"
#include "gcov/lines.h"
#include "input/elffile.h"

/* The real path of PATH (taken relative to DIR when relative and DIR is known), or that path
 * itself when the file is gone: files of both sides are matched by it. */
const char *roi_gcov_canon_path(struct roi_gcov_check *c, const char *dir, const char *path)
{
	const char *p = path[0] != '/' && dir && *dir ? roi_arena_printf(&c->arena, "%s/%s", dir, path) : path;
	char *real = realpath(p, NULL);

	if (!real)
		return roi_arena_strdup(&c->arena, p);
	p = roi_arena_strdup(&c->arena, real);
	free(real);
	return p;
}

/* A unit's file table, canonical. Relative names are relative to the compiling directory, which
 * is source_abs less source when source is relative. */
static void canon_unit_files(struct roi_gcov_check *c)
{
	c->ufile = roi_arena_array(&c->arena, c->prog->nunits, sizeof *c->ufile);
	for (size_t u = 0; u < c->prog->nunits; u++) {
		const struct roi_unit *unit = &c->prog->units[u];
		const char *dir = NULL;
		size_t ls = strlen(unit->source), la = unit->source_abs ? strlen(unit->source_abs) : 0;

		if (unit->source[0] != '/' && la > ls + 1 && strcmp(unit->source_abs + la - ls, unit->source) == 0 &&
		    unit->source_abs[la - ls - 1] == '/')
			dir = roi_arena_printf(&c->arena, "%.*s", (int)(la - ls - 1), unit->source_abs);
		c->ufile[u] = roi_arena_array(&c->arena, unit->nfiles, sizeof *c->ufile[u]);
		for (size_t f = 0; f < unit->nfiles; f++) {
			const char *name = unit->files[f];

			if (name[0] != '/' && unit->source_abs && strcmp(name, unit->source) == 0)
				name = unit->source_abs;
			c->ufile[u][f] = roi_gcov_canon_path(c, dir, name);
		}
	}
}

/* The metadata's "inlined" lists, which struct roi_function does not carry: read the records
 * again (they were validated by roi_program_load; record r is unit r). */
int roi_gcov_load_inline_sites(struct roi_gcov_check *c, struct roi_err *err)
{
	struct roi_elf *elf;
	struct roi_records rec;
	int rc;

	if (roi_elf_open(c->prog->path, &elf, err) != 0)
		return -1;
	rc = roi_elf_meta_records(elf, &rec, err);
	roi_elf_close(elf);
	if (rc != 0)
		return -1;
	for (size_t r = 0; r < rec.n && r < c->prog->nunits; r++) {
		const struct roi_unit *u = &c->prog->units[r];
		cJSON *root = cJSON_Parse(rec.text[r]);
		const cJSON *fns = cJSON_GetObjectItemCaseSensitive(root, "functions"), *f;
		size_t i = 0;

		cJSON_ArrayForEach(f, fns) {
			const cJSON *names = cJSON_GetObjectItemCaseSensitive(f, "inlined"), *name;

			cJSON_ArrayForEach(name, names) {
				if (!cJSON_IsString(name) || i >= u->nfunctions)
					continue;
				c->inl = roi_xgrow(c->inl, c->ninl, &c->capinl, sizeof *c->inl);
				c->inl[c->ninl++] = (struct roi_gcov_inline){roi_arena_strdup(&c->arena, name->valuestring),
									 u, u->functions[i].name};
			}
			i++;
		}
		cJSON_Delete(root);
	}
	roi_records_free(&rec);
	return 0;
}

/* A caller that contains an inlined copy of the function with assembler name NAME; a static
 * function can only be inlined in its own unit (unit NULL: any unit). */
static const char *inlined_into(const struct roi_gcov_check *c, const char *name, const struct roi_unit *unit)
{
	for (size_t i = 0; i < c->ninl; i++)
		if (strcmp(c->inl[i].callee, name) == 0 && (!unit || c->inl[i].unit == unit))
			return c->inl[i].caller;
	return NULL;
}

static size_t new_group(struct roi_gcov_check *c, const char *key, const char *name, const char *file, const char *shown,
			unsigned line)
{
	c->grp = roi_xgrow(c->grp, c->ngrp, &c->capgrp, sizeof *c->grp);
	c->grp[c->ngrp] = (struct roi_gcov_group){.key = key, .name = name, .file = file, .shown_file = shown, .line = line};
	return c->ngrp++;
}

/* The name gcov knows a roi function by: its assembler name, less the suffix of a GCC clone. An
 * .isra or .constprop clone takes over some of the function's calls, so the entries of all copies
 * add up; a .part clone is the tail of a split function, entered from the inlined head, not a
 * call (*part). */
static const char *gcov_name(struct roi_gcov_check *c, const char *asm_name, bool *part)
{
	static const char *const suffixes[] = {".constprop.", ".isra.", ".part.", ".cold", NULL};
	const char *cut = NULL;

	for (size_t i = 0; suffixes[i]; i++) {
		const char *s = strstr(asm_name, suffixes[i]);

		if (s && (!cut || s < cut))
			cut = s;
	}
	*part = strstr(asm_name, ".part.") != NULL;
	return cut ? roi_arena_printf(&c->arena, "%.*s", (int)(cut - asm_name), asm_name) : asm_name;
}

/* Whether fn calls a function that returns twice (setjmp and kin, as GCC's special_function_p
 * names them): gcov does not count the second returns as entries, although they arrive through
 * abnormal edges. */
static bool calls_returns_twice(const struct roi_function *fn)
{
	static const char *const names[] = {"setjmp", "sigsetjmp", "savectx", "vfork", "getcontext", "qsetjmp",
					    "setjmp_receiver", NULL};

	for (size_t b = 0; b < fn->nblocks; b++)
		for (size_t r = 0; r < fn->blocks[b].nops; r++) {
			const char *callee = fn->unit->ops[fn->blocks[b].ops[r].op].callee;

			if (!callee)
				continue;
			callee += strspn(callee, "_");
			if (strncmp(callee, "builtin_", 8) == 0)
				callee += 8;
			for (size_t i = 0; names[i]; i++)
				if (strcmp(callee, names[i]) == 0)
					return true;
		}
	return false;
}

/* roi's functions, grouped by what gcov would call them. */
static void group_roi(struct roi_gcov_check *c)
{
	const struct roi_program *p = c->prog;

	c->fgroup = roi_arena_array(&c->arena, p->nfunctions ? p->nfunctions : 1, sizeof *c->fgroup);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];
			bool part;
			const char *key = gcov_name(c, fn->asm_name, &part);
			const char *file = c->ufile[u][fn->file];
			struct roi_gcov_group *gr;
			size_t g;

			for (g = 0; g < c->ngrp; g++)
				if (c->grp[g].line == fn->line && strcmp(c->grp[g].key, key) == 0 &&
				    strcmp(c->grp[g].file, file) == 0)
					break;
			if (g == c->ngrp)
				g = new_group(c, key, fn->name, file, p->units[u].files[fn->file], fn->line);
			gr = &c->grp[g];
			c->fgroup[fn->gindex] = g;
			gr->nroi++;
			if (part) {
				gr->part = fn->asm_name;
			} else {
				gr->roi_calls += roi_block_count(c->counts, fn, 0);
				if (!calls_returns_twice(fn))
					gr->arrivals += roi_gcov_arrivals(c->counts, fn);
			}
			if (!gr->inlined_in)
				gr->inlined_in = inlined_into(c, key, fn->is_static ? &p->units[u] : NULL);
		}
}

static void add_alias(struct roi_gcov_check *c, const char *from, const char *to)
{
	for (size_t i = 0; i < c->nalias; i++)
		if (strcmp(c->alias[i].from, from) == 0)
			return;
	c->alias = roi_xgrow(c->alias, c->nalias, &c->capalias, sizeof *c->alias);
	c->alias[c->nalias++] = (struct roi_gcov_alias){from, to};
}

const char *roi_gcov_unalias(const struct roi_gcov_check *c, const char *file)
{
	for (size_t i = 0; i < c->nalias; i++)
		if (strcmp(c->alias[i].from, file) == 0)
			return c->alias[i].to;
	return file;
}

/* gcov's functions into the groups: by name, real path and line first; what is left by name,
 * base name and line (the sources moved, or one side kept a path the other resolved). */
static void match_gcov(struct roi_gcov_check *c)
{
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < c->ngfn; i++) {
			struct roi_gcov_gfn *f = &c->gfn[i];
			size_t g;

			if (f->group != SIZE_MAX)
				continue;
			for (g = 0; g < c->ngrp && pass < 2; g++) {
				const struct roi_gcov_group *gr = &c->grp[g];

				if (gr->line != f->line || gr->nroi == 0 || strcmp(gr->key, f->name) != 0)
					continue;
				if (pass == 0 ? strcmp(gr->file, f->file) == 0
					      : strcmp(roi_base_name(gr->file), roi_base_name(f->file)) == 0)
					break;
			}
			if (pass < 2 && g == c->ngrp)
				continue;
			if (pass == 1)
				add_alias(c, f->file, c->grp[g].file);
			if (pass == 2) {
				for (g = 0; g < c->ngrp; g++)
					if (c->grp[g].nroi == 0 && c->grp[g].line == f->line &&
					    strcmp(c->grp[g].key, f->name) == 0 && strcmp(c->grp[g].file, f->file) == 0)
						break;
				if (g == c->ngrp) {
					g = new_group(c, f->name, f->name, f->file, f->shown_file, f->line);
					c->grp[g].inlined_in = inlined_into(c, f->name, NULL);
				}
			}
			f->group = g;
			c->grp[g].ngcov++;
			c->grp[g].gcov_calls += f->count;
		}
}

/* Each .gcda belongs to the unit with most copies of its functions (a static inline function of
 * a header has a copy in every unit that calls it); its lines are compared when that unit was
 * compiled at -O0. */
static void assign_units(struct roi_gcov_check *c)
{
	const struct roi_program *p = c->prog;
	size_t *votes = roi_arena_array(&c->arena, p->nunits ? p->nunits : 1, sizeof *votes);
	size_t *seen = roi_arena_array(&c->arena, c->ngrp ? c->ngrp : 1, sizeof *seen);

	c->unit_lines = roi_arena_array(&c->arena, p->nunits ? p->nunits : 1, sizeof *c->unit_lines);
	for (size_t d = 0; d < c->ngcda; d++) {
		struct roi_gcov_gcda *g = &c->gcda[d];
		size_t best = 0;

		for (size_t i = g->fn0; i < g->fn0 + g->nfn; i++)
			seen[c->gfn[i].group] = d + 1;
		memset(votes, 0, p->nunits * sizeof *votes);
		for (size_t u = 0; u < p->nunits; u++)
			for (size_t f = 0; f < p->units[u].nfunctions; f++)
				if (seen[c->fgroup[p->units[u].functions[f].gindex]] == d + 1)
					votes[u]++;
		for (size_t u = 0; u < p->nunits; u++)
			if (votes[u] > votes[best])
				best = u;
		if (p->nunits == 0 || votes[best] == 0)
			continue;
		g->unit = &p->units[best];
		g->lines = strcmp(g->unit->opt, "O0") == 0;
		if (g->lines)
			c->unit_lines[best] = true;
	}
}

void roi_gcov_match(struct roi_gcov_check *c)
{
	canon_unit_files(c);
	group_roi(c);
	match_gcov(c);
	assign_units(c);
}

void roi_gcov_check_free(struct roi_gcov_check *c)
{
	free(c->inl);
	free(c->gcda);
	free(c->gfn);
	free(c->gline);
	free(c->grp);
	free(c->alias);
	free(c->lc);
	roi_arena_free(&c->arena);
}
