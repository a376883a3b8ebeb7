/* input/checksum.h — the per-function checksum as roi recomputes it for every function it loads:
 * the plugin's definition (gcc-plugin/roi-checksum.h), with each operation's part of a row
 * prepared once instead of written out again for every row that names it. */
#ifndef ROI_INPUT_CHECKSUM_H
#define ROI_INPUT_CHECKSUM_H

#include <stdbool.h>
#include <stdint.h>

#include "../../gcc-plugin/roi-checksum.h"

/* What the text of an operation (roi_checksum_row_op) does to a CRC register: a CRC is linear over
 * GF(2), so feeding the same text to register s gives shift(s) XOR raw, where raw is what it
 * leaves from register 0 and shift multiplies s by x^(8 * the text's length) modulo the
 * polynomial (zlib's crc32_combine rests on the same property). */
struct roi_checksum_prepared {
	uint32_t raw, shift;
	bool ready;
};

void roi_checksum_prepare(struct roi_checksum_prepared *p, const struct roi_checksum_op *op);

/* roi_checksum_row, with the operation's part prepared. */
void roi_checksum_row_prepared(struct roi_checksum *c, unsigned long long file, unsigned long long line,
			       unsigned long long n, const struct roi_checksum_prepared *p);

#endif
