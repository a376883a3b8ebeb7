/* checksum.c — the per-function checksum of the metadata, the plugin's own implementation
 * (gcc-plugin/roi-checksum.c), compiled here as C: meta.c recomputes it from each record. An
 * operation's part of a row is prepared once per operation (checksum.h): a record has millions of
 * rows and a few hundred operations, and writing each row's text out cost more than parsing it. */
#include "../../gcc-plugin/roi-checksum.c"

#include "input/checksum.h"

#define CRC_POLY 0xedb88320u    /* reflected, as roi-crc32.h's table */

/* a * b modulo the polynomial, both reflected (x^0 is the top bit); a is not 0. zlib's multmodp. */
static uint32_t mult_mod_poly(uint32_t a, uint32_t b)
{
	uint32_t m = (uint32_t)1 << 31, p = 0;

	for (;;) {
		if (a & m) {
			p ^= b;
			if ((a & (m - 1)) == 0)
				break;
		}
		m >>= 1;
		b = b & 1 ? (b >> 1) ^ CRC_POLY : b >> 1;
	}
	return p;
}

/* The register the operation's text leaves from register `from` (a CRC value is the inverted
 * register). */
static uint32_t op_from(uint32_t from, const struct roi_checksum_op *op)
{
	struct roi_checksum c = {~from};

	roi_checksum_row_op(&c, op);
	return ~c.crc;
}

void roi_checksum_prepare(struct roi_checksum_prepared *p, const struct roi_checksum_op *op)
{
	p->raw = op_from(0, op);
	/* from the polynomial 1 (the top bit), the text leaves x^(8 * length) plus raw */
	p->shift = op_from((uint32_t)1 << 31, op) ^ p->raw;
	p->ready = true;
}

void roi_checksum_row_prepared(struct roi_checksum *c, unsigned long long file, unsigned long long line,
			       unsigned long long n, const struct roi_checksum_prepared *p)
{
	roi_checksum_row_head(c, file, line, n);
	c->crc = ~(mult_mod_poly(p->shift, ~c->crc) ^ p->raw);
}
