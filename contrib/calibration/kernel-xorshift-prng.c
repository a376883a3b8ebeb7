/* kernel-xorshift-prng: Marsaglia's xorshift generators at 16 bits (7, 9, 8) and 32 bits
 * (13, 17, 5), drawing 300 numbers each, mapping them to a range without division
 * ((x * range) >> 16) and into 8 buckets, as for jitter, dithering and test patterns.
 * Constant shifts and xors at 16 and 32 bits, and a widening multiply.  */
#include <stdint.h>

#define DRAWS 300

volatile uint32_t in_seed32 = 2463534242UL;
volatile uint16_t in_seed16 = 1;
volatile uint32_t sink;

static uint16_t xorshift16(uint16_t *state)
{
	uint16_t x = *state;

	x ^= (uint16_t) (x << 7);
	x ^= (uint16_t) (x >> 9);
	x ^= (uint16_t) (x << 8);
	*state = x;
	return x;
}

static uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

int main(void)
{
	uint32_t s32 = in_seed32;
	uint16_t s16 = in_seed16;
	uint16_t buckets[8] = {0};
	uint32_t acc = 0;
	uint16_t i;

	for (i = 0; i < DRAWS; i++) {
		uint16_t a = xorshift16(&s16);
		uint32_t b = xorshift32(&s32);
		uint16_t dice = (uint16_t) (((uint32_t) a * 6u) >> 16);	/* 0..5 */

		buckets[b >> 29]++;
		buckets[a & 7]++;
		acc += dice;
		acc ^= b;
	}
	for (i = 0; i < 8; i++)
		acc += (uint32_t) buckets[i] << (i * 2);

	sink = acc;
	return 0;
}
