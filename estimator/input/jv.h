/* input/jv.h — validated access to cJSON trees, for the metadata and model loaders.
 *
 * Every getter names what is wrong by a jq-like path, so a message reads
 * "PREFIX: costs[3]: missing 'cycles'" or "PREFIX: functions[0].line: must be an integer".
 * "where" is the path of the object being read ("" for the root). Strings are copied into
 * the arena, so the cJSON tree can be freed right after loading. */
#ifndef ROI_JV_H
#define ROI_JV_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "base/arena.h"
#include "base/err.h"

struct jv {
	struct roi_err *err;
	const char *prefix;     /* "FILE" or "FILE: .roi.meta record N" */
	struct roi_arena *arena;
};

/* Parses text[0, len) (text[len] is a NUL byte) as one JSON document, or returns NULL with the
 * error set: a NUL byte or the escape \u0000 (either would cut text short), malformed JSON, JSON
 * nested deeper than cJSON's limit (1000), each at "PREFIX:LINE:COL: " (by_line) or at "PREFIX:
 * ... at byte N"; and an object with a key twice, "PREFIX: PATH: duplicate key 'K'", anywhere in
 * the document: a reader would take one of them and silently drop the other. */
cJSON *jv_parse(const struct jv *v, const char *text, size_t len, bool by_line);

/* Every key of obj is in the NULL-terminated list allowed, else "PREFIX: WHERE: unknown key 'K'"
 * (-1): a misspelt key is otherwise an optional one silently left out. */
int jv_keys(const struct jv *v, const cJSON *obj, const char *where, const char *const *allowed);

/* Sets "PREFIX: WHERE: <fmt>" (or "PREFIX: <fmt>" when where is "") and returns -1. */
int jv_fail(const struct jv *v, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int jv_object(const struct jv *v, const cJSON *item, const char *where);

/* Field getters: 0 on success or when an optional field is absent (output untouched), else -1. */
int jv_string(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	      const char **out);
int jv_number(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	      double min, double max, double *out);
int jv_integer(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	       long long min, long long max, long long *out);
int jv_bool(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required, bool *out);
int jv_array(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	     const cJSON **out);

/* An array element that must be an integer in [min, max]; where is the element's own path. */
int jv_integer_item(const struct jv *v, const cJSON *item, const char *where, long long min, long long max,
		    long long *out);

/* The string must be one of the NULL-terminated list. */
int jv_one_of(const struct jv *v, const char *where, const char *key, const char *value,
	      const char *const *allowed);

#endif
