/* builtin/gcov-check.c — "roi gcov-check": roi's counts against gcov's, for a program built with both
 * --coverage and -fplugin=roi and run.
 *
 * Function entry counts are compared at every -O level; line counts only for units compiled at
 * -O0, where roi's blocks map back onto gcov's (gcov/lines.h). A line's count is
 * computed from roi's block counts with gcov's own algorithm (gcc/gcov.cc, add_line_counts,
 * accumulate_line_info, get_cycles_count), so a disagreement means the counts differ, not the
 * arithmetic.
 * The rules, and why each exists, are in docs/gcov-check.md. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/arena.h"
#include "base/cli.h"
#include "builtin.h"
#include "input/counts.h"
#include "input/elffile.h"
#include "gcov/lines.h"
#include "input/meta.h"
#include "base/path.h"
#include "input/session.h"
#include "base/readfile.h"

static const char usage[] =
	"usage: roi gcov-check [--profile FILE] [--gcda-dir DIR] [--gcov CMD] [-v] PROGRAM\n"
	"\n"
	"Cross-checks roi against gcov for PROGRAM, built with both --coverage and -fplugin=roi and\n"
	"run: every function's entry count must equal gcov's execution count and, for units compiled\n"
	"at -O0, every source line's count (computed from roi's block counts as gcov computes it)\n"
	"must equal gcov's. Prints one line per disagreement, notes for what cannot be compared, and a\n"
	"summary; exits 1 when anything disagrees. See docs/gcov-check.md.\n"
	"\n"
	"  -p, --profile FILE   roi profile (default ./<basename of PROGRAM>.roi)\n"
	"      --gcda-dir DIR   where the .gcda files are (default: PROGRAM's directory, then the\n"
	"                       current directory, then where PROGRAM writes them)\n"
	"      --gcov CMD       the gcov of the compiler that built PROGRAM (default gcov)\n"
	"  -v, --verbose        also list what agrees, and the .gcda files read\n"
	"  -h, --help           this help\n";

/* "roi function F of unit U contains an inlined copy of CALLEE" (metadata "inlined"). */
struct inline_site {
	const char *callee;             /* assembler name */
	const struct roi_unit *unit;
	const char *caller;
};

struct gcda {
	const char *path;
	const struct roi_unit *unit;    /* the unit most of its functions belong to, or NULL */
	bool lines;                     /* its lines are compared (unit compiled at -O0) */
	size_t fn0, nfn;                /* its functions: gfn[fn0 .. fn0 + nfn) */
};

/* A function or a line as gcov reports it; file is the canonical path, shown_file as printed. */
struct gfn {
	const char *name, *file, *shown_file;
	unsigned line;
	uint64_t count;
	size_t gcda, group;
};

struct gline {
	const char *fn, *file, *shown_file;
	unsigned line;
	uint64_t count;
	size_t gcda;
};

/* One function as both sides see it: roi's copies (clones, the same static inline function in
 * several units) and gcov's are summed, keyed by (name, file, line). */
struct group {
	const char *key;                /* gcov's name; roi's assembler name without GCC's clone suffix */
	const char *name, *file, *shown_file;
	unsigned line;
	uint64_t roi_calls, gcov_calls;
	uint64_t arrivals;              /* roi: entries through abnormal edges, which gcov counts as calls */
	size_t nroi, ngcov;
	const char *part;               /* assembler name of a .part clone (partial inlining), or NULL */
	const char *inlined_in;         /* a function GCC inlined it into, or NULL */
};

/* gcov file name -> roi file name, for functions matched by base name (the paths differ). */
struct alias {
	const char *from, *to;
};

struct lcount {
	const char *file, *shown_file;
	unsigned line;
	uint64_t roi, gcov;
	bool in_roi, in_gcov;
};

