/* kernel-popcount-bits: bit manipulation on u8/u16/u32 words: population count three
 * ways (shift-and-test loop, Kernighan's x &= x - 1, and the SWAR add-and-mask tree),
 * parity, bit reversal and leading-zero count, cross-checked against each other.
 * Dense shifts, masks and data-dependent loops, as in bitmap and flag handling.  */
#include <stdint.h>

#define WORDS 40

volatile uint32_t in_seed = 0x9e3779b9UL;
volatile uint32_t sink;

static uint8_t pop_loop(uint32_t x)
{
	uint8_t n = 0;

	while (x) {
		n = (uint8_t) (n + (x & 1));
		x >>= 1;
	}
	return n;
}

static uint8_t pop_kernighan(uint16_t x)
{
	uint8_t n = 0;

	for (; x; n++)
		x &= (uint16_t) (x - 1);
	return n;
}

static uint8_t pop_swar(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555UL);
	x = (x & 0x33333333UL) + ((x >> 2) & 0x33333333UL);
	x = (x + (x >> 4)) & 0x0f0f0f0fUL;
	x = x + (x >> 8);
	x = x + (x >> 16);
	return (uint8_t) (x & 0x3f);
}

static uint8_t reverse8(uint8_t b)
{
	b = (uint8_t) ((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t) ((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t) ((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

static uint8_t clz16(uint16_t x)
{
	uint8_t n = 0;

	if (x == 0)
		return 16;
	while (!(x & 0x8000)) {
		x = (uint16_t) (x << 1);
		n++;
	}
	return n;
}

int main(void)
{
	uint32_t x = in_seed;
	uint32_t acc = 0;
	uint16_t mismatches = 0;
	uint8_t i;

	for (i = 0; i < WORDS; i++) {
		uint8_t a, b, parity;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if ((i & 7) == 0)
			x &= 0x00f000f0UL;	/* some sparse words */
		a = pop_loop(x);
		b = (uint8_t) (pop_kernighan((uint16_t) x) + pop_kernighan((uint16_t) (x >> 16)));
		if (a != b || a != pop_swar(x))
			mismatches++;
		parity = (uint8_t) (a & 1);
		acc += (uint32_t) reverse8((uint8_t) x) << 8 | clz16((uint16_t) (x >> 8));
		acc += parity;
		if (x == 0)
			x = 1;
	}

	sink = acc + ((uint32_t) mismatches << 24);
	return 0;
}
