/* roi-filter.cc — the filter file: which functions are counted, which
 * functions and loops get region hooks (syntax: docs/regions.md).
 *
 * Names match exactly unless a rule says glob:, because substring matching
 * (GCC's -finstrument-functions-exclude-function-list) excludes foobar along
 * with foo.  Rules of one effect apply in order; the last match decides.  */
#include "roi-filter.h"
#include "roi-spell.h"
#include "roi-util.h"
#include <fnmatch.h>

enum effect { EFFECT_COUNT, EFFECT_HOOKS };
enum subject { SUBJECT_FUNCTION, SUBJECT_ASM, SUBJECT_FILE, SUBJECT_LOOP };

struct rule
{
  enum effect effect;
  bool include;
  enum subject subject;
  char *name;			/* the pattern; for loops, the FILE part */
  bool glob;
  unsigned loop_line;		/* loops: the LINE part */
  unsigned line;		/* where the rule is in the filter file */
  char *text;			/* the rule as written, for messages */
  bool matched;			/* it matched something in this unit */
};

static struct rule *rules;
static unsigned nrules;
static char *filter_path;
/* The C and assembler names of the functions of this unit the filter was asked about: what a
   rule that matched nothing may have meant.  */
static struct roi_strings seen_names, seen_asm_names;

bool
roi_filter_active (void)
{
  return filter_path != NULL;
}

/* One word of LINE starting at *COL (1-based), or NULL at the end.  */
static char *
next_word (const char *line, unsigned *col, unsigned *start)
{
  while (line[*col - 1] == ' ' || line[*col - 1] == '\t')
    (*col)++;
  if (!line[*col - 1] || line[*col - 1] == '#')
    return NULL;
  *start = *col;
  unsigned len = 0;
  while (line[*col - 1 + len] && line[*col - 1 + len] != ' '
	 && line[*col - 1 + len] != '\t')
    len++;
  *col += len;
  return xstrndup (line + *start - 1, len);
}

static bool
keyword (const char *word, const char *a)
{
  return strcasecmp (word, a) == 0;
}

static void
free_words (char **w, int n)
{
  for (int i = 0; i < n; i++)
    free (w[i]);
}

/* Every way out frees the words read so far: a compiler reads the filter once,
   but fuzz/filter.cc reads millions (it ran out of memory).  */
static bool
parse_rule (const char *path, unsigned lineno, const char *line, struct rule *r)
{
  unsigned col = 1, start = 1;
  char *w[4];
  static const char *const expected[4] = {
    "'count' or 'hooks'", "'include' or 'exclude'",
    "'function', 'asm', 'file' or 'loop'", "a name"
  };
  for (int i = 0; i < 4; i++)
    {
      w[i] = next_word (line, &col, &start);
      if (!w[i])
	{
	  error ("%s:%u:%u: expected %s", path, lineno, col, expected[i]);
	  free_words (w, i);
	  return false;
	}
      bool ok = true;
      if (i == 0)
	{
	  ok = keyword (w[0], "count") || keyword (w[0], "hooks");
	  r->effect = keyword (w[0], "count") ? EFFECT_COUNT : EFFECT_HOOKS;
	}
      else if (i == 1)
	{
	  ok = keyword (w[1], "include") || keyword (w[1], "exclude");
	  r->include = keyword (w[1], "include");
	}
      else if (i == 2)
	{
	  ok = keyword (w[2], "function") || keyword (w[2], "asm")
	       || keyword (w[2], "file") || keyword (w[2], "loop");
	  r->subject = keyword (w[2], "function") ? SUBJECT_FUNCTION
		       : keyword (w[2], "asm") ? SUBJECT_ASM
		       : keyword (w[2], "file") ? SUBJECT_FILE : SUBJECT_LOOP;
	}
      if (!ok)
	{
	  error ("%s:%u:%u: expected %s, got %qs", path, lineno, start,
		 expected[i], w[i]);
	  free_words (w, i + 1);
	  return false;
	}
    }
  unsigned name_col = start;
  char *extra = next_word (line, &col, &start);
  if (extra)
    {
      error ("%s:%u:%u: unexpected %qs after the name (one rule per line)",
	     path, lineno, start, extra);
      free (extra);
      free_words (w, 4);
      return false;
    }
  if (r->subject == SUBJECT_LOOP && r->effect == EFFECT_COUNT)
    {
      error ("%s:%u:%u: loop rules select hooks; counting is per function",
	     path, lineno, 1);
      free_words (w, 4);
      return false;
    }

  const char *name = w[3];
  r->glob = strncmp (name, "glob:", 5) == 0;
  if (r->glob)
    name += 5;
  if (!*name)
    {
      error ("%s:%u:%u: expected a pattern after %<glob:%>", path, lineno,
	     name_col + 5);
      free_words (w, 4);
      return false;
    }
  if (r->subject == SUBJECT_LOOP)
    {
      const char *colon = strrchr (name, ':');
      char *end = NULL;
      unsigned long l = colon ? strtoul (colon + 1, &end, 10) : 0;
      if (!colon || colon == name || !colon[1] || *end || l == 0)
	{
	  error ("%s:%u:%u: expected FILE:LINE for a loop, got %qs", path,
		 lineno, name_col, w[3]);
	  free_words (w, 4);
	  return false;
	}
      r->name = xstrndup (name, colon - name);
      r->loop_line = (unsigned) l;
    }
  else
    r->name = xstrdup (name);
  r->line = lineno;
  r->text = concat (w[0], " ", w[1], " ", w[2], " ", w[3], NULL);
  free_words (w, 4);
  return true;
}

