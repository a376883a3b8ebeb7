/* kernel-crc32: bitwise reflected CRC-32 (polynomial 0xEDB88320, as in Ethernet, zlib and
 * firmware image checks) over a 32-byte block; the first pass checks the standard check
 * value of "123456789" (0xCBF43926).  32-bit shifts and xors with a mask computed
 * from the low bit, the branch-free form.  */
#include <stdint.h>

#define LEN 32
#define PASSES 5

volatile uint8_t in_seed = 0xa5;
volatile uint32_t sink;

static uint32_t crc32(const uint8_t *data, uint8_t len)
{
	uint32_t crc = 0xffffffffUL;

	while (len--) {
		uint8_t bit;

		crc ^= *data++;
		for (bit = 0; bit < 8; bit++) {
			uint32_t mask = -(crc & 1);

			crc = (crc >> 1) ^ (0xedb88320UL & mask);
		}
	}
	return ~crc;
}

int main(void)
{
	uint8_t block[LEN];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i, pass;

	for (i = 0; i < 9; i++)
		block[i] = (uint8_t) ('1' + i);
	if (crc32(block, 9) != 0xcbf43926UL)
		acc = 0xdeadbeefUL;	/* wrong algorithm: show it in the sink */

	for (i = 0; i < LEN; i++) {
		seed = (uint8_t) (seed * 5 + 3);
		block[i] = seed;
	}
	for (pass = 0; pass < PASSES; pass++) {
		uint32_t crc = crc32(block, LEN);

		acc ^= crc;
		block[pass] = (uint8_t) crc;
	}

	sink = acc;
	return 0;
}
