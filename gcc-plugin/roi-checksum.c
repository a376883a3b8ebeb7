/* roi-checksum.c — the canonical text of roi-checksum.h and its CRC-32.
 *
 * Written in the C that is also C++11, with no allocation and nothing but
 * <string.h> and the runtime's CRC-32 (runtime/roi-crc32.h):
 * roi-meta.cc includes it after GCC's own headers (in gnu++11 for avr-gcc
 * 5.4's), estimator/input/checksum.c compiles it as C11.  */
#include <string.h>

#include "roi-checksum.h"
#include "../runtime/roi-crc32.h"

static void
add_text (struct roi_checksum *c, const char *text)
{
  c->crc = __roi_crc32 (c->crc, text, strlen (text));
}

/* N in decimal, '-' first when negative: without printf, since roi
   computes this for every row of every function it loads.  */
static void
add_decimal (struct roi_checksum *c, unsigned long long n, bool negative)
{
  char text[24];
  size_t i = sizeof text;
  do
    text[--i] = (char) ('0' + n % 10);
  while ((n /= 10) != 0);
  if (negative)
    text[--i] = '-';
  c->crc = __roi_crc32 (c->crc, text + i, sizeof text - i);
}

static void
add_unsigned (struct roi_checksum *c, unsigned long long n)
{
  add_decimal (c, n, false);
}

static void
add_signed (struct roi_checksum *c, long long n)
{
  add_decimal (c, n < 0 ? 0ULL - (unsigned long long) n : (unsigned long long) n, n < 0);
}

/* S as its length, ':' and its bytes, or "-" when absent.  */
static void
add_string (struct roi_checksum *c, const char *s)
{
  if (!s)
    {
      add_text (c, "-");
      return;
    }
  add_unsigned (c, strlen (s));
  add_text (c, ":");
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
  add_text (c, " ");
  add_text (c, name);
  add_text (c, " ");
  add_signed (c, n);
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
  add_text (c, labels ? "block 1 " : "block 0 ");
  add_text (c, value ? "1 " : "0 ");
  add_signed (c, site);
  add_text (c, "\n");
}

void
roi_checksum_succ (struct roi_checksum *c, long long to)
{
  add_text (c, "succ ");
  add_signed (c, to);
  add_text (c, "\n");
}

void
roi_checksum_line (struct roi_checksum *c, unsigned long long file, unsigned long long line)
{
  add_text (c, "line ");
  add_unsigned (c, file);
  add_text (c, " ");
  add_unsigned (c, line);
  add_text (c, "\n");
}

void
roi_checksum_row_head (struct roi_checksum *c, unsigned long long file, unsigned long long line,
		       unsigned long long n)
{
  add_text (c, "row ");
  add_unsigned (c, file);
  add_text (c, " ");
  add_unsigned (c, line);
  add_text (c, " ");
  add_unsigned (c, n);
}

void
roi_checksum_row_op (struct roi_checksum *c, const struct roi_checksum_op *op)
{
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
roi_checksum_row (struct roi_checksum *c, unsigned long long file, unsigned long long line,
		  unsigned long long n, const struct roi_checksum_op *op)
{
  roi_checksum_row_head (c, file, line, n);
  roi_checksum_row_op (c, op);
}

void
roi_checksum_fake (struct roi_checksum *c, long long block)
{
  add_text (c, "fake ");
  add_signed (c, block);
  add_text (c, "\n");
}

void
roi_checksum_edge (struct roi_checksum *c, long long from, long long succ)
{
  add_text (c, "edge ");
  add_signed (c, from);
  add_text (c, " ");
  add_signed (c, succ);
  add_text (c, "\n");
}
