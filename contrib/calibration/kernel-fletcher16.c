/* kernel-fletcher16: Fletcher-16 checksums (two running sums modulo 255) over a 128-byte
 * block: a direct version with % 255 on every byte and an optimised one with deferred
 * reduction by folding (x & 0xff) + (x >> 8), checked against each other and against
 * the standard value of "abcde" (0xC8F0).  8/16-bit adds, modulo by a constant, folds.  */
#include <stdint.h>
#include <string.h>

#define LEN 128
#define PASSES 3

volatile uint8_t in_seed = 0x71;
volatile uint32_t sink;

static uint16_t fletcher16_direct(const uint8_t *data, uint8_t len)
{
	uint16_t sum1 = 0, sum2 = 0;
	uint8_t i;

	for (i = 0; i < len; i++) {
		sum1 = (uint16_t) ((sum1 + data[i]) % 255);
		sum2 = (uint16_t) ((sum2 + sum1) % 255);
	}
	return (uint16_t) (sum2 << 8 | sum1);
}

static uint16_t fletcher16_folded(const uint8_t *data, uint8_t len)
{
	uint16_t sum1 = 0xff, sum2 = 0xff;

	while (len) {
		uint8_t chunk = len > 20 ? 20 : len;	/* sum2 stays below 2^16 */

		len = (uint8_t) (len - chunk);
		do {
			sum1 = (uint16_t) (sum1 + *data++);
			sum2 = (uint16_t) (sum2 + sum1);
		} while (--chunk);
		sum1 = (uint16_t) ((sum1 & 0xff) + (sum1 >> 8));
		sum2 = (uint16_t) ((sum2 & 0xff) + (sum2 >> 8));
	}
	sum1 = (uint16_t) ((sum1 & 0xff) + (sum1 >> 8));
	sum2 = (uint16_t) ((sum2 & 0xff) + (sum2 >> 8));
	if (sum1 == 255)
		sum1 = 0;
	if (sum2 == 255)
		sum2 = 0;
	return (uint16_t) (sum2 << 8 | sum1);
}

int main(void)
{
	uint8_t buf[LEN];
	uint8_t seed = in_seed;
	uint32_t acc = 0;
	uint8_t i, pass;

	memcpy(buf, "abcde", 5);
	if (fletcher16_direct(buf, 5) != 0xc8f0 || fletcher16_folded(buf, 5) != 0xc8f0)
		acc = 0xdeadbeefUL;	/* wrong algorithm: show it in the sink */

	for (i = 0; i < LEN; i++) {
		seed = (uint8_t) (seed * 37 + 101);
		buf[i] = seed;
	}
	for (pass = 0; pass < PASSES; pass++) {
		uint16_t direct = fletcher16_direct(buf, LEN);

		if (fletcher16_folded(buf, LEN) != direct)
			acc ^= 0x80000000UL;
		acc = (acc << 5) + direct;
		buf[pass * 7] ^= 0xff;
	}

	sink = acc;
	return 0;
}
