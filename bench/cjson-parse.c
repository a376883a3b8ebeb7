/* cjson-parse.c FILE — what cJSON alone costs on a .roi.meta section dumped to FILE: every
 * NUL-separated record parsed whole by cJSON_ParseWithLength and deleted, as roi read records
 * before it read them a function at a time. Prints the seconds (monotonic clock, parse and delete)
 * and the peak resident memory. bench/overhead.sh puts it beside roi estimate's own figures: the
 * floor that parsing the metadata with cJSON sets. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cjson/cJSON.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	struct rusage ru;

	if (!f) {
		fprintf(stderr, "usage: cjson-parse FILE (a .roi.meta section)\n");
		return 2;
	}
	do {
		if (len + 65536 + 1 > cap && !(text = realloc(text, cap = 2 * (len + 65536 + 1))))
			return 1;
		len += n = fread(text + len, 1, 65536, f);
	} while (n > 0);
	fclose(f);
	text[len] = '\0';

	double t0 = now(), parse = 0;
	for (size_t at = 0; at < len; at += strlen(text + at) + 1) {
		size_t rlen = strlen(text + at);
		if (rlen == 0)
			continue;
		double t = now();
		cJSON *root = cJSON_ParseWithLength(text + at, rlen);
		parse += now() - t;
		if (!root) {
			fprintf(stderr, "cjson-parse: record at byte %zu: malformed JSON\n", at);
			return 1;
		}
		cJSON_Delete(root);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("cJSON alone: parse %.2fs, parse and delete %.2fs, %ld MiB\n", parse, now() - t0,
	       (ru.ru_maxrss + 1023) / 1024);
	free(text);
	return 0;
}
