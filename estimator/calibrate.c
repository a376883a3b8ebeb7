/* calibrate.c — building and running the calibration corpus for "roi calibrate" (calibrate.h). */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "calibrate.h"
#include "estimate.h"
#include "run_avr_counted.h"

extern char **environ;

/* Runs argv (argv[0] looked up in PATH) and waits; 0 when it exited with status 0. */
static int spawn_wait(char *const argv[], const char *source, struct roi_err *err)
{
	pid_t pid;
	int status, rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);

	if (rc != 0)
		return roi_err_set(err, "%s: cannot run %s: %s", source, argv[0], strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return roi_err_set(err, "%s: waiting for %s: %s", source, argv[0], strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return roi_err_set(err, "%s: %s %s failed (exit status %d)", source, argv[0], argv[2],
				   WEXITSTATUS(status));
	return roi_err_set(err, "%s: %s %s died of signal %d", source, argv[0], argv[2], WTERMSIG(status));
}

static int compile(const struct roi_calib_build *b, const char *source, const char *out, bool counted,
		   struct roi_err *err)
{
	char mmcu[128], fplugin[4096];

	snprintf(mmcu, sizeof mmcu, "-mmcu=%s", b->mcu);
	snprintf(fplugin, sizeof fplugin, "-fplugin=%s", b->plugin);
	char *argv[] = {(char *)b->cc, mmcu, (char *)b->opt, (char *)source, "-o", (char *)out,
			counted ? fplugin : NULL, NULL};
	return spawn_wait(argv, source, err);
}

/* A call to a function of the program costs what any call costs (its body is counted where it
 * runs); a call to a library function also costs the library's body, so it keeps its callee. */
static bool defined_in(const struct roi_program *p, const char *name)
{
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++)
			if (strcmp(p->units[u].functions[f].asm_name, name) == 0 ||
			    strcmp(p->units[u].functions[f].name, name) == 0)
				return true;
	return false;
}

static size_t key_index(struct roi_calib_set *set, const struct roi_opdesc *d, const struct roi_program *p)
{
	struct roi_calib_key k = {d->kind, d->type, d->access, d->callee, d->from, NULL};

	if (k.type && strcmp(k.type, "void") == 0)
		k.type = NULL;
	if (k.callee && (k.callee[0] == '*' || defined_in(p, k.callee)))
		k.callee = NULL;
	char *text = roi_arena_printf(&set->arena, "%s%s%s%s%s%s%s%s%s", k.kind, k.type ? " type=" : "",
				      k.type ? k.type : "", k.access ? " access=" : "", k.access ? k.access : "",
				      k.callee ? " callee=" : "", k.callee ? k.callee : "", k.from ? " from=" : "",
				      k.from ? k.from : "");
	for (size_t i = 0; i < set->nkeys; i++)
		if (strcmp(set->keys[i].text, text) == 0)
			return i;
	if (set->nkeys == set->keys_cap)
		set->keys = roi_xrealloc(set->keys, set->keys_cap = set->keys_cap ? 2 * set->keys_cap : 64,
					 sizeof *set->keys);
	k.kind = roi_arena_strdup(&set->arena, k.kind);
	k.type = k.type ? roi_arena_strdup(&set->arena, k.type) : NULL;
	k.access = k.access ? roi_arena_strdup(&set->arena, k.access) : NULL;
	k.callee = k.callee ? roi_arena_strdup(&set->arena, k.callee) : NULL;
	k.from = k.from ? roi_arena_strdup(&set->arena, k.from) : NULL;
	k.text = text;
	set->keys[set->nkeys] = k;
	return set->nkeys++;
}

