/* gcov/check.h — roi gcov-check (docs/gcov-check.md): roi's counts against gcov's, for a program
 * built with both --coverage and -fplugin=roi and run.
 *
 * Function entry counts are compared at every -O level; line counts only for units compiled at
 * -O0, where roi's blocks map back onto gcov's (lines.h). A line's count is computed from roi's
 * block counts with gcov's own algorithm (gcc/gcov.cc, add_line_counts, accumulate_line_info,
 * get_cycles_count), so a disagreement means the counts differ, not the arithmetic.
 *
 * In the order the command takes them: the "inlined" lists of the metadata (check.c), the .gcda
 * files the program writes (gcda.c), gcov run on each and its JSON read (read.c), roi's functions
 * grouped as gcov names them and matched with gcov's (check.c), then functions and lines compared
 * (compare.c). */
#ifndef ROI_GCOV_CHECK_H
#define ROI_GCOV_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/err.h"
#include "input/counts.h"
#include "input/meta.h"

/* "roi function F of unit U contains an inlined copy of CALLEE" (metadata "inlined"). */
struct roi_gcov_inline {
	const char *callee;             /* assembler name */
	const struct roi_unit *unit;
	const char *caller;
};

struct roi_gcov_gcda {
	const char *path;
	const struct roi_unit *unit;    /* the unit most of its functions belong to, or NULL */
	bool lines;                     /* its lines are compared (unit compiled at -O0) */
	size_t fn0, nfn;                /* its functions: gfn[fn0 .. fn0 + nfn) */
};

/* A function or a line as gcov reports it; file is the canonical path, shown_file as printed. */
struct roi_gcov_gfn {
	const char *name, *file, *shown_file;
	unsigned line;
	uint64_t count;
	size_t gcda, group;
};

struct roi_gcov_gline {
	const char *fn, *file, *shown_file;
	unsigned line;
	uint64_t count;
	size_t gcda;
};

/* One function as both sides see it: roi's copies (clones, the same static inline function in
 * several units) and gcov's are summed, keyed by (name, file, line). */
struct roi_gcov_group {
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
struct roi_gcov_alias {
	const char *from, *to;
};

struct roi_gcov_lcount {
	const char *file, *shown_file;
	unsigned line;
	uint64_t roi, gcov;
	bool in_roi, in_gcov;
};

/* One comparison: the program, its counts, and what gcov says. */
struct roi_gcov_check {
	struct roi_arena arena;
	const struct roi_program *prog;
	const struct roi_counts *counts;
	const char *gcov;
	bool verbose;
	const char ***ufile;            /* [unit][file]: canonical path */
	bool *unit_lines;               /* [unit]: its lines are compared */
	size_t *fgroup;                 /* [function gindex]: its group */
	struct roi_gcov_inline *inl;
	size_t ninl, capinl;
	struct roi_gcov_gcda *gcda;
	size_t ngcda, capgcda;
	struct roi_gcov_gfn *gfn;
	size_t ngfn, capgfn;
	struct roi_gcov_gline *gline;
	size_t ngline, capgline;
	struct roi_gcov_group *grp;
	size_t ngrp, capgrp;
	struct roi_gcov_alias *alias;
	size_t nalias, capalias;
	struct roi_gcov_lcount *lc;
	size_t nlc, caplc;
	size_t nfunctions, nlines, ndisagree;
};

/* The real path of path (relative to dir when relative and dir is known), or that path itself when
 * the file is gone: files of both sides are matched by it. */
const char *roi_gcov_canon_path(struct roi_gcov_check *c, const char *dir, const char *path);
/* A gcov file name as roi names the file, when they were matched by base name. */
const char *roi_gcov_unalias(const struct roi_gcov_check *c, const char *file);

/* The metadata's "inlined" lists, which struct roi_function does not carry, read again from the
 * program's records. */
int roi_gcov_load_inline_sites(struct roi_gcov_check *c, struct roi_err *err);
/* Where each .gcda the program names is: --gcda-dir only, or the program's directory, the current
 * directory, and the path the program recorded. Returns the number found (-1 with err set when
 * none); *missing gets one line per file not found (malloc'd, NULL when none). */
int roi_gcov_find_gcda(struct roi_gcov_check *c, const char *program, const char *gcda_dir, char **missing,
		       struct roi_err *err);
/* gcov --json-format --stdout GCDA into *out (malloc'd); gcov finds the .gcno beside the .gcda. */
int roi_gcov_run(struct roi_gcov_check *c, const char *gcda, char **out, struct roi_err *err);
/* gcov's JSON (files[] with functions[] and lines[]) for .gcda number gi. */
int roi_gcov_parse(struct roi_gcov_check *c, size_t gi, const char *text, struct roi_err *err);
/* roi's functions grouped by what gcov calls them, gcov's matched into the groups, and each .gcda
 * given the unit most of its functions belong to. */
void roi_gcov_match(struct roi_gcov_check *c);

/* One line on out per disagreement, "note: " lines for what cannot be compared, "ok: " lines for
 * what agrees with c->verbose; c->nfunctions, nlines and ndisagree count them. */
void roi_gcov_compare_functions(struct roi_gcov_check *c, FILE *out);
void roi_gcov_compare_lines(struct roi_gcov_check *c, FILE *out);

void roi_gcov_check_free(struct roi_gcov_check *c);

#endif
