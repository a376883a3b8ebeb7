/* fuzz/filter.cc — the plugin's filter file reader (gcc-plugin/roi-filter.cc) on arbitrary bytes.
 *
 * A filter file is outside data the compiler reads (-fplugin-arg-roi-filter=FILE). It is not
 * estimator code, but the plugin's source compiles outside GCC: this file includes roi-filter.cc
 * and roi-util.cc (which gives access to the reader's static state, to start afresh on every
 * input) and stands in for the few GCC functions they call. GCC's error() is counted, not printed.
 *
 * Whatever the file holds: the reader must accept it or report errors (and then say it failed);
 * the "filter" object it writes into the metadata must be JSON that cJSON reads, with one rule per
 * rule read, in order, and nothing but what the estimator's meta.c accepts (lines from 1). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libiberty, as GCC links it: allocation that does not fail. Defined before GCC's headers, which
 * poison malloc and friends for GCC's own code. */
extern "C" {
void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    abort ();
  return p;
}

void *
xrealloc (void *p, size_t n)
{
  p = realloc (p, n ? n : 1);
  if (!p)
    abort ();
  return p;
}

char *
xstrdup (const char *s)
{
  return (char *) memcpy (xmalloc (strlen (s) + 1), s, strlen (s) + 1);
}

char *
xstrndup (const char *s, size_t n)
{
  size_t len = strnlen (s, n);
  char *d = (char *) xmalloc (len + 1);
  memcpy (d, s, len);
  d[len] = '\0';
  return d;
}

/* GCC's system.h makes fdopen this; <cstdio> undoes it for fopen, not for fdopen.  */
FILE *
fdopen_unlocked (int fd, const char *mode)
{
  return fdopen (fd, mode);
}

char *
xstrerror (int e)
{
  return strerror (e);
}

char *
lrealpath (const char *path)
{
  char *r = realpath (path, NULL);
  return r ? r : xstrdup (path);
}

char *
concat (const char *first, ...)
{
  va_list ap;
  size_t len = 0;
  va_start (ap, first);
  for (const char *s = first; s; s = va_arg (ap, const char *))
    len += strlen (s);
  va_end (ap);
  char *d = (char *) xmalloc (len + 1);
  d[0] = '\0';
  va_start (ap, first);
  for (const char *s = first; s; s = va_arg (ap, const char *))
    strcat (d, s);
  va_end (ap);
  return d;
}
}

#include "../gcc-plugin/roi-filter.cc"
#include "../gcc-plugin/roi-util.cc"

#include <sys/mman.h>
#include <unistd.h>

#include <cjson/cJSON.h>

static unsigned errors;

/* The reader leaks the words of a rule it rejects. That is GCC's own convention: the compilation
 * stops with the error and cc1 exits, releasing everything, as it does for its own allocations. So
 * leaks are not checked for this target; every other target checks them. */
extern "C" int __lsan_is_turned_off (void);
extern "C" int
__lsan_is_turned_off (void)
{
  return 1;
}

/* GCC's diagnostics: counted. The format is GCC's (%qs, %<), not printf's, so it is not used. */
void error (const char *, ...) { errors++; }
bool warning_at (location_t, int, const char *, ...) { return false; }

/* GCC's abort () names the place; the fuzzer's report does that too. */
void
fancy_abort (const char *file, int line, const char *function)
{
  fprintf (stderr, "fancy_abort: %s:%d (%s)\n", file, line, function);
  (abort) ();
}

/* What only the pass calls (matching declarations, building trees): never reached from here. */
expanded_location expand_location (location_t) { abort (); }
tree decl_assembler_name (tree) { abort (); }
tree build_decl (location_t, enum tree_code, tree, tree) { abort (); }
tree (get_identifier) (const char *) { abort (); }
tree get_identifier_with_length (const char *, size_t) { abort (); }
void finish_builtin_struct (tree, const char *, tree, tree) { abort (); }
tree make_node (enum tree_code MEM_STAT_DECL) { abort (); }

static void
reset (void)
{
  for (unsigned i = 0; i < nrules; i++)
    {
      XDELETEVEC (rules[i].name);
      XDELETEVEC (rules[i].text);
    }
  XDELETEVEC (rules);
  rules = NULL;
  nrules = 0;
  XDELETEVEC (filter_path);
  filter_path = NULL;
  errors = 0;
}

/* The "filter" object as roi_filter_describe writes it into a unit's record.  */
static void
check_description (void)
{
  struct roi_buf b = {};
  roi_filter_describe (&b);
  if (!b.text || strncmp (b.text, ",\n\"filter\":", 11) != 0)
    abort ();
  char *doc = concat ("{", b.text + 2, "}", NULL);
  cJSON *root = cJSON_Parse (doc);
  if (!root)
    abort ();
  const cJSON *f = cJSON_GetObjectItemCaseSensitive (root, "filter");
  const cJSON *r = cJSON_GetObjectItemCaseSensitive (f, "rules"), *x;
  if (!cJSON_IsString (cJSON_GetObjectItemCaseSensitive (f, "path"))
      || !cJSON_IsArray (r) || (unsigned) cJSON_GetArraySize (r) != nrules)
    abort ();
  unsigned i = 0;
  cJSON_ArrayForEach (x, r)
    {
      const cJSON *line = cJSON_GetObjectItemCaseSensitive (x, "line");
      const cJSON *text = cJSON_GetObjectItemCaseSensitive (x, "text");
      if (!cJSON_IsNumber (line) || line->valuedouble < 1 || line->valuedouble != rules[i].line
	  || !cJSON_IsString (text) || strcmp (text->valuestring, rules[i].text) != 0
	  || !cJSON_IsBool (cJSON_GetObjectItemCaseSensitive (x, "matched")))
	abort ();
      i++;
    }
  cJSON_Delete (root);
  XDELETEVEC (doc);
  XDELETEVEC (b.text);
}

extern "C" int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

extern "C" int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int fd = -1;
  static char path[64];

  if (fd < 0)
    {
      fd = memfd_create ("fuzz-filter", 0);
      if (fd < 0)
	abort ();
      snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
    }
  if (ftruncate (fd, 0) != 0 || pwrite (fd, data, size, 0) != (ssize_t) size)
    abort ();
  reset ();
  bool ok = roi_filter_load (path);
  if (ok != (errors == 0))
    abort ();
  roi_filter_hooks_loop ("a.c", 10);
  roi_filter_hooks_loop ("/a.c", 1);
  if (ok)
    check_description ();
  return 0;
}
