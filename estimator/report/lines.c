/* report/lines.c — a run's cost per source file and line, see report/lines.h. */
#include <stdlib.h>
#include <string.h>

#include "gcov/lines.h"
#include "report/lines.h"

const char *roi_unit_file_path(struct roi_arena *a, const struct roi_unit *u, unsigned f)
{
	const char *name = u->files[f], *p = name;
	size_t ls = strlen(u->source), la = u->source_abs ? strlen(u->source_abs) : 0;
	char *real;

	if (name[0] != '/' && u->source_abs && strcmp(name, u->source) == 0)
		p = u->source_abs;
	else if (name[0] != '/' && u->source[0] != '/' && la > ls + 1 &&
		 strcmp(u->source_abs + la - ls, u->source) == 0 && u->source_abs[la - ls - 1] == '/')
		p = roi_arena_printf(a, "%.*s/%s", (int)(la - ls - 1), u->source_abs, name);
	real = realpath(p, NULL);
	if (!real)
		return roi_arena_strdup(a, p);
	p = roi_arena_strdup(a, real);
	free(real);
	return p;
}

/* A line's contributions before they are merged: from gcov's count, from an ops row, from a line
 * of the hierarchy (its call sites). */
struct pending {
	unsigned line;
	bool has_count;
	uint64_t count;
	bool unexecuted;
	struct roi_cost_sum self;
	const struct roi_call_site *sites;
	size_t nsites;
};

struct building {
	struct roi_src_files *s;
	const struct roi_program *prog;
	struct pending **p;             /* per file */
	size_t *np, *cap;
	size_t **ufile;                 /* [unit][file]: the file's number */
	size_t unit;                    /* while gcov's lines of one unit are emitted */
};

static struct pending *add(struct building *b, size_t file, unsigned line)
{
	if (b->np[file] == b->cap[file])
		b->p[file] = roi_xrealloc(b->p[file], b->cap[file] = b->cap[file] ? 2 * b->cap[file] : 64,
					  sizeof *b->p[file]);
	b->p[file][b->np[file]] = (struct pending){.line = line};
	return &b->p[file][b->np[file]++];
}

static void add_count(void *ctx, unsigned file, unsigned line, uint64_t count)
{
	struct building *b = ctx;
	struct pending *p = add(b, b->ufile[b->unit][file], line);

	p->has_count = true;
	p->count = count;
}

unsigned roi_unit_file_index(const struct roi_unit *u, const char *name)
{
	for (unsigned f = 0; f < u->nfiles; f++)
		if (u->files[f] == name)
			return f;
	return 0;
}

static void add_sites(struct building *b, const struct roi_node *n)
{
	if (n->kind == ROI_NODE_LINE && n->fn && n->nsites) {
		const struct roi_unit *u = n->fn->unit;
		struct pending *p = add(b, b->ufile[u - b->prog->units][roi_unit_file_index(u, n->file)], n->line);

		p->sites = n->sites;
		p->nsites = n->nsites;
	}
	for (size_t i = 0; i < n->nchildren; i++)
		add_sites(b, n->children[i]);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct roi_src_file *)a)->path, ((const struct roi_src_file *)b)->path);
}

static int by_line(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

static int fn_by_line(const void *a, const void *b)
{
	const struct roi_src_fn *x = a, *y = b;

	if (x->fn->line != y->fn->line)
		return x->fn->line < y->fn->line ? -1 : 1;
	return strcmp(x->fn->name, y->fn->name);
}

static void add_cost(struct roi_cost_sum *a, const struct roi_cost_sum *b)
{
	a->ops += b->ops;
	a->cycles += b->cycles;
	a->energy_j += b->energy_j;
}

/* One line from its contributions: counts and costs add up, call sites merge by callee. */
static void merge(struct roi_arena *a, struct roi_src_line *l, const struct pending *p, size_t n)
{
	size_t nsites = 0;

	l->line = p[0].line;
	for (size_t i = 0; i < n; i++) {
		l->has_count |= p[i].has_count;
		l->unexecuted |= p[i].unexecuted;
		l->count += p[i].count;
		add_cost(&l->self, &p[i].self);
		nsites += p[i].nsites;
	}
	l->sites = roi_arena_array(a, nsites ? nsites : 1, sizeof *l->sites);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < p[i].nsites; k++) {
			const struct roi_call_site *s = &p[i].sites[k];
			size_t j;

			for (j = 0; j < l->nsites && l->sites[j].callee != s->callee; j++)
				;
			if (j == l->nsites) {
				l->sites[l->nsites++] = *s;
				continue;
			}
			l->sites[j].calls += s->calls;
			add_cost(&l->sites[j].cost, &s->cost);
		}
}

