/* base/json.h — what the commands' JSON documents share: a member that is null when its value is
 * not known, and the document printed. */
#ifndef ROI_JSON_H
#define ROI_JSON_H

#include <stdbool.h>

#include <cjson/cJSON.h>

/* key: v, or null when !known or v is not finite. */
void roi_json_number_or_null(cJSON *o, const char *key, bool known, double v);
/* key: s, or null when s is NULL. */
void roi_json_string_or_null(cJSON *o, const char *key, const char *s);

/* The document on stdout as cJSON_Print lays it out, one line feed after; then deleted. */
void roi_json_print(cJSON *doc);

#endif
