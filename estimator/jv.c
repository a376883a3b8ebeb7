/* jv.c — validated cJSON access, see jv.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jv.h"

int jv_fail(const struct jv *v, const char *where, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (where && *where)
		return roi_err_set(v->err, "%s: %s: %s", v->prefix, where, what);
	return roi_err_set(v->err, "%s: %s", v->prefix, what);
}

/* "where.key", or "key" at the root. */
static const char *path(char *buf, size_t n, const char *where, const char *key)
{
	snprintf(buf, n, "%s%s%s", where, *where ? "." : "", key);
	return buf;
}

int jv_object(const struct jv *v, const cJSON *item, const char *where)
{
	if (!cJSON_IsObject(item))
		return jv_fail(v, where, "must be a JSON object");
	return 0;
}

/* The member, or NULL; a missing required member is an error (*rc = -1). */
static const cJSON *member(const struct jv *v, const cJSON *obj, const char *where, const char *key,
			   bool required, int *rc)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);

	*rc = 0;
	if (!m && required)
		*rc = jv_fail(v, where, "missing '%s'", key);
	return m;
}

int jv_string(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	      const char **out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsString(m) || !m->valuestring)
		return jv_fail(v, path(p, sizeof p, where, key), "must be a string");
	*out = roi_arena_strdup(v->arena, m->valuestring);
	return 0;
}

int jv_number(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	      double min, double max, double *out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsNumber(m) || !isfinite(m->valuedouble))
		return jv_fail(v, path(p, sizeof p, where, key), "must be a number");
	if (m->valuedouble < min || m->valuedouble > max)
		return jv_fail(v, path(p, sizeof p, where, key), "%g is out of range (%g to %g)", m->valuedouble,
			       min, max);
	*out = m->valuedouble;
	return 0;
}

int jv_integer_item(const struct jv *v, const cJSON *item, const char *where, long long min, long long max,
		    long long *out)
{
	double d;

	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || floor(item->valuedouble) != item->valuedouble)
		return jv_fail(v, where, "must be an integer");
	d = item->valuedouble;
	if (d < (double)min || d > (double)max)
		return jv_fail(v, where, "%.0f is out of range (%lld to %lld)", d, min, max);
	*out = (long long)d;
	return 0;
}

int jv_integer(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	       long long min, long long max, long long *out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	return jv_integer_item(v, m, path(p, sizeof p, where, key), min, max, out);
}

int jv_bool(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required, bool *out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsBool(m))
		return jv_fail(v, path(p, sizeof p, where, key), "must be true or false");
	*out = cJSON_IsTrue(m);
	return 0;
}

int jv_array(const struct jv *v, const cJSON *obj, const char *where, const char *key, bool required,
	     const cJSON **out)
{
	char p[256];
	int rc;
	const cJSON *m = member(v, obj, where, key, required, &rc);

	if (!m)
		return rc;
	if (!cJSON_IsArray(m))
		return jv_fail(v, path(p, sizeof p, where, key), "must be an array");
	*out = m;
	return 0;
}

int jv_one_of(const struct jv *v, const char *where, const char *key, const char *value,
	      const char *const *allowed)
{
	char p[256], list[200] = "";

	for (size_t i = 0; allowed[i]; i++) {
		if (strcmp(value, allowed[i]) == 0)
			return 0;
		if (strlen(list) + strlen(allowed[i]) + 8 < sizeof list)
			strcat(strcat(list, i ? ", " : ""), allowed[i]);
		else if (!strstr(list, "..."))
			strcat(list, ", ...");
	}
	if (strlen(value) > 40)
		return jv_fail(v, path(p, sizeof p, where, key), "unknown value (expected one of: %s)", list);
	return jv_fail(v, path(p, sizeof p, where, key), "unknown value '%s' (expected one of: %s)", value, list);
}