void roi_src_files_build(struct roi_src_files *s, const struct roi_hier *h)
{
	const struct roi_estimate *e = h->e;
	const struct roi_program *p = e->prog;
	struct building b = {.s = s, .prog = p};
	struct roi_gcov_lines fl = {0};
	const struct roi_node **node = roi_xrealloc(NULL, p->nfunctions ? p->nfunctions : 1, sizeof *node);
	size_t nall = 0;

	memset(s, 0, sizeof *s);
	memset(node, 0, (p->nfunctions ? p->nfunctions : 1) * sizeof *node);

	/* The files: every unit's, one entry per absolute path. */
	s->unit_file = b.ufile = roi_arena_array(&s->arena, p->nunits ? p->nunits : 1, sizeof *b.ufile);
	for (size_t u = 0; u < p->nunits; u++)
		nall += p->units[u].nfiles;
	s->v = roi_arena_array(&s->arena, nall ? nall : 1, sizeof *s->v);
	const char ***paths = roi_arena_array(&s->arena, p->nunits ? p->nunits : 1, sizeof *paths);
	for (size_t u = 0; u < p->nunits; u++) {
		paths[u] = roi_arena_array(&s->arena, p->units[u].nfiles ? p->units[u].nfiles : 1, sizeof **paths);
		for (unsigned f = 0; f < p->units[u].nfiles; f++) {
			paths[u][f] = roi_unit_file_path(&s->arena, &p->units[u], f);
			s->v[s->n++] = (struct roi_src_file){paths[u][f], p->units[u].files[f], NULL, 0, NULL, 0, {0, 0, 0}};
		}
	}
	if (s->n)
		qsort(s->v, s->n, sizeof *s->v, by_path);
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!k || strcmp(s->v[k - 1].path, s->v[i].path) != 0)
			s->v[k++] = s->v[i];
	s->n = k;
	for (size_t u = 0; u < p->nunits; u++) {
		b.ufile[u] = roi_arena_array(&s->arena, p->units[u].nfiles ? p->units[u].nfiles : 1, sizeof **b.ufile);
		for (unsigned f = 0; f < p->units[u].nfiles; f++) {
			struct roi_src_file key = {.path = paths[u][f]};
			const struct roi_src_file *found = bsearch(&key, s->v, s->n, sizeof *s->v, by_path);

			b.ufile[u][f] = (size_t)(found - s->v);
		}
	}
	b.p = roi_xrealloc(NULL, s->n ? s->n : 1, sizeof *b.p);
	b.np = roi_xrealloc(NULL, s->n ? s->n : 1, sizeof *b.np);
	b.cap = roi_xrealloc(NULL, s->n ? s->n : 1, sizeof *b.cap);
	memset(b.p, 0, (s->n ? s->n : 1) * sizeof *b.p);
	memset(b.np, 0, (s->n ? s->n : 1) * sizeof *b.np);
	memset(b.cap, 0, (s->n ? s->n : 1) * sizeof *b.cap);

	/* Lines: gcov's counts per unit, every ops row's cost, the calls the hierarchy attributes. */
	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];

			roi_gcov_function_lines(e->counts, fn, &fl);
			for (size_t blk = 0; blk < fn->nblocks; blk++)
				for (size_t i = 0; !fn->blocks[blk].value && i < fn->blocks[blk].nlines; i++) {
					const struct roi_line *l = &fn->blocks[blk].lines[i];

					add(&b, b.ufile[u][l->file], l->line)->unexecuted =
						roi_block_count(e->counts, fn, blk) == 0;
				}
			for (size_t blk = 0; blk < fn->nblocks; blk++)
				for (size_t r = 0; r < fn->blocks[blk].nops; r++) {
					const struct roi_op_row *row = &fn->blocks[blk].ops[r];
					struct roi_row_total t;
					struct pending *x = add(&b, b.ufile[u][row->file], row->line);

					roi_estimate_row(e, fn, blk, r, &t);
					x->self = (struct roi_cost_sum){(double)t.count, t.cycles, t.energy_j};
				}
		}
		b.unit = u;
		roi_gcov_unit_lines(&fl, add_count, &b);
	}
	roi_gcov_lines_free(&fl);
	for (size_t i = 0; i < h->nroots; i++) {
		const struct roi_node *r = h->roots[i];

		if (r->kind == ROI_NODE_FUNCTION && r->fn && !node[r->fn->gindex])
			node[r->fn->gindex] = r;
	}
	for (size_t i = 0; i < h->nroots; i++)
		if (h->roots[i]->fn)
			add_sites(&b, h->roots[i]);

	for (size_t i = 0; i < s->n; i++) {
		struct roi_src_file *file = &s->v[i];
		struct pending *v = b.p[i];
		size_t n = b.np[i];

		if (n)
			qsort(v, n, sizeof *v, by_line);
		file->lines = roi_arena_array(&s->arena, n ? n : 1, sizeof *file->lines);
		for (size_t a = 0, z; a < n; a = z) {
			for (z = a; z < n && v[z].line == v[a].line; z++)
				;
			merge(&s->arena, &file->lines[file->nlines], &v[a], z - a);
			add_cost(&file->self, &file->lines[file->nlines].self);
			file->nlines++;
		}
		free(v);
	}

	/* Functions, in the file that defines them. */
	size_t *nfns = roi_xrealloc(NULL, s->n ? s->n : 1, sizeof *nfns);
	memset(nfns, 0, (s->n ? s->n : 1) * sizeof *nfns);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++)
			nfns[b.ufile[u][p->units[u].functions[f].file]]++;
	for (size_t i = 0; i < s->n; i++)
		s->v[i].fns = roi_arena_array(&s->arena, nfns[i] ? nfns[i] : 1, sizeof *s->v[i].fns);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];
			struct roi_src_file *file = &s->v[b.ufile[u][fn->file]];

			file->fns[file->nfns++] = (struct roi_src_fn){fn, node[fn->gindex], roi_block_count(e->counts, fn, 0)};
		}
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].nfns)
			qsort(s->v[i].fns, s->v[i].nfns, sizeof *s->v[i].fns, fn_by_line);
	free(nfns);
	free(b.p);
	free(b.np);
	free(b.cap);
	free(node);
}

void roi_src_files_free(struct roi_src_files *s)
{
	roi_arena_free(&s->arena);
	memset(s, 0, sizeof *s);
}
