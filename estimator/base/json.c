/* base/json.c — JSON members and documents, see json.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/json.h"

void roi_json_number_or_null(cJSON *o, const char *key, bool known, double v)
{
	if (known && isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

void roi_json_string_or_null(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

void roi_json_print(cJSON *doc)
{
	char *text = cJSON_Print(doc);

	if (text)
		puts(text);
	free(text);
	cJSON_Delete(doc);
}
