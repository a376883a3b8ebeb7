/* calibrate/calibration.c — roi calibrate's steps, see calibration.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/datadir.h"
#include "base/readfile.h"
#include "calibrate/calibration.h"

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The plugin for cc: next to this roi in the build tree or its installed tree (roi_data_path), else
 * in cc's plugin directory. */
static char *default_plugin(const char *cc)
{
	char *mine = roi_data_path("build/avr/roi.so", "lib/roi/plugin/avr/roi.so"), path[PATH_MAX];

	if (mine)
		return mine;
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof cmd, "'%s' -print-file-name=plugin 2>/dev/null", cc);
	FILE *f = popen(cmd, "r");
	if (!f)
		return NULL;
	if (!fgets(path, sizeof path, f))
		path[0] = '\0';
	pclose(f);
	path[strcspn(path, "\n")] = '\0';
	strncat(path, "/roi.so", sizeof path - strlen(path) - 1);
	return exists(path) ? strdup(path) : NULL;
}

static char *default_corpus(void)
{
	return roi_data_path("contrib/calibration", "share/roi/calibration");
}

/* "avr-gcc 5.4.0": what the model's compiler field says, as the estimator compares it. */
static char *compiler_version(const char *cc)
{
	char cmd[PATH_MAX], v[128] = "";

	snprintf(cmd, sizeof cmd, "'%s' -dumpversion 2>/dev/null", cc);
	FILE *f = popen(cmd, "r");
	if (f) {
		if (!fgets(v, sizeof v, f))
			v[0] = '\0';
		pclose(f);
	}
	v[strcspn(v, "\n")] = '\0';
	size_t n = strlen(cc) + strlen(v) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s %s", strrchr(cc, '/') ? strrchr(cc, '/') + 1 : cc, v);
	return s;
}

/* The sources to calibrate on: DIR/NAME.c for the names in list, else every C file of DIR, sorted. */
static int corpus_sources(const char *dir, const char *list, char ***out, size_t *n, struct roi_err *err)
{
	*out = NULL;
	*n = 0;
	if (!list) {
		char pattern[PATH_MAX];
		glob_t g;

		snprintf(pattern, sizeof pattern, "%s/*.c", dir);
		if (glob(pattern, 0, NULL, &g) != 0)
			return roi_err_set(err, "%s: no programs (*.c) in the corpus", dir);
		*out = roi_xrealloc(NULL, g.gl_pathc, sizeof **out);
		for (size_t i = 0; i < g.gl_pathc; i++)
			(*out)[(*n)++] = strdup(g.gl_pathv[i]);
		globfree(&g);
		return 0;
	}
	size_t len;
	char *text = NULL;
	if (roi_read_file(list, ROI_MAX_TEXT, &text, &len, err) != 0)
		return -1;
	if (roi_text_check_nul(list, text, len, err) != 0) {
		free(text);
		return -1;
	}
	unsigned line = 0;
	for (char *s = text, *next; s && *s; s = next) {
		next = strchr(s, '\n');
		if (next)
			*next++ = '\0';
		line++;
		char *hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		char *name = s + strspn(s, " \t\r");
		name[strcspn(name, " \t\r")] = '\0';
		if (!*name)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s.c", dir, name);
		if (!exists(path)) {
			/* name points into text: the message is made before text goes */
			roi_err_set(err, "%s:%u: no program '%s' in the corpus (%s)", list, line, name, path);
			free(text);
			return -1;
		}
		*out = roi_xrealloc(*out, *n + 1, sizeof **out);
		(*out)[(*n)++] = strdup(path);
	}
	free(text);
	if (*n == 0)
		return roi_err_set(err, "%s: names no programs", list);
	return 0;
}

/* Energy per program from CSV "NAME,JOULES" lines; every corpus program needs one. */
static int load_energy(const char *path, const struct roi_calib_set *set, double *y, struct roi_err *err)
{
	size_t len;
	char *text = NULL;
	unsigned line = 0;

	for (size_t p = 0; p < set->nprograms; p++)
		y[p] = -1;
	if (roi_read_file(path, ROI_MAX_TEXT, &text, &len, err) != 0)
		return -1;
	if (roi_text_check_nul(path, text, len, err) != 0) {
		free(text);
		return -1;
	}
	for (char *s = text, *next; s && *s; s = next) {
		next = strchr(s, '\n');
		if (next)
			*next++ = '\0';
		line++;
		s[strcspn(s, "#\r")] = '\0';
		if (!*s || strspn(s, " \t") == strlen(s) || (line == 1 && strstr(s, "program")))
			continue;
		char *comma = strchr(s, ',');
		if (!comma) {
			free(text);
			return roi_err_set(err, "%s:%u:1: expected 'NAME,JOULES'", path, line);
		}
		*comma = '\0';
		char *end;
		errno = 0;
		double j = strtod(comma + 1, &end);
		end += strspn(end, " \t");
		if (errno || end == comma + 1 || *end || !(j > 0)) {
			int col = (int)(comma - s) + 2;
			free(text);
			return roi_err_set(err, "%s:%u:%d: expected energy in joules (a positive number)", path, line, col);
		}
		size_t p = 0;
		while (p < set->nprograms && strcmp(set->programs[p].name, s) != 0)
			p++;
		if (p == set->nprograms) {
			roi_err_set(err, "%s:%u:1: '%s' is not a program of the corpus", path, line, s);
			free(text);
			return -1;
		}
		y[p] = j;
	}
	free(text);
	for (size_t p = 0; p < set->nprograms; p++)
		if (y[p] < 0)
			return roi_err_set(err, "%s: no energy for program '%s'", path, set->programs[p].name);
	return 0;
}

