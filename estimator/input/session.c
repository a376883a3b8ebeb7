/* input/session.c — a run's inputs loaded in one call, see session.h. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "input/checks.h"
#include "input/part.h"
#include "input/session.h"

/* Whether the profile at path says it is PROGRAM's (its "program" line, which the runtime writes
 * as the absolute path): a same-named profile in the current directory may be another program's. */
static bool names_program(const char *path, const char *program)
{
	char line[PATH_MAX + 16], real[PATH_MAX];
	FILE *f = fopen(path, "r");
	bool yes = false;

	if (!f)
		return false;
	if (fgets(line, sizeof line, f) && fgets(line, sizeof line, f) && strncmp(line, "program ", 8) == 0 &&
	    realpath(program, real)) {
		line[strcspn(line, "\n")] = '\0';
		yes = strcmp(line + 8, real) == 0;
	}
	fclose(f);
	return yes;
}

/* The profile of PROGRAM when none is named: ./<basename>.roi (where a host program writes it) or
 * <PROGRAM>.roi (where 'roi run' writes it, next to the firmware): the one that names PROGRAM,
 * else the first that exists. NULL with the error naming both places when neither does. */
static char *default_profile(const char *program, struct roi_err *err)
{
	const char *base = strrchr(program, '/');
	size_t n = strlen(program) + 8;
	char *here = malloc(n), *beside = malloc(n);

	if (!here || !beside)
		abort();
	snprintf(here, n, "./%s.roi", base ? base + 1 : program);
	snprintf(beside, n, "%s.roi", program);
	bool has_here = access(here, F_OK) == 0, has_beside = access(beside, F_OK) == 0;
	if (has_here && (!has_beside || strcmp(here, beside) == 0 || names_program(here, program) ||
			 !names_program(beside, program))) {
		free(beside);
		return here;
	}
	if (has_beside) {
		free(here);
		return beside;
	}
	if (!base)      /* the same file */
		roi_err_set(err, "no profile of %s: %s does not exist; run it first (a host program writes it at "
			    "exit, 'roi run' a firmware's), or name the profile", program, here);
	else
		roi_err_set(err, "no profile of %s: neither %s nor %s exists; run it first (a host program "
			    "writes the first at exit, 'roi run' the second), or name the profile", program, here,
			    beside);
	free(here);
	free(beside);
	return NULL;
}

/* The counts of the measured profile's blocks, for the functions whose unit, index and checksum it
 * names; value counters were not measured (0). */
static void counts_of_measured(struct roi_session *s)
{
	const struct roi_program *p = &s->prog;

	roi_counts_init(&s->counts, p);
	s->counts.runs = 1;
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];
			const struct roi_mblocks *b = roi_measured_blocks(&s->measured, fn);

			if (!b)
				continue;
			memcpy(&s->counts.block[fn->gblock0], b->counts, fn->nblocks * sizeof *b->counts);
			s->counts.present[fn->gindex] = true;
			s->counts.nmissing--;
		}
	s->counts_measured = true;
}

/* What makes the measured figures not the program's: another build, counts not measured. */
static void check_measured(const struct roi_session *s)
{
	const struct roi_program *p = &s->prog;
	const struct roi_measured *m = s->meas;
	size_t fns = 0, blocks = 0, lines = 0, values = 0, doubt = 0;

	for (size_t u = 0; u < p->nunits; u++)
		for (size_t f = 0; f < p->units[u].nfunctions; f++) {
			const struct roi_function *fn = &p->units[u].functions[f];

			fns += roi_measured_function(m, fn->asm_name) != NULL;
			const struct roi_mblocks *mb = roi_measured_blocks(m, fn);
			blocks += mb != NULL;
			for (size_t b = 0; mb && mb->ambiguous && b < mb->nblocks; b++)
				doubt += mb->ambiguous[b] != 0;
			lines += roi_measured_line(m, p->units[u].files[fn->file], fn->line) != NULL;
			for (size_t b = 0; b < fn->nblocks; b++)
				values += fn->blocks[b].value;
		}
	if (!fns && !lines)
		roi_warn("%s: no function or line of %s in it (a measured profile of another program?)", m->path,
			 p->path);
	if (m->has_blocks && !blocks)
		roi_warn("%s: its blocks are of another build than %s (no unit, index and checksum agree): no block "
			 "figures", m->path, p->path);
	if (s->counts_measured && values)
		roi_warn("%s: the counts are its measured blocks; its %zu value counters (shift steps, quotient bits, "
			 "bytes) are not measured and count 0", m->path, values);
	if (s->counts_measured && doubt)
		roi_warn("%s: the counts are its measured blocks; %zu of them are the choice taken between ways "
			 "through blocks without instructions that the code does not tell apart (\"ambiguous\")",
			 m->path, doubt);
	if (!m->complete)
		roi_warn("%s: the run stopped at the cycle limit: the measured figures are up to there", m->path);
}

/* A firmware is priced by a model of its own part (part.h); a host program through the model's
 * ABI (a host int add as the part's i16 add): that is what a model of a part does with a PC's run,
 * and the estimate says so. */
static int check_model_part(const struct roi_model *m, const struct roi_program *p, struct roi_err *err)
{
	const char *target = roi_program_common(p, offsetof(struct roi_unit, target));
	char built[64] = "";

	/* a firmware: counters with no runtime, read out by roi run */
	if (strcmp(roi_program_common(p, offsetof(struct roi_unit, runtime)), "none") != 0)
		return 0;
	if (strncmp(target, "avr", 3) == 0 && roi_avr_part(p->path, built, sizeof built, err) < 0)
		return -1;
	return roi_model_check_part(m, p->path, target, built, err);
}

int roi_session_load(struct roi_session *s, const struct roi_session_args *a, struct roi_err *err)
{
	memset(s, 0, sizeof *s);
	s->program_path = a->program;
	s->profile_path = a->profile;
	if (a->program && roi_program_load(a->program, &s->prog, err) != 0)
		return -1;
	if (a->measured) {
		s->meas = &s->measured;
		if (roi_measured_load(a->measured, &s->measured, err) != 0)
			return -1;
	}
	if (!s->profile_path) {
		s->profile_path = s->def = default_profile(a->program, err);
		if (!s->def) {
			if (!s->meas || !s->meas->has_blocks || !a->program)
				return -1;
			/* no run of the counted build (it may not fit the part): the measured blocks */
			s->profile_path = s->meas->path;
			counts_of_measured(s);
			goto model;
		}
	}
	if (roi_profile_load(s->profile_path, &s->prof, err) != 0)
		return -1;
	if (!a->program) {
		s->program_path = s->prof.program;
		if (roi_program_load(s->program_path, &s->prog, err) != 0)
			return -1;
	}
	if (roi_counts_join(&s->counts, &s->prog, &s->prof, err) != 0)
		return -1;
model:
	if (a->model) {
		s->m = &s->model;
		if (roi_model_load(a->model, &s->model, err) != 0 || check_model_part(&s->model, &s->prog, err) != 0)
			return -1;
	}
	if (a->check)
		roi_check_inputs(&s->prog, &s->counts, s->profile_path, s->m);
	if (a->check && s->meas)
		check_measured(s);
	return 0;
}

void roi_session_free(struct roi_session *s)
{
	roi_counts_free(&s->counts);
	roi_model_free(&s->model);
	roi_profile_free(&s->prof);
	roi_program_free(&s->prog);
	roi_measured_free(&s->measured);
	free(s->def);
	memset(s, 0, sizeof *s);
}
