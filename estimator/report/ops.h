/* report/ops.h — roi ops (docs/ops.md): what a program's metadata says before it runs, as text and
 * JSON (every function, and the operations of each of its source lines with how many times its
 * blocks perform them when each runs once), and what counting costs the firmware (--size). */
#ifndef ROI_REPORT_OPS_H
#define ROI_REPORT_OPS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "base/err.h"
#include "input/meta.h"

void roi_ops_text(FILE *out, const struct roi_program *p);
cJSON *roi_ops_json(const struct roi_program *p);

/* The RAM of the counter arrays (from the symbol table) and the code bytes, and with baseline (the
 * same sources built without the plugin) the code bytes the increments added. Returns -1 with err
 * set when an ELF or a counter array's symbol cannot be read; what was printed before stays. */
int roi_ops_size(FILE *out, const struct roi_program *p, const char *baseline, struct roi_err *err);

#endif
