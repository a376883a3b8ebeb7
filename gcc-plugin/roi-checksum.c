/* roi-checksum.c — the canonical text of roi-checksum.h and its CRC-32.
 *
 * Written in the C that is also C++11, with no allocation and nothing but
 * <stdio.h>, <string.h> and the runtime's CRC-32 (runtime/roi-crc32.h):
 * roi-meta.cc includes it after GCC's own headers (in gnu++11 for avr-gcc
 * 5.4's), estimator/input/checksum.c compiles it as C11.  */
#include <stdio.h>
#include <string.h>

#include "roi-checksum.h"
#include "../runtime/roi-crc32.h"

static void
add_text (struct roi_checksum *c, const char *text)
{
  c->crc = __roi_crc32 (c->crc, text, strlen (text));
}

/* S as its length, ':' and its bytes, or "-" when absent.  */
static void
add_string (struct roi_checksum *c, const char *s)
{
  char head[32];
  if (!s)
    {
      add_text (c, "-");
      return;
    }
  snprintf (head, sizeof head, "%lu:", (unsigned long) strlen (s));
  add_text (c, head);
  add_text (c, s);
}

/* " NAME S" of an operation's string field.  */
static void
add_field (struct roi_checksum *c, const char *name, const char *s)
{
  add_text (c, " ");
  add_text (c, name);
  add_text (c, " ");
  add_string (c, s);
}

/* " NAME N" of an operation's number or flag.  */
static void
add_number (struct roi_checksum *c, const char *name, long long n)
{
  char text[48];
  snprintf (text, sizeof text, " %s %lld", name, n);
  add_text (c, text);
}

void
roi_checksum_begin (struct roi_checksum *c, const char *asm_name)
{
  c->crc = 0;
  add_text (c, "asm ");
  add_string (c, asm_name);
  add_text (c, "\n");
}

void
roi_checksum_block (struct roi_checksum *c, bool labels, bool value, long long site)
{
  char text[64];
  snprintf (text, sizeof text, "block %d %d %lld\n", labels ? 1 : 0, value ? 1 : 0, site);
  add_text (c, text);
}

void
roi_checksum_succ (struct roi_checksum *c, long long to)
{
  char text[32];
  snprintf (text, sizeof text, "succ %lld\n", to);
  add_text (c, text);
}

void
roi_checksum_line (struct roi_checksum *c, unsigned long long file, unsigned long long line)
{
  char text[64];
  snprintf (text, sizeof text, "line %llu %llu\n", file, line);
  add_text (c, text);
}

void
roi_checksum_row (struct roi_checksum *c, unsigned long long file, unsigned long long line,
		  unsigned long long n, const struct roi_checksum_op *op)
{
  char text[80];
  snprintf (text, sizeof text, "row %llu %llu %llu", file, line, n);
  add_text (c, text);
  add_field (c, "kind", op->kind);
  add_field (c, "type", op->type);
  add_field (c, "ctype", op->ctype);
  add_field (c, "from", op->from);
  add_field (c, "from_ctype", op->from_ctype);
  add_field (c, "access", op->access);
  add_field (c, "operand", op->operand);
  add_field (c, "callee", op->callee);
  add_field (c, "code", op->code);
  add_number (c, "volatile", op->is_volatile);
  add_number (c, "direct", op->direct);
  add_number (c, "builtin", op->builtin);
  add_number (c, "internal", op->internal);
  add_number (c, "subscripts", op->subscripts);
  add_number (c, "promoted", op->promoted);
  add_number (c, "cases", op->cases);
  add_number (c, "bytes", op->bytes);
  add_text (c, "\n");
}

void
roi_checksum_fake (struct roi_checksum *c, long long block)
{
  char text[48];
  snprintf (text, sizeof text, "fake %lld\n", block);
  add_text (c, text);
}

void
roi_checksum_edge (struct roi_checksum *c, long long from, long long succ)
{
  char text[64];
  snprintf (text, sizeof text, "edge %lld %lld\n", from, succ);
  add_text (c, text);
}
