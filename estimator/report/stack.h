/* report/stack.h — roi stack (docs/stack.md): a program's frames, worst-case stack depths from
 * each root and RAM margin (stack/stack.h) as text, JSON, and the call graph as a graphviz dot
 * graph with, when a run was given, its calls and cycles on the edges. */
#ifndef ROI_REPORT_STACK_H
#define ROI_REPORT_STACK_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "stack/stack.h"

void roi_stack_text(FILE *out, const struct roi_stack *s);
cJSON *roi_stack_json(const struct roi_stack *s);
void roi_stack_dot(FILE *out, const struct roi_stack *s);

/* "main > fir > __mulsi3": the worst path from fn into buf. */
const char *roi_stack_path_text(const struct roi_stack *s, size_t fn, char *buf, size_t size);
/* "137", ">= 40" when the depth is a lower bound (flags says so). */
const char *roi_stack_depth_text(long long depth, unsigned flags, char *buf, size_t size);

#endif
