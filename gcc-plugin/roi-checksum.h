/* roi-checksum.h — a counted function's checksum, computed by the plugin when it
 * writes the function's metadata and again by the estimator from the record it
 * reads (docs/formats.md §1, "checksum"): one implementation, roi-checksum.c,
 * compiled into both (as C++ into roi.so by roi-meta.cc, as C11 into roi by
 * estimator/input/checksum.c), the way gcov-io.c is shared by GCC and its tools.
 *
 * The checksum is the CRC-32 (IEEE, as zlib and the gzip trailer compute it) of
 * a canonical text of what the function's counts mean: its assembler name and,
 * block by block in their order, the block's fields and the operations each
 * of its rows names, in full.  Each item is one line ending in '\n'; a string
 * is written as its length in bytes, ':' and its bytes (an absent one as "-"),
 * a number in decimal, a flag as 0 or 1:
 *
 *   asm NAME
 *   block LABELS VALUE SITE       per block; SITE: a value counter's "block", else -1
 *   succ TO                       per successor, in order (-1: the function's exit)
 *   line FILE LINE                per "lines" pair, in order
 *   row FILE LINE N kind S type S ctype S from S from_ctype S access S operand S
 *       callee S code S volatile B direct B builtin B internal B subscripts N
 *       promoted N cases N bytes N
 *                                 per "ops" row, in order, on one line: the
 *                                 operation is the op-table entry the row names
 *   fake B                        after the blocks, per entry of "fake", in order
 *   edge FROM SUCC                then per entry of "edges" (the counted edges)
 *
 * A function counted per block has no "fake" and no "edges" lines; one
 * counted on edges has, and the text without them, its "block checksum",
 * is what its checksum would be were it counted per block: a profile line
 * with that checksum holds one count per block (docs/formats.md §3).
 * "asm 4:main" is main's first line.  An operation's absent numbers are
 * written as the estimator reads them: subscripts and promoted 0, cases and
 * bytes -1.  The RTL pass's members (saved, frame, spills, far, adjust, jumps,
 * tables), the loops and the locations are not in it: they are known only
 * after the counters exist.  */
#ifndef ROI_CHECKSUM_H
#define ROI_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* An operation as the metadata's op table holds it; strings absent are NULL.  */
struct roi_checksum_op
{
  const char *kind, *type, *ctype, *from, *from_ctype, *access, *operand, *callee, *code;
  bool is_volatile, direct, builtin, internal;
  long long subscripts, promoted;	/* 0 when absent */
  long long cases, bytes;		/* -1 when absent */
};

/* The CRC so far; begin a function with roi_checksum_begin, then add its
   blocks in their order, each followed by its successors, lines and rows,
   then its fake edges and counted edges.  */
struct roi_checksum
{
  uint32_t crc;
};

void roi_checksum_begin (struct roi_checksum *c, const char *asm_name);
void roi_checksum_block (struct roi_checksum *c, bool labels, bool value, long long site);
void roi_checksum_succ (struct roi_checksum *c, long long to);
void roi_checksum_line (struct roi_checksum *c, unsigned long long file, unsigned long long line);
void roi_checksum_row (struct roi_checksum *c, unsigned long long file, unsigned long long line,
		       unsigned long long n, const struct roi_checksum_op *op);
/* roi_checksum_row in its two parts: the row's own numbers, then the text of
   the operation it names, the same for every row naming it (which lets roi
   compute that text's CRC once per operation).  */
void roi_checksum_row_head (struct roi_checksum *c, unsigned long long file, unsigned long long line,
			    unsigned long long n);
void roi_checksum_row_op (struct roi_checksum *c, const struct roi_checksum_op *op);
/* After every block: the blocks with a fake edge, then the counted edges.  */
void roi_checksum_fake (struct roi_checksum *c, long long block);
void roi_checksum_edge (struct roi_checksum *c, long long from, long long succ);

#endif /* ROI_CHECKSUM_H */
