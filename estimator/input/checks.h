/* input/checks.h — the warnings every command that joins a program, a profile and a model gives about
 * them (docs/estimate-json.md): a model for another compiler, functions without counts, saturated
 * 16-bit counters, filter rules that matched nothing. */
#ifndef ROI_CHECKS_H
#define ROI_CHECKS_H

#include "input/counts.h"
#include "input/meta.h"
#include "input/model.h"

/* Warns (roi: warning: ..., one line each) about what may make the numbers off; model may be NULL. */
void roi_check_inputs(const struct roi_program *p, const struct roi_counts *c, const char *profile,
		      const struct roi_model *m);

#endif
