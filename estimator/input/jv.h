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

/* ---- A large document a piece at a time ----
 * A .roi.meta record of a large program is tens of megabytes, and its cJSON tree ten to twenty
 * times that, in millions of small allocations. jv_pieces reads the members of the document's
 * top-level object, and the elements of an array member, one at a time: every key and every value
 * is parsed by cJSON (cJSON_ParseWithLengthOpts says where a value ended), and only the object and
 * array syntax between them (braces, brackets, ':', ',' and white space) is read here. The checks
 * are jv_parse's, with its messages at the same bytes: NUL bytes and \u0000 first, malformed JSON,
 * nesting past cJSON's limit counted from the document's start, a duplicate key anywhere (named
 * by its path from the root). Errors are reported in the document's order as far as a member has
 * been read. */
struct jv_scratch;

struct jv_pieces {
	const struct jv *v;
	const char *text, *p, *end;     /* the document, text[len] NUL; the position; text + len */
	unsigned depth;                 /* containers open at p: 1 in the object, 2 in a member's array */
	size_t index;                   /* the next element's index in the array */
	size_t nmembers, nelements;     /* read so far, of the object and of the array */
	cJSON *key;                     /* the last member's key */
	char **keys;                    /* every key read, for duplicates */
	size_t nkeys;
	struct jv_scratch *scratch;     /* the values parsed with scratch set */
};

/* Starts reading text[0, len) (text[len] is a NUL byte). Returns 0 when the document is an object
 * (then read its members), 1 when it is well-formed JSON of another kind (*whole is it, for the
 * caller's message and cJSON_Delete), -1 with the error set. */
int jv_pieces_begin(struct jv_pieces *d, const struct jv *v, const char *text, size_t len, cJSON **whole);

/* The next member: 1 with its key (valid until the next call), the position at its value; 0 after
 * the object's end, which ends the document; -1 with the error set. A key already read is a
 * duplicate. */
int jv_pieces_member(struct jv_pieces *d, const char **key);

/* Parses the value at the position (a member's or an element's), whose path is where, and moves
 * past it. With scratch, the tree lives until jv_pieces_reset (never cJSON_Delete it); without,
 * it is the caller's to cJSON_Delete. NULL with the error set. */
cJSON *jv_pieces_value(struct jv_pieces *d, const char *where, bool scratch);

/* At a member's value: whether it is an array, which is then entered (its elements are read with
 * jv_pieces_next and jv_pieces_value), or not (read it with jv_pieces_value). */
bool jv_pieces_array(struct jv_pieces *d);

/* In an entered array: 1 when an element follows (the position at it, d->index its index), 0
 * after the array's end (the position after it), -1 with the error set. */
int jv_pieces_next(struct jv_pieces *d);

/* Drops the values parsed with scratch. */
void jv_pieces_reset(struct jv_pieces *d);

void jv_pieces_end(struct jv_pieces *d);

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

/* For the elements of large arrays (the metadata has millions): whether item is an integer in
 * [min, max], then in *out, with no path made. A caller that gets false calls jv_integer_item,
 * with the element's path made only then, for the message. */
bool jv_integer_ok(const cJSON *item, long long min, long long max, long long *out);

/* "WHERE.MEMBER[I]" into buf ("MEMBER[I]" when where is "", "WHERE[I]" when member is NULL), without
 * printf: the path of each of a record's blocks is made. Returns buf. */
const char *jv_index(char *buf, size_t size, const char *where, const char *member, size_t i);

/* The string must be one of the NULL-terminated list. */
int jv_one_of(const struct jv *v, const char *where, const char *key, const char *value,
	      const char *const *allowed);

#endif