struct check {
	struct roi_arena arena;
	const struct roi_program *prog;
	const struct roi_counts *counts;
	const char *gcov;
	bool verbose;
	const char ***ufile;            /* [unit][file]: canonical path */
	bool *unit_lines;               /* [unit]: its lines are compared */
	size_t *fgroup;                 /* [function gindex]: its group */
	struct inline_site *inl;
	size_t ninl, capinl;
	struct gcda *gcda;
	size_t ngcda, capgcda;
	struct gfn *gfn;
	size_t ngfn, capgfn;
	struct gline *gline;
	size_t ngline, capgline;
	struct group *grp;
	size_t ngrp, capgrp;
	struct alias *alias;
	size_t nalias, capalias;
	struct lcount *lc;
	size_t nlc, caplc;
	size_t nfunctions, nlines, ndisagree;
};

/* Room for element n of a growing array. */
static void *grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	return roi_xrealloc(p, *cap, size);
}

/* qsort, which must not be given a null array even when it is empty. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}


/* The real path of PATH (taken relative to DIR when relative and DIR is known), or that path
 * itself when the file is gone: files of both sides are matched by it. */
static const char *canon_path(struct check *c, const char *dir, const char *path)
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
static void canon_unit_files(struct check *c)
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
			c->ufile[u][f] = canon_path(c, dir, name);
		}
	}
}

/* The metadata's "inlined" lists, which struct roi_function does not carry: read the records
 * again (they were validated by roi_program_load; record r is unit r). */