/* The filter file, opened for reading when it is a regular file: opened
   without blocking, as a FIFO would hang the compiler, and a directory reads
   as an empty filter.  NULL after an error.  */
static FILE *
open_filter (const char *path)
{
  int fd = open (path, O_RDONLY | O_NONBLOCK);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      error ("cannot read the filter file %qs: %s", path, xstrerror (errno));
      if (fd >= 0)
	close (fd);
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      error ("cannot read the filter file %qs: %s", path,
	     S_ISDIR (st.st_mode) ? xstrerror (EISDIR) : "not a regular file");
      close (fd);
      return NULL;
    }
  FILE *f = fdopen (fd, "r");
  if (!f)
    {
      error ("cannot read the filter file %qs: %s", path, xstrerror (errno));
      close (fd);
    }
  return f;
}

/* Lines longer than this are refused, not cut.  */
#define MAX_LINE 4094

bool
roi_filter_load (const char *path)
{
  FILE *f = open_filter (path);
  if (!f)
    return false;
  filter_path = lrealpath (path);
  char *buf = NULL;
  size_t cap = 0;
  ssize_t got;
  unsigned lineno = 0;
  bool ok = true;
  while ((got = getline (&buf, &cap, f)) >= 0)
    {
      size_t len = (size_t) got;
      lineno++;
      if (len && buf[len - 1] == '\n')
	buf[--len] = '\0';
      if (len > MAX_LINE)
	{
	  error ("%s:%u:1: line longer than %u characters", path, lineno,
		 (unsigned) MAX_LINE);
	  ok = false;
	  break;
	}
      /* The rule is read as a C string: a NUL would cut it short there.  */
      const char *nul = (const char *) memchr (buf, '\0', len);
      if (nul)
	{
	  error ("%s:%u:%u: NUL byte", path, lineno,
		 (unsigned) (nul - buf) + 1);
	  ok = false;
	  continue;
	}
      if (len && buf[len - 1] == '\r')
	buf[--len] = '\0';
      unsigned col = 1, start = 1;
      char *first = next_word (buf, &col, &start);
      if (!first)
	continue;
      free (first);
      struct rule r;
      memset (&r, 0, sizeof r);
      if (!parse_rule (path, lineno, buf, &r))
	{
	  ok = false;
	  continue;
	}
      rules = XRESIZEVEC (struct rule, rules, nrules + 1);
      rules[nrules++] = r;
    }
  if (ferror (f))
    {
      error ("cannot read the filter file %qs: %s", path, xstrerror (errno));
      ok = false;
    }
  free (buf);
  fclose (f);
  return ok;
}

static bool
name_matches (const struct rule *r, const char *name)
{
  if (!name)
    return false;
  return r->glob ? fnmatch (r->name, name, 0) == 0 : strcmp (r->name, name) == 0;
}

/* A file rule matches the path as given to the compiler or its normalised
   absolute form, never a suffix of either.  */
