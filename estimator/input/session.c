/* input/session.c — a run's inputs loaded in one call, see session.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/checks.h"
#include "input/session.h"

/* The profile of PROGRAM when none is named: ./<basename>.roi (where a host program writes it),
 * else <PROGRAM>.roi (where 'roi run' writes it, next to the firmware) if that one exists.
 * Malloc'd; NULL when out of memory. */
static char *default_profile(const char *program)
{
	const char *base = strrchr(program, '/');
	size_t n = strlen(program) + 8;
	char *path = malloc(n);

	if (!path)
		return NULL;
	snprintf(path, n, "./%s.roi", base ? base + 1 : program);
	if (access(path, F_OK) != 0) {
		char *beside = malloc(n);

		if (beside) {
			snprintf(beside, n, "%s.roi", program);
			if (access(beside, F_OK) == 0) {
				free(path);
				return beside;
			}
			free(beside);
		}
	}
	return path;
}

int roi_session_load(struct roi_session *s, const struct roi_session_args *a, struct roi_err *err)
{
	memset(s, 0, sizeof *s);
	s->program_path = a->program;
	s->profile_path = a->profile;
	if (a->program && roi_program_load(a->program, &s->prog, err) != 0)
		return -1;
	if (!s->profile_path) {
		s->profile_path = s->def = default_profile(a->program);
		if (!s->def)
			return roi_err_set(err, "out of memory");
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
