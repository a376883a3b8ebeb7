/* input/session.h — a run's inputs as every command that reads a profile loads them: the
 * program's metadata, the profile of a run of it, the block counts joined from the two (counts.h),
 * a cost model when one is named, and the warnings about them (checks.h).
 *
 * A command names what the user named: the program, or none when the profile's "program" line is
 * to say which (roi compare, roi fit, roi budget diff); the profile, or none for the program's
 * default (./<basename>.roi, where a host program writes it, else <PROGRAM>.roi, where roi run
 * writes it). */
#ifndef ROI_SESSION_H
#define ROI_SESSION_H

#include <stdbool.h>

#include "base/err.h"
#include "input/counts.h"
#include "input/measured.h"
#include "input/meta.h"
#include "input/model.h"
#include "input/profile.h"

struct roi_session_args {
	const char *program;            /* NULL: the program the profile's "program" line names */
	const char *profile;            /* NULL: the program's default profile */
	const char *model;              /* NULL: none */
	bool check;                     /* warn about the inputs once they are loaded (roi_check_inputs) */
	const char *measured;           /* NULL: none; else a measured profile (measured.h) whose figures
					 * are shown beside the estimates; when no profile is named and the
					 * default one does not exist, the counts come from its blocks */
};

struct roi_session {
	const char *program_path;       /* as named, or the profile's "program" line */
	const char *profile_path;       /* as named, or the default */
	struct roi_program prog;
	struct roi_profile prof;
	struct roi_counts counts;
	struct roi_model model;
	const struct roi_model *m;      /* &model when one was named, else NULL */
	char *def;                      /* the default profile's path, when it was taken */
	struct roi_measured measured;
	const struct roi_measured *meas;        /* &measured when one was named, else NULL */
	bool counts_measured;           /* the counts are the measured profile's blocks */
};

/* Loads the program (first when it is named; else after the profile, which names it), the
 * profile, the counts, the model and the measured profile, in that order, and with a->check warns
 * about them. Returns
 * -1 with err set by the first that cannot be read or joined ("out of memory" when the default
 * profile's path cannot be made). Free with roi_session_free in every case. */
int roi_session_load(struct roi_session *s, const struct roi_session_args *a, struct roi_err *err);
void roi_session_free(struct roi_session *s);

#endif