int roi_calibration_prepare(struct roi_calibration *cal, const struct roi_calibration_args *a, struct roi_err *err)
{
	const char *work = a->work;

	memset(cal, 0, sizeof *cal);
	cal->fo = a->fit;
	if (roi_model_load(a->base, &cal->bm, err) != 0)
		return -1;
	{
		size_t len;
		char *text;
		if (roi_read_file(cal->bm.path, ROI_MAX_MODEL, &text, &len, err) != 0)
			return -1;
		cal->base = cJSON_ParseWithLength(text, len);
		free(text);
	}
	uint64_t freq = a->freq ? strtoull(a->freq, NULL, 10) : (uint64_t)cal->bm.clock_hz;
	if (freq == 0 || freq > UINT32_MAX)
		return roi_err_set(err, "--freq '%s' is not a frequency in Hz", a->freq ? a->freq : "");
	cal->plugin = a->plugin ? realpath(a->plugin, NULL) : default_plugin(a->cc);
	if (!cal->plugin)
		return roi_err_set(err, a->plugin ? "%s: %s"
					: "no roi plugin for %s%s: build it ('make avr') or name it with --plugin",
				   a->plugin ? a->plugin : a->cc, a->plugin ? strerror(errno) : "");
	cal->corpus = a->corpus ? strdup(a->corpus) : default_corpus();
	if (!cal->corpus)
		return roi_err_set(err, "no calibration corpus found: name it with --corpus DIR");
	cal->compiler = compiler_version(a->cc);
	if (corpus_sources(cal->corpus, a->programs, &cal->sources, &cal->nsources, err) != 0)
		return -1;
	if (!work) {
		const char *tmpdir = getenv("TMPDIR");
		snprintf(cal->work_tmp, sizeof cal->work_tmp, "%s/roi-calibrate.XXXXXX",
			 tmpdir && *tmpdir ? tmpdir : "/tmp");
		if (!mkdtemp(cal->work_tmp))
			return roi_err_set(err, "%s: %s", cal->work_tmp, strerror(errno));
		cal->made_work = true;
		work = cal->work_tmp;
	} else if (mkdir(work, 0777) != 0 && errno != EEXIST) {
		return roi_err_set(err, "%s: %s", work, strerror(errno));
	}
	cal->b = (struct roi_calib_build){a->cc, a->mcu, a->opt, cal->plugin, work, (uint32_t)freq, 2000000000ull};
	return 0;
}

int roi_calibration_measure(struct roi_calibration *cal, const char *energy, FILE *progress, struct roi_err *err)
{
	struct roi_calib_set *set = &cal->set;

	for (size_t i = 0; i < cal->nsources; i++) {
		if (roi_calib_add(set, &cal->b, cal->sources[i], err) != 0)
			return -1;
		fprintf(progress, "roi calibrate: %-28s %10llu cycles (start-up %llu)\n", set->programs[i].name,
			(unsigned long long)set->programs[i].cycles, (unsigned long long)set->programs[i].startup);
	}
	cal->x = roi_calib_matrix(set);
	if (energy) {
		cal->y_e = calloc(set->nprograms + 1, sizeof *cal->y_e);
		if (load_energy(energy, set, cal->y_e, err) != 0)
			return -1;
	}
	return 0;
}

cJSON *roi_calibration_fit(struct roi_calibration *cal, const unsigned char *skip)
{
	roi_calib_fit_free(&cal->cyc);
	roi_calib_fit_free(&cal->en);
	roi_calib_fit_all(&cal->set, cal->x, cal->y_e, &cal->bm, skip, &cal->fo, &cal->cyc, &cal->en);
	return roi_calibration_model_json(cal, skip);
}

int roi_calibration_leave_one_out(struct roi_calibration *cal, const char *dir, struct roi_err *err)
{
	const struct roi_calib_set *set = &cal->set;
	unsigned char *skip = calloc(set->nprograms + 1, 1);
	int rc = 0;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		roi_err_set(err, "%s: %s", dir, strerror(errno));
		free(skip);
		return -1;
	}
	for (size_t p = 0; p < set->nprograms && rc == 0; p++) {
		char path[PATH_MAX];
		cJSON *doc;

		memset(skip, 0, set->nprograms);
		skip[p] = 1;
		doc = roi_calibration_fit(cal, skip);
		snprintf(path, sizeof path, "%s/%s.json", dir, set->programs[p].name);
		rc = roi_calibration_write(path, doc, err);
		cJSON_Delete(doc);
	}
	free(skip);
	return rc;
}

/* The working directory roi made (mkdtemp: its own, private) goes with everything in it: every
 * build of every program, those of a program that failed too. */
static void remove_work(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

void roi_calibration_free(struct roi_calibration *cal)
{
	if (cal->made_work)
		remove_work(cal->work_tmp);
	for (size_t i = 0; i < cal->nsources; i++)
		free(cal->sources[i]);
	free(cal->sources);
	free(cal->x);
	free(cal->y_e);
	roi_calib_fit_free(&cal->cyc);
	roi_calib_fit_free(&cal->en);
	free(cal->plugin);
	free(cal->corpus);
	free(cal->compiler);
	cJSON_Delete(cal->base);
	roi_calib_free(&cal->set);
	roi_model_free(&cal->bm);
	memset(cal, 0, sizeof *cal);
}
