/* gcov/read.c — gcov run on a .gcda and its JSON read, see check.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/array.h"
#include "gcov/check.h"

/* gcov --json-format --stdout GCDA into *out. gcov finds the .gcno beside the .gcda. */
int roi_gcov_run(struct roi_gcov_check *c, const char *gcda, char **out, struct roi_err *err)
{
	const char *arg = gcda[0] == '-' ? roi_arena_printf(&c->arena, "./%s", gcda) : gcda;
	char *argv[] = {(char *)c->gcov, (char *)"--json-format", (char *)"--stdout", (char *)arg, NULL};
	posix_spawn_file_actions_t fa;
	FILE *errs = tmpfile();
	int fd[2], rc, status;
	pid_t pid;
	size_t len = 0, cap = 0;
	char *buf = NULL;

	if (!errs)
		return roi_err_set(err, "gcov failed on %s: cannot create a temporary file: %s", gcda, strerror(errno));
	if (pipe(fd) != 0) {
		fclose(errs);
		return roi_err_set(err, "gcov failed on %s: pipe: %s", gcda, strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(errs), 2);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	rc = posix_spawnp(&pid, c->gcov, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc != 0) {
		close(fd[0]);
		fclose(errs);
		return roi_err_set(err, "gcov failed on %s: cannot run '%s': %s", gcda, c->gcov, strerror(rc));
	}
	for (;;) {
		if (cap - len < 4097)
			buf = roi_xrealloc(buf, cap = cap ? 2 * cap : 65536, 1);
		ssize_t got = read(fd[0], buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char line[512] = "";

		rewind(errs);
		if (fgets(line, sizeof line, errs))
			line[strcspn(line, "\n")] = '\0';
		if (!*line)
			snprintf(line, sizeof line, WIFEXITED(status) ? "exit status %d" : "killed by signal %d",
				 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		fclose(errs);
		free(buf);
		return roi_err_set(err, "gcov failed on %s: %s", gcda, line);
	}
	fclose(errs);
	*out = buf;
	return 0;
}

static bool get_count(const cJSON *o, const char *key, uint64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740992.0)
		return false;
	*out = (uint64_t)v->valuedouble;
	return true;
}

static const char *get_string(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Reads gcov's JSON (files[] with functions[] and lines[]) for .gcda number gi. */
int roi_gcov_parse(struct roi_gcov_check *c, size_t gi, const char *text, struct roi_err *err)
{
	struct roi_gcov_gcda *g = &c->gcda[gi];
	cJSON *root = cJSON_Parse(text);
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files"), *file;
	const char *cwd = get_string(root, "current_working_directory"), *what = NULL;

	if (!root)
		return roi_err_set(err, "gcov failed on %s: its output is not JSON", g->path);
	if (!cJSON_IsArray(files)) {
		cJSON_Delete(root);
		return roi_err_set(err, "gcov failed on %s: its JSON has no 'files' array", g->path);
	}
	g->fn0 = c->ngfn;
	cJSON_ArrayForEach(file, files) {
		const char *name = get_string(file, "file"), *canon;
		const cJSON *fns = cJSON_GetObjectItemCaseSensitive(file, "functions");
		const cJSON *lines = cJSON_GetObjectItemCaseSensitive(file, "lines"), *x;

		if (!name) {
			what = "a file without 'file'";
			break;
		}
		canon = roi_gcov_canon_path(c, cwd, name);
		name = roi_arena_strdup(&c->arena, name);
		cJSON_ArrayForEach(x, fns) {
			const char *fname = get_string(x, "name");
			uint64_t line, count;

			if (!fname || !get_count(x, "start_line", &line) || !get_count(x, "execution_count", &count) ||
			    line > UINT_MAX) {
				what = "a function without name, start_line or execution_count";
				break;
			}
			c->gfn = roi_xgrow(c->gfn, c->ngfn, &c->capgfn, sizeof *c->gfn);
			c->gfn[c->ngfn++] = (struct roi_gcov_gfn){roi_arena_strdup(&c->arena, fname), canon, name, (unsigned)line,
							 count, gi, SIZE_MAX};
		}
		cJSON_ArrayForEach(x, lines) {
			const char *fname = get_string(x, "function_name");
			uint64_t line, count;

			if (!get_count(x, "line_number", &line) || !get_count(x, "count", &count) || line > UINT_MAX) {
				what = "a line without line_number or count";
				break;
			}
			c->gline = roi_xgrow(c->gline, c->ngline, &c->capgline, sizeof *c->gline);
			c->gline[c->ngline++] = (struct roi_gcov_gline){fname ? roi_arena_strdup(&c->arena, fname) : NULL, canon,
							       name, (unsigned)line, count, gi};
		}
		if (what)
			break;
	}
	g->nfn = c->ngfn - g->fn0;
	cJSON_Delete(root);
	if (what)
		return roi_err_set(err, "gcov failed on %s: unexpected JSON: %s", g->path, what);
	return 0;
}
