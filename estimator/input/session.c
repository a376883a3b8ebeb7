/* input/session.c — a run's inputs loaded in one call, see session.h. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/checks.h"
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

int roi_session_load(struct roi_session *s, const struct roi_session_args *a, struct roi_err *err)
{
	memset(s, 0, sizeof *s);
	s->program_path = a->program;
	s->profile_path = a->profile;
	if (a->program && roi_program_load(a->program, &s->prog, err) != 0)
		return -1;
	if (!s->profile_path) {
		s->profile_path = s->def = default_profile(a->program, err);
		if (!s->def)
			return -1;
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
	if (a->model) {
		s->m = &s->model;
		if (roi_model_load(a->model, &s->model, err) != 0)
			return -1;
	}
	if (a->check)
		roi_check_inputs(&s->prog, &s->counts, s->profile_path, s->m);
	return 0;
}

void roi_session_free(struct roi_session *s)
{
	roi_counts_free(&s->counts);
	roi_model_free(&s->model);
	roi_profile_free(&s->prof);
	roi_program_free(&s->prog);
	free(s->def);
	memset(s, 0, sizeof *s);
}