static bool
file_matches (const struct rule *r, const char *file)
{
  if (!file)
    return false;
  if (name_matches (r, file))
    return true;
  char *abs_path = lrealpath (file);
  bool m = name_matches (r, abs_path);
  free (abs_path);
  return m;
}

/* The name as written in C: a clone's DECL_NAME carries GCC's suffix
   (".constprop.0"), which no C identifier can contain.  */
static char *
c_name (tree decl)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (decl));
  return xstrndup (name, strcspn (name, "."));
}

static bool
function_matches (struct rule *r, tree decl)
{
  bool m = false;
  if (r->subject == SUBJECT_FUNCTION)
    {
      char *name = c_name (decl);
      m = name_matches (r, name);
      roi_strings_intern (&seen_names, name);
      free (name);
    }
  else if (r->subject == SUBJECT_ASM)
    {
      const char *asm_name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
      m = name_matches (r, asm_name);
      roi_strings_intern (&seen_asm_names, asm_name);
    }
  else if (r->subject == SUBJECT_FILE)
    m = file_matches (r, DECL_SOURCE_FILE (decl));
  if (m)
    r->matched = true;
  return m;
}

/* The last matching rule of EFFECT decides; DEFAULT_IN without one.  */
static bool
decide (enum effect effect, tree decl, bool default_in, unsigned *rule_line)
{
  bool in = default_in;
  for (unsigned i = 0; i < nrules; i++)
    if (rules[i].effect == effect && rules[i].subject != SUBJECT_LOOP
	&& function_matches (&rules[i], decl))
      {
	in = rules[i].include;
	if (rule_line)
	  *rule_line = rules[i].line;
      }
  return in;
}

bool
roi_filter_counts (tree decl, unsigned *rule_line)
{
  *rule_line = 0;
  return decide (EFFECT_COUNT, decl, true, rule_line);
}

bool
roi_filter_hooks_function (tree decl)
{
  return decide (EFFECT_HOOKS, decl, false, NULL);
}

bool
roi_filter_hooks_loop (const char *file, unsigned line)
{
  bool in = false;
  for (unsigned i = 0; i < nrules; i++)
    if (rules[i].effect == EFFECT_HOOKS && rules[i].subject == SUBJECT_LOOP
	&& rules[i].loop_line == line && file_matches (&rules[i], file))
      {
	rules[i].matched = true;
	in = rules[i].include;
      }
  return in;
}

/* A rule naming a function that matched nothing here, but for a name of this unit one or two
   letters away, is almost surely a typo: say so while compiling, not only when estimating.  A
   name matching nothing with no such neighbour may be another unit's, and stays quiet here
   (roi estimate checks the whole program).  */
void
roi_filter_check_unmatched (void)
{
  for (unsigned i = 0; i < nrules; i++)
    {
      struct rule *r = &rules[i];
      const struct roi_strings *names = r->subject == SUBJECT_FUNCTION ? &seen_names
					: r->subject == SUBJECT_ASM ? &seen_asm_names : NULL;
      if (r->matched || r->glob || !names)
	continue;
      unsigned limit = roi_spell_limit (r->name), best_d = limit + 1;
      const char *best = NULL;
      for (unsigned k = 0; k < names->count; k++)
	{
	  unsigned d = roi_edit_distance (r->name, names->items[k], limit);
	  if (d < best_d)
	    {
	      best_d = d;
	      best = names->items[k];
	    }
	}
      if (best)
	warning_at (UNKNOWN_LOCATION, 0,
		    "%s:%u: rule %qs matched no function of this unit; did you mean %qs?",
		    filter_path, r->line, r->text, best);
    }
}

void
roi_filter_describe (struct roi_buf *b)
{
  if (!filter_path)
    return;
  roi_buf_add (b, ",\n\"filter\":{\"path\":");
  roi_buf_json_string (b, filter_path);
  roi_buf_add (b, ",\"rules\":[");
  for (unsigned i = 0; i < nrules; i++)
    {
      roi_buf_printf (b, "%s{\"line\":%u,\"text\":", i ? "," : "", rules[i].line);
      roi_buf_json_string (b, rules[i].text);
      roi_buf_printf (b, ",\"matched\":%s}", rules[i].matched ? "true" : "false");
    }
  roi_buf_add (b, "]}");
}
