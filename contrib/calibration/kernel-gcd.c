/* kernel-gcd: greatest common divisors of 40 pairs of u16 and u32 numbers, by Euclid's
 * remainder loop and by the binary (Stein) method, checked against each other, then
 * least common multiples of the u16 pairs.  Remainder libcalls in a data-dependent
 * loop against shift-and-subtract: two ways firmware reduces ratios and timer periods.  */
#include <stdint.h>

#define PAIRS 40

volatile uint16_t in_seed = 31337;
volatile uint32_t sink;

static uint16_t gcd_euclid16(uint16_t a, uint16_t b)
{
	while (b) {
		uint16_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint32_t gcd_euclid32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static uint32_t gcd_binary32(uint32_t a, uint32_t b)
{
	uint8_t shift = 0;

	if (a == 0)
		return b;
	if (b == 0)
		return a;
	while (((a | b) & 1) == 0) {
		a >>= 1;
		b >>= 1;
		shift++;
	}
	while ((a & 1) == 0)
		a >>= 1;
	do {
		while ((b & 1) == 0)
			b >>= 1;
		if (a > b) {
			uint32_t t = a;

			a = b;
			b = t;
		}
		b -= a;
	} while (b);
	return a << shift;
}

int main(void)
{
	uint16_t x = in_seed;
	uint32_t acc = 0;
	uint16_t bad = 0;
	uint8_t i;

	for (i = 0; i < PAIRS; i++) {
		uint16_t a, b, g16;
		uint32_t la, lb;

		x = (uint16_t) (x * 25173u + 13849u);
		a = (uint16_t) ((x >> 4) * 12u);	/* many common factors */
		x = (uint16_t) (x * 25173u + 13849u);
		b = (uint16_t) ((x >> 4) * 18u + (i & 1));
		g16 = gcd_euclid16(a, b);
		la = (uint32_t) a * (uint32_t) (x | 1);
		lb = (uint32_t) b * 7u + a;
		if (gcd_euclid32(la, lb) != gcd_binary32(la, lb))
			bad++;
		acc += g16;
		if (g16)
			acc += (uint32_t) (a / g16) * b;	/* lcm(a, b) */
	}

	sink = acc + ((uint32_t) bad << 24);
	return 0;
}