/* The executions per key of one counted run, in a row as long as the keys are now. */
static double *features(struct roi_calib_set *set, const struct roi_program *prog, const struct roi_counts *counts)
{
	struct roi_estimate e;
	size_t *col, n;

	roi_estimate_compute(&e, prog, counts, NULL);
	col = roi_xrealloc(NULL, e.nops ? e.nops : 1, sizeof *col);
	for (size_t i = 0; i < e.nops; i++)
		col[i] = key_index(set, &e.ops[i].d, prog);
	n = set->nkeys;
	double *x = roi_xrealloc(NULL, n ? n : 1, sizeof *x);
	memset(x, 0, (n ? n : 1) * sizeof *x);
	for (size_t i = 0; i < e.nops; i++)
		x[col[i]] += (double)e.ops[i].count;
	free(col);
	roi_estimate_free(&e);
	return x;
}

int roi_calib_add(struct roi_calib_set *set, const struct roi_calib_build *b, const char *source,
		  struct roi_err *err)
{
	const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
	size_t len = strlen(base) > 2 && strcmp(base + strlen(base) - 2, ".c") == 0 ? strlen(base) - 2 : strlen(base);
	char *name = roi_arena_printf(&set->arena, "%.*s", (int)len, base);
	char *counted = roi_arena_printf(&set->arena, "%s/%s-count.elf", b->work, name);
	char *plain = roi_arena_printf(&set->arena, "%s/%s-plain.elf", b->work, name);
	struct roi_avr_run run = {.elf = plain, .mcu = b->mcu, .freq_hz = b->freq_hz, .max_cycles = b->max_cycles};
	struct roi_calib_program p = {.name = name, .source = roi_arena_strdup(&set->arena, source)};
	struct roi_elf *elf = NULL;
	struct roi_program prog = {0};
	struct roi_counts counts = {0};
	cJSON *saturated = cJSON_CreateArray();
	int rc = -1;

	if (compile(b, source, plain, false, err) != 0 || compile(b, source, counted, true, err) != 0)
		goto out;
	if (roi_run_check_elf(plain, &roi_avr_target, err) != 0 || roi_avr_run(&run, err) != 0)
		goto out;
	if (run.stop == ROI_AVR_LIMIT) {
		roi_err_set(err, "%s: no stop after %llu cycles; the program may loop forever", plain,
			    (unsigned long long)b->max_cycles);
		goto out;
	}
	if (!run.main_seen) {
		roi_err_set(err, "%s: the plain firmware never reached main", plain);
		goto out;
	}
	p.cycles = run.cycles - run.main_cycle;
	p.startup = run.main_cycle;
	roi_avr_run_free(&run);
	run = (struct roi_avr_run){.elf = counted, .mcu = b->mcu, .freq_hz = b->freq_hz, .max_cycles = b->max_cycles};
	if (roi_avr_run_counted(&run, &elf, &prog, &counts, saturated, err) != 0)
		goto out;
	if (cJSON_GetArraySize(saturated) > 0) {
		roi_err_set(err, "%s: 16-bit counters saturated: the program runs too long for calibration", source);
		goto out;
	}
	p.x = features(set, &prog, &counts);
	p.nx = set->nkeys;
	set->programs = roi_xrealloc(set->programs, set->nprograms + 1, sizeof *set->programs);
	set->programs[set->nprograms++] = p;
	rc = 0;
out:
	cJSON_Delete(saturated);
	roi_avr_run_free(&run);
	roi_counts_free(&counts);
	roi_program_free(&prog);
	roi_elf_close(elf);
	return rc;
}

double *roi_calib_matrix(const struct roi_calib_set *set)
{
	size_t n = set->nkeys;
	double *x = roi_xrealloc(NULL, set->nprograms * n + 1, sizeof *x);

	memset(x, 0, (set->nprograms * n + 1) * sizeof *x);
	for (size_t p = 0; p < set->nprograms; p++)
		memcpy(&x[p * n], set->programs[p].x, set->programs[p].nx * sizeof *x);
	return x;
}

void roi_calib_free(struct roi_calib_set *set)
{
	for (size_t p = 0; p < set->nprograms; p++)
		free(set->programs[p].x);
	free(set->programs);
	free(set->keys);
	roi_arena_free(&set->arena);
	memset(set, 0, sizeof *set);
}