static int load_inline_sites(struct check *c, struct roi_err *err)
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
				c->inl = grow(c->inl, c->ninl, &c->capinl, sizeof *c->inl);
				c->inl[c->ninl++] = (struct inline_site){roi_arena_strdup(&c->arena, name->valuestring),
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
static const char *inlined_into(const struct check *c, const char *name, const struct roi_unit *unit)
{
	for (size_t i = 0; i < c->ninl; i++)
		if (strcmp(c->inl[i].callee, name) == 0 && (!unit || c->inl[i].unit == unit))
			return c->inl[i].caller;
	return NULL;
}

/* ---- finding the .gcda files ---- */

/* The .gcda files PROGRAM writes at exit: libgcov keeps each unit's file name, as an absolute
 * path fixed at compile time, among the program's strings. Reading them, rather than taking every
 * *.gcda of a directory, keeps other programs' data out of the comparison. */
static size_t gcda_names(struct check *c, const char *data, size_t size, const char ***names)
{
	static const char suffix[] = ".gcda";
	size_t n = 0, cap = 0;
	const char *p = data, *end = data + size;

	*names = NULL;
	while ((p = memmem(p, (size_t)(end - p), suffix, sizeof suffix)) != NULL) {
		const char *s = p;

		while (s > data && s[-1] >= 0x20 && s[-1] < 0x7f)
			s--;
		p += sizeof suffix;
		if (p - s <= (ptrdiff_t)sizeof suffix)
			continue;
		const char *name = roi_arena_strdup(&c->arena, s);
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp((*names)[i], name) == 0;
		if (seen)
			continue;
		*names = grow(*names, n, &cap, sizeof **names);
		(*names)[n++] = name;
	}
	return n;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where each .gcda is: --gcda-dir only, or PROGRAM's directory, the current directory, and the
 * path PROGRAM recorded. Returns the number found; *missing gets the rest, one per line. */
static int find_gcda(struct check *c, const char *program, const char *gcda_dir, char **missing,
		     struct roi_err *err)
{
	const char **names;
	char *data;
	size_t size, n;
	const char *slash = strrchr(program, '/');
	const char *pdir = slash ? roi_arena_printf(&c->arena, "%.*s", (int)(slash - program), program) : ".";
	size_t mlen = 0;

	if (slash == program)
		pdir = "/";
	if (roi_read_file(program, ROI_MAX_ELF, &data, &size, err) != 0)
		return -1;
	n = gcda_names(c, data, size, &names);
	free(data);
	*missing = NULL;
	if (n == 0) {
		free(names);
		return roi_err_set(err, "%s was not built with --coverage: it names no .gcda file", program);
	}
	for (size_t i = 0; i < n; i++) {
		const char *base = roi_base_name(names[i]);
		const char *cand[3];
		size_t ncand = 0, k;

		bool alike = false;

		for (size_t j = 0; j < n; j++)
			alike |= j != i && strcmp(roi_base_name(names[j]), base) == 0;
		if (alike) {
			/* two units write files of one name: only the recorded paths tell them apart */
			cand[ncand++] = names[i];
		} else if (gcda_dir) {
			cand[ncand++] = roi_arena_printf(&c->arena, "%s/%s", gcda_dir, base);
		} else {
			cand[ncand++] = roi_arena_printf(&c->arena, "%s/%s", pdir, base);
			cand[ncand++] = base;
			cand[ncand++] = names[i];
		}
		for (k = 0; k < ncand && !is_file(cand[k]); k++)
			;
		if (k == ncand) {
			const char *where = alike ? names[i] : gcda_dir ? gcda_dir
						: roi_arena_printf(&c->arena, "%s, . and %s", pdir, names[i]);
			char line[2048];
			int len = snprintf(line, sizeof line, "%s: not found (looked in %s)\n", base, where);

			if (len < 0)
				continue;
			if ((size_t)len >= sizeof line)
				len = sizeof line - 1;
			*missing = roi_xrealloc(*missing, mlen + (size_t)len + 1, 1);
			memcpy(*missing + mlen, line, (size_t)len + 1);
			mlen += (size_t)len;
			continue;
		}
		c->gcda = grow(c->gcda, c->ngcda, &c->capgcda, sizeof *c->gcda);
		c->gcda[c->ngcda++] = (struct gcda){.path = cand[k]};
	}
	free(names);
	if (c->ngcda == 0) {
		free(*missing);
		*missing = NULL;
		return roi_err_set(err, "no .gcda files found next to %s (build with --coverage and run it once)", program);
	}
	return (int)c->ngcda;
}

/* ---- running gcov and reading its JSON ---- */

/* gcov --json-format --stdout GCDA into *out. gcov finds the .gcno beside the .gcda. */
static int run_gcov(struct check *c, const char *gcda, char **out, struct roi_err *err)
{
	const char *arg = gcda[0] == '-' ? roi_arena_printf(&c->arena, "./%s", gcda) : gcda;
	char *argv[] = {(char *)c->gcov, (char *)"--json-format", (char *)"--stdout", (char *)arg, NULL};
	posix_spawn_file_actions_t fa;
	FILE *errs = tmpfile();
	int fd[2], rc, status;
	pid_t pid;
	size_t len = 0, cap = 0;
	char *buf = NULL;

	if (!errs)
		return roi_err_set(err, "gcov failed on %s: cannot create a temporary file: %s", gcda, strerror(errno));
	if (pipe(fd) != 0) {
		fclose(errs);
		return roi_err_set(err, "gcov failed on %s: pipe: %s", gcda, strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(errs), 2);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	rc = posix_spawnp(&pid, c->gcov, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc != 0) {
		close(fd[0]);
		fclose(errs);
		return roi_err_set(err, "gcov failed on %s: cannot run '%s': %s", gcda, c->gcov, strerror(rc));
	}
	for (;;) {
		if (cap - len < 4097)
			buf = roi_xrealloc(buf, cap = cap ? 2 * cap : 65536, 1);
		ssize_t got = read(fd[0], buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char line[512] = "";

		rewind(errs);
		if (fgets(line, sizeof line, errs))
			line[strcspn(line, "\n")] = '\0';
		if (!*line)
			snprintf(line, sizeof line, WIFEXITED(status) ? "exit status %d" : "killed by signal %d",
				 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		fclose(errs);
		free(buf);
		return roi_err_set(err, "gcov failed on %s: %s", gcda, line);
	}
	fclose(errs);
	*out = buf;
	return 0;
}

static bool get_count(const cJSON *o, const char *key, uint64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740992.0)
		return false;
	*out = (uint64_t)v->valuedouble;
	return true;
}

static const char *get_string(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Reads gcov's JSON (files[] with functions[] and lines[]) for .gcda number gi. */
static int parse_gcov(struct check *c, size_t gi, const char *text, struct roi_err *err)
{
	struct gcda *g = &c->gcda[gi];
	cJSON *root = cJSON_Parse(text);
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files"), *file;
	const char *cwd = get_string(root, "current_working_directory"), *what = NULL;

	if (!root)
		return roi_err_set(err, "gcov failed on %s: its output is not JSON", g->path);
	if (!cJSON_IsArray(files)) {
		cJSON_Delete(root);
		return roi_err_set(err, "gcov failed on %s: its JSON has no 'files' array", g->path);
	}
	g->fn0 = c->ngfn;
	cJSON_ArrayForEach(file, files) {
		const char *name = get_string(file, "file"), *canon;
		const cJSON *fns = cJSON_GetObjectItemCaseSensitive(file, "functions");
		const cJSON *lines = cJSON_GetObjectItemCaseSensitive(file, "lines"), *x;

		if (!name) {
			what = "a file without 'file'";
			break;
		}
		canon = canon_path(c, cwd, name);
		name = roi_arena_strdup(&c->arena, name);
		cJSON_ArrayForEach(x, fns) {
			const char *fname = get_string(x, "name");
			uint64_t line, count;

			if (!fname || !get_count(x, "start_line", &line) || !get_count(x, "execution_count", &count) ||
			    line > UINT_MAX) {
				what = "a function without name, start_line or execution_count";
				break;
			}
			c->gfn = grow(c->gfn, c->ngfn, &c->capgfn, sizeof *c->gfn);
			c->gfn[c->ngfn++] = (struct gfn){roi_arena_strdup(&c->arena, fname), canon, name, (unsigned)line,
							 count, gi, SIZE_MAX};
		}
		cJSON_ArrayForEach(x, lines) {
			const char *fname = get_string(x, "function_name");
			uint64_t line, count;

			if (!get_count(x, "line_number", &line) || !get_count(x, "count", &count) || line > UINT_MAX) {
				what = "a line without line_number or count";
				break;
			}
			c->gline = grow(c->gline, c->ngline, &c->capgline, sizeof *c->gline);
			c->gline[c->ngline++] = (struct gline){fname ? roi_arena_strdup(&c->arena, fname) : NULL, canon,
							       name, (unsigned)line, count, gi};
		}
		if (what)
			break;
	}
	g->nfn = c->ngfn - g->fn0;
	cJSON_Delete(root);
	if (what)
		return roi_err_set(err, "gcov failed on %s: unexpected JSON: %s", g->path, what);
	return 0;
}

/* ---- functions: grouping and matching ---- */

static size_t new_group(struct check *c, const char *key, const char *name, const char *file, const char *shown,
			unsigned line)
{
	c->grp = grow(c->grp, c->ngrp, &c->capgrp, sizeof *c->grp);
	c->grp[c->ngrp] = (struct group){.key = key, .name = name, .file = file, .shown_file = shown, .line = line};
	return c->ngrp++;
}

/* The name gcov knows a roi function by: its assembler name, less the suffix of a GCC clone. An
 * .isra or .constprop clone takes over some of the function's calls, so the entries of all copies
 * add up; a .part clone is the tail of a split function, entered from the inlined head, not a
 * call (*part). */
static const char *gcov_name(struct check *c, const char *asm_name, bool *part)
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
static void group_roi(struct check *c)
{
	const struct roi_program *p = c->prog;

	c->fgroup = roi_arena_array(&c->arena, p->nfunctions ? p->nfunctions : 1, sizeof *c->fgroup);
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];
			bool part;
			const char *key = gcov_name(c, fn->asm_name, &part);
			const char *file = c->ufile[u][fn->file];
			struct group *gr;
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

static void add_alias(struct check *c, const char *from, const char *to)
{
	for (size_t i = 0; i < c->nalias; i++)
		if (strcmp(c->alias[i].from, from) == 0)
			return;
	c->alias = grow(c->alias, c->nalias, &c->capalias, sizeof *c->alias);
	c->alias[c->nalias++] = (struct alias){from, to};
}

static const char *unalias(const struct check *c, const char *file)
{
	for (size_t i = 0; i < c->nalias; i++)
		if (strcmp(c->alias[i].from, file) == 0)
			return c->alias[i].to;
	return file;
}

/* gcov's functions into the groups: by name, real path and line first; what is left by name,
 * base name and line (the sources moved, or one side kept a path the other resolved). */
static void match_gcov(struct check *c)
{
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < c->ngfn; i++) {
			struct gfn *f = &c->gfn[i];
			size_t g;

			if (f->group != SIZE_MAX)
				continue;
			for (g = 0; g < c->ngrp && pass < 2; g++) {
				const struct group *gr = &c->grp[g];

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
static void assign_units(struct check *c)
{
	const struct roi_program *p = c->prog;
	size_t *votes = roi_arena_array(&c->arena, p->nunits ? p->nunits : 1, sizeof *votes);
	size_t *seen = roi_arena_array(&c->arena, c->ngrp ? c->ngrp : 1, sizeof *seen);

	c->unit_lines = roi_arena_array(&c->arena, p->nunits ? p->nunits : 1, sizeof *c->unit_lines);
	for (size_t d = 0; d < c->ngcda; d++) {
		struct gcda *g = &c->gcda[d];
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

static int by_place(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int d = strcmp(x->file, y->file);

	if (d)
		return d;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void compare_functions(struct check *c)
{
	const struct group *sorted;
	struct group *s = roi_arena_array(&c->arena, c->ngrp ? c->ngrp : 1, sizeof *s);

	memcpy(s, c->grp, c->ngrp * sizeof *s);
	sort(s, c->ngrp, sizeof *s, by_place);
	sorted = s;
	for (size_t i = 0; i < c->ngrp; i++) {
		const struct group *g = &sorted[i];
		unsigned long long r = g->roi_calls, v = g->gcov_calls;

		if (g->nroi && !g->ngcov) {
			printf("note: function %s (%s:%u): not in gcov's output (its unit built without --coverage?); "
			       "roi calls %llu\n", g->name, g->shown_file, g->line, r);
		} else if (!g->nroi) {
			if (g->inlined_in)
				printf("note: function %s (%s:%u): not counted by roi, GCC inlined it into %s; gcov %llu\n",
				       g->name, g->shown_file, g->line, g->inlined_in, v);
			else if (v == 0)
				printf("note: function %s (%s:%u): not counted by roi, gcov 0\n", g->name, g->shown_file,
				       g->line);
			else {
				printf("function %s (%s:%u): not counted by roi, gcov %llu\n", g->name, g->shown_file, g->line,
				       v);
				c->ndisagree++;
			}
		} else if (g->inlined_in) {
			printf("note: function %s (%s:%u): GCC inlined it into %s, so roi does not see every call; "
			       "roi calls %llu, gcov %llu, not compared\n", g->name, g->shown_file, g->line, g->inlined_in,
			       r, v);
		} else if (g->part) {
			printf("note: function %s (%s:%u): GCC split it (%s), so roi does not see every call; "
			       "roi calls %llu, gcov %llu, not compared\n", g->name, g->shown_file, g->line, g->part, r, v);
		} else {
			unsigned long long a = g->arrivals;
			char more[96] = "";

			if (a)
				snprintf(more, sizeof more, " + %llu arrival%s through abnormal edges", a, a == 1 ? "" : "s");
			c->nfunctions++;
			if (r + a != v) {
				printf("function %s (%s:%u): roi calls %llu%s, gcov %llu\n", g->name, g->shown_file, g->line, r,
				       more, v);
				c->ndisagree++;
			} else if (c->verbose) {
				printf("ok: function %s (%s:%u): %llu call%s%s\n", g->name, g->shown_file, g->line, r,
				       r == 1 ? "" : "s", more);
			}
		}
	}
}

/* ---- lines: gcov's algorithm on roi's counts (gcov/lines.h) ---- */

static void add_line(struct check *c, const char *file, const char *shown, unsigned line, uint64_t count,
		     bool roi)
{
	c->lc = grow(c->lc, c->nlc, &c->caplc, sizeof *c->lc);
	c->lc[c->nlc++] = (struct lcount){file, shown, line, roi ? count : 0, roi ? 0 : count, roi, !roi};
}

/* A line of unit `unit` as gcov_lines counts it. */
struct unit_lines {
	struct check *c;
	size_t unit;
};

static void add_roi_line(void *ctx, unsigned file, unsigned line, uint64_t count)
{
	struct unit_lines *ul = ctx;

	add_line(ul->c, ul->c->ufile[ul->unit][file], ul->c->prog->units[ul->unit].files[file], line, count, true);
}

static int by_line(const void *a, const void *b)
{
	const struct lcount *x = a, *y = b;
	int d = strcmp(x->file, y->file);

	if (d)
		return d;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The gcov function a line of .gcda d belongs to, or NULL. */
static const struct gfn *line_function(const struct check *c, const struct gline *l)
{
	const struct gcda *g = &c->gcda[l->gcda];

	for (size_t i = g->fn0; l->fn && i < g->fn0 + g->nfn; i++)
		if (strcmp(c->gfn[i].name, l->fn) == 0)
			return &c->gfn[i];
	return NULL;
}

static void compare_lines(struct check *c)
{
	const struct roi_program *p = c->prog;
	struct roi_gcov_lines fl = {0};
	size_t undetermined = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		const struct roi_unit *unit = &p->units[u];

		if (strcmp(unit->opt, "O0") != 0) {
			printf("note: %s: compiled at -%s: lines not compared (roi counts the optimised code, gcov the "
			       "code before optimisation); function entry counts are\n", unit->source, unit->opt);
			continue;
		}
		if (!c->unit_lines[u])
			continue;
		for (size_t f = 0; f < unit->nfunctions; f++) {
			const struct roi_function *fn = &unit->functions[f];

			if (c->grp[c->fgroup[fn->gindex]].ngcov)
				undetermined += roi_gcov_function_lines(c->counts, fn, &fl);
		}
		roi_gcov_unit_lines(&fl, add_roi_line, &(struct unit_lines){c, u});
	}
	roi_gcov_lines_free(&fl);
	if (undetermined)
		printf("note: %zu blocks have outgoing edges their block counts do not determine (taken as 0)\n",
		       undetermined);

	/* gcov's lines of the same units; not those of functions roi does not count at all (the
	 * function is reported), unless GCC inlined them: roi then counts them in their callers. */
	for (size_t i = 0; i < c->ngline; i++) {
		const struct gline *l = &c->gline[i];
		const struct gfn *f = line_function(c, l);

		if (!c->gcda[l->gcda].lines)
			continue;
		if (f && c->grp[f->group].nroi == 0 && !c->grp[f->group].inlined_in)
			continue;
		add_line(c, unalias(c, l->file), l->shown_file, l->line, l->count, false);
	}

	sort(c->lc, c->nlc, sizeof *c->lc, by_line);
	for (size_t i = 0, j; i < c->nlc; i = j) {
		struct lcount m = c->lc[i];

		for (j = i + 1; j < c->nlc && by_line(&c->lc[i], &c->lc[j]) == 0; j++) {
			const struct lcount *x = &c->lc[j];

			m.roi += x->roi;
			m.gcov += x->gcov;
			if (x->in_roi && !m.in_roi)
				m.shown_file = x->shown_file;
			m.in_roi |= x->in_roi;
			m.in_gcov |= x->in_gcov;
		}
		c->nlines++;
		if (m.in_roi && m.in_gcov && m.roi != m.gcov) {
			printf("%s:%u: roi %llu, gcov %llu\n", m.shown_file, m.line, (unsigned long long)m.roi,
			       (unsigned long long)m.gcov);
			c->ndisagree++;
		} else if (!m.in_gcov && m.roi) {
			printf("%s:%u: roi %llu, not a line in gcov's output\n", m.shown_file, m.line,
			       (unsigned long long)m.roi);
			c->ndisagree++;
		} else if (!m.in_roi && m.gcov) {
			printf("%s:%u: gcov %llu, not a line in roi's metadata\n", m.shown_file, m.line,
			       (unsigned long long)m.gcov);
			c->ndisagree++;
		} else if (c->verbose) {
			printf("ok: %s:%u: %llu%s\n", m.shown_file, m.line, (unsigned long long)(m.in_roi ? m.roi : m.gcov),
			       m.in_roi && m.in_gcov ? "" : m.in_roi ? " (roi only)" : " (gcov only)");
		}
	}
}

/* ---- the command ---- */

static void check_free(struct check *c)
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

int cmd_gcov_check(int argc, char **argv)
{
	const char *profile_path = NULL, *gcda_dir = NULL, *gcov = "gcov", *pos[1];
	bool verbose = false;
	int npos, rc, status = ROI_EXIT_DATA;
	struct roi_option opts[] = {
		{.name = "profile", .short_name = 'p', .value = &profile_path},
		{.name = "gcda-dir", .value = &gcda_dir},
		{.name = "gcov", .value = &gcov},
		{.name = "verbose", .short_name = 'v', .flag = &verbose},
	};
	struct roi_err err;
	struct roi_session s;
	struct check c = {0};
	char *missing = NULL;

	if (roi_command_options(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 1, &npos, usage, &rc) != 0)
		return rc;
	if (npos < 1)
		return roi_usage_error(argv[0], "missing PROGRAM");
	if (!*gcov)
		return roi_usage_error(argv[0], "--gcov needs a command");
	c.prog = &s.prog;
	c.counts = &s.counts;
	c.gcov = gcov;
	c.verbose = verbose;

	if (roi_session_load(&s, &(struct roi_session_args){pos[0], profile_path, NULL, false}, &err) != 0 ||
	    load_inline_sites(&c, &err) != 0 || find_gcda(&c, pos[0], gcda_dir, &missing, &err) < 0) {
		roi_data_error(&err);
		goto out;
	}
	if (s.counts.nmissing)
		roi_warn("%s: no counts for %zu of %zu functions of %s; they count as never run", s.profile_path,
			 s.counts.nmissing, s.prog.nfunctions, s.prog.path);
	for (size_t d = 0; d < c.ngcda; d++) {
		char *text = NULL;

		if (verbose)
			printf("note: reading %s\n", c.gcda[d].path);
		if (run_gcov(&c, c.gcda[d].path, &text, &err) != 0) {
			roi_data_error(&err);
			goto out;
		}
		rc = parse_gcov(&c, d, text, &err);
		free(text);
		if (rc != 0) {
			roi_data_error(&err);
			goto out;
		}
	}

	canon_unit_files(&c);
	group_roi(&c);
	match_gcov(&c);
	assign_units(&c);
	if (missing) {
		/* a unit's data is missing: what roi counts there cannot be checked */
		fputs(missing, stdout);
		for (const char *s = missing; (s = strchr(s, '\n')) != NULL; s++)
			c.ndisagree++;
	}
	compare_functions(&c);
	compare_lines(&c);
	printf("gcov-check: %zu function%s, %zu line%s compared, %zu disagreement%s\n", c.nfunctions,
	       c.nfunctions == 1 ? "" : "s", c.nlines, c.nlines == 1 ? "" : "s", c.ndisagree,
	       c.ndisagree == 1 ? "" : "s");
	if (roi_output_status() == ROI_EXIT_OK)
		status = c.ndisagree ? ROI_EXIT_DATA : ROI_EXIT_OK;
out:
	free(missing);
	check_free(&c);
	roi_session_free(&s);
	return status;
}
